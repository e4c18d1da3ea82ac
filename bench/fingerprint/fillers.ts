/**
 * Registered fingerprints to fill the bench's registry to 100,000 songs. Rendering and
 * fingerprinting 100,000 songs (833 hours of audio at 30 s each) does not fit a bench run, so the
 * rest are drawn from a model of the real ones: each bit's share of ones and its chance to change
 * between consecutive items, measured on the bench's own songs, and their lengths. They have the
 * dynamics of real fingerprints (held bits, changes per item) and terms that are mostly their own,
 * as distinct recordings' are; they do not have the built-in model's habit of sharing chords
 * between songs (which the bench's 200 real songs, registered among them, do have).
 */

export interface BitModel {
  /** Share of items with bit b set. */
  ones: Float64Array;
  /** Chance that bit b differs between consecutive items. */
  flips: Float64Array;
  lengths: number[];
}

export function fitBitModel(fingerprints: readonly Uint32Array[]): BitModel {
  const ones = new Float64Array(32);
  const flips = new Float64Array(32);
  let items = 0;
  let pairs = 0;
  for (const fp of fingerprints) {
    for (let i = 0; i < fp.length; i += 1) {
      const item = fp[i] as number;
      for (let b = 0; b < 32; b += 1) if ((item >>> b) & 1) ones[b] = (ones[b] as number) + 1;
      items += 1;
      if (i === 0) continue;
      const changed = (item ^ (fp[i - 1] as number)) >>> 0;
      for (let b = 0; b < 32; b += 1) if ((changed >>> b) & 1) flips[b] = (flips[b] as number) + 1;
      pairs += 1;
    }
  }
  for (let b = 0; b < 32; b += 1) {
    ones[b] = (ones[b] as number) / Math.max(1, items);
    flips[b] = (flips[b] as number) / Math.max(1, pairs);
  }
  return { ones, flips, lengths: fingerprints.map((fp) => fp.length) };
}

/**
 * One filler fingerprint: each bit a two-state chain whose share of ones and flip rate are the
 * measured ones (set with chance f / 2(1 - p) when clear, cleared with chance f / 2p when set).
 */
export function drawFiller(model: BitModel, random: () => number): Uint32Array {
  const length = model.lengths[Math.floor(random() * model.lengths.length)] ?? 220;
  const setRate = new Float64Array(32);
  const clearRate = new Float64Array(32);
  for (let b = 0; b < 32; b += 1) {
    const p = Math.min(0.99, Math.max(0.01, model.ones[b] as number));
    const f = model.flips[b] as number;
    setRate[b] = Math.min(1, f / (2 * (1 - p)));
    clearRate[b] = Math.min(1, f / (2 * p));
  }
  const out = new Uint32Array(length);
  let item = 0;
  for (let b = 0; b < 32; b += 1) if (random() < (model.ones[b] as number)) item |= 1 << b;
  for (let i = 0; i < length; i += 1) {
    if (i > 0) {
      for (let b = 0; b < 32; b += 1) {
        const set = ((item >>> b) & 1) === 1;
        if (random() < ((set ? clearRate[b] : setRate[b]) as number)) item ^= 1 << b;
      }
    }
    out[i] = item >>> 0;
  }
  return out;
}
