/**
 * One ACE-Step graph as the backend runs it: its onnxruntime session and its inputs and outputs
 * bound to roles by its layout's table (bind.ts). It is fed exactly the inputs the graph declares,
 * in the dtypes it declares: a 0/1 mask becomes float32, float16, int64 or bool as the graph takes
 * it, float32 values become float16 for an fp16 input; float16 outputs come back as float32.
 */
import * as ort from 'onnxruntime-node';
import type { GraphIo } from './bind.ts';
import { fromFloat16, toFloat16 } from './float16.ts';
import type { GraphRole, TensorType } from './layouts.ts';

/** A 0/1 mask, given to a graph in whichever dtype it declares. */
export interface MaskValue {
  mask: ArrayLike<number>;
  dims: readonly number[];
}
export type FeedValue = ort.Tensor | MaskValue;

/** A 0/1 mask in whichever dtype the graph takes it. */
function maskTensor(type: TensorType, values: ArrayLike<number>, dims: readonly number[]): ort.Tensor {
  const bits = Array.from(values, (x) => (x === 0 ? 0 : 1));
  if (type === 'float16') return new ort.Tensor('float16', toFloat16(bits), dims);
  if (type === 'int64')
    return new ort.Tensor(
      'int64',
      BigInt64Array.from(bits, (x) => BigInt(x)),
      dims,
    );
  if (type === 'bool') return new ort.Tensor('bool', Uint8Array.from(bits), dims);
  return new ort.Tensor('float32', Float32Array.from(bits), dims);
}

/** A float32 value as an fp16 input declares it. */
function atBoundary(value: ort.Tensor, type: TensorType): ort.Tensor {
  if (type === 'float16' && value.type === 'float32') return new ort.Tensor('float16', toFloat16(value.data as Float32Array), value.dims);
  if (type === 'float32' && value.type === 'bool')
    return new ort.Tensor('float32', Float32Array.from(value.data as Uint8Array), value.dims);
  return value;
}

/** A mask output (float, int64 or bool) as 0/1 numbers. */
export function maskValues(tensor: ort.Tensor): number[] {
  return Array.from(tensor.data as ArrayLike<number | bigint | boolean>, (x) => (Number(x) === 0 ? 0 : 1));
}

export class BoundGraph {
  constructor(
    readonly graph: GraphRole,
    readonly session: ort.InferenceSession,
    private readonly io: GraphIo,
  ) {}

  /** Whether the graph declares an input of this role (an export may drop an unread one). */
  takes(role: string): boolean {
    return this.io.inputs.has(role);
  }

  /** Runs the graph on exactly the inputs it declares (from `values`, by role); its outputs by role. */
  async run(values: Readonly<Record<string, FeedValue | undefined>>): Promise<Map<string, ort.Tensor>> {
    const feeds: Record<string, ort.Tensor> = {};
    for (const [role, bound] of this.io.inputs) {
      const value = values[role];
      if (value === undefined) throw new Error(`graph ${this.graph} takes ${bound.name} (${role}), which the backend did not provide`);
      feeds[bound.name] = 'mask' in value ? maskTensor(bound.type, value.mask, value.dims) : atBoundary(value, bound.type);
    }
    const names = [...this.io.outputs.values()].map((b) => b.name);
    const out = await this.session.run(feeds, names);
    const byRole = new Map<string, ort.Tensor>();
    for (const [role, bound] of this.io.outputs) {
      const tensor = out[bound.name];
      if (tensor === undefined) throw new Error(`graph ${this.graph} returned no ${bound.name}`);
      byRole.set(
        role,
        tensor.type === 'float16' ? new ort.Tensor('float32', fromFloat16(tensor.data as Uint16Array), tensor.dims) : tensor,
      );
    }
    return byRole;
  }

  /** A float32 output of `role`, or an error naming the graph. */
  static float(outputs: ReadonlyMap<string, ort.Tensor>, role: string, graph: GraphRole): ort.Tensor {
    const tensor = outputs.get(role);
    if (tensor === undefined || tensor.type !== 'float32') throw new Error(`${graph} returned no float32 ${role}`);
    return tensor;
  }
}
