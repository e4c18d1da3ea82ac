/**
 * The lead voice that sings the melody: floor(steps / 9) partials (at most 8) by a Chebyshev
 * recurrence in an ONNX Loop, an onset ramp and a two-stage decay that held steps continue, a
 * struck attack on the second and third partials, re-strikes of held notes, and a 6 ms release
 * before the next onset.
 * Computed as [steps, step_length] frames.
 *
 * Why the attack and the fast first stage (issue 50): a note that only ramps in and decays
 * slowly is a plateau in the spectrogram, and a copier's compressor, ducking at each drum hit and
 * recovering over 50 ms, moved its loudest frame, where the landmark fingerprint's peak lies: 11
 * of 40 songs' compressed copies were caught. A struck note (a piano's, a plucked string's) drops
 * fast after its onset and its upper partials die first, which no level change of the whole mix
 * can move: 31 of 40 (docs/fingerprints.md, "A struck attack").
 *
 * Why held notes are struck again: a slow, sparse song (lo-fi and reggae at 62-78 bpm, density
 * 0.35-0.4) has too few onsets to anchor its peaks, and a compressor, or speech or other music
 * 10 dB below, took them: these songs held 10 of the 12 built-in copies the lookup missed. A held
 * note is plucked again on some of its eighth-note steps, drawn by the seed (a guitarist's or a
 * mandolin's re-picking), on partials k and k + 1, k drawn per step; half of them in a sparse
 * song, none in a busy one. The draws keep the strikes the song's own: struck on every eighth on
 * partials 2 and 3, two songs holding one pitch at one tempo shared the strikes' triplets (seeds
 * of one prompt agreed by a median of 11 votes, 5 before, against a threshold of 10). Struck in
 * busy songs too, two of them sharing key and instrument reached the threshold in the bench
 * (docs/fingerprints.md, "Re-struck held notes").
 */
import { GraphBuilder } from '../onnx-builder.ts';
import { BUILTIN_SAMPLE_RATE as RATE } from './conditioning.ts';
import { TWO_PI } from './graph-ops.ts';
import type { GraphOps } from './graph-ops.ts';
import type { Melody } from './melody.ts';
import type { TimingGrid } from './timing-grid.ts';

const MAX_PARTIALS = 8;
/** Share of a note's level in its fast first stage of decay, and that stage's time constant (s). */
const FAST_DECAY_SHARE = 0.3;
const FAST_DECAY_TAU = 0.08;
/** The struck attack: partials k and k + 1 (2 and 3 at an onset), each at 0.7 of the note's level, dying in 40 ms. */
const ONSET_ATTACK_PARTIAL = 2;
const ATTACK_LEVEL = 0.7;
const ATTACK_TAU = 0.04;
/**
 * Re-strikes of a held note: the share of its eighth-note steps struck, each at this share of the
 * attack. The share falls with the song's density, from RESTRIKE_SHARE at 0.45 or less to none
 * at RESTRIKE_UNTIL_DENSITY: a busy song has anchors enough in its onsets.
 */
const RESTRIKE_SHARE = 0.5;
const RESTRIKE_UNTIL_DENSITY = 0.7;
const RESTRIKE_SHARE_PER_DENSITY = 2;
const RESTRIKE_LEVEL = 0.8;
/** A re-strike sounds partials k and k + 1, k drawn per step from 2, 3 and 4. */
const RESTRIKE_LOWEST_PARTIAL = 2;
const RESTRIKE_PARTIAL_CHOICES = 3;
/** Steps per eighth note (the grid has 16 steps a bar). */
const STEPS_PER_EIGHTH = 2;

export type LeadVoice = ReturnType<typeof leadVoice>;

export function leadVoice({ g, field, mul, add, sub, toF, unsq, hash }: GraphOps, grid: TimingGrid, melody: Melody) {
  const { stepLen, stepLenF, steps, stepIdxF, stepInBar, barOfStep, barEnergy } = grid;
  const { trueConst, density, gate, notGate, sinceOnset, leadHz, velocity } = melody;

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
  // Envelope: onset frames ramp in and decay in two stages; held frames continue the decay of
  // their onset (each stage's level at the step's start, then its decay within the step).
  const legato = field('legato');
  const tau = add(g.f(0.12), mul(legato, g.f(0.9)));
  const decay = (timeConstant: string, seconds: string): string => g.op('Exp', [g.op('Neg', [g.op('Div', [seconds, timeConstant])])]);
  const slowRow = decay(tau, tStepRow);
  const fastRow = decay(g.f(FAST_DECAY_TAU), tStepRow);
  const decayRow = add(mul(slowRow, g.f(1 - FAST_DECAY_SHARE)), mul(fastRow, g.f(FAST_DECAY_SHARE)));
  const rampRow = g.op('Min', [g.op('Div', [tStepRow, g.f(0.008)]), g.f(1)]);
  const onsetRow = mul(rampRow, decayRow);
  const stepSec = g.op('Div', [stepLenF, g.f(RATE)]);
  const heldSec = mul(sinceOnset, stepSec);
  const leadLevel = mul(field('lead'), g.f(0.22));
  const stepEnergy = g.op('Gather', [barEnergy, barOfStep], { axis: { int: 0 } });
  const leadAmp = mul(mul(velocity, leadLevel), stepEnergy);
  const envOnset = mul(unsq(mul(leadAmp, gate), [1]), onsetRow);
  const heldAmp = mul(leadAmp, notGate);
  const envHeld = add(
    mul(unsq(mul(heldAmp, mul(decay(tau, heldSec), g.f(1 - FAST_DECAY_SHARE))), [1]), slowRow),
    mul(unsq(mul(heldAmp, mul(decay(g.f(FAST_DECAY_TAU), heldSec), g.f(FAST_DECAY_SHARE))), [1]), fastRow),
  );
  // A note followed by a new onset fades out over the last 6 ms of its step (no click).
  const nextGate = g.op('Concat', [g.op('Slice', [gate, g.i([1]), g.i([Number.MAX_SAFE_INTEGER]), g.i([0])]), g.f([1])], {
    axis: { int: 0 },
  });
  const stepEnd = g.op('Clip', [g.op('Div', [sub(stepSec, tStepRow), g.f(0.006)]), g.f(0), g.f(1)]);
  const cutRow = sub(g.f(1), stepEnd);
  const release = sub(g.f(1), mul(unsq(nextGate, [1]), cutRow));
  // The struck attack sounds in onset steps and re-strike steps only (it has died long before the
  // next step) and is faded out over the step's last 6 ms like the note.
  const attackRow = mul(mul(rampRow, decay(g.f(ATTACK_TAU), tStepRow)), stepEnd);
  const drawnPartial = add(g.f(RESTRIKE_LOWEST_PARTIAL), g.op('Floor', [mul(hash(stepIdxF, 29), g.f(RESTRIKE_PARTIAL_CHOICES))]));
  const attackPartial = unsq(add(mul(gate, g.f(ONSET_ATTACK_PARTIAL)), mul(notGate, drawnPartial)), [1]);
  const attackTone = add(g.op('Sin', [mul(theta, attackPartial)]), g.op('Sin', [mul(theta, add(attackPartial, g.f(1)))]));
  const onEighth = toF(g.op('Equal', [g.op('Mod', [stepInBar, g.i(STEPS_PER_EIGHTH)]), g.i(0)]));
  const restrikeShare = g.op('Clip', [
    mul(sub(g.f(RESTRIKE_UNTIL_DENSITY), density), g.f(RESTRIKE_SHARE_PER_DENSITY)),
    g.f(0),
    g.f(RESTRIKE_SHARE),
  ]);
  const restruck = mul(mul(notGate, onEighth), toF(g.op('Less', [hash(stepIdxF, 23), restrikeShare])));
  const struck = add(gate, mul(restruck, g.f(RESTRIKE_LEVEL)));
  const attack = mul(attackTone, mul(unsq(mul(mul(leadAmp, struck), g.f(ATTACK_LEVEL)), [1]), attackRow));
  const lead = add(mul(mul(leadTone, add(envOnset, envHeld)), release), attack);
  // brightness, tStep and stepEnergy are shared with the hats and the bass, which follow.
  return { lead, brightness, tStep, stepEnergy };
}
