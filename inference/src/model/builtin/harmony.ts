/** Harmony: the key and scale from the conditioning, and a four-bar chord progression picked by the seed. */
import type { GraphOps } from './graph-ops.ts';
import type { TimingGrid } from './timing-grid.ts';

/** Scale degrees of four-bar progressions: rows 0-3 major, 4-7 minor. */
const PROGRESSIONS = [
  [0, 4, 5, 3],
  [0, 5, 3, 4],
  [5, 3, 0, 4],
  [0, 3, 4, 3],
  [0, 5, 2, 6],
  [0, 3, 6, 2],
  [0, 5, 3, 4],
  [0, 6, 5, 6],
];
const SCALES = [
  [0, 2, 4, 5, 7, 9, 11],
  [0, 2, 3, 5, 7, 8, 10],
];

export interface Harmony {
  /** Tonic pitch class as float. */
  keyF: string;
  /** Chord degree (scale degree of the root) per bar. */
  chordDeg: string;
  /** Semitones above the tonic of an int64 scale-degree tensor (octaves included). */
  degToSemis(deg: string): string;
}

export function harmony({ g, field, mul, add, toF, toI, hash }: GraphOps, grid: TimingGrid): Harmony {
  const key = g.op('Mod', [toI(g.op('Floor', [field('key')])), g.i(12)]);
  const keyF = toF(key);
  const minorIdx = toI(g.op('Floor', [add(field('minor'), g.f(0.5))]));
  const scale = g.op('Gather', [g.i(SCALES.flat(), [2, 7]), minorIdx], { axis: { int: 0 } });
  const degToSemis = (deg: string): string =>
    add(mul(g.op('Div', [deg, g.i(7)]), g.i(12)), g.op('Gather', [scale, g.op('Mod', [deg, g.i(7)])], { axis: { int: 0 } }));
  const progPick = toI(g.op('Floor', [mul(hash(g.f(1000), 3), g.f(3.999))]));
  const progRow = add(mul(minorIdx, g.i(4)), progPick);
  const progression = g.op('Gather', [g.i(PROGRESSIONS.flat(), [8, 4]), progRow], { axis: { int: 0 } });
  const chordDeg = g.op('Gather', [progression, g.op('Mod', [grid.barIdx, g.i(4)])], { axis: { int: 0 } });
  return { keyF, chordDeg, degToSemis };
}
