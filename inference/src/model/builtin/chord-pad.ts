/** The chord pad on the bar grid: three chord tones per bar with a slow attack, as [bars, bar_length] frames. */
import { BUILTIN_SAMPLE_RATE as RATE } from './conditioning.ts';
import { TWO_PI } from './graph-ops.ts';
import type { GraphOps } from './graph-ops.ts';
import type { Harmony } from './harmony.ts';
import type { TimingGrid } from './timing-grid.ts';

/** Scale degrees above the chord root: root position, first and second inversion. */
const VOICINGS = [
  [0, 2, 4],
  [2, 4, 7],
  [4, 7, 9],
];

export function chordPad(
  { g, field, mul, add, sub, toF, toI, unsq, hash, midiToHz }: GraphOps,
  { barLen, barEnergy }: TimingGrid,
  { keyF, chordDeg, degToSemis }: Harmony,
): string {
  // The seed's voicing: root position or an inversion, for the whole song.
  const inversion = toI(g.op('Floor', [mul(hash(g.f([3001], [1]), 67), g.f(VOICINGS.length - 0.001))]));
  const voicing = g.op('Gather', [g.i(VOICINGS.flat(), [VOICINGS.length, 3]), inversion], { axis: { int: 0 } });
  const padDeg = add(unsq(chordDeg, [1]), voicing);
  const padHz = midiToHz(add(add(g.f(48), keyF), toF(degToSemis(padDeg))));
  const tBar = g.op('Div', [toF(g.op('Range', [g.i(0), barLen, g.i(1)])), g.f(RATE)]);
  const padTheta = mul(unsq(mul(padHz, g.f(TWO_PI)), [2]), unsq(tBar, [0, 1]));
  const padVoices = g.op('ReduceSum', [g.op('Sin', [padTheta]), g.i([1])], { keepdims: { int: 0 } });
  const barSec = g.op('Div', [toF(barLen), g.f(RATE)]);
  const padEnvRow = mul(
    mul(g.op('Min', [g.op('Div', [tBar, g.f(0.25)]), g.f(1)]), sub(g.f(1), mul(g.op('Div', [tBar, barSec]), g.f(0.35)))),
    g.op('Clip', [g.op('Div', [sub(barSec, tBar), g.f(0.04)]), g.f(0), g.f(1)]),
  );
  const padLevel = mul(field('pad'), g.f(0.06));
  return mul(padVoices, mul(unsq(mul(barEnergy, padLevel), [1]), unsq(padEnvRow, [0])));
}
