/**
 * When one sound contains another (issue 44; docs/fingerprints.md "The match rule"): a query
 * fingerprint contains a reference fingerprint when some stretch of the reference of at least
 * `MATCH_SECONDS` (or the whole reference, when it is shorter) lines up with the query at one
 * offset, item for item, with a bit error rate of at most `MAX_BIT_ERROR`.
 *
 * - The bit error of a query item at offset d is counted against the two reference items it lies
 *   between, R[j+d] and R[j+d+1]: a bit counts as an error only when the query item differs from
 *   both. A copy cut or placed anywhere (a 0.3 s trim, 5 s of other audio before it) is shifted by
 *   a fraction of an item (1365 samples at 11,025 Hz); its items then take the bits where the two
 *   neighbours agree and may take either value where they differ. Plain bit error rates of such
 *   copies reach 0.076 at half an item, which overlaps distinct songs of the built-in model that
 *   share their chords; counted this way, copies stay under 0.006 and distinct songs above 0.028
 *   (bench/results/fingerprint.md).
 * - A window of the reference whose items barely change (silence, one held chord: on average
 *   fewer than `MIN_ACTIVITY` bits change between consecutive items) carries too little of the
 *   song to tell it from another; it never matches.
 * - Offsets to try come from the items query and reference share exactly in their top 28 bits
 *   (the terms of the inverted index, ./terms.ts), as AcoustID aligns fingerprints; the best few
 *   and their neighbours are scored.
 */
import { FINGERPRINT_SAMPLE_RATE, FRAME_SIZE, FRAME_STEP } from './chromaprint.ts';
import { termOf } from './terms.ts';

/** The shortest stretch of a registered song whose presence in another counts (seconds). */
export const MATCH_SECONDS = 10;
/**
 * Audio one item depends on: a 4096-sample frame, 4 more frames of the chroma filter and 15 more
 * rows of the widest classifier (samples at 11,025 Hz).
 */
const ITEM_SPAN_SAMPLES = FRAME_SIZE + (4 + 15) * FRAME_STEP;
/** Items that lie wholly inside `MATCH_SECONDS` of audio: a 10 s excerpt yields at least this many. */
export const MATCH_WINDOW_ITEMS = Math.floor((MATCH_SECONDS * FINGERPRINT_SAMPLE_RATE - ITEM_SPAN_SAMPLES) / FRAME_STEP);
/** The highest bit error rate over a window that counts as the same sound. */
export const MAX_BIT_ERROR = 0.012;
/** The fewest bits that change between consecutive reference items, on average over a window. */
export const MIN_ACTIVITY = 1;
/** Offsets scored per pair: the most voted ones (and the offset before each). */
const OFFSETS_TRIED = 6;

export interface MatchRule {
  windowItems: number;
  maxBitError: number;
  minActivity: number;
}

export const MATCH_RULE: MatchRule = { windowItems: MATCH_WINDOW_ITEMS, maxBitError: MAX_BIT_ERROR, minActivity: MIN_ACTIVITY };

export interface Containment {
  /** Item in the query where the matching window starts. */
  queryItem: number;
  /** Item in the reference it lines up with. */
  referenceItem: number;
  /** Items in the window. */
  items: number;
  /** Bit error rate over the window (as counted above). */
  bitError: number;
}

export function popcount32(x: number): number {
  let v = x - ((x >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** Offsets d (query item j lines up with reference item j + d) voted for by shared terms, most votes first. */
export function votedOffsets(query: Uint32Array, reference: Uint32Array, limit: number = OFFSETS_TRIED): number[] {
  const positions = new Map<number, number[]>();
  for (let i = 0; i < reference.length; i += 1) {
    const term = termOf(reference[i] as number);
    const list = positions.get(term);
    if (list === undefined) positions.set(term, [i]);
    else if (list.length < 64) list.push(i);
  }
  const votes = new Map<number, number>();
  for (let j = 0; j < query.length; j += 1) {
    const list = positions.get(termOf(query[j] as number));
    if (list === undefined) continue;
    for (const i of list) votes.set(i - j, (votes.get(i - j) ?? 0) + 1);
  }
  return [...votes.entries()]
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, limit)
    .map(([offset]) => offset);
}

/** The best window at offset `d` that passes the rule, or null. */
export function windowAtOffset(query: Uint32Array, reference: Uint32Array, d: number, rule: MatchRule = MATCH_RULE): Containment | null {
  const window = Math.min(rule.windowItems, reference.length);
  if (window < 1) return null;
  const first = Math.max(0, -d);
  const end = Math.min(query.length, reference.length - d);
  if (end - first < window) return null;
  const maxErrors = rule.maxBitError * 32 * window;
  const minChanges = rule.minActivity * (window - 1);
  // Per lined-up item: its bit errors, and the bits the reference changes to its next item.
  const length = end - first;
  const errors = new Uint8Array(length);
  const changes = new Uint8Array(length);
  for (let k = 0; k < length; k += 1) {
    const j = first + k;
    const q = query[j] as number;
    const r0 = reference[j + d] as number;
    const hasNext = j + d + 1 < reference.length;
    const r1 = hasNext ? (reference[j + d + 1] as number) : r0;
    errors[k] = popcount32(((q ^ r0) & (q ^ r1)) >>> 0);
    changes[k] = hasNext ? popcount32((r0 ^ r1) >>> 0) : 0;
  }
  // Window [k, k + window): errors over all its items, changes between its consecutive items.
  let errorSum = 0;
  let changeSum = 0;
  for (let k = 0; k < window; k += 1) errorSum += errors[k] as number;
  for (let k = 0; k < window - 1; k += 1) changeSum += changes[k] as number;
  let best: Containment | null = null;
  for (let k = 0; ; k += 1) {
    if (errorSum <= maxErrors && changeSum >= minChanges && (best === null || errorSum / (32 * window) < best.bitError)) {
      best = { queryItem: first + k, referenceItem: first + k + d, items: window, bitError: errorSum / (32 * window) };
    }
    if (k + window >= length) break;
    errorSum += (errors[k + window] as number) - (errors[k] as number);
    changeSum += (changes[k + window - 1] as number) - (changes[k] as number);
  }
  return best;
}

/** Where `query` contains `reference` under `rule`, or null. */
export function findContainment(query: Uint32Array, reference: Uint32Array, rule: MatchRule = MATCH_RULE): Containment | null {
  let best: Containment | null = null;
  const tried = new Set<number>();
  for (const voted of votedOffsets(query, reference)) {
    for (const d of [voted, voted - 1]) {
      if (tried.has(d)) continue;
      tried.add(d);
      const found = windowAtOffset(query, reference, d, rule);
      if (found !== null && (best === null || found.bitError < best.bitError)) best = found;
    }
  }
  return best;
}
