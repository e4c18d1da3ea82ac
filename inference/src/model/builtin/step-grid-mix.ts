/**
 * Hi-hats on the sixteenth-note grid (high-passed noise bursts; density picks sixteenths or
 * eighths), layered with the lead into the step grid's left and right channels.
 */
import { BUILTIN_SAMPLE_RATE as RATE } from './conditioning.ts';
import type { GraphOps } from './graph-ops.ts';
import type { LeadVoice } from './lead-voice.ts';
import type { Melody } from './melody.ts';
import type { TimingGrid } from './timing-grid.ts';

export function stepGridMix(
  { g, field, mul, add, sub, toF, unsq, hash }: GraphOps,
  grid: TimingGrid,
  { density }: Melody,
  voice: LeadVoice,
) {
  const { stepLen, stepLenF, stepInBar } = grid;
  const { lead, brightness, tStep, stepEnergy } = voice;
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
  return { stepL, stepR, width };
}
