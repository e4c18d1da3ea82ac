/**
 * Harmony: the key and scale from the conditioning, and a four-bar chord progression drawn by the
 * seed (issue 50: two seeds of one prompt must be as far apart as two prompts; four fixed
 * progressions per mode made one seed in four share its chords, and with them most of its
 * chroma, with another; with 24 per mode, the seed pairs that drew the same one still held most
 * of the sibling pairs the landmark fingerprint matched). The phrase is a cadence, so the key
 * stays audible (an import reads it back): the tonic, two different chords of the mode's usual
 * ones, then the dominant, subdominant or supertonic side. 5 x 4 x 3 = 60 progressions per mode.
 */
import type { GraphOps } from './graph-ops.ts';
import type { TimingGrid } from './timing-grid.ts';

/** Bars 2 and 3 (different chords): major ii iii IV vi I, minor iv III VI VII i. */
const MIDDLE_DEGREES = [
  [1, 2, 3, 5, 0],
  [3, 2, 5, 6, 0],
];
/** Bar 4: major V, IV or ii, minor v, VII or iv. */
const CLOSING_DEGREES = [
  [4, 3, 1],
  [4, 6, 3],
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
  const draws = hash(g.f([1001, 1002, 1003], [3]), 3);
  const draw = (bar: number, choices: number): string =>
    toI(g.op('Floor', [mul(g.op('Gather', [draws, g.i(bar)], { axis: { int: 0 } }), g.f(choices - 0.001))]));
  const middleChoices = MIDDLE_DEGREES[0]?.length ?? 0;
  const closingChoices = CLOSING_DEGREES[0]?.length ?? 0;
  const second = draw(0, middleChoices);
  const third = g.op('Mod', [add(add(second, g.i(1)), draw(1, middleChoices - 1)), g.i(middleChoices)]);
  const closing = draw(2, closingChoices);
  const middle = g.op('Gather', [g.i(MIDDLE_DEGREES.flat(), [2, middleChoices]), minorIdx], { axis: { int: 0 } });
  const closings = g.op('Gather', [g.i(CLOSING_DEGREES.flat(), [2, closingChoices]), minorIdx], { axis: { int: 0 } });
  const at = (row: string, index: string): string => g.op('Unsqueeze', [g.op('Gather', [row, index], { axis: { int: 0 } }), g.i([0])]);
  const progression = g.op('Concat', [g.i([0], [1]), at(middle, second), at(middle, third), at(closings, closing)], { axis: { int: 0 } });
  const chordDeg = g.op('Gather', [progression, g.op('Mod', [grid.barIdx, g.i(4)])], { axis: { int: 0 } });
  return { keyF, chordDeg, degToSemis };
}
