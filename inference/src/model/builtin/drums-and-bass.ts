/**
 * The eighth-note grid: kick (a swept sine) and snare (noise plus a tone) on the groove's pattern,
 * and a driven bass on the chord roots two octaves down, on the kick pattern or every eighth when
 * dense. Returns the mono centre signal as [eighths, eighth_length] frames.
 */
import { BUILTIN_SAMPLE_RATE as RATE } from './conditioning.ts';
import { TWO_PI } from './graph-ops.ts';
import type { GraphOps } from './graph-ops.ts';
import type { Harmony } from './harmony.ts';
import type { LeadVoice } from './lead-voice.ts';
import type { Melody } from './melody.ts';
import type { TimingGrid } from './timing-grid.ts';

/** Per groove, eight eighth-note slots of a bar: kick then snare. */
const KICK_PATTERNS = [
  [1, 0, 0, 0, 1, 0.8, 0, 0],
  [1, 0, 1, 0, 1, 0, 1, 0],
  [1, 0, 0, 0.8, 0, 0, 0.7, 0],
];
const SNARE_PATTERNS = [
  [0, 0, 1, 0, 0, 0, 1, 0],
  [0, 0, 1, 0, 0, 0, 1, 0],
  [0, 0, 0, 0, 1, 0, 0, 0],
];

export function drumsAndBass(
  ops: GraphOps,
  grid: TimingGrid,
  { keyF, chordDeg, degToSemis }: Harmony,
  { density }: Melody,
  { brightness }: LeadVoice,
): string {
  const { g, field, mul, add, sub, toF, toI, unsq, hash, midiToHz } = ops;
  const { stepLen, eighthInBar, barOfEighth, barEnergy } = grid;
  const eighthLen = mul(stepLen, g.i(2));
  const tEighth = g.op('Div', [toF(g.op('Range', [g.i(0), eighthLen, g.i(1)])), g.f(RATE)]);
  const tEighthRow = unsq(tEighth, [0]);
  const eighthSec = g.op('Div', [toF(eighthLen), g.f(RATE)]);
  const groove = toI(g.op('Floor', [add(field('groove'), g.f(0.5))]));
  const kickPat = g.op('Gather', [g.f(KICK_PATTERNS.flat(), [3, 8]), groove], { axis: { int: 0 } });
  const snarePat = g.op('Gather', [g.f(SNARE_PATTERNS.flat(), [3, 8]), groove], { axis: { int: 0 } });
  const eighthEnergy = g.op('Gather', [barEnergy, barOfEighth], { axis: { int: 0 } });
  const drumLevel = mul(field('drums'), eighthEnergy);
  const kickAmp = mul(g.op('Gather', [kickPat, eighthInBar], { axis: { int: 0 } }), mul(drumLevel, g.f(0.55)));
  const snareAmp = mul(g.op('Gather', [snarePat, eighthInBar], { axis: { int: 0 } }), mul(drumLevel, g.f(0.32)));
  // Kick: a sine swept from 150 Hz to 48 Hz; its phase is the integral of the sweep.
  const sweep = sub(g.f(1), g.op('Exp', [g.op('Neg', [g.op('Div', [tEighth, g.f(0.03)])])]));
  const kickPhase = mul(g.f(TWO_PI), add(mul(tEighth, g.f(48)), mul(sweep, g.f((150 - 48) * 0.03))));
  const releaseEighth = g.op('Clip', [g.op('Div', [sub(eighthSec, tEighth), g.f(0.01)]), g.f(0), g.f(1)]);
  const kickShape = mul(mul(g.op('Sin', [kickPhase]), g.op('Exp', [g.op('Neg', [g.op('Div', [tEighth, g.f(0.09)])])])), releaseEighth);
  const eighthIndexF = toF(g.op('Range', [g.i(0), eighthLen, g.i(1)]));
  const snareNoise = sub(hash(eighthIndexF, 31), g.f(0.5));
  const snareTone = g.op('Sin', [mul(tEighth, g.f(TWO_PI * 185))]);
  const snareShape = mul(
    add(mul(snareNoise, add(g.f(0.5), mul(brightness, g.f(1.3)))), mul(snareTone, g.f(0.5))),
    mul(g.op('Exp', [g.op('Neg', [g.op('Div', [tEighth, g.f(0.06)])])]), releaseEighth),
  );
  const drums = add(mul(unsq(kickAmp, [1]), unsq(kickShape, [0])), mul(unsq(snareAmp, [1]), unsq(snareShape, [0])));
  // Bass: chord root two octaves down, on the kick pattern or every eighth when dense.
  const bassMidi = add(add(g.f(36), keyF), toF(degToSemis(chordDeg)));
  const bassHzBar = midiToHz(bassMidi);
  const bassHz = g.op('Gather', [bassHzBar, barOfEighth], { axis: { int: 0 } });
  const busy = mul(toF(g.op('Greater', [density, g.f(0.45)])), g.f(0.6));
  const bassPattern = g.op('Max', [g.op('Gather', [kickPat, eighthInBar], { axis: { int: 0 } }), busy]);
  const bassAmp = mul(mul(bassPattern, mul(field('bass'), g.f(0.3))), eighthEnergy);
  const bassTheta = mul(unsq(mul(bassHz, g.f(TWO_PI)), [1]), tEighthRow);
  const drive = add(g.f(1.2), mul(brightness, g.f(2.5)));
  const bassTone = g.op('Tanh', [mul(g.op('Sin', [bassTheta]), drive)]);
  const bassEnvRow = mul(
    mul(g.op('Min', [g.op('Div', [tEighthRow, g.f(0.005)]), g.f(1)]), g.op('Exp', [g.op('Neg', [g.op('Div', [tEighthRow, g.f(0.35)])])])),
    unsq(releaseEighth, [0]),
  );
  const bass = mul(bassTone, mul(unsq(bassAmp, [1]), bassEnvRow));
  return add(bass, drums);
}
