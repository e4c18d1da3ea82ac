/**
 * The shared sample rounding (core/src/audio/round-sample.ts) against `Math.round`, on the inputs
 * where `floor(x + 0.5)` could part from it: float32 samples at each full scale the project uses,
 * every half-integer product a scale can produce, their float32 neighbours, the clip edges, and
 * random bit patterns across the float32 range near full scale.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { roundClipped } from '../../core/src/audio/round-sample.ts';

/** The scales and clip ranges of the callers: built-in state, encoder stdin, fingerprint, 24-bit masters. */
const SCALES = [
  { scale: 32767, min: -32767, max: 32767 },
  { scale: 32767, min: -32768, max: 32767 },
  { scale: 32768, min: -32768, max: 32767 },
  { scale: 2 ** 23, min: -(2 ** 23), max: 2 ** 23 - 1 },
] as const;

const bits = new Uint32Array(1);
const asFloat = new Float32Array(bits.buffer);

/** The float32 just above and below `x` (itself a float32). */
function neighbours(x: number): [number, number] {
  asFloat[0] = x;
  const own = bits[0] as number;
  bits[0] = own + 1;
  const a = asFloat[0] as number;
  bits[0] = own - 1;
  const b = asFloat[0] as number;
  return [a, b];
}

function reference(x: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, Math.round(x))) + 0; // + 0 turns Math.round's -0 into 0, as an integer array would
}

function expectSame(sample: number, scale: number, min: number, max: number): void {
  const x = sample * scale;
  const got = roundClipped(x, min, max) + 0;
  const want = reference(x, min, max);
  if (got !== want) assert.fail(`sample ${sample} x ${scale}: floor(x + 0.5) gives ${got}, Math.round ${want}`);
}

describe('core: one rounding of samples to integers', () => {
  it('equals Math.round, clipped, on float32 samples at every full scale the project uses', () => {
    let checked = 0;
    // Random float32 bit patterns in [-2, 2] (exponents 0..128 of the float32 encoding).
    let state = 0x9e3779b9;
    const next = (): number => {
      state ^= state << 13;
      state ^= state >>> 17;
      state ^= state << 5;
      return state >>> 0;
    };
    for (let n = 0; n < 200_000; n += 1) {
      bits[0] = next() & 0xbfffffff; // clear the top exponent bit: |x| < 2
      const sample = asFloat[0] as number;
      for (const { scale, min, max } of SCALES) expectSame(sample, scale, min, max);
      checked += SCALES.length;
    }
    // Every product that is a half-integer, or the float32 samples nearest one, on a grid through the range.
    for (const { scale, min, max } of SCALES) {
      const stride = Math.max(1, Math.floor(scale / 60_000));
      for (let k = -scale - 2; k <= scale + 2; k += stride) {
        const half = Math.fround((k + 0.5) / scale);
        for (const sample of [half, ...neighbours(half), Math.fround(k / scale)]) {
          expectSame(sample, scale, min, max);
          checked += 1;
        }
      }
    }
    // The edges: zero, tiny values of both signs, full scale and just past it.
    for (const sample of [
      0,
      -0,
      1e-30,
      -1e-30,
      2 ** -149,
      -(2 ** -149),
      1,
      -1,
      Math.fround(1.0000001),
      -Math.fround(1.0000001),
      0.5,
      -0.5,
    ]) {
      for (const { scale, min, max } of SCALES) expectSame(sample, scale, min, max);
    }
    assert.ok(checked > 1_000_000, `${checked} inputs checked`);
  });

  it('rounds half up and clips to the range it is given', () => {
    assert.equal(roundClipped(2.5, -10, 10), 3);
    assert.equal(roundClipped(-2.5, -10, 10), -2);
    assert.equal(roundClipped(-2.5000001, -10, 10), -3);
    assert.equal(roundClipped(12, -10, 10), 10);
    assert.equal(roundClipped(-12, -10, 10), -10);
  });
});
