import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  ALIGNMENT_SPREAD_FRAMES,
  alignShared,
  fitAlong,
  MAX_SHIFT_BINS,
  MAX_STRETCH,
  MIN_VOTES,
  onDenseDiagonals,
  WINDOW_SECONDS,
} from '../../core/src/fingerprint/landmark-match.ts';
import type { SharedTriplet } from '../../core/src/fingerprint/landmark-match.ts';
import { BINS_PER_OCTAVE, FRAME_SECONDS } from '../../core/src/fingerprint/log-spectrogram.ts';
import { seededRandom } from '../../core/src/testing/seeded-random.ts';

interface Planted {
  /** Registered frame at which the query starts. */
  start: number;
  /** Query duration per registered duration. */
  stretch: number;
  /** Log bins the query is transposed by. */
  shift: number;
  /** Agreeing triplets, at distinct query and registered times. */
  count: number;
  /** Query frames they are spread over. */
  queryFrames: number;
}

/**
 * A copy's shared triplets as the lookup hands them to the matcher: `planted.count` agreeing on
 * one mapping, among `chance` triplets that share a hash and nothing else (anywhere in a query of
 * `queryFrames` and a registered sound of `refFrames`, any bin, any span).
 */
function sharedOf(random: () => number, planted: Planted, chance: number, queryFrames: number, refFrames: number): SharedTriplet[] {
  const int = (below: number): number => Math.floor(random() * below);
  const shared: SharedTriplet[] = [];
  const step = planted.queryFrames / planted.count;
  for (let n = 0; n < planted.count; n += 1) {
    const queryT = Math.round(n * step + random() * (step - 1));
    const refSpan = 10 + int(70);
    const refK = 10 + int(90);
    shared.push({
      queryT,
      querySpan: Math.round(refSpan * planted.stretch),
      queryK: refK + planted.shift,
      refT: Math.round(planted.start + queryT / planted.stretch),
      refSpan,
      refK,
    });
  }
  for (let n = 0; n < chance; n += 1)
    shared.push({
      queryT: int(queryFrames),
      querySpan: 6 + int(85),
      queryK: int(114),
      refT: int(refFrames),
      refSpan: 6 + int(85),
      refK: int(114),
    });
  // The lookup hands them over in hash order, not time order.
  for (let i = shared.length - 1; i > 0; i -= 1) {
    const j = int(i + 1);
    [shared[i], shared[j]] = [shared[j] as SharedTriplet, shared[i] as SharedTriplet];
  }
  return shared;
}

const seconds = (s: number): number => Math.round(s / FRAME_SECONDS);

describe('landmark matcher: the alignment of a copy among chance triplets', () => {
  it('finds a copy a semitone up and 3% slower among 400 chance triplets, counted alike in the array and in the map', () => {
    const random = seededRandom(50);
    const planted: Planted = { start: seconds(40), stretch: 1.03, shift: 2, count: 30, queryFrames: seconds(9) };
    const shared = sharedOf(random, planted, 400, seconds(25), seconds(240));
    const alignment = alignShared(shared);
    assert.ok(alignment !== null);
    assert.ok(alignment.votes >= 28 && alignment.votes <= 30, `votes ${alignment.votes}`);
    assert.equal(alignment.pitch, 2 ** (2 / BINS_PER_OCTAVE));
    assert.ok(Math.abs(alignment.stretch - 1.03) < 0.005, `stretch ${alignment.stretch}`);
    assert.ok(Math.abs(alignment.offsetSeconds - 40) < 0.2, `offset ${alignment.offsetSeconds} s`);
    assert.deepEqual(alignShared(shared, 'map'), alignment);
  });

  it('gives the same alignment from the array as from the map, copy or chance, short sound or long', () => {
    const random = seededRandom(7);
    for (let n = 0; n < 60; n += 1) {
      const long = n % 3 === 0;
      const queryFrames = long ? seconds(600) : seconds(25);
      const planted: Planted = {
        start: Math.floor(random() * seconds(long ? 500 : 200)),
        stretch: 0.93 + random() * 0.15,
        shift: Math.floor(random() * 7) - 3,
        count: n % 4 === 0 ? 0 : 5 + Math.floor(random() * 30),
        queryFrames: seconds(9),
      };
      const shared = sharedOf(random, planted, 50 + Math.floor(random() * 600), queryFrames, seconds(long ? 600 : 240));
      assert.deepEqual(alignShared(shared), alignShared(shared, 'map'), `draw ${n}`);
    }
  });

  it('ranks an alignment split over two pitch shifts and two half-windows by its neighbourhood, above stronger single cells', () => {
    // A speed change moves pitch by a fraction of a bin: a copy's triplets round to two shifts.
    // 24 agreeing triplets, half at shift 1 and half at 2, over 9 s (two half-windows); four
    // chance cells of 15 each elsewhere. Only the neighbourhood (both shifts, both half-windows)
    // puts the copy's 24 above the cells' 15.
    const random = seededRandom(11);
    const shared: SharedTriplet[] = [];
    for (let n = 0; n < 24; n += 1) {
      const queryT = Math.round((n * seconds(9)) / 24);
      const refK = 20 + (n % 50);
      shared.push({ queryT, querySpan: 40, queryK: refK + 1 + (n % 2), refT: seconds(60) + queryT, refSpan: 40, refK });
    }
    for (let cell = 0; cell < 4; cell += 1)
      for (let n = 0; n < 15; n += 1) {
        const queryT = seconds(12 + 2 * cell) + 2 * n;
        shared.push({ queryT, querySpan: 30, queryK: 60, refT: seconds(100 + 30 * cell) + queryT, refSpan: 30, refK: 60 });
      }
    for (let i = shared.length - 1; i > 0; i -= 1) {
      const j = Math.floor(random() * (i + 1));
      [shared[i], shared[j]] = [shared[j] as SharedTriplet, shared[i] as SharedTriplet];
    }
    for (const tally of ['fitting', 'map'] as const) {
      const alignment = alignShared(shared, tally);
      assert.ok(alignment !== null);
      assert.ok(alignment.votes >= 22, `${tally}: votes ${alignment.votes}`);
      assert.ok(Math.abs(alignment.offsetSeconds - 60) < 0.2, `${tally}: offset ${alignment.offsetSeconds} s`);
    }
  });

  it('asked for MIN_VOTES, answers exactly the alignments holding that many, a copy across two half-windows included', () => {
    const atLeast = (shared: SharedTriplet[]) => {
      const alignment = alignShared(shared);
      return alignment !== null && alignment.votes >= MIN_VOTES ? alignment : null;
    };
    // Exactly MIN_VOTES agreeing triplets, half in each of two consecutive half-windows: no single
    // half-window holds enough query times, the window of both does.
    const half = seconds(WINDOW_SECONDS / 2);
    const across: SharedTriplet[] = Array.from({ length: MIN_VOTES }, (_, n) => {
      const queryT = half - MIN_VOTES / 2 + n * 3 - (n < MIN_VOTES / 2 ? 15 : 0);
      return { queryT, querySpan: 40, queryK: 50, refT: seconds(30) + queryT, refSpan: 40, refK: 50 };
    });
    assert.equal(new Set(across.map((p) => Math.floor(p.queryT / half))).size, 2);
    assert.equal(alignShared(across, 'fitting', MIN_VOTES)?.votes, MIN_VOTES);
    // The same ten spread over three half-windows: no window holds them, with or without the bound.
    const spread = across.map((p, n) => ({
      ...p,
      queryT: n * Math.floor((3 * half) / MIN_VOTES),
      refT: seconds(30) + n * Math.floor((3 * half) / MIN_VOTES),
    }));
    assert.equal(alignShared(spread, 'fitting', MIN_VOTES), null);
    assert.equal(atLeast(spread), null);
    // Agreement reaches a bin past the pitch shifts tallied: seven triplets at the farthest shift
    // and three one bin beyond it are one alignment of ten.
    const edge: SharedTriplet[] = Array.from({ length: MIN_VOTES }, (_, n) => {
      const queryT = 20 + n * 9;
      return { queryT, querySpan: 40, queryK: 50 + MAX_SHIFT_BINS + (n < 7 ? 0 : 1), refT: seconds(30) + queryT, refSpan: 40, refK: 50 };
    });
    assert.equal(atLeast(edge)?.votes, MIN_VOTES);
    assert.deepEqual(alignShared(edge, 'fitting', MIN_VOTES), atLeast(edge));
    const random = seededRandom(23);
    let found = 0;
    for (let n = 0; n < 120; n += 1) {
      const planted: Planted = {
        start: Math.floor(random() * seconds(200)),
        stretch: 0.93 + random() * 0.15,
        shift: Math.floor(random() * 7) - 3,
        count: 4 + Math.floor(random() * 14),
        queryFrames: seconds(4 + random() * 16),
      };
      const shared = sharedOf(random, planted, Math.floor(random() * 300), seconds(60), seconds(240));
      const expected = atLeast(shared);
      if (expected !== null) found += 1;
      for (const tally of ['fitting', 'map'] as const)
        assert.deepEqual(alignShared(shared, tally, MIN_VOTES), expected, `draw ${n}, ${tally}`);
    }
    assert.ok(found > 20 && found < 100, `${found} of 120 draws hold an alignment of ${MIN_VOTES}`);
  });

  it('drops the chance triplets of a whole song before tallying, never a triplet of an alignment of MIN_VOTES', () => {
    // Two songs of four minutes share thousands of triplets by chance. Planted among them:
    // copies of exactly MIN_VOTES agreeing triplets at the farthest stretches, spread over a whole
    // window of query time and over the start tolerance either way, the widest an alignment's
    // differences reach (ALIGNMENT_SPREAD_FRAMES).
    const random = seededRandom(31);
    const half = seconds(WINDOW_SECONDS / 2);
    const planted: SharedTriplet[] = [];
    for (const [copy, stretch] of [1 / MAX_STRETCH, MAX_STRETCH, 1].entries()) {
      // On a start bin's edge (8 frames a bin), so that starts up to 1.5 bins either side agree.
      const start = 8 * Math.round(seconds(30 + 60 * copy) / 8);
      const firstBlock = 4 + 8 * copy;
      for (let n = 0; n < MIN_VOTES; n += 1) {
        const queryT = firstBlock * half + Math.round((n * (2 * half - 1)) / (MIN_VOTES - 1));
        // The earliest start before the copy's, the latest after, the middle two on it: the slowest
        // copy, on the grid's first stretch, within a frame of the start tolerance (1.5 bins), the
        // others a bin.
        const jitter = Math.sign(n - (MIN_VOTES - 1) / 2) * (Math.abs(n - (MIN_VOTES - 1) / 2) < 1 ? 0 : copy === 0 ? 11 : 8);
        planted.push({ queryT, querySpan: 40, queryK: 50, refT: Math.round(start + jitter + queryT / stretch), refSpan: 40, refK: 50 });
      }
    }
    const spread = (copy: readonly SharedTriplet[]) => {
      const differences = copy.map((p) => p.refT - p.queryT);
      return Math.max(...differences) - Math.min(...differences);
    };
    assert.ok(
      spread(planted.slice(0, MIN_VOTES)) > ALIGNMENT_SPREAD_FRAMES - 10,
      `the slowest copy spreads its differences over ${spread(planted.slice(0, MIN_VOTES))} frames`,
    );
    // Within the matcher's pitch reach, as a third to a half of a real pair's are.
    const chance: SharedTriplet[] = Array.from({ length: 10_000 }, () => {
      const refK = 20 + Math.floor(random() * 60);
      return {
        queryT: Math.floor(random() * seconds(240)),
        querySpan: 6 + Math.floor(random() * 85),
        queryK: refK + Math.floor(random() * (2 * MAX_SHIFT_BINS + 3)) - MAX_SHIFT_BINS - 1,
        refT: Math.floor(random() * seconds(240)),
        refSpan: 6 + Math.floor(random() * 85),
        refK,
      };
    });
    const shared = [...chance, ...planted];
    const kept = new Set(onDenseDiagonals(shared, MIN_VOTES));
    for (const p of planted) assert.ok(kept.has(p), `planted triplet at query frame ${p.queryT} kept`);
    assert.ok(kept.size < shared.length / 10, `${kept.size} of ${shared.length} kept`);
    const unpruned = alignShared(shared);
    const alignment = alignShared(shared, 'fitting', MIN_VOTES);
    assert.ok(alignment !== null && alignment.votes >= MIN_VOTES);
    assert.deepEqual(alignment, unpruned !== null && unpruned.votes >= MIN_VOTES ? unpruned : null);
    for (const copy of [0, 1, 2]) {
      const alone = planted.slice(copy * MIN_VOTES, (copy + 1) * MIN_VOTES);
      assert.equal(onDenseDiagonals(alone, MIN_VOTES).length, MIN_VOTES, `copy ${copy} alone kept`);
      assert.equal(alignShared(alone, 'fitting', MIN_VOTES)?.votes, MIN_VOTES, `copy ${copy} alone matches`);
    }
  });

  it("fits a copy's stretch along the whole query far closer than one 10 s window of votes does", () => {
    const random = seededRandom(12);
    const windowErrors: number[] = [];
    const fittedErrors: number[] = [];
    for (let n = 0; n < 20; n += 1) {
      const stretch = 0.95 + random() * 0.1;
      const planted: Planted = { start: seconds(30 + random() * 100), stretch, shift: 0, count: 20, queryFrames: seconds(25) };
      // Each registered time a few frames off, as peaks picked from two spectrograms are.
      const shared = sharedOf(random, planted, 300, seconds(25), seconds(240)).map((p) => ({
        ...p,
        refT: p.refT + Math.round((random() - 0.5) * 20),
      }));
      const alignment = alignShared(shared, 'fitting', 5);
      assert.ok(alignment !== null, `draw ${n}`);
      const fitted = fitAlong(shared, alignment, 0, seconds(25));
      assert.equal(fitted.votes, alignment.votes);
      assert.equal(fitted.pitch, alignment.pitch);
      windowErrors.push(Math.abs(alignment.stretch - stretch));
      fittedErrors.push(Math.abs(fitted.stretch - stretch));
      // Where the copy starts in the registered sound, at the query's start.
      assert.ok(
        Math.abs(fitted.offsetSeconds - planted.start * FRAME_SECONDS) < 0.1,
        `draw ${n}: offset ${fitted.offsetSeconds} s of ${planted.start * FRAME_SECONDS} s`,
      );
      assert.ok(fitted.querySeconds > 20, `draw ${n}: spans ${fitted.querySeconds} s`);
    }
    const mean = (errors: number[]): number => errors.reduce((sum, e) => sum + e, 0) / errors.length;
    assert.ok(Math.max(...fittedErrors) < 0.0075, `fitted stretch off by ${Math.max(...fittedErrors)} at worst`);
    assert.ok(mean(windowErrors) > 3 * mean(fittedErrors), `window ${mean(windowErrors)}, fitted ${mean(fittedErrors)}`);
  });

  it('finds nothing in fewer than two triplets, or in triplets out of its pitch reach', () => {
    assert.equal(alignShared([]), null);
    const one: SharedTriplet = { queryT: 10, querySpan: 20, queryK: 40, refT: 500, refSpan: 20, refK: 40 };
    assert.equal(alignShared([one]), null);
    const transposed = Array.from({ length: 20 }, (_, i) => ({ ...one, queryT: 10 + 9 * i, refT: 500 + 9 * i, queryK: 45 }));
    assert.equal(alignShared(transposed), null);
    assert.equal(alignShared(transposed, 'map'), null);
  });
});
