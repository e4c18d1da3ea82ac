/**
 * The eighth-note grid: kick (a swept sine) and snare (noise plus a tone) on the groove's pattern,
 * and a driven bass on the chord roots two octaves down, on the kick pattern or every eighth when
 * dense. Returns the mono centre signal as [eighths, eighth_length] frames.
 *
 * Why the seed draws a kit and a riff (issue 50): with the drums' tuning, the snare's pattern and
 * the bass line fixed by the prompt, two seeds of one prompt shared their whole accompaniment at
 * one tempo, and the landmark fingerprint matched them (with the lead silent, a median of 17
 * agreeing votes against a threshold of 10). The seed now tunes the kick (100-150 Hz) and the
 * snare's tone (150-270 Hz), adds ghost snares on free slots, and writes the bass riff: the
 * root, fifth or octave per slot and extra notes off the kick (docs/fingerprints.md, "Seeds of
 * one prompt").
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

/** Ghost snares: each free slot of the bar is one with this chance per song, at this level. */
const GHOST_SHARE = 0.3;
const GHOST_LEVEL = 0.35;
/** The bass riff's notes above the chord root (semitones), drawn per slot, and its extra slots' chance. */
const RIFF_INTERVALS = [0, 0, 7, 12];
const RIFF_EXTRA_SHARE = 0.35;

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
  // The seed's kit and parts: drum tunings, ghost snares and the bass riff, drawn once per song.
  const kit = hash(g.f([2001, 2002], [2]), 53);
  const drawOf = (i: number): string => g.op('Gather', [kit, g.i(i)], { axis: { int: 0 } });
  const slots = g.f([2011, 2012, 2013, 2014, 2015, 2016, 2017, 2018], [8]);
  const ghostDraw = hash(slots, 57);
  const bassRhythmDraw = hash(slots, 59);
  const bassNoteDraw = hash(slots, 61);
  const snareAt = g.op('Gather', [snarePat, eighthInBar], { axis: { int: 0 } });
  const ghostPat = mul(
    mul(toF(g.op('Less', [ghostDraw, g.f(GHOST_SHARE)])), sub(g.f(1), g.op('Max', [snarePat, kickPat]))),
    g.f(GHOST_LEVEL),
  );
  const ghostAt = g.op('Gather', [ghostPat, eighthInBar], { axis: { int: 0 } });
  const kickAmp = mul(g.op('Gather', [kickPat, eighthInBar], { axis: { int: 0 } }), mul(drumLevel, g.f(0.55)));
  const snareAmp = mul(add(snareAt, ghostAt), mul(drumLevel, g.f(0.32)));
  // Kick: a sine swept from its tuning (100-150 Hz) to 48 Hz; its phase is the integral of the sweep.
  const kickTop = add(g.f(100), mul(drawOf(0), g.f(50)));
  const sweep = sub(g.f(1), g.op('Exp', [g.op('Neg', [g.op('Div', [tEighth, g.f(0.03)])])]));
  const kickPhase = mul(g.f(TWO_PI), add(mul(tEighth, g.f(48)), mul(sweep, mul(sub(kickTop, g.f(48)), g.f(0.03)))));
  const releaseEighth = g.op('Clip', [g.op('Div', [sub(eighthSec, tEighth), g.f(0.01)]), g.f(0), g.f(1)]);
  const kickShape = mul(mul(g.op('Sin', [kickPhase]), g.op('Exp', [g.op('Neg', [g.op('Div', [tEighth, g.f(0.09)])])])), releaseEighth);
  const eighthIndexF = toF(g.op('Range', [g.i(0), eighthLen, g.i(1)]));
  const snareNoise = sub(hash(eighthIndexF, 31), g.f(0.5));
  const snareHz = mul(g.f(150), g.op('Exp', [mul(drawOf(1), g.f(0.85 * Math.LN2))]));
  const snareTone = g.op('Sin', [mul(tEighth, mul(snareHz, g.f(TWO_PI)))]);
  const snareShape = mul(
    add(mul(snareNoise, add(g.f(0.5), mul(brightness, g.f(1.3)))), mul(snareTone, g.f(0.5))),
    mul(g.op('Exp', [g.op('Neg', [g.op('Div', [tEighth, g.f(0.06)])])]), releaseEighth),
  );
  const drums = add(mul(unsq(kickAmp, [1]), unsq(kickShape, [0])), mul(unsq(snareAmp, [1]), unsq(snareShape, [0])));
  // Bass: chord root two octaves down, on the kick pattern or every eighth when dense.
  const bassMidiBar = add(add(g.f(36), keyF), toF(degToSemis(chordDeg)));
  // The riff's note per slot: the root, its fifth or its octave (the bar's first eighth keeps the root).
  const riffChoice = toI(g.op('Floor', [mul(bassNoteDraw, g.f(RIFF_INTERVALS.length - 0.001))]));
  const riffSemis = mul(g.op('Gather', [g.f(RIFF_INTERVALS), riffChoice], { axis: { int: 0 } }), g.f([0, 1, 1, 1, 1, 1, 1, 1], [8]));
  const bassMidi = add(
    g.op('Gather', [bassMidiBar, barOfEighth], { axis: { int: 0 } }),
    g.op('Gather', [riffSemis, eighthInBar], { axis: { int: 0 } }),
  );
  const bassHz = midiToHz(bassMidi);
  const busy = mul(toF(g.op('Greater', [density, g.f(0.45)])), g.f(0.6));
  const riffRhythm = mul(toF(g.op('Less', [bassRhythmDraw, g.f(RIFF_EXTRA_SHARE)])), g.f(0.7));
  const bassPattern = g.op('Max', [g.op('Gather', [g.op('Max', [kickPat, riffRhythm]), eighthInBar], { axis: { int: 0 } }), busy]);
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
