/**
 * The built-in model: a small procedural music model expressed as an ONNX graph. It is not a
 * neural network; it is a development and CPU-only stand-in that exercises the same runtime path
 * as a real model (conditioning in, stereo PCM out) and sounds like music: a chord progression on
 * a pad, a bass line, a drum groove and a melody drawn from the key's scale.
 *
 * Inputs (see the manifest): `conditioning` float[12] from the text encoder, `seed` float[2],
 * `rhythm` float[16] (accent per sixteenth note, from the lyrics' syllables), `num_samples` int64[1],
 * `steps` int64[1]. Output: `audio` float[2, num_samples] (planar stereo, 44.1 kHz).
 *
 * `steps` drives two real loops: the melody latent is refined by `steps` denoising iterations
 * (annealed noise, chord-tone prior, smoothness), and the lead voice renders floor(steps / 9)
 * partials by a Chebyshev recurrence. Sections of the score are laid out on a grid of
 * sixteenth-note frames whose length follows the tempo, so every voice is computed as
 * [frames, frame_length] tensors with per-frame parameters broadcast over per-sample shapes.
 */
import { GraphBuilder, encodeModel } from './onnx-builder.ts';

export const BUILTIN_SAMPLE_RATE = 44100;
export const BUILTIN_MODEL_NAME = 'songmint-builtin-procedural';
export const BUILTIN_MODEL_VERSION = '1.0.0';

/** Conditioning vector layout; the text encoder writes these by name. */
export const CONDITIONING_FIELDS = [
  { name: 'bpm', default: 112, min: 50, max: 200, meaning: 'tempo in beats per minute' },
  { name: 'key', default: 0, min: 0, max: 11, meaning: 'tonic pitch class, 0 = C' },
  { name: 'minor', default: 0, min: 0, max: 1, meaning: '1 = natural minor, 0 = major' },
  { name: 'brightness', default: 0.5, min: 0, max: 1, meaning: 'lead partial roll-off, hats, bass drive' },
  { name: 'density', default: 0.5, min: 0, max: 1, meaning: 'melody note rate, hat and bass subdivision' },
  { name: 'drums', default: 0.8, min: 0, max: 1, meaning: 'drum level' },
  { name: 'bass', default: 0.8, min: 0, max: 1, meaning: 'bass level' },
  { name: 'pad', default: 0.6, min: 0, max: 1, meaning: 'chord pad level' },
  { name: 'lead', default: 0.7, min: 0, max: 1, meaning: 'melody level' },
  { name: 'groove', default: 0, min: 0, max: 2, meaning: '0 backbeat, 1 four-on-the-floor, 2 half-time' },
  { name: 'width', default: 0.6, min: 0, max: 1, meaning: 'stereo width of pad and hats' },
  { name: 'legato', default: 0.4, min: 0, max: 1, meaning: 'melody note decay length' },
] as const;

export type ConditioningName = (typeof CONDITIONING_FIELDS)[number]['name'];

const RATE = BUILTIN_SAMPLE_RATE;
const TWO_PI = 2 * Math.PI;
const MELODY_DEGREES = 14;
const MAX_PARTIALS = 8;

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

/** Builds the model bytes. Pure: the same code yields the same bytes. */
export function buildBuiltinModel(): Uint8Array {
  const g = new GraphBuilder('');
  const cond = g.input('conditioning', 'float', [CONDITIONING_FIELDS.length]);
  const seed = g.input('seed', 'float', [2]);
  const rhythm = g.input('rhythm', 'float', [16]);
  const numSamplesIn = g.input('num_samples', 'int64', [1]);
  const stepsIn = g.input('steps', 'int64', [1]);

  const scalarShape = g.i([], [0]);
  const scalar = (v: string): string => g.op('Reshape', [v, scalarShape]);
  const field = (name: ConditioningName): string => {
    const index = CONDITIONING_FIELDS.findIndex((f) => f.name === name);
    const def = CONDITIONING_FIELDS[index];
    if (def === undefined) throw new Error(`unknown conditioning field ${name}`);
    const raw = g.op('Gather', [cond, g.i(index)], { axis: { int: 0 } });
    return g.op('Clip', [raw, g.f(def.min), g.f(def.max)]);
  };
  const mul = (a: string, b: string): string => g.op('Mul', [a, b]);
  const add = (a: string, b: string): string => g.op('Add', [a, b]);
  const sub = (a: string, b: string): string => g.op('Sub', [a, b]);
  const toF = (v: string): string => g.op('Cast', [v], { to: { int: 1 } });
  const toI = (v: string): string => g.op('Cast', [v], { to: { int: 7 } });
  const unsq = (v: string, axes: number[]): string => g.op('Unsqueeze', [v, g.i(axes)]);
  const frac = (v: string): string => sub(v, g.op('Floor', [v]));
  const seedA = g.op('Gather', [seed, g.i(0)], { axis: { int: 0 } });
  const seedB = g.op('Gather', [seed, g.i(1)], { axis: { int: 0 } });
  const hashScale = add(g.f(43758.5453), seedB);
  /** Deterministic noise in [0,1) from a float tensor and a salt (sine hash). */
  const hash = (x: string, salt: number): string => {
    const arg = add(mul(x, g.f(12.9898)), add(g.f(salt * 7.31), seedA));
    return frac(mul(g.op('Sin', [arg]), hashScale));
  };
  const midiToHz = (midi: string): string =>
    mul(g.f(440), g.op('Exp', [mul(sub(midi, g.f(69)), g.f(Math.LN2 / 12))]));

  // Timing grid: a sixteenth note lasts S samples; bars are 16 steps; the song is padded to bars.
  const bpm = field('bpm');
  const stepLenF = g.op('Floor', [g.op('Div', [g.f(RATE * 15), bpm])]);
  const stepLen = toI(stepLenF);
  const numSamples = scalar(numSamplesIn);
  const steps = scalar(stepsIn);
  const barLen = mul(stepLen, g.i(16));
  const numBars = g.op('Div', [sub(add(numSamples, barLen), g.i(1)), barLen]);
  const numSteps = mul(numBars, g.i(16));
  const numEighths = mul(numBars, g.i(8));
  const paddedLen = mul(numBars, barLen);
  const stepIdx = g.op('Range', [g.i(0), numSteps, g.i(1)]);
  const stepIdxF = toF(stepIdx);
  const stepInBar = g.op('Mod', [stepIdx, g.i(16)]);
  const barOfStep = g.op('Div', [stepIdx, g.i(16)]);
  const barIdx = g.op('Range', [g.i(0), numBars, g.i(1)]);
  const eighthIdx = g.op('Range', [g.i(0), numEighths, g.i(1)]);
  const eighthInBar = g.op('Mod', [eighthIdx, g.i(8)]);
  const barOfEighth = g.op('Div', [eighthIdx, g.i(8)]);
  // Sections of 8 bars alternate verse and chorus; the chorus is louder and busier.
  const barEnergy = add(
    g.f(0.78),
    mul(g.f(0.22), toF(g.op('Mod', [g.op('Div', [barIdx, g.i(8)]), g.i(2)]))),
  );

  // Harmony: key, scale, a four-bar progression picked by the seed.
  const key = g.op('Mod', [toI(g.op('Floor', [field('key')])), g.i(12)]);
  const keyF = toF(key);
  const minorIdx = toI(g.op('Floor', [add(field('minor'), g.f(0.5))]));
  const scale = g.op('Gather', [g.i(SCALES.flat(), [2, 7]), minorIdx], { axis: { int: 0 } });
  const degToSemis = (deg: string): string =>
    add(mul(g.op('Div', [deg, g.i(7)]), g.i(12)), g.op('Gather', [scale, g.op('Mod', [deg, g.i(7)])], { axis: { int: 0 } }));
  const progPick = toI(g.op('Floor', [mul(hash(g.f(1000), 3), g.f(3.999))]));
  const progRow = add(mul(minorIdx, g.i(4)), progPick);
  const progression = g.op('Gather', [g.i(PROGRESSIONS.flat(), [8, 4]), progRow], { axis: { int: 0 } });
  const chordDeg = g.op('Gather', [progression, g.op('Mod', [barIdx, g.i(4)])], { axis: { int: 0 } });

  // ---- Melody: a latent over 14 scale degrees per sixteenth, refined `steps` times. ----
  const degGrid = g.i(Array.from({ length: MELODY_DEGREES }, (_, d) => d), [1, MELODY_DEGREES]);
  const chordOfStep = g.op('Gather', [chordDeg, barOfStep], { axis: { int: 0 } });
  const rel = g.op('Mod', [add(sub(degGrid, unsq(chordOfStep, [1])), g.i(70)), g.i(7)]);
  const isChordTone = toF(
    g.op('Or', [
      g.op('Or', [g.op('Equal', [rel, g.i(0)]), g.op('Equal', [rel, g.i(2)])]),
      g.op('Equal', [rel, g.i(4)]),
    ]),
  );
  const isStrong = toF(g.op('Equal', [g.op('Mod', [stepInBar, g.i(4)]), g.i(0)]));
  const centre = Array.from({ length: MELODY_DEGREES }, (_, d) => -0.5 * ((d - 6) / 6) ** 2);
  const prior = add(
    mul(isChordTone, add(g.f(1), mul(g.f(0.8), unsq(isStrong, [1])))),
    g.f(centre, [1, MELODY_DEGREES]),
  );
  const cellIndex = add(mul(unsq(stepIdxF, [1]), g.f(MELODY_DEGREES)), toF(degGrid));
  const latent0 = mul(sub(hash(cellIndex, 5), g.f(0.5)), g.f(2));
  const band = Array.from({ length: MELODY_DEGREES * MELODY_DEGREES }, (_, k) => {
    const i = Math.floor(k / MELODY_DEGREES);
    const j = k % MELODY_DEGREES;
    return Math.abs(i - j) <= 2 ? Math.exp(-((i - j) ** 2) / 2) : 0;
  });
  const bandMatrix = g.f(band, [MELODY_DEGREES, MELODY_DEGREES]);
  const stepsF = toF(steps);
  const lastStep = sub(numSteps, g.i(1));

  const body = new GraphBuilder('refine_');
  {
    const iter = body.input('refine_iter', 'int64', []);
    const condIn = body.input('refine_cond_in', 'bool', []);
    const x = body.input('refine_x_in', 'float', ['steps', MELODY_DEGREES]);
    const p = body.op('Softmax', [body.op('Mul', [x, body.f(3)])], { axis: { int: 1 } });
    const first = body.op('Slice', [p, body.i([0]), body.i([1]), body.i([0])]);
    const last = body.op('Slice', [p, body.op('Unsqueeze', [lastStep, body.i([0])]), body.i([Number.MAX_SAFE_INTEGER]), body.i([0])]);
    const prev = body.op('Concat', [first, body.op('Slice', [p, body.i([0]), body.op('Unsqueeze', [lastStep, body.i([0])]), body.i([0])])], { axis: { int: 0 } });
    const next = body.op('Concat', [body.op('Slice', [p, body.i([1]), body.i([Number.MAX_SAFE_INTEGER]), body.i([0])]), last], { axis: { int: 0 } });
    const neighbours = body.op('MatMul', [body.op('Mul', [body.op('Add', [prev, next]), body.f(0.5)]), bandMatrix]);
    const target = body.op('Add', [prior, body.op('Mul', [neighbours, body.f(1.5)])]);
    const iterF = body.op('Cast', [iter], { to: { int: 1 } });
    const remaining = body.op('Sub', [body.f(1), body.op('Div', [iterF, stepsF])]);
    const sigma = body.op('Mul', [body.op('Mul', [remaining, remaining]), body.f(0.9)]);
    const noiseArg = body.op('Add', [cellIndex, body.op('Mul', [iterF, body.f(7919)])]);
    const noiseRaw = body.op('Sin', [
      body.op('Add', [body.op('Mul', [noiseArg, body.f(12.9898)]), body.op('Add', [body.f(17 * 7.31), seedA])]),
    ]);
    const noiseScaled = body.op('Mul', [noiseRaw, hashScale]);
    const noise = body.op('Sub', [body.op('Sub', [noiseScaled, body.op('Floor', [noiseScaled])]), body.f(0.5)]);
    const pull = body.op('Mul', [body.op('Sub', [target, x]), body.f(0.15)]);
    const xNext = body.op('Add', [body.op('Add', [x, pull]), body.op('Mul', [sigma, noise])]);
    body.output(condIn, 'refine_cond_out', 'bool', []);
    body.output(xNext, 'refine_x_out', 'float', ['steps', MELODY_DEGREES]);
  }
  const trueConst = g.op('Cast', [g.i(1)], { to: { int: 9 } });
  const latent = g.op('Loop', [steps, trueConst, latent0], { body: { graph: body.graph('refine') } });
  const melodyDeg = g.op('ArgMax', [latent], { axis: { int: 1 }, keepdims: { int: 0 } });

  // Note onsets: the lyrics' accent pattern, the density and the seed; every bar starts a note.
  const density = field('density');
  const accent = g.op('Gather', [rhythm, stepInBar], { axis: { int: 0 } });
  const onsetScore = add(mul(accent, add(g.f(0.35), mul(density, g.f(0.8)))), mul(hash(stepIdxF, 11), g.f(0.35)));
  const isBarStart = toF(g.op('Equal', [stepInBar, g.i(0)]));
  const gate = g.op('Max', [toF(g.op('Greater', [onsetScore, g.f(0.62)])), isBarStart]);
  const notGate = sub(g.f(1), gate);
  // Steps since the last onset (at most 15: every bar starts a note), by a fixed-point loop.
  const since = new GraphBuilder('since_');
  {
    since.input('since_iter', 'int64', []);
    const c = since.input('since_cond_in', 'bool', []);
    const k = since.input('since_k_in', 'float', ['steps']);
    const shifted = since.op('Concat', [since.f([0]), since.op('Slice', [k, since.i([0]), since.op('Unsqueeze', [lastStep, since.i([0])]), since.i([0])])], { axis: { int: 0 } });
    const kNext = since.op('Mul', [notGate, since.op('Add', [shifted, since.f(1)])]);
    since.output(c, 'since_cond_out', 'bool', []);
    since.output(kNext, 'since_k_out', 'float', ['steps']);
  }
  const sinceOnset = g.op('Loop', [g.i(15), trueConst, mul(notGate, g.f(0))], { body: { graph: since.graph('since') } });
  const onsetStep = sub(stepIdx, toI(sinceOnset));
  const heldDeg = g.op('Gather', [melodyDeg, onsetStep], { axis: { int: 0 } });
  const leadMidi = add(add(g.f(60), keyF), toF(degToSemis(heldDeg)));
  const leadHz = midiToHz(leadMidi);
  const velocity = g.op('Gather', [add(g.f(0.7), mul(accent, g.f(0.3))), onsetStep], { axis: { int: 0 } });

  // Per-sample shapes within a step frame.
  const tStep = g.op('Div', [toF(g.op('Range', [g.i(0), stepLen, g.i(1)])), g.f(RATE)]);
  const tStepRow = unsq(tStep, [0]);
  const stepOffsetSec = g.op('Div', [mul(toF(stepInBar), stepLenF), g.f(RATE)]);
  const tInBar = add(unsq(stepOffsetSec, [1]), tStepRow);
  const theta = mul(unsq(mul(leadHz, g.f(TWO_PI)), [1]), tInBar);
  const sin1 = g.op('Sin', [theta]);
  const twoCos = mul(g.op('Cos', [theta]), g.f(2));
  const brightness = field('brightness');
  const rolloff = add(g.f(0.3), mul(brightness, g.f(0.6)));
  const partialWeights = g.op('Div', [
    g.op('Pow', [rolloff, g.f(Array.from({ length: MAX_PARTIALS }, (_, k) => k))]),
    g.f(Array.from({ length: MAX_PARTIALS }, (_, k) => k + 1)),
  ]);
  const partials = g.op('Min', [g.op('Div', [steps, g.i(9)]), g.i(MAX_PARTIALS)]);
  const extraPartials = sub(partials, g.i(1));
  const cheb = new GraphBuilder('partial_');
  {
    const iter = cheb.input('partial_iter', 'int64', []);
    const c = cheb.input('partial_cond_in', 'bool', []);
    const sPrev = cheb.input('partial_prev_in', 'float', ['frames', 'frame_len']);
    const sCur = cheb.input('partial_cur_in', 'float', ['frames', 'frame_len']);
    const acc = cheb.input('partial_acc_in', 'float', ['frames', 'frame_len']);
    const sNext = cheb.op('Sub', [cheb.op('Mul', [twoCos, sCur]), sPrev]);
    const weight = cheb.op('Gather', [partialWeights, cheb.op('Add', [iter, cheb.i(1)])], { axis: { int: 0 } });
    const accNext = cheb.op('Add', [acc, cheb.op('Mul', [sNext, weight])]);
    cheb.output(c, 'partial_cond_out', 'bool', []);
    cheb.output(sCur, 'partial_prev_out', 'float', ['frames', 'frame_len']);
    cheb.output(sNext, 'partial_cur_out', 'float', ['frames', 'frame_len']);
    cheb.output(accNext, 'partial_acc_out', 'float', ['frames', 'frame_len']);
  }
  const zeros = mul(sin1, g.f(0));
  const [, , leadTone] = g.opN('Loop', [extraPartials, trueConst, zeros, sin1, sin1], 3, {
    body: { graph: cheb.graph('partials') },
  });
  if (leadTone === undefined) throw new Error('unreachable: Loop has three outputs');
  // Envelope: onset frames ramp in and decay; held frames continue the decay of their onset.
  const legato = field('legato');
  const tau = add(g.f(0.12), mul(legato, g.f(0.9)));
  const decayRow = g.op('Exp', [g.op('Neg', [g.op('Div', [tStepRow, tau])])]);
  const rampRow = g.op('Min', [g.op('Div', [tStepRow, g.f(0.008)]), g.f(1)]);
  const onsetRow = mul(rampRow, decayRow);
  const stepSec = g.op('Div', [stepLenF, g.f(RATE)]);
  const heldLevel = g.op('Exp', [g.op('Neg', [g.op('Div', [mul(sinceOnset, stepSec), tau])])]);
  const leadLevel = mul(field('lead'), g.f(0.22));
  const stepEnergy = g.op('Gather', [barEnergy, barOfStep], { axis: { int: 0 } });
  const leadAmp = mul(mul(velocity, leadLevel), stepEnergy);
  const envOnset = mul(unsq(mul(leadAmp, gate), [1]), onsetRow);
  const envHeld = mul(unsq(mul(mul(leadAmp, notGate), heldLevel), [1]), decayRow);
  // A note followed by a new onset fades out over the last 6 ms of its step (no click).
  const nextGate = g.op('Concat', [g.op('Slice', [gate, g.i([1]), g.i([Number.MAX_SAFE_INTEGER]), g.i([0])]), g.f([1])], { axis: { int: 0 } });
  const cutRow = sub(g.f(1), g.op('Clip', [g.op('Div', [sub(stepSec, tStepRow), g.f(0.006)]), g.f(0), g.f(1)]));
  const release = sub(g.f(1), mul(unsq(nextGate, [1]), cutRow));
  const lead = mul(mul(leadTone, add(envOnset, envHeld)), release);

  // Hi-hats on the step grid: high-passed noise bursts; density picks sixteenths or eighths.
  const width = field('width');
  const tStepIndexF = toF(g.op('Range', [g.i(0), stepLen, g.i(1)]));
  const hatNoise = hash(tStepIndexF, 23);
  const hatNoiseNext = hash(add(tStepIndexF, g.f(1)), 23);
  const stepRelease = g.op('Clip', [g.op('Div', [sub(g.op('Div', [stepLenF, g.f(RATE)]), tStep), g.f(0.004)]), g.f(0), g.f(1)]);
  const hatShape = mul(mul(sub(hatNoise, hatNoiseNext), g.op('Exp', [g.op('Neg', [g.op('Div', [tStep, g.f(0.025)])])])), stepRelease);
  const offEighth = toF(g.op('Equal', [g.op('Mod', [stepInBar, g.i(2)]), g.i(1)]));
  const sixteenths = toF(g.op('Greater', [density, g.f(0.6)]));
  const hatOn = add(sub(g.f(1), offEighth), mul(offEighth, sixteenths));
  const hatAccent = add(g.f(0.55), mul(toF(g.op('Equal', [g.op('Mod', [stepInBar, g.i(4)]), g.i(2)])), g.f(0.45)));
  const hatLevel = mul(mul(field('drums'), add(g.f(0.015), mul(brightness, g.f(0.2)))), stepEnergy);
  const hatAmp = mul(mul(hatOn, hatAccent), hatLevel);
  const hatL = mul(unsq(mul(hatAmp, sub(g.f(1), mul(width, g.f(0.5)))), [1]), unsq(hatShape, [0]));
  const hatR = mul(unsq(hatAmp, [1]), unsq(hatShape, [0]));
  const stepL = add(lead, hatL);
  const stepR = add(mul(lead, sub(g.f(1), mul(width, g.f(0.35)))), hatR);

  // ---- Eighth-note grid: bass and kick/snare. ----
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
  const drums = add(
    mul(unsq(kickAmp, [1]), unsq(kickShape, [0])),
    mul(unsq(snareAmp, [1]), unsq(snareShape, [0])),
  );
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
  const centre8 = add(bass, drums);

  // ---- Bar grid: the chord pad (three chord tones), its right channel delayed for width. ----
  const padDeg = add(unsq(chordDeg, [1]), g.i([0, 2, 4], [1, 3]));
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
  const pad = mul(padVoices, mul(unsq(mul(barEnergy, padLevel), [1]), unsq(padEnvRow, [0])));

  // ---- Mix to stereo over the padded length, then trim to the exact sample count. ----
  const flat = g.i([-1]);
  const padFlat = g.op('Reshape', [pad, flat]);
  const delay = toI(g.op('Floor', [add(g.f(1), mul(width, g.f(RATE * 0.014)))]));
  const padDelayed = g.op('Pad', [
    g.op('Slice', [padFlat, g.i([0]), unsq(sub(paddedLen, delay), [0]), g.i([0])]),
    g.op('Concat', [unsq(delay, [0]), g.i([0])], { axis: { int: 0 } }),
  ]);
  const centreFlat = g.op('Reshape', [centre8, flat]);
  const left = add(add(padFlat, centreFlat), g.op('Reshape', [stepL, flat]));
  const right = add(add(padDelayed, centreFlat), g.op('Reshape', [stepR, flat]));
  // A 1.5 s fade-out at the very end (computed on the bar grid, no per-sample index), then a
  // soft limiter, then the exact sample count.
  const fadeSamples = RATE * 1.5;
  const barStartLeft = g.op('Div', [toF(sub(numSamples, mul(barIdx, barLen))), g.f(fadeSamples)]);
  const fadeGrid = sub(unsq(barStartLeft, [1]), unsq(g.op('Div', [toF(g.op('Range', [g.i(0), barLen, g.i(1)])), g.f(fadeSamples)]), [0]));
  const gain = g.op('Reshape', [mul(g.op('Min', [fadeGrid, g.f(1)]), g.f(1.1)), g.i([1, -1])]);
  const stereo = g.op('Concat', [unsq(left, [0]), unsq(right, [0])], { axis: { int: 0 } });
  const trimmed = g.op('Slice', [mul(stereo, gain), g.i([0]), unsq(numSamples, [0]), g.i([1])]);
  const audio = g.op('Tanh', [trimmed]);
  g.output(audio, 'audio', 'float', [2, 'num_samples']);

  return encodeModel(
    g.graph('songmint_builtin'),
    'Songmint built-in procedural music model (development and CPU-only hosts); built by scripts/build-model.ts.',
  );
}
