/**
 * IEEE 754 half precision at the boundary of an fp16 graph (the Hub's `onnx_fp16/` exports take
 * and give float16): onnxruntime-node holds float16 tensors as the raw bits in a Uint16Array, and
 * the backend computes in float32. Rounding is to nearest, ties to even, as a float32 -> float16
 * cast in ONNX Runtime and numpy.
 */

const view = new DataView(new ArrayBuffer(4));

function halfBits(x: number): number {
  view.setFloat32(0, x);
  const bits = view.getUint32(0);
  const sign = (bits >>> 16) & 0x8000;
  const exponent = (bits >>> 23) & 0xff;
  const mantissa = bits & 0x7fffff;
  if (exponent === 0xff) return sign | 0x7c00 | (mantissa === 0 ? 0 : 0x200); // infinity, NaN
  const e = exponent - 127 + 15;
  if (e >= 0x1f) return sign | 0x7c00; // overflows to infinity
  if (e <= 0) {
    if (e < -10) return sign; // underflows to zero
    // Subnormal: the implicit 1 joins the mantissa, shifted right by 1 - e more places.
    const m = mantissa | 0x800000;
    const shift = 14 - e;
    const half = 1 << (shift - 1);
    const rest = m & ((1 << shift) - 1);
    let out = m >>> shift;
    if (rest > half || (rest === half && (out & 1) === 1)) out += 1;
    return sign | out;
  }
  let out = (e << 10) | (mantissa >>> 13);
  const rest = mantissa & 0x1fff;
  // A carry out of the mantissa correctly bumps the exponent (and reaches infinity at the top).
  if (rest > 0x1000 || (rest === 0x1000 && (out & 1) === 1)) out += 1;
  return sign | out;
}

function halfValue(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exponent = (h >>> 10) & 0x1f;
  const mantissa = h & 0x3ff;
  if (exponent === 0) return sign * mantissa * 2 ** -24;
  if (exponent === 0x1f) return mantissa === 0 ? sign * Infinity : Number.NaN;
  return sign * (1 + mantissa / 1024) * 2 ** (exponent - 15);
}

export function toFloat16(values: ArrayLike<number>): Uint16Array {
  const out = new Uint16Array(values.length);
  for (let i = 0; i < values.length; i += 1) out[i] = halfBits(values[i] ?? 0);
  return out;
}

export function fromFloat16(bits: ArrayLike<number>): Float32Array {
  const out = new Float32Array(bits.length);
  for (let i = 0; i < bits.length; i += 1) out[i] = halfValue(bits[i] ?? 0);
  return out;
}
