/**
 * The power spectrum of a real frame (length a power of two): a complex FFT of half the length
 * over the even/odd samples packed as real/imaginary parts, then the split step that separates
 * the two halves' spectra (the textbook real-input FFT), in double precision.
 */

export interface PowerSpectrum {
  /** Frame length (a power of two, at least 4). */
  readonly size: number;
  /**
   * Writes |X[k]|² for k = 0 … size/2 of `frame` (length `size`) into `out` (length size/2 + 1).
   * Reuses internal buffers: one call at a time.
   */
  compute(frame: Float64Array, out: Float64Array): void;
}

export function createPowerSpectrum(size: number): PowerSpectrum {
  if (size < 4 || (size & (size - 1)) !== 0) throw new RangeError(`FFT size ${size} is not a power of two of at least 4`);
  const half = size / 2;
  const bits = Math.log2(half);
  const reverse = new Uint32Array(half);
  for (let i = 0; i < half; i += 1) {
    let r = 0;
    for (let b = 0; b < bits; b += 1) r |= ((i >> b) & 1) << (bits - 1 - b);
    reverse[i] = r;
  }
  // Twiddles of the half-length complex FFT, and of the split step (e^{-2πik/size}).
  const stageCos: Float64Array[] = [];
  const stageSin: Float64Array[] = [];
  for (let length = 4; length <= half; length <<= 1) {
    const span = length >> 1;
    const c = new Float64Array(span);
    const s = new Float64Array(span);
    for (let j = 0; j < span; j += 1) {
      c[j] = Math.cos((2 * Math.PI * j) / length);
      s[j] = -Math.sin((2 * Math.PI * j) / length);
    }
    stageCos.push(c);
    stageSin.push(s);
  }
  const cosFull = new Float64Array(half);
  const sinFull = new Float64Array(half);
  for (let k = 0; k < half; k += 1) {
    cosFull[k] = Math.cos((2 * Math.PI * k) / size);
    sinFull[k] = -Math.sin((2 * Math.PI * k) / size);
  }
  const re = new Float64Array(half);
  const im = new Float64Array(half);

  return {
    size,
    compute(frame, out) {
      for (let i = 0; i < half; i += 1) {
        const r = reverse[i] as number;
        re[r] = frame[2 * i] as number;
        im[r] = frame[2 * i + 1] as number;
      }
      // The first radix-2 stage (length 2) needs no twiddle; the rest read their own table.
      for (let a = 0; a < half; a += 2) {
        const ar = re[a] as number;
        const ai = im[a] as number;
        const br = re[a + 1] as number;
        const bi = im[a + 1] as number;
        re[a] = ar + br;
        im[a] = ai + bi;
        re[a + 1] = ar - br;
        im[a + 1] = ai - bi;
      }
      // Radix-2 stages, two at a time where two are left: each group of four values is read and
      // written once for both stages instead of once per stage, with each value's arithmetic as
      // the single stages do it (the same twiddles, the same order), so the result is the same
      // to the bit; a third fewer passes over the arrays.
      let length = 4;
      let stage = 0;
      for (; 2 * length <= half; length <<= 2, stage += 2) {
        const span = length >> 1;
        const w1r = stageCos[stage] as Float64Array;
        const w1i = stageSin[stage] as Float64Array;
        const w2r = stageCos[stage + 1] as Float64Array;
        const w2i = stageSin[stage + 1] as Float64Array;
        for (let start = 0; start < half; start += 2 * length) {
          for (let j = 0; j < span; j += 1) {
            const a = start + j;
            const b = a + span;
            const c = a + length;
            const d = c + span;
            const c1 = w1r[j] as number;
            const s1 = w1i[j] as number;
            // The first stage on (a, b) and on (c, d).
            let br = re[b] as number;
            let bi = im[b] as number;
            let tr = br * c1 - bi * s1;
            let ti = br * s1 + bi * c1;
            let ar = re[a] as number;
            let ai = im[a] as number;
            const a1r = ar + tr;
            const a1i = ai + ti;
            const b1r = ar - tr;
            const b1i = ai - ti;
            br = re[d] as number;
            bi = im[d] as number;
            tr = br * c1 - bi * s1;
            ti = br * s1 + bi * c1;
            ar = re[c] as number;
            ai = im[c] as number;
            const c1r = ar + tr;
            const c1i = ai + ti;
            const d1r = ar - tr;
            const d1i = ai - ti;
            // The second stage on (a, c) with twiddle j and on (b, d) with twiddle j + span.
            let c2 = w2r[j] as number;
            let s2 = w2i[j] as number;
            tr = c1r * c2 - c1i * s2;
            ti = c1r * s2 + c1i * c2;
            re[c] = a1r - tr;
            im[c] = a1i - ti;
            re[a] = a1r + tr;
            im[a] = a1i + ti;
            c2 = w2r[j + span] as number;
            s2 = w2i[j + span] as number;
            tr = d1r * c2 - d1i * s2;
            ti = d1r * s2 + d1i * c2;
            re[d] = b1r - tr;
            im[d] = b1i - ti;
            re[b] = b1r + tr;
            im[b] = b1i + ti;
          }
        }
      }
      for (; length <= half; length <<= 1, stage += 1) {
        const span = length >> 1;
        const wr = stageCos[stage] as Float64Array;
        const wi = stageSin[stage] as Float64Array;
        for (let start = 0; start < half; start += length) {
          for (let j = 0; j < span; j += 1) {
            const a = start + j;
            const b = a + span;
            const br = re[b] as number;
            const bi = im[b] as number;
            const c = wr[j] as number;
            const d = wi[j] as number;
            const tr = br * c - bi * d;
            const ti = br * d + bi * c;
            const ar = re[a] as number;
            const ai = im[a] as number;
            re[b] = ar - tr;
            im[b] = ai - ti;
            re[a] = ar + tr;
            im[a] = ai + ti;
          }
        }
      }
      // Z = FFT(even + i·odd): X[k] = (Z[k] + conj Z[N/2-k]) / 2 + e^{-2πik/N} (Z[k] - conj Z[N/2-k]) / 2i.
      const dc = (re[0] as number) + (im[0] as number);
      const nyquist = (re[0] as number) - (im[0] as number);
      out[0] = dc * dc;
      out[half] = nyquist * nyquist;
      for (let k = 1; k < half; k += 1) {
        const zr = re[k] as number;
        const zi = im[k] as number;
        const cr = re[half - k] as number;
        const ci = -(im[half - k] as number);
        const er = (zr + cr) / 2;
        const ei = (zi + ci) / 2;
        // (Z[k] - conj Z[N/2-k]) / 2i = (dr + i·di) / 2i = (di - i·dr) / 2
        const dr = zr - cr;
        const di = zi - ci;
        const or = di / 2;
        const oi = -dr / 2;
        const wr = cosFull[k] as number;
        const wi = sinFull[k] as number;
        const xr = er + or * wr - oi * wi;
        const xi = ei + or * wi + oi * wr;
        out[k] = xr * xr + xi * xi;
      }
    },
  };
}
