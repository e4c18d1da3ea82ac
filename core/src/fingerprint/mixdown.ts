/**
 * The fingerprints' down-mix: the mean of a block's channels, into a buffer the caller reuses.
 * Chromaprint's rule (AcoustID's `fpcalc` averages the channels), shared by every fingerprint so
 * that they read the same mono samples.
 */

/** Writes the mean of `block`'s channels (equal lengths) into `out` (at least as long); returns the view written. */
export function mixDown(block: readonly Float32Array[], out: Float32Array): Float32Array {
  const length = block[0]?.length ?? 0;
  const mono = out.subarray(0, length);
  if (block.length === 2) {
    const left = block[0] as Float32Array;
    const right = block[1] as Float32Array;
    for (let i = 0; i < length; i += 1) mono[i] = ((left[i] as number) + (right[i] as number)) * 0.5;
    return mono;
  }
  const scale = 1 / block.length;
  for (let i = 0; i < length; i += 1) {
    let sum = 0;
    for (const channel of block) sum += channel[i] as number;
    mono[i] = sum * scale;
  }
  return mono;
}
