/**
 * Verifying a candidate of the landmark registry (docs/fingerprints.md): the triplets a query
 * shares with one registered sound (same hash) each say how the query maps onto it: the span
 * ratio is a stretch s (query time per registered time), the k1 difference a pitch shift, and
 * with s the registered time at which the query's start lies (t_ref − t_query / s). A copy's
 * shared triplets agree on one (s, shift, start); chance ones scatter. The score is the largest
 * number of shared triplets agreeing within the tolerances below whose query times lie within
 * one `WINDOW_SECONDS` stretch of the query, over a grid of stretches: a long query gathers no
 * more chance votes than a short one. A match needs `MIN_VOTES` (calibrated on real music:
 * docs/fingerprints.md).
 */
import { BINS_PER_OCTAVE, FRAME_SECONDS } from './log-spectrogram.ts';

/** Stretches tried: 0.93 … 1.08 (tempo ±5% and speed ±2% with room), `STRETCH_STEP` apart. */
export const MAX_STRETCH = 1.08;
export const STRETCH_STEP = 0.004;
/** A shared triplet votes for grid stretches within this factor of its own span ratio. */
export const SPAN_TOLERANCE = 1.12;
/** Pitch shifts tried, in log bins (a semitone is 2; speed ±2% adds 1). */
export const MAX_SHIFT_BINS = 3;
/** Start bins, frames (0.13 s); a vote also counts for its neighbours. */
const START_BIN_FRAMES = 8;
/** Query seconds whose agreeing votes are counted together (two half-windows). */
export const WINDOW_SECONDS = 10;
const HALF_WINDOW_FRAMES = Math.round(WINDOW_SECONDS / 2 / FRAME_SECONDS);
/** Registered triplets agreeing on one mapping needed for a match. */
export const MIN_VOTES = 10;
/** How far, in start bins, an agreeing triplet's start may lie from its alignment's. */
const START_TOLERANCE_BINS = 1.5;
/**
 * Frames over which the differences (registered time − query time) of one alignment's agreeing
 * triplets can spread: their query times lie within two half-windows, where a stretch within
 * `MAX_STRETCH` moves the difference by at most `MAX_STRETCH` − 1 of them, and their starts lie
 * within `START_TOLERANCE_BINS` either way. So an alignment has no more votes than the shared
 * triplets whose differences lie within one such span (`mostOnOneDiagonal`).
 */
export const ALIGNMENT_SPREAD_FRAMES = Math.ceil(2 * HALF_WINDOW_FRAMES * (MAX_STRETCH - 1) + 2 * START_TOLERANCE_BINS * START_BIN_FRAMES);

export interface SharedTriplet {
  queryT: number;
  querySpan: number;
  queryK: number;
  refT: number;
  refSpan: number;
  refK: number;
}

export interface LandmarkAlignment {
  /** Agreeing shared triplets: distinct query times and distinct registered times, the fewer. */
  votes: number;
  /** Seconds into the registered sound at which the query's start lies (may be negative). */
  offsetSeconds: number;
  /** Query duration per registered duration (1.02: the copy is 2% slower). */
  stretch: number;
  /** Query frequency per registered frequency (2^(1/12): a semitone up). */
  pitch: number;
  /** The query's stretch from its first to its last agreeing triplet, seconds. */
  querySeconds: number;
  /** Where in the query its first agreeing triplet lies, seconds. */
  queryStartSeconds: number;
}

const STRETCHES = Array.from(
  { length: Math.round((2 * (MAX_STRETCH - 1)) / STRETCH_STEP) + 1 },
  (_, i) => 1 / MAX_STRETCH + i * STRETCH_STEP,
).filter((s) => s <= MAX_STRETCH + 1e-9);

const SHIFTS = 2 * MAX_SHIFT_BINS + 1;
/** Half-windows a query may hold (about 19 hours): the key's block field. */
const BLOCKS = 1 << 14;
/** Start bins are offset by this so that the key stays positive (a registered sound up to ~9 days). */
const START_BIAS = 1 << 22;

interface Candidate {
  votes: number;
  s: number;
  shift: number;
  startBin: number;
  block: number;
}

/** Tallies of one stretch's keys, the strongest `TOP_KEYS` kept across stretches. */
const TOP_KEYS = 4;

/**
 * One stretch's votes per (start bin, pitch shift, half-window), cleared between stretches. Its
 * cells are visited in the order they were first voted for, so that ties between cells resolve
 * alike in both kinds below.
 */
interface Tally {
  add(startBin: number, shiftIndex: number, block: number): void;
  /**
   * The votes of a cell and its neighbours: a vote near a bin edge, or a peak a bin off, lands next
   * door, so the start bins and pitch shifts either side count, in this half-window and the next
   * (one window of query time).
   */
  neighbourhood(startBin: number, shiftIndex: number, block: number): number;
  /** Calls `visit` for each cell voted for since the last clear, in first-vote order. */
  forEach(visit: (startBin: number, shiftIndex: number, block: number) => void): void;
  clear(): void;
}

/**
 * Cells of an array spanning every start bin and half-window `shared` can reach at any stretch
 * (with a cell of margin for the neighbours read), when they are at most `DENSE_CELLS`: a lookup's
 * 25 s query against a sound of minutes takes a few hundred thousand. An array read is many times
 * cheaper than a map's, and verification is most of a lookup's time once the registry holds whole
 * songs (bench/results/fingerprint-landmarks-held-out.md).
 */
const DENSE_CELLS = 1 << 20;

function denseTally(shared: readonly SharedTriplet[]): Tally | null {
  let firstStart = Infinity;
  let lastStart = -Infinity;
  let lastBlock = 0;
  const slowest = STRETCHES[0] as number;
  const fastest = STRETCHES[STRETCHES.length - 1] as number;
  for (const p of shared) {
    // refT − queryT / s grows with s (queryT ≥ 0): the slowest stretch gives the earliest start.
    firstStart = Math.min(firstStart, Math.round((p.refT - p.queryT / slowest) / START_BIN_FRAMES));
    lastStart = Math.max(lastStart, Math.round((p.refT - p.queryT / fastest) / START_BIN_FRAMES));
    lastBlock = Math.max(lastBlock, Math.floor(p.queryT / HALF_WINDOW_FRAMES));
  }
  const origin = firstStart - 1;
  const starts = lastStart - origin + 2;
  const blocks = lastBlock + 2;
  if (starts * SHIFTS * blocks > DENSE_CELLS) return null;
  const votes = new Int32Array(starts * SHIFTS * blocks);
  const touched: number[] = [];
  const cell = (startBin: number, shiftIndex: number, block: number): number =>
    ((startBin - origin) * SHIFTS + shiftIndex) * blocks + block;
  const startStride = SHIFTS * blocks;
  return {
    add(startBin, shiftIndex, block) {
      const at = cell(startBin, shiftIndex, block);
      if (votes[at] === 0) touched.push(at);
      votes[at] = (votes[at] as number) + 1;
    },
    neighbourhood(startBin, shiftIndex, block) {
      // The margins (a start bin either side, a half-window after the last) keep every read inside.
      const centre = cell(startBin, shiftIndex, block);
      const below = shiftIndex > 0 ? -1 : 0;
      const above = shiftIndex < SHIFTS - 1 ? 1 : 0;
      let sum = 0;
      for (let dStart = -1; dStart <= 1; dStart += 1)
        for (let dShift = below; dShift <= above; dShift += 1) {
          const at = centre + dStart * startStride + dShift * blocks;
          sum += (votes[at] as number) + (votes[at + 1] as number);
        }
      return sum;
    },
    forEach(visit) {
      for (const at of touched) visit(Math.floor(at / blocks / SHIFTS) + origin, Math.floor(at / blocks) % SHIFTS, at % blocks);
    },
    clear() {
      for (const at of touched) votes[at] = 0;
      touched.length = 0;
    },
  };
}

/** The same cells in a map, for a query and sound too long for the array. */
function mapTally(): Tally {
  const votes = new Map<number, number>();
  const keyOf = (startBin: number, shiftIndex: number, block: number): number =>
    ((startBin + START_BIAS) * SHIFTS + shiftIndex) * BLOCKS + block;
  return {
    add(startBin, shiftIndex, block) {
      const key = keyOf(startBin, shiftIndex, block);
      votes.set(key, (votes.get(key) ?? 0) + 1);
    },
    neighbourhood(startBin, shiftIndex, block) {
      let sum = 0;
      for (let dStart = -1; dStart <= 1; dStart += 1)
        for (let si = Math.max(0, shiftIndex - 1); si <= Math.min(SHIFTS - 1, shiftIndex + 1); si += 1)
          sum += (votes.get(keyOf(startBin + dStart, si, block)) ?? 0) + (votes.get(keyOf(startBin + dStart, si, block + 1)) ?? 0);
      return sum;
    },
    forEach(visit) {
      for (const key of votes.keys())
        visit(Math.floor(key / BLOCKS / SHIFTS) - START_BIAS, Math.floor(key / BLOCKS) % SHIFTS, key % BLOCKS);
    },
    clear() {
      votes.clear();
    },
  };
}

/**
 * The most distinct query times `reachable` holds in two consecutive half-windows: an alignment's
 * votes are agreeing query times in one such window, so none holds more.
 */
function mostQueryTimesInAWindow(reachable: readonly SharedTriplet[]): number {
  const timesByBlock = new Map<number, Set<number>>();
  for (const p of reachable) {
    const block = Math.floor(p.queryT / HALF_WINDOW_FRAMES);
    const times = timesByBlock.get(block);
    if (times === undefined) timesByBlock.set(block, new Set([p.queryT]));
    else times.add(p.queryT);
  }
  let most = 0;
  for (const [block, times] of timesByBlock) most = Math.max(most, times.size + (timesByBlock.get(block + 1)?.size ?? 0));
  return most;
}

/**
 * The triplets of `reachable` that lie, with at least `atLeast − 1` others, within two consecutive
 * half-windows of query time and `ALIGNMENT_SPREAD_FRAMES` of difference (registered time − query
 * time): the only ones an alignment of `atLeast` votes can hold (`ALIGNMENT_SPREAD_FRAMES`). The
 * triplets that agree with such an alignment, and those of the cells around its own, lie in one
 * such box and are all kept, so its tally and its votes are unchanged; only cells that cannot
 * reach `atLeast` lose votes, and with them perhaps a place among the `TOP_KEYS` cells checked:
 * the answer is the same, unless such cells had filled those places and hid a match. Two
 * whole songs share thousands of triplets by chance, scattered over every difference; most are
 * dropped here, before each of the grid's stretches tallies them: on the held-out registry's
 * whole tracks the same answers (13,345 real pairs) at a third of the time.
 */
export function onDenseDiagonals(reachable: readonly SharedTriplet[], atLeast: number): SharedTriplet[] {
  const byBlock = new Map<number, number[]>();
  reachable.forEach((p, i) => {
    const block = Math.floor(p.queryT / HALF_WINDOW_FRAMES);
    const indices = byBlock.get(block);
    if (indices === undefined) byBlock.set(block, [i]);
    else indices.push(i);
  });
  const difference = Int32Array.from(reachable, (p) => p.refT - p.queryT);
  for (const indices of byBlock.values()) indices.sort((a, b) => (difference[a] as number) - (difference[b] as number));
  const dense = new Uint8Array(reachable.length);
  for (const [block, indices] of byBlock) {
    const next = byBlock.get(block + 1) ?? [];
    if (indices.length + next.length < atLeast) continue;
    const window = mergeByDifference(indices, next, difference);
    let markedTo = 0;
    for (let first = 0, last = 0; last < window.length; last += 1) {
      const lastDifference = difference[window[last] as number] as number;
      while (lastDifference - (difference[window[first] as number] as number) > ALIGNMENT_SPREAD_FRAMES) first += 1;
      if (last - first + 1 < atLeast) continue;
      for (let j = Math.max(first, markedTo); j <= last; j += 1) dense[window[j] as number] = 1;
      markedTo = last + 1;
    }
  }
  return reachable.filter((_, i) => dense[i] === 1);
}

/** Two index lists, each sorted by `difference`, merged into one. */
function mergeByDifference(a: readonly number[], b: readonly number[], difference: Int32Array): number[] {
  const merged: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const takeA = j >= b.length || (i < a.length && (difference[a[i] as number] as number) <= (difference[b[j] as number] as number));
    merged.push(takeA ? (a[i++] as number) : (b[j++] as number));
  }
  return merged;
}

/**
 * The best alignment of `shared` (one registered sound's), or null when none holds `minVotes`
 * votes (at least 2). Its votes are distinct query times and distinct registered times agreeing
 * (the smaller count): a held chord that repeats one triplet many times counts once. `tally`
 * chooses where the votes are counted (the array when it fits, else the map); both give the same
 * alignment. A caller that needs a match passes `MIN_VOTES`: where no window of the query holds
 * that many shared query times, nothing is tallied (most of a lookup's chance candidates), and
 * only the triplets on a diagonal dense enough are (`onDenseDiagonals`).
 */
export function alignShared(
  shared: readonly SharedTriplet[],
  tally: 'fitting' | 'map' = 'fitting',
  minVotes = 2,
): LandmarkAlignment | null {
  const atLeast = Math.max(2, minVotes);
  if (shared.length < 2) return null;
  let counted = shared;
  // The triplets an alignment can count (`agreeing`: a bin either side of a tallied shift): where
  // no window holds enough of their query times, no alignment does. Of the rest, only those on a
  // diagonal dense enough can be among an alignment's `atLeast` (`onDenseDiagonals`).
  if (atLeast > 2) {
    const reachable = shared.filter((p) => Math.abs(p.queryK - p.refK) <= MAX_SHIFT_BINS + 1 && p.refSpan !== 0);
    if (reachable.length < atLeast || mostQueryTimesInAWindow(reachable) < atLeast) return null;
    counted = onDenseDiagonals(reachable, atLeast);
    if (counted.length < atLeast) return null;
  }
  const top: Candidate[] = [];
  // What does not change with the stretch, once: the triplets within the pitch reach, their span
  // ratios, pitch shifts and half-windows.
  const usable = counted.filter((p) => Math.abs(p.queryK - p.refK) <= MAX_SHIFT_BINS && p.refSpan !== 0);
  if (usable.length === 0) return null;
  const blocks = Int32Array.from(usable, (p) => Math.floor(p.queryT / HALF_WINDOW_FRAMES));
  const ratios = Float64Array.from(usable, (p) => p.querySpan / p.refSpan);
  const shiftIndices = Int32Array.from(usable, (p) => p.queryK - p.refK + MAX_SHIFT_BINS);
  const counts = (tally === 'fitting' ? denseTally(usable) : null) ?? mapTally();
  for (const s of STRETCHES) {
    counts.clear();
    const longest = s * SPAN_TOLERANCE;
    const shortest = s / SPAN_TOLERANCE;
    usable.forEach((p, i) => {
      const own = ratios[i] as number;
      if (own > longest || own < shortest) return;
      counts.add(Math.round((p.refT - p.queryT / s) / START_BIN_FRAMES), shiftIndices[i] as number, blocks[i] as number);
    });
    counts.forEach((startBin, shiftIndex, block) => {
      const votes = counts.neighbourhood(startBin, shiftIndex, block);
      if (votes < 2 || (top.length === TOP_KEYS && votes <= (top[TOP_KEYS - 1] as Candidate).votes)) return;
      top.push({ votes, s, shift: shiftIndex - MAX_SHIFT_BINS, startBin, block });
      top.sort((x, y) => y.votes - x.votes);
      if (top.length > TOP_KEYS) top.pop();
    });
  }
  let best: LandmarkAlignment | null = null;
  for (const candidate of top) {
    const alignment = agreeing(counted, candidate);
    if (best === null || alignment.votes > best.votes) best = alignment;
  }
  return best !== null && best.votes >= atLeast ? best : null;
}

/**
 * Whether `p` agrees with the line registered time = `start` + query time / `stretch` (frames) at
 * pitch shift `shift`: its own shift within a bin, its span ratio within `SPAN_TOLERANCE`, its
 * registered time within `START_TOLERANCE_BINS` start bins of the line.
 */
function agreesWithLine(p: SharedTriplet, start: number, stretch: number, shift: number): boolean {
  if (Math.abs(p.queryK - p.refK - shift) > 1 || p.refSpan === 0) return false;
  const own = p.querySpan / p.refSpan;
  if (own > stretch * SPAN_TOLERANCE || own < stretch / SPAN_TOLERANCE) return false;
  return Math.abs(p.refT - p.queryT / stretch - start) <= START_TOLERANCE_BINS * START_BIN_FRAMES;
}

/** Votes of agreeing triplets: distinct query times and distinct registered times, the fewer. */
function votesOf(points: readonly SharedTriplet[]): number {
  return Math.min(new Set(points.map((p) => p.queryT)).size, new Set(points.map((p) => p.refT)).size);
}

/**
 * The least-squares line through `points` (registered frame on query frame): its stretch where
 * it lies within the grid's range (else null), and the start that puts the points' centre on a
 * line of a given stretch.
 */
function lineThrough(points: readonly SharedTriplet[]): { stretch: number | null; startAt(stretch: number): number } {
  let sq = 0;
  let sr = 0;
  let sqq = 0;
  let sqr = 0;
  for (const p of points) {
    sq += p.queryT;
    sr += p.refT;
    sqq += p.queryT * p.queryT;
    sqr += p.queryT * p.refT;
  }
  const n = points.length;
  const spread = n * sqq - sq * sq;
  const slope = spread > 0 ? (n * sqr - sq * sr) / spread : 0;
  return {
    stretch: slope > 0 && 1 / slope <= MAX_STRETCH && 1 / slope >= 1 / MAX_STRETCH ? 1 / slope : null,
    startAt: (stretch) => (sr - sq / stretch) / n,
  };
}

/** Stretches `fitAlong` tries: the grid's range, half its step apart. */
const FITTED_STRETCHES = Array.from(
  { length: Math.round((2 * (MAX_STRETCH - 1)) / (STRETCH_STEP / 2)) + 1 },
  (_, i) => 1 / MAX_STRETCH + (i * STRETCH_STEP) / 2,
).filter((s) => s <= MAX_STRETCH + 1e-9);

/** Rounds of `fitAlong`'s least-squares fit. */
const FIT_ROUNDS = 3;

/**
 * `alignment` fitted again on the triplets of `shared` whose query times lie within `fromFrame` …
 * `toFrame`: the stretch through the alignment's centre that the most of them agree with
 * (`agreesWithLine`, as `alignShared` counts them), then the least-squares line through those.
 * An alignment's own stretch comes from votes within one 10 s window, each a few frames off, so
 * it is only a few percent right; over a longer stretch of query the same tolerances fix it far
 * closer (docs/fingerprints.md, "The image's reach in time"). The votes and the pitch stay the
 * alignment's; where nothing agrees, it is returned as it is.
 */
export function fitAlong(
  shared: readonly SharedTriplet[],
  alignment: LandmarkAlignment,
  fromFrame: number,
  toFrame: number,
): LandmarkAlignment {
  const shift = Math.round(BINS_PER_OCTAVE * Math.log2(alignment.pitch));
  const near = shared.filter((p) => p.queryT >= fromFrame && p.queryT <= toFrame);
  const agreeingWith = (start: number, stretch: number): SharedTriplet[] => near.filter((p) => agreesWithLine(p, start, stretch, shift));
  // The stretch, through the alignment's centre, that the most agree with (the nearest its own).
  const centreT = (alignment.queryStartSeconds + alignment.querySeconds / 2) / FRAME_SECONDS;
  const centreRefT = alignment.offsetSeconds / FRAME_SECONDS + centreT / alignment.stretch;
  let line = { start: alignment.offsetSeconds / FRAME_SECONDS, stretch: alignment.stretch };
  let most = 0;
  for (const stretch of FITTED_STRETCHES) {
    const votes = votesOf(agreeingWith(centreRefT - centreT / stretch, stretch));
    if (votes > most || (votes === most && Math.abs(stretch - alignment.stretch) < Math.abs(line.stretch - alignment.stretch))) {
      most = votes;
      line = { start: centreRefT - centreT / stretch, stretch };
    }
  }
  // Then the least-squares line through those that agree, and again through those agreeing with it.
  let agreeing = agreeingWith(line.start, line.stretch);
  for (let round = 0; round < FIT_ROUNDS && agreeing.length >= 2; round += 1) {
    const fitted = lineThrough(agreeing);
    if (fitted.stretch === null) break;
    line = { start: fitted.startAt(fitted.stretch), stretch: fitted.stretch };
    const next = agreeingWith(line.start, line.stretch);
    if (next.length < 2) break;
    agreeing = next;
  }
  if (agreeing.length === 0) return alignment;
  const times = agreeing.map((p) => p.queryT);
  const first = Math.min(...times);
  return {
    ...alignment,
    offsetSeconds: line.start * FRAME_SECONDS,
    stretch: line.stretch,
    querySeconds: (Math.max(...times) - first) * FRAME_SECONDS,
    queryStartSeconds: first * FRAME_SECONDS,
  };
}

/**
 * The figures of the triplets that agree with `c`: the stretch by a least-squares line through
 * their (query time, registered time) points (the grid's step is coarser than a 10 s window
 * resolves), the pitch shift their median.
 */
function agreeing(shared: readonly SharedTriplet[], c: Candidate): LandmarkAlignment {
  const points = shared.filter((p) => {
    if (!agreesWithLine(p, c.startBin * START_BIN_FRAMES, c.s, c.shift)) return false;
    const block = Math.floor(p.queryT / HALF_WINDOW_FRAMES);
    return block === c.block || block === c.block + 1;
  });
  const n = points.length;
  const times = points.map((p) => p.queryT);
  const first = Math.min(...times);
  const shifts = points.map((p) => p.queryK - p.refK).sort((a, b) => a - b);
  // refT = start + queryT / stretch. The grid's stretch is only as close as its 10 s window
  // resolves (several steps); the line through the agreeing points is the estimate, where it
  // stays within the grid's range (with one query time only, the grid's stretch stands).
  const line = lineThrough(points);
  const stretch = line.stretch ?? c.s;
  return {
    votes: votesOf(points),
    offsetSeconds: (n === 0 ? c.startBin * START_BIN_FRAMES : line.startAt(stretch)) * FRAME_SECONDS,
    stretch,
    pitch: 2 ** ((shifts[n >> 1] ?? c.shift) / BINS_PER_OCTAVE),
    querySeconds: n === 0 ? 0 : (Math.max(...times) - first) * FRAME_SECONDS,
    queryStartSeconds: n === 0 ? 0 : first * FRAME_SECONDS,
  };
}
