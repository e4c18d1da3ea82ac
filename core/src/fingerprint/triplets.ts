/**
 * Triplet landmarks of spectral peaks (./spectral-peaks.ts), after Six's Panako (peak triplets
 * whose frequency differences and time ratio are hashed) and Wang's landmarks: a peak p1 and
 * two later peaks p2, p3 within `MAX_SPAN_FRAMES` and `MAX_DF_BINS` of it make a hash of
 *
 * - k2 − k1 and k3 − k1 on the log-frequency axis: a pitch change moves all three bins alike,
 *   so the differences stay;
 * - (t2 − t1) / (t3 − t1) quantised to `RATIO_LEVELS`: a tempo change stretches both alike;
 * - k1's register (`REGISTER_BINS` wide): coarse enough that a semitone seldom moves it;
 * - the span t3 − t1 in octaves (`SPAN_CLASSES`): coarse enough that a tempo change of 5%
 *   seldom moves it.
 *
 * Beside the hash a triplet keeps where it is (t1, k1) and its span t3 − t1: two triplets with
 * one hash give the stretch (span ratio) and the pitch shift (k1 difference) of a copy, and the
 * matcher (./landmark-match.ts) votes on them.
 *
 * The registry stores triplets of the strongest peaks with a small fan-out (`REGISTER`), a query
 * makes them from more peaks with a larger one (`QUERY`): whatever a copy adds between the
 * registered peaks, the registered triplets are among the query's.
 */
import type { Peak } from './spectral-peaks.ts';
import { LOG_BINS } from './log-spectrogram.ts';

export const MIN_DT_FRAMES = 3;
export const MAX_SPAN_FRAMES = 90;
export const MAX_DF_BINS = 32;
export const RATIO_LEVELS = 12;
export const REGISTER_BINS = 24;
/** Span classes: [MIN, 2·MIN), [2·MIN, 4·MIN), … up to MAX_SPAN_FRAMES. */
export const SPAN_CLASSES = Math.ceil(Math.log2(MAX_SPAN_FRAMES / (2 * MIN_DT_FRAMES))) + 1;

export interface TripletDensity {
  /** Peaks kept per second (the strongest). */
  peaksPerSecond: number;
  /** Later peaks each p1 pairs with. */
  fanout: number;
}

export const REGISTER: TripletDensity = { peaksPerSecond: 8, fanout: 3 };
export const QUERY: TripletDensity = { peaksPerSecond: 10, fanout: 6 };

export interface Triplets {
  hash: Int32Array;
  /** t1, frames. */
  t: Int32Array;
  /** t3 − t1, frames. */
  span: Uint8Array;
  /** k1, log bin. */
  k: Uint8Array;
}

const DF_VALUES = 2 * MAX_DF_BINS + 1;
const REGISTERS = Math.ceil(LOG_BINS / REGISTER_BINS);
/** Distinct hashes: every (df1, df2, ratio, register). */
export const HASH_SPACE = DF_VALUES * DF_VALUES * RATIO_LEVELS * REGISTERS * SPAN_CLASSES;

export function tripletHash(p1: Peak, p2: Peak, p3: Peak): number {
  const ratio = Math.min(RATIO_LEVELS - 1, Math.floor(((p2.t - p1.t) / (p3.t - p1.t)) * RATIO_LEVELS));
  const register = Math.floor(p1.k / REGISTER_BINS);
  const span = Math.min(SPAN_CLASSES - 1, Math.floor(Math.log2((p3.t - p1.t) / (2 * MIN_DT_FRAMES))));
  const shape = ((p2.k - p1.k + MAX_DF_BINS) * DF_VALUES + (p3.k - p1.k + MAX_DF_BINS)) * RATIO_LEVELS + ratio;
  return (shape * REGISTERS + register) * SPAN_CLASSES + span;
}

/**
 * The bin differences a triplet's hash holds (the layout of `tripletHash`): k2 − k1 and k3 − k1.
 * With a registered triplet's t1, k1 and span they place its three peaks (p2 by its bin only).
 */
export function tripletBinDifferences(hash: number): { second: number; third: number } {
  const shape = Math.floor(Math.floor(Math.floor(hash / SPAN_CLASSES) / REGISTERS) / RATIO_LEVELS);
  return { second: Math.floor(shape / DF_VALUES) - MAX_DF_BINS, third: (shape % DF_VALUES) - MAX_DF_BINS };
}

/** The triplets of `peaks` (time order) with `fanout` later peaks per p1. */
export function makeTriplets(peaks: readonly Peak[], fanout: number): Triplets {
  const hash: number[] = [];
  const t: number[] = [];
  const span: number[] = [];
  const k: number[] = [];
  const later: Peak[] = [];
  for (let i = 0; i < peaks.length; i += 1) {
    const p1 = peaks[i] as Peak;
    later.length = 0;
    for (let j = i + 1; j < peaks.length && later.length < fanout; j += 1) {
      const p = peaks[j] as Peak;
      if (p.t - p1.t > MAX_SPAN_FRAMES) break;
      if (p.t - p1.t >= MIN_DT_FRAMES && Math.abs(p.k - p1.k) <= MAX_DF_BINS) later.push(p);
    }
    for (let a = 0; a < later.length; a += 1) {
      for (let b = a + 1; b < later.length; b += 1) {
        const p2 = later[a] as Peak;
        const p3 = later[b] as Peak;
        if (p3.t - p2.t < MIN_DT_FRAMES) continue;
        hash.push(tripletHash(p1, p2, p3));
        t.push(p1.t);
        span.push(p3.t - p1.t);
        k.push(p1.k);
      }
    }
  }
  return { hash: Int32Array.from(hash), t: Int32Array.from(t), span: Uint8Array.from(span), k: Uint8Array.from(k) };
}
