/**
 * Evidence on an upload's spectrogram for a candidate the landmark lookup aligned with fewer
 * votes than a match needs (docs/fingerprints.md, "Evidence on the upload's spectrogram"). A copy
 * transposed or slowed loses the upload's peaks where the registered sound had them, but not its
 * energy there: the upload's contrast image (./contrast-image.ts) still stands out where the
 * registered sound's stored peaks fall under the alignment the few votes found, and not where
 * they fall with the alignment moved in time or in pitch.
 *
 * The statistic (`segmentMedian`): the registered sound's stored peaks in the aligned window (from
 * `PAD_SECONDS` before the first agreeing triplet to `PAD_SECONDS` after the end of the larger of
 * the agreeing span and `WINDOW_SECONDS`), without the peaks of the triplets that voted (they
 * were chosen for agreeing), split by registered time into `SEGMENT_SECONDS` segments. Each
 * segment holding `MIN_SEGMENT_PEAKS` is scored on its own: the mean contrast of the upload at
 * its peaks, as a z-score against the same peaks under each of `TIME_MOVES` and, apart, under
 * each of `PITCH_MOVES`; the smaller of the two z. The statistic is the median over the segments
 * (`MIN_SEGMENTS` or more): one passage that two tracks share by chance (a key and a beat) cannot
 * carry it. A candidate of `EVIDENCE_MIN_VOTES` votes or more whose statistic reaches
 * `EVIDENCE_MIN_MEDIAN` is held by the upload (./registry.ts `findEarlierClaim`).
 *
 * Calibrated on real music (217 tracks of six Debian soundtracks): none of 349,000 random
 * alignments of distinct tracks reaches 2.0, nor any chance candidate of 5 to 9 votes 1.6; the
 * weak copies of the held-out run reach 2.6 to 5.7. Judged also at the direct alignment over
 * every hash a query shares (./registry.ts `heldOnEvidence`), 1,938 chance candidates of 84
 * whole tracks (every ordered pair, the upload and its views) reach 2.34 at most. With each
 * alignment also fitted along the window (`alignmentForEvidence`) and the image's reach of ±4
 * frames (./contrast-image.ts), 1,010 chance candidates of 25 s excerpts of the same tracks reach
 * 2.36, the next 1.61, and the weak copies 3.19 to 3.59.
 */
import { contrastAt } from './contrast-image.ts';
import type { ContrastImage } from './contrast-image.ts';
import type { LandmarkAlignment, SharedTriplet } from './landmark-match.ts';
import { fitAlong, SPAN_TOLERANCE, WINDOW_SECONDS } from './landmark-match.ts';
import { BINS_PER_OCTAVE, FRAME_SECONDS, LOG_BINS } from './log-spectrogram.ts';
import type { Peak } from './spectral-peaks.ts';
import { tripletBinDifferences } from './triplets.ts';
import type { Triplets } from './triplets.ts';

/** Agreeing votes a candidate needs for its evidence to be read. */
export const EVIDENCE_MIN_VOTES = 5;
/**
 * A query's best candidates (by agreeing triplets on one diagonal, then shared postings) judged
 * on the evidence. At 5 votes the matcher's pruning lets far more sounds through than at 10:
 * aligning up to 32 for each of an upload's three queries took 5-35 ms of an evidence pass of
 * 20-90 ms (a scratch trace of the bench's lookups), and the copies' check reached p99 55.9 ms
 * among 1,000,000 sounds against 35.0 ms on votes alone (bench/results/fingerprint.md, 2026-12-01
 * 07:17). With 8, the held-out run held the same copies on the evidence and one more
 * (bench/results/fingerprint-landmarks-held-out.md).
 */
export const EVIDENCE_CANDIDATES = 8;
/** The statistic from which a candidate is held by the upload. */
export const EVIDENCE_MIN_MEDIAN = 3;
/** Seconds of the window either side of the agreeing span. */
const PAD_SECONDS = 8;
const SEGMENT_SECONDS = 4;
/** Segments of a window at most: the last takes whatever lies past its start. */
const MAX_SEGMENTS = 8;
const MIN_SEGMENT_PEAKS = 10;
const MIN_SEGMENTS = 3;
/** Moves whose segment holds `MIN_SEGMENT_PEAKS` needed for a z against them. */
const MIN_MOVES = 6;
/** Time moves, seconds: 1.1 to 29.6 either way, off any beat grid's multiples. */
const TIME_MOVES: readonly number[] = Array.from({ length: 120 }, (_, i) => (i < 60 ? -1 : 1) * (1.1 + (i % 60) * 0.48 + (i % 3) * 0.07));
/** Pitch moves, log bins: 3 to 14 either way (beyond what a bin's neighbours and the max filter reach). */
const PITCH_MOVES: readonly number[] = [-14, -13, -12, -11, -10, -9, -8, -7, -6, -5, -4, -3, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14];
/** Frames an agreeing triplet's registered start may lie from the alignment's. */
const AGREEING_START_FRAMES = 16;
/** Frames of query time either side of the agreeing span an agreeing triplet may lie. */
const AGREEING_MARGIN_FRAMES = 2;

/** A peak's key in the set of peaks left out. */
const peakKey = (t: number, k: number): number => t * 256 + k;

/**
 * The registered peaks of the triplets shared by `query` (`byHash`: its indices by hash) and
 * `registered` that
 * agree with `alignment`: p1 and p3 where they are, and p2's bin at every frame between them (its
 * hash holds its bin, not its time).
 */
export function agreeingRegisteredPeaks(
  query: Triplets,
  byHash: ReadonlyMap<number, readonly number[]>,
  registered: Triplets,
  alignment: LandmarkAlignment,
): Set<number> {
  const shift = Math.round(BINS_PER_OCTAVE * Math.log2(alignment.pitch));
  const firstT = alignment.queryStartSeconds / FRAME_SECONDS - AGREEING_MARGIN_FRAMES;
  const lastT = (alignment.queryStartSeconds + alignment.querySeconds) / FRAME_SECONDS + AGREEING_MARGIN_FRAMES;
  const startFrames = alignment.offsetSeconds / FRAME_SECONDS;
  const left = new Set<number>();
  registered.hash.forEach((hash, j) => {
    const refT = registered.t[j] as number;
    const refSpan = registered.span[j] as number;
    const refK = registered.k[j] as number;
    if (refSpan === 0) return;
    for (const i of byHash.get(hash) ?? []) {
      const queryT = query.t[i] as number;
      if (Math.abs((query.k[i] as number) - refK - shift) > 1 || queryT < firstT || queryT > lastT) continue;
      const ratio = (query.span[i] as number) / refSpan;
      if (ratio > alignment.stretch * SPAN_TOLERANCE || ratio < alignment.stretch / SPAN_TOLERANCE) continue;
      if (Math.abs(refT - queryT / alignment.stretch - startFrames) > AGREEING_START_FRAMES) continue;
      const { second, third } = tripletBinDifferences(hash);
      left.add(peakKey(refT, refK));
      left.add(peakKey(refT + refSpan, refK + third));
      for (let t = refT + 1; t < refT + refSpan; t += 1) left.add(peakKey(t, refK + second));
      return;
    }
  });
  return left;
}

/** Per segment, the sum of contrast and the count of peaks read. */
interface SegmentSums {
  sums: Float64Array;
  counts: Int32Array;
}

/** The index of the first peak at frame `t` or later (`peaks` in time order). */
function firstAtOrAfter(peaks: readonly Peak[], t: number): number {
  let lo = 0;
  let hi = peaks.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((peaks[mid] as Peak).t < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The query's stretch `segmentMedian` reads under `alignment`, seconds. */
function windowOf(alignment: LandmarkAlignment): { start: number; end: number } {
  return {
    start: Math.max(0, alignment.queryStartSeconds - PAD_SECONDS),
    end: alignment.queryStartSeconds + Math.max(WINDOW_SECONDS, alignment.querySeconds) + PAD_SECONDS,
  };
}

/**
 * `alignment` (a candidate's, from one 10 s window of votes) fitted again on the triplets the
 * query shares with the sound (`shared`) across the window the statistic reads (`fitAlong`): a
 * copy's far segments lie where they are, not where a stretch a few percent off puts them.
 */
export function alignmentForEvidence(shared: readonly SharedTriplet[], alignment: LandmarkAlignment): LandmarkAlignment {
  const { start, end } = windowOf(alignment);
  return fitAlong(shared, alignment, start / FRAME_SECONDS, end / FRAME_SECONDS);
}

/**
 * The statistic of the module's comment: the median of the segments' z-scores, and the segments'
 * own (null where a segment is too thin to score); the median is null where fewer than
 * `MIN_SEGMENTS` score. `alignment` maps `image`'s query (the upload or the view it was found in)
 * onto the sound of `peaks` (its stored peaks, in time order); `leftOut`: `agreeingRegisteredPeaks`.
 */
export function segmentMedian(
  image: ContrastImage,
  peaks: readonly Peak[],
  alignment: LandmarkAlignment,
  leftOut: ReadonlySet<number>,
): { median: number | null; segments: (number | null)[] } {
  const { offsetSeconds, stretch } = alignment;
  const shift = BINS_PER_OCTAVE * Math.log2(alignment.pitch);
  const window = windowOf(alignment);
  const start = window.start;
  const end = Math.min(image.frames * FRAME_SECONDS, window.end);
  const windowStart = offsetSeconds + start / stretch;
  const windowEnd = offsetSeconds + end / stretch;

  const read = (moveSeconds: number, moveBins: number): SegmentSums => {
    const sums = new Float64Array(MAX_SEGMENTS);
    const counts = new Int32Array(MAX_SEGMENTS);
    const from = windowStart + moveSeconds;
    const to = windowEnd + moveSeconds;
    for (let i = firstAtOrAfter(peaks, Math.ceil(from / FRAME_SECONDS) - 1); i < peaks.length; i += 1) {
      const p = peaks[i] as Peak;
      const registeredAt = p.t * FRAME_SECONDS;
      if (registeredAt >= to) break;
      if (registeredAt < from || leftOut.has(peakKey(p.t, p.k))) continue;
      const f = Math.round(((registeredAt - offsetSeconds - moveSeconds) * stretch) / FRAME_SECONDS);
      const k = Math.round(p.k + shift) + moveBins;
      if (f < 0 || f >= image.frames || k < 0 || k >= LOG_BINS) continue;
      const segment = Math.min(MAX_SEGMENTS - 1, Math.floor((registeredAt - moveSeconds - windowStart) / SEGMENT_SECONDS));
      sums[segment] = (sums[segment] as number) + contrastAt(image, f, k);
      counts[segment] = (counts[segment] as number) + 1;
    }
    return { sums, counts };
  };

  const aligned = read(0, 0);
  const timeMoved = TIME_MOVES.map((seconds) => read(seconds, 0));
  const pitchMoved = PITCH_MOVES.map((bins) => read(0, bins));
  const zAgainst = (segment: number, moved: readonly SegmentSums[]): number => {
    const means: number[] = [];
    for (const { sums, counts } of moved)
      if ((counts[segment] as number) >= MIN_SEGMENT_PEAKS) means.push((sums[segment] as number) / (counts[segment] as number));
    if (means.length < MIN_MOVES) return Number.NaN;
    const mean = means.reduce((sum, x) => sum + x, 0) / means.length;
    const sd = Math.sqrt(means.reduce((sum, x) => sum + (x - mean) ** 2, 0) / means.length);
    return ((aligned.sums[segment] as number) / (aligned.counts[segment] as number) - mean) / Math.max(sd, 1e-6);
  };
  const segments: (number | null)[] = [];
  for (let segment = 0; segment < MAX_SEGMENTS; segment += 1) {
    const z =
      (aligned.counts[segment] as number) < MIN_SEGMENT_PEAKS
        ? Number.NaN
        : Math.min(zAgainst(segment, timeMoved), zAgainst(segment, pitchMoved));
    segments.push(Number.isNaN(z) ? null : z);
  }
  const scored = segments.filter((z): z is number => z !== null).sort((a, b) => a - b);
  if (scored.length < MIN_SEGMENTS) return { median: null, segments };
  const middle = scored.length >> 1;
  const median = scored.length % 2 === 1 ? (scored[middle] as number) : ((scored[middle - 1] as number) + (scored[middle] as number)) / 2;
  return { median, segments };
}
