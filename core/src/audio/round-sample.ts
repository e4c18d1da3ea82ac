/**
 * The one rounding of scaled float samples to integer PCM that every path shares: the built-in
 * model's 16-bit kept state, a song's 24-bit PCM hash and masters, the fingerprint's 16-bit input
 * and the native encoders' 16-bit stdin.
 *
 * `Math.floor(x + 0.5)` instead of `Math.round(x)`: V8 runs it two to three times faster (about
 * 2 against 4-5 ns here), and a 240 s song rounds its 23 million samples several times on the way
 * to `completed`. Both round half up, and they agree on every float32 sample times a full scale of
 * up to 2^23: such a product has at most 39 significant bits, so `x + 0.5` is exact wherever the
 * result can differ from 0 (test/core/round-sample.test.ts checks it against `Math.round`).
 * `Math.min`/`Math.max` clip faster than comparisons.
 */

/** `scaled` rounded half up (as `Math.round`), then clipped to `[min, max]`. */
export function roundClipped(scaled: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, Math.floor(scaled + 0.5)));
}
