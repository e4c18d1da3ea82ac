/**
 * The score's time grid: a sixteenth note lasts `stepLen` samples at the conditioned tempo, bars
 * are 16 steps, the song is padded to whole bars, and 8-bar sections alternate verse and chorus.
 */
import { BUILTIN_SAMPLE_RATE as RATE } from './conditioning.ts';
import type { GraphOps } from './graph-ops.ts';

export type TimingGrid = ReturnType<typeof timingGrid>;

export function timingGrid({ g, field, scalar, mul, add, sub, toF, toI }: GraphOps, numSamplesIn: string, stepsIn: string) {
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
  const barEnergy = add(g.f(0.78), mul(g.f(0.22), toF(g.op('Mod', [g.op('Div', [barIdx, g.i(8)]), g.i(2)]))));
  return {
    stepLenF,
    stepLen,
    numSamples,
    steps,
    barLen,
    numSteps,
    paddedLen,
    stepIdx,
    stepIdxF,
    stepInBar,
    barOfStep,
    barIdx,
    eighthInBar,
    barOfEighth,
    barEnergy,
  };
}
