/**
 * The melody line on the sixteenth-note grid: a latent over 14 scale degrees per step, refined by
 * `steps` annealed denoising iterations (an ONNX Loop) towards chord tones and smooth motion; note
 * onsets from the lyrics' accent pattern, the density and the seed; each step holds the pitch of
 * its last onset.
 */
import { GraphBuilder } from '../onnx-builder.ts';
import type { GraphOps } from './graph-ops.ts';
import type { Harmony } from './harmony.ts';
import type { TimingGrid } from './timing-grid.ts';

const MELODY_DEGREES = 14;

export type Melody = ReturnType<typeof melody>;

export function melody(ops: GraphOps, grid: TimingGrid, { keyF, chordDeg, degToSemis }: Harmony, rhythm: string) {
  const { g, field, mul, add, sub, toF, toI, unsq, hash, midiToHz, seedA, hashScale } = ops;
  const { steps, numSteps, stepIdx, stepIdxF, stepInBar, barOfStep } = grid;

  // The latent and its prior: chord tones (stronger on beats) near the middle of the range.
  const degGrid = g.i(
    Array.from({ length: MELODY_DEGREES }, (_, d) => d),
    [1, MELODY_DEGREES],
  );
  const chordOfStep = g.op('Gather', [chordDeg, barOfStep], { axis: { int: 0 } });
  const rel = g.op('Mod', [add(sub(degGrid, unsq(chordOfStep, [1])), g.i(70)), g.i(7)]);
  const isChordTone = toF(
    g.op('Or', [g.op('Or', [g.op('Equal', [rel, g.i(0)]), g.op('Equal', [rel, g.i(2)])]), g.op('Equal', [rel, g.i(4)])]),
  );
  const isStrong = toF(g.op('Equal', [g.op('Mod', [stepInBar, g.i(4)]), g.i(0)]));
  const centre = Array.from({ length: MELODY_DEGREES }, (_, d) => -0.5 * ((d - 6) / 6) ** 2);
  // The seed's own leaning, per half bar and chord tone over the four-bar phrase: which chord tones
  // the line favours (without it the refinement settled on the same line for every seed; issue 50).
  // Chord tones only, so the line stays in the key.
  const halfBarOfPhrase = toF(g.op('Mod', [g.op('Div', [stepIdx, g.i(8)]), g.i(8)]));
  const leaningNoise = hash(add(mul(unsq(halfBarOfPhrase, [1]), g.f(MELODY_DEGREES)), add(toF(degGrid), g.f(5000))), 41);
  const leaning = mul(mul(leaningNoise, g.f(1.5)), isChordTone);
  const prior = add(add(mul(isChordTone, add(g.f(1), mul(g.f(0.8), unsq(isStrong, [1])))), g.f(centre, [1, MELODY_DEGREES])), leaning);
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
    const prev = body.op(
      'Concat',
      [first, body.op('Slice', [p, body.i([0]), body.op('Unsqueeze', [lastStep, body.i([0])]), body.i([0])])],
      { axis: { int: 0 } },
    );
    const next = body.op('Concat', [body.op('Slice', [p, body.i([1]), body.i([Number.MAX_SAFE_INTEGER]), body.i([0])]), last], {
      axis: { int: 0 },
    });
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
    const shifted = since.op(
      'Concat',
      [since.f([0]), since.op('Slice', [k, since.i([0]), since.op('Unsqueeze', [lastStep, since.i([0])]), since.i([0])])],
      { axis: { int: 0 } },
    );
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
  return { trueConst, density, gate, notGate, sinceOnset, leadHz, velocity };
}
