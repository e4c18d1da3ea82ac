/**
 * The final mix: the three grids flattened to samples over the padded length, the pad's right
 * channel delayed for width, a 1.5 s fade-out at the very end (on the bar grid, no per-sample
 * index), a soft limiter, then the exact sample count.
 */
import { BUILTIN_SAMPLE_RATE as RATE } from './conditioning.ts';
import type { GraphOps } from './graph-ops.ts';
import type { TimingGrid } from './timing-grid.ts';

export interface MixInputs {
  /** [bars, bar_length] */
  pad: string;
  /** [eighths, eighth_length] */
  centre: string;
  /** [steps, step_length] each */
  stepL: string;
  stepR: string;
  width: string;
}

export function stereoMix(
  { g, mul, add, sub, toF, toI, unsq }: GraphOps,
  { numSamples, paddedLen, barIdx, barLen }: TimingGrid,
  { pad, centre, stepL, stepR, width }: MixInputs,
): string {
  const flat = g.i([-1]);
  const padFlat = g.op('Reshape', [pad, flat]);
  const delay = toI(g.op('Floor', [add(g.f(1), mul(width, g.f(RATE * 0.014)))]));
  const padDelayed = g.op('Pad', [
    g.op('Slice', [padFlat, g.i([0]), unsq(sub(paddedLen, delay), [0]), g.i([0])]),
    g.op('Concat', [unsq(delay, [0]), g.i([0])], { axis: { int: 0 } }),
  ]);
  const centreFlat = g.op('Reshape', [centre, flat]);
  const left = add(add(padFlat, centreFlat), g.op('Reshape', [stepL, flat]));
  const right = add(add(padDelayed, centreFlat), g.op('Reshape', [stepR, flat]));
  const fadeSamples = RATE * 1.5;
  const barStartLeft = g.op('Div', [toF(sub(numSamples, mul(barIdx, barLen))), g.f(fadeSamples)]);
  const fadeGrid = sub(unsq(barStartLeft, [1]), unsq(g.op('Div', [toF(g.op('Range', [g.i(0), barLen, g.i(1)])), g.f(fadeSamples)]), [0]));
  const gain = g.op('Reshape', [mul(g.op('Min', [fadeGrid, g.f(1)]), g.f(1.1)), g.i([1, -1])]);
  const stereo = g.op('Concat', [unsq(left, [0]), unsq(right, [0])], { axis: { int: 0 } });
  const trimmed = g.op('Slice', [mul(stereo, gain), g.i([0]), unsq(numSamples, [0]), g.i([1])]);
  return g.op('Tanh', [trimmed]);
}
