/**
 * A loaded graph's own inputs and outputs against its layout's table (layouts.ts), by exact name:
 * every tensor the table lists is there under its name, with a listed dtype, its rank and the
 * manifest's widths; the graph declares nothing else (a table entry marked optional may be absent).
 * Anything else is refused with the expected and the found interface side by side, so a wrong graph
 * (a timbre encoder returning its hidden sequence, a DiT missing an input) cannot run silently.
 */
import type * as ort from 'onnxruntime-node';
import type { Result } from '../../../../core/src/result.ts';
import { fail, ok } from '../../../../core/src/result.ts';
import type { ContractDim, GraphRole, KnownLayout, LayoutTensor, TensorType, Width } from './layouts.ts';

/** What onnxruntime reads from a graph: name, element type and shape of each input or output. */
export interface SessionValue {
  name: string;
  type: string | undefined;
  shape: readonly (number | string)[] | undefined;
}

/** A session's declared inputs or outputs as onnxruntime reports them. */
export function sessionValues(metadata: readonly ort.InferenceSession.ValueMetadata[]): SessionValue[] {
  return metadata.map((m) =>
    m.isTensor ? { name: m.name, type: m.type, shape: m.shape } : { name: m.name, type: undefined, shape: undefined },
  );
}

/** One of a graph's own tensors, bound to the role the backend knows it by. */
export interface BoundTensor {
  name: string;
  type: TensorType;
}

/** A graph's inputs and outputs by role: the backend feeds exactly `inputs`, reads `outputs`. */
export interface GraphIo {
  inputs: ReadonlyMap<string, BoundTensor>;
  outputs: ReadonlyMap<string, BoundTensor>;
}

export interface BindError {
  code: 'MODEL_LAYOUT_INVALID';
  message: string;
}

type Dims = Readonly<Record<Width, number>>;

function describeDim(dim: ContractDim, dims: Dims | undefined): string {
  if ('width' in dim) return dims === undefined ? dim.width : `${dim.width}=${dims[dim.width]}`;
  if ('fixed' in dim) return String(dim.fixed);
  return dim.varies;
}

const expectedText = (tensor: LayoutTensor, dims: Dims | undefined): string =>
  `${tensor.name} ${tensor.types.join('|')} [${tensor.dims.map((d) => describeDim(d, dims)).join(', ')}]${tensor.optional === undefined ? '' : ' (optional)'}`;

const foundText = (value: SessionValue): string =>
  `${value.name} ${value.type ?? 'non-tensor'} [${value.shape === undefined ? '?' : value.shape.join(', ')}]`;

/** Why `value` does not fit `tensor`, or null when it does. */
function misfit(tensor: LayoutTensor, value: SessionValue, dims: Dims | undefined): string | null {
  if (!tensor.types.some((type) => type === value.type))
    return `dtype ${value.type ?? 'non-tensor'}, expected ${tensor.types.join(' or ')}`;
  const shape = value.shape;
  // A graph may leave its shapes undeclared; where it declares them, they must agree.
  if (shape === undefined || shape.length === 0) return null;
  if (shape.length !== tensor.dims.length) return `rank ${shape.length}, expected ${tensor.dims.length}`;
  for (const [axis, dim] of tensor.dims.entries()) {
    const want = 'width' in dim ? dims?.[dim.width] : 'fixed' in dim ? dim.fixed : undefined;
    const have = shape[axis];
    if (want !== undefined && typeof have === 'number' && have > 0 && have !== want)
      return `dimension ${axis} is ${have}, expected ${describeDim(dim, dims)}`;
  }
  return null;
}

/** Expected beside found, one line a tensor, each mismatch named. */
function sideBySide(
  kind: 'input' | 'output',
  table: readonly LayoutTensor[],
  found: readonly SessionValue[],
  dims: Dims | undefined,
): { lines: string[]; wrong: number } {
  const lines: string[] = [];
  let wrong = 0;
  const left = (text: string) => text.padEnd(64);
  for (const tensor of table) {
    const value = found.find((f) => f.name === tensor.name);
    const why = value === undefined ? (tensor.optional === undefined ? 'missing' : null) : misfit(tensor, value, dims);
    if (why !== null) wrong += 1;
    lines.push(
      `  ${why === null ? ' ' : '✗'} ${kind} ${left(expectedText(tensor, dims))} ${value === undefined ? '(none)' : foundText(value)}${why === null ? '' : ` <- ${why}`}`,
    );
  }
  for (const value of found) {
    if (table.some((tensor) => tensor.name === value.name)) continue;
    wrong += 1;
    lines.push(`  ✗ ${kind} ${left('(none)')} ${foundText(value)} <- not in the layout`);
  }
  return { lines, wrong };
}

/**
 * Binds `graph` of `layout` from its session's declared inputs and outputs; `dims` are the
 * manifest's widths (undefined at import, where the widths are read from the graphs afterwards).
 */
export function bindGraph(
  layout: KnownLayout,
  graph: GraphRole,
  file: string,
  dims: Dims | undefined,
  inputs: readonly SessionValue[],
  outputs: readonly SessionValue[],
): Result<GraphIo, BindError> {
  const table = layout.graphs[graph];
  if (table === undefined) return fail({ code: 'MODEL_LAYOUT_INVALID', message: `the ${layout.id} layout has no ${graph} graph` });
  const ins = sideBySide('input', table.inputs, inputs, dims);
  const outs = sideBySide('output', table.outputs, outputs, dims);
  if (ins.wrong + outs.wrong > 0) {
    return fail({
      code: 'MODEL_LAYOUT_INVALID',
      message: [
        `graph ${graph} (${file}) does not have the ${layout.title} interface (${ins.wrong + outs.wrong} difference${ins.wrong + outs.wrong === 1 ? '' : 's'}):`,
        `    ${'expected'.padEnd(70)} found`,
        ...ins.lines,
        ...outs.lines,
      ].join('\n'),
    });
  }
  const bind = (tensors: readonly LayoutTensor[], values: readonly SessionValue[]): Map<string, BoundTensor> => {
    const bound = new Map<string, BoundTensor>();
    for (const tensor of tensors) {
      const value = values.find((f) => f.name === tensor.name);
      const type = tensor.types.find((candidate) => candidate === value?.type);
      if (value !== undefined && type !== undefined) bound.set(tensor.role, { name: value.name, type });
    }
    return bound;
  };
  return ok({ inputs: bind(table.inputs, inputs), outputs: bind(table.outputs, outputs) });
}
