/**
 * The arithmetic vocabulary the built-in model's graph is written in: binary ops, casts, a
 * conditioning-field reader and a seeded sine hash, all adding nodes to one GraphBuilder.
 *
 * Node and constant names are numbered in creation order, so every caller must keep the order of
 * its calls: the committed model.onnx is rebuilt byte for byte by a test.
 */
import type { GraphBuilder } from '../onnx-builder.ts';
import { CONDITIONING_FIELDS } from './conditioning.ts';
import type { ConditioningName } from './conditioning.ts';

export const TWO_PI = 2 * Math.PI;

export interface GraphOps {
  g: GraphBuilder;
  /** A [1] tensor reshaped to a scalar. */
  scalar(v: string): string;
  /** A conditioning field, clipped to its documented range. */
  field(name: ConditioningName): string;
  mul(a: string, b: string): string;
  add(a: string, b: string): string;
  sub(a: string, b: string): string;
  /** Cast to float32. */
  toF(v: string): string;
  /** Cast to int64. */
  toI(v: string): string;
  unsq(v: string, axes: number[]): string;
  frac(v: string): string;
  /** Deterministic noise in [0,1) from a float tensor and a salt (sine hash). */
  hash(x: string, salt: number): string;
  midiToHz(midi: string): string;
  /** The first seed float: the hash's phase. */
  seedA: string;
  /** The hash's scale, moved by the second seed float. */
  hashScale: string;
}

export function createGraphOps(g: GraphBuilder, conditioning: string, seed: string): GraphOps {
  const scalarShape = g.i([], [0]);
  const scalar = (v: string): string => g.op('Reshape', [v, scalarShape]);
  const field = (name: ConditioningName): string => {
    const index = CONDITIONING_FIELDS.findIndex((f) => f.name === name);
    const def = CONDITIONING_FIELDS[index];
    if (def === undefined) throw new Error(`unknown conditioning field ${name}`);
    const raw = g.op('Gather', [conditioning, g.i(index)], { axis: { int: 0 } });
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
  const hash = (x: string, salt: number): string => {
    const arg = add(mul(x, g.f(12.9898)), add(g.f(salt * 7.31), seedA));
    return frac(mul(g.op('Sin', [arg]), hashScale));
  };
  const midiToHz = (midi: string): string => mul(g.f(440), g.op('Exp', [mul(sub(midi, g.f(69)), g.f(Math.LN2 / 12))]));
  return { g, scalar, field, mul, add, sub, toF, toI, unsq, frac, hash, midiToHz, seedA, hashScale };
}
