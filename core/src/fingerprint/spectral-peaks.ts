/**
 * Spectral peaks of the log spectrogram (./log-spectrogram.ts), the landmark fingerprint's
 * events: a point (frame t, log bin k) that is the largest in its neighbourhood of ±`PEAK_FRAMES`
 * frames and ±`PEAK_BINS` bins, at least `MIN_CONTRAST_DB` above the mean of its frame's
 * surrounding octave (its contrast: the strength that ranks it, indifferent to EQ that tilts
 * whole octaves), and above a floor of silence. Found while frames stream in (a ring of
 * 2·PEAK_FRAMES + 1 frames), so a long upload is never held whole.
 *
 * `strongestPeaks` keeps the `perSecond` strongest of each second: the registry stores triplets
 * of the few strongest (./triplets.ts), a query makes them from more, so that a copy's
 * additions (a voice, noise) push none of the registered peaks out.
 */
import { FRAME_SECONDS, LOG_BINS } from './log-spectrogram.ts';

export const PEAK_FRAMES = 8;
export const PEAK_BINS = 6;
export const MIN_CONTRAST_DB = 6;
/** Bins either side of a peak over which its frame's mean is taken (an octave in all). */
const CONTRAST_BINS = 12;
/** A peak under this many dB (power re full-scale samples) is silence. */
const FLOOR_DB = -30;

export interface Peak {
  /** Frame index (FRAME_SECONDS apart). */
  t: number;
  /** Log bin (./log-spectrogram.ts). */
  k: number;
  /** dB above its octave's mean in its frame. */
  contrast: number;
}

/**
 * Each bin's mean over its frame's octave around it (±`CONTRAST_BINS` bins, cut at the band's
 * edges): what a peak's contrast is measured against, here and in an upload's contrast image
 * (./contrast-image.ts). `prefix` is scratch of `LOG_BINS` + 1.
 */
export function octaveMeans(db: Float32Array, prefix: Float64Array, out: Float32Array | Float64Array): void {
  prefix[0] = 0;
  for (let k = 0; k < LOG_BINS; k += 1) prefix[k + 1] = (prefix[k] as number) + (db[k] as number);
  for (let k = 0; k < LOG_BINS; k += 1) {
    const a = Math.max(0, k - CONTRAST_BINS);
    const b = Math.min(LOG_BINS, k + CONTRAST_BINS + 1);
    out[k] = ((prefix[b] as number) - (prefix[a] as number)) / (b - a);
  }
}

export interface PeakFinder {
  /** The next frame's log spectrum (copied). */
  frame(t: number, db: Float32Array): void;
  /** All peaks found, in time order, once the last frame is in. */
  finish(): Peak[];
}

export function createPeakFinder(): PeakFinder {
  const span = 2 * PEAK_FRAMES + 1;
  const ring = Array.from({ length: span }, () => new Float32Array(LOG_BINS).fill(-Infinity));
  // Each frame's running max over ±PEAK_BINS, and its octave mean per bin.
  const ringMax = Array.from({ length: span }, () => new Float32Array(LOG_BINS).fill(-Infinity));
  const ringMean = Array.from({ length: span }, () => new Float32Array(LOG_BINS));
  const prefix = new Float64Array(LOG_BINS + 1);
  // The running max over ±PEAK_BINS by van Herk's method: the frame padded with -Infinity so that
  // every window spans 2·PEAK_BINS + 1 slots, cut into blocks of that width; a window's max is
  // the max from its start to its block's end and from its end's block start to its end (3
  // comparisons a bin, where scanning each window took 13).
  const width = 2 * PEAK_BINS + 1;
  const padded = Math.ceil((LOG_BINS + 2 * PEAK_BINS) / width) * width;
  const fromStart = new Float32Array(padded);
  const toEnd = new Float32Array(padded);
  const peaks: Peak[] = [];
  let last = -1;

  const examine = (c: number): void => {
    if (c < 0) return;
    const row = ring[c % span] as Float32Array;
    const rowMax = ringMax[c % span] as Float32Array;
    const rowMean = ringMean[c % span] as Float32Array;
    for (let k = 0; k < LOG_BINS; k += 1) {
      const v = row[k] as number;
      if (v !== rowMax[k] || v < FLOOR_DB) continue;
      const contrast = v - (rowMean[k] as number);
      if (contrast < MIN_CONTRAST_DB) continue;
      let isPeak = true;
      for (let d = -PEAK_FRAMES; d <= PEAK_FRAMES && isPeak; d += 1) {
        const t = c + d;
        if (d === 0 || t < 0 || t > last) continue;
        const other = (ringMax[t % span] as Float32Array)[k] as number;
        // Ties go to the earlier frame, so a flat top yields one peak.
        if (other > v || (other === v && d < 0)) isPeak = false;
      }
      if (isPeak) peaks.push({ t: c, k, contrast });
    }
  };

  return {
    frame(t, db) {
      const slot = t % span;
      (ring[slot] as Float32Array).set(db);
      const rowMax = ringMax[slot] as Float32Array;
      const rowMean = ringMean[slot] as Float32Array;
      octaveMeans(db, prefix, rowMean);
      // Slot j holds bin j - PEAK_BINS.
      for (let start = 0; start < padded; start += width) {
        let m = -Infinity;
        for (let j = start; j < start + width; j += 1) {
          const bin = j - PEAK_BINS;
          const v = bin >= 0 && bin < LOG_BINS ? (db[bin] as number) : -Infinity;
          if (v > m) m = v;
          fromStart[j] = m;
        }
        m = -Infinity;
        for (let j = start + width - 1; j >= start; j -= 1) {
          const bin = j - PEAK_BINS;
          const v = bin >= 0 && bin < LOG_BINS ? (db[bin] as number) : -Infinity;
          if (v > m) m = v;
          toEnd[j] = m;
        }
      }
      for (let k = 0; k < LOG_BINS; k += 1) {
        // The window of bin k is slots k … k + 2·PEAK_BINS.
        const a0 = toEnd[k] as number;
        const b0 = fromStart[k + width - 1] as number;
        rowMax[k] = a0 > b0 ? a0 : b0;
      }
      last = t;
      examine(t - PEAK_FRAMES);
    },
    finish() {
      for (let c = Math.max(0, last - PEAK_FRAMES + 1); c <= last; c += 1) examine(c);
      return peaks;
    },
  };
}

/** Frames in one selection block (a second). */
const BLOCK_FRAMES = Math.round(1 / FRAME_SECONDS);

/** Whether `a` ranks above `b`: higher contrast, then earlier, then lower bin. */
const ranksAbove = (a: Peak, b: Peak): boolean =>
  a.contrast > b.contrast || (a.contrast === b.contrast && (a.t < b.t || (a.t === b.t && a.k < b.k)));

/**
 * The `perSecond` peaks of highest contrast in each second, in time order (ties: lower bin).
 * Each second's best are kept by insertion into a short ranked list, not by sorting the second:
 * a lookup makes the registered triplets of its candidates again from their peaks, a minute of
 * them at a time.
 */
export function strongestPeaks(peaks: readonly Peak[], perSecond: number): Peak[] {
  const out: Peak[] = [];
  const best: Peak[] = [];
  let start = 0;
  while (start < peaks.length) {
    const block = Math.floor((peaks[start] as Peak).t / BLOCK_FRAMES);
    let end = start;
    while (end < peaks.length && Math.floor((peaks[end] as Peak).t / BLOCK_FRAMES) === block) end += 1;
    best.length = 0;
    for (let i = start; i < end; i += 1) {
      const peak = peaks[i] as Peak;
      if (best.length === perSecond && !ranksAbove(peak, best[perSecond - 1] as Peak)) continue;
      let at = best.length === perSecond ? perSecond - 1 : best.length;
      while (at > 0 && ranksAbove(peak, best[at - 1] as Peak)) {
        best[at] = best[at - 1] as Peak;
        at -= 1;
      }
      best[at] = peak;
    }
    out.push(...best.sort((a, b) => a.t - b.t || a.k - b.k));
    start = end;
  }
  return out;
}
