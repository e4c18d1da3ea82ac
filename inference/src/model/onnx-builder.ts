/**
 * A small ONNX graph builder over onnx-proto: names values deterministically so that the same
 * construction always serialises to the same bytes (the built-in model is rebuilt and compared).
 */
import onnxProto from 'onnx-proto';

const { onnx } = onnxProto;

export type ElemType = 'float' | 'int64' | 'bool';

const DATA_TYPE: Readonly<Record<ElemType, number>> = {
  float: onnx.TensorProto.DataType.FLOAT,
  int64: onnx.TensorProto.DataType.INT64,
  bool: onnx.TensorProto.DataType.BOOL,
};

export type Attr =
  | { readonly int: number }
  | { readonly float: number }
  | { readonly ints: readonly number[] }
  | { readonly graph: onnxProto.onnx.IGraphProto };

export type Dim = number | string;

function valueInfo(name: string, elem: ElemType, dims: readonly Dim[]): onnxProto.onnx.IValueInfoProto {
  return {
    name,
    type: {
      tensorType: {
        elemType: DATA_TYPE[elem],
        shape: { dim: dims.map((d) => (typeof d === 'number' ? { dimValue: d } : { dimParam: d })) },
      },
    },
  };
}

function toAttribute(name: string, attr: Attr): onnxProto.onnx.IAttributeProto {
  const T = onnx.AttributeProto.AttributeType;
  if ('int' in attr) return { name, type: T.INT, i: attr.int };
  if ('float' in attr) return { name, type: T.FLOAT, f: attr.float };
  if ('ints' in attr) return { name, type: T.INTS, ints: [...attr.ints] };
  return { name, type: T.GRAPH, g: attr.graph };
}

/** Builds one graph (the main graph or a Loop body); constants are deduplicated by value. */
export class GraphBuilder {
  private readonly nodes: onnxProto.onnx.INodeProto[] = [];
  private readonly inputs: onnxProto.onnx.IValueInfoProto[] = [];
  private readonly outputs: onnxProto.onnx.IValueInfoProto[] = [];
  private readonly initializers: onnxProto.onnx.ITensorProto[] = [];
  private readonly constants = new Map<string, string>();
  private counter = 0;

  constructor(private readonly prefix: string) {}

  private fresh(hint: string): string {
    this.counter += 1;
    return `${this.prefix}${hint}_${this.counter}`;
  }

  input(name: string, elem: ElemType, dims: readonly Dim[]): string {
    this.inputs.push(valueInfo(name, elem, dims));
    return name;
  }

  /**
   * Declares a graph output. A value computed by a node of this graph is renamed in place (no copy);
   * a graph input or outer-scope value passed through goes via Identity.
   */
  output(value: string, name: string, elem: ElemType, dims: readonly Dim[]): void {
    const producer = this.nodes.find((n) => n.output?.includes(value));
    const alreadyOutput = this.outputs.some((o) => o.name === value);
    if (producer !== undefined && !alreadyOutput) {
      for (const node of this.nodes) {
        node.input = node.input?.map((i) => (i === value ? name : i)) ?? null;
        node.output = node.output?.map((o) => (o === value ? name : o)) ?? null;
      }
    } else {
      this.nodes.push({ opType: 'Identity', input: [value], output: [name], name: this.fresh('out') });
    }
    this.outputs.push(valueInfo(name, elem, dims));
  }

  /** A float32 constant (scalar when dims is []). */
  f(values: number | readonly number[], dims?: readonly number[]): string {
    const list = typeof values === 'number' ? [values] : [...values];
    const shape = dims ?? (typeof values === 'number' ? [] : [list.length]);
    return this.constant('float', list, shape);
  }

  /** An int64 constant (scalar when dims is []). */
  i(values: number | readonly number[], dims?: readonly number[]): string {
    const list = typeof values === 'number' ? [values] : [...values];
    const shape = dims ?? (typeof values === 'number' ? [] : [list.length]);
    return this.constant('int64', list, shape);
  }

  private constant(elem: 'float' | 'int64', values: number[], dims: readonly number[]): string {
    const key = `${elem}|${dims.join('x')}|${values.join(',')}`;
    const existing = this.constants.get(key);
    if (existing !== undefined) return existing;
    const name = this.fresh(elem === 'float' ? 'cf' : 'ci');
    const raw =
      elem === 'float'
        ? new Uint8Array(Float32Array.from(values).buffer)
        : new Uint8Array(BigInt64Array.from(values.map((v) => BigInt(v))).buffer);
    this.initializers.push({ name, dims: [...dims], dataType: DATA_TYPE[elem], rawData: raw });
    this.constants.set(key, name);
    return name;
  }

  /** Adds a node with one output and returns the output's name. */
  op(type: string, inputs: readonly string[], attrs: Readonly<Record<string, Attr>> = {}): string {
    const [out] = this.opN(type, inputs, 1, attrs);
    if (out === undefined) throw new Error('unreachable: opN returned no output');
    return out;
  }

  /** Adds a node with `count` outputs. */
  opN(type: string, inputs: readonly string[], count: number, attrs: Readonly<Record<string, Attr>> = {}): string[] {
    const outs = Array.from({ length: count }, () => this.fresh(type.toLowerCase()));
    this.nodes.push({
      opType: type,
      input: [...inputs],
      output: outs,
      name: this.fresh(`n_${type}`),
      attribute: Object.entries(attrs).map(([name, attr]) => toAttribute(name, attr)),
    });
    return outs;
  }

  graph(name: string): onnxProto.onnx.IGraphProto {
    return {
      name,
      node: this.nodes,
      input: this.inputs,
      output: this.outputs,
      initializer: this.initializers,
    };
  }
}

/** Serialises a model (IR 8, default opset 17) to bytes. */
export function encodeModel(graph: onnxProto.onnx.IGraphProto, docString: string): Uint8Array {
  const model = onnx.ModelProto.create({
    irVersion: 8,
    producerName: 'songmint-build-model',
    producerVersion: '1',
    docString,
    opsetImport: [{ domain: '', version: 17 }],
    graph,
  });
  return onnx.ModelProto.encode(model).finish();
}

/** Seeded weights uniform in [-scale, scale) (`draw` gives [0, 1)): the tiny models' parameters. */
export function randomWeights(draw: () => number, count: number, scale: number): number[] {
  return Array.from({ length: count }, () => (draw() * 2 - 1) * scale);
}

/** A JSON file of a model directory: two-space indent and a final newline, the same bytes each build. */
export function jsonFileBytes(value: unknown): Uint8Array {
  return new TextEncoder().encode(`${JSON.stringify(value, null, 2)}\n`);
}
