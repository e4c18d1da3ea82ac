/**
 * `npm run bench:acestep -- --synthetic xl [--layers L] [--short-frames S] [--vae-frames a,b] [--skip-tiny]`:
 * ACE-Step 1.5 XL Turbo's speed at real size without its weights. It builds a DiT with the XL
 * shape (32 layers, hidden 2560, 32 attention heads with 8 key/value heads of 128, intermediate
 * 9728 (SwiGLU), patch 2, self-attention over the song and cross-attention over the condition)
 * whose every projection is a 4-bit com.microsoft MatMulNBits with random weights (block 32, as the
 * XL q4 files), and an Oobleck VAE decoder with ACE-Step's shape (channels 128 x [16, 8, 4, 2, 1],
 * strides 10, 6, 4, 4, 2, three dilated residual units a block, Snake activations) in fp32 as the XL
 * files ship it. On this machine's CPU (2 cores, shared) a 32-layer call on a 240 s song (6000 latent
 * frames, 3000 tokens) would take tens of minutes and its attention gigabytes, so it measures: the
 * full 32-layer DiT loaded (its resident memory) and timed on a short song (`--short-frames`, 30 s
 * by default; the first call apart as warm-up); the same shape with `--layers` layers (4) timed on
 * the short song and on the 240 s one; one 240 s step is the latter x 32 / L (the layers are
 * identical; the input and output projections are 0.1 % of the weights), and the 32-layer / L-layer
 * ratio measured on the short song is reported as the check of that scaling. The VAE is timed on windows of `--vae-frames` and scaled per frame to the 240 s
 * song's tiled_decode windows (512 frames, 64 each side). One song: 8 steps, the VAE and the text
 * and condition encoders (from their FLOPs at the DiT's measured rate). Beside
 * it, in the same run, the tiny XL-shaped fixture model renders a 240 s song through the real backend
 * (the loop's own cost). It measures the process's peak resident memory (VmHWM). On CUDA only where
 * a GPU is present (none is lent to this project's CI: the CUDA rows then say so).
 * Results: bench/results/acestep-xl-synthetic.{json,md}.
 */
import { randomFillSync } from 'node:crypto';
import { closeSync, openSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import * as ort from 'onnxruntime-node';
import onnxProto from 'onnx-proto';
import { makeTempDir } from '../core/src/testing/temp-dirs.ts';
import { PROGRESS_ENCODED, PROGRESS_SAMPLED } from '../inference/src/model/acestep/acestep-model.ts';
import { importAcestep } from '../inference/src/model/acestep/import.ts';
import { gpuPresent, systemGpuProbe } from '../inference/src/model/device.ts';
import { loadSongModel } from '../inference/src/model/load-song-model.ts';
import { xlFolder } from '../test/inference/helpers/xl-fixture.ts';

const { onnx } = onnxProto;
const T = onnx.TensorProto.DataType;

const { values } = parseArgs({
  options: {
    synthetic: { type: 'string', default: 'xl' },
    layers: { type: 'string', default: '4' },
    'short-frames': { type: 'string', default: '750' },
    'vae-frames': { type: 'string', default: '128,256' },
    'skip-tiny': { type: 'boolean', default: false },
  },
});
if (values.synthetic !== 'xl') {
  console.error('usage: npm run bench:acestep -- --synthetic xl [--layers L] [--short-frames S] [--vae-frames a,b] [--skip-tiny]');
  process.exit(2);
}

/** ACE-Step 1.5 XL's DiT (a GGUF model card's figures; ~4.17 B parameters with the condition encoder). */
const XL = { layers: 32, hidden: 2560, heads: 32, kvHeads: 8, headDim: 128, intermediate: 9728, encoderHidden: 2048, latent: 64, patch: 2 };
/** A 240 s song: 25 latent frames a second. */
const FRAMES = 240 * 25;
const SHORT_FRAMES = Number(values['short-frames']);
const FEW_LAYERS = Number(values.layers);
const CONDITION_TOKENS = 650;
const BLOCK = 32;

/** A model under construction whose initializers go to one external-data file as they are made. */
class ExternalModel {
  readonly nodes: onnxProto.onnx.INodeProto[] = [];
  readonly inits: onnxProto.onnx.ITensorProto[] = [];
  private readonly fd: number;
  private offset = 0;
  private counter = 0;
  params = 0;

  constructor(
    readonly dataPath: string,
    private readonly location: string,
  ) {
    this.fd = openSync(dataPath, 'w');
  }

  name(hint: string): string {
    this.counter += 1;
    return `${hint}_${this.counter}`;
  }

  /** Writes `bytes` page-aligned (onnxruntime maps aligned external data) and declares the initializer. */
  tensor(hint: string, dataType: number, dims: number[], bytes: Uint8Array): string {
    const name = this.name(hint);
    const aligned = Math.ceil(this.offset / 4096) * 4096;
    if (aligned > this.offset) writeSync(this.fd, new Uint8Array(aligned - this.offset));
    writeSync(this.fd, bytes);
    this.inits.push({
      name,
      dims,
      dataType,
      dataLocation: onnx.TensorProto.DataLocation.EXTERNAL,
      externalData: [
        { key: 'location', value: this.location },
        { key: 'offset', value: String(aligned) },
        { key: 'length', value: String(bytes.length) },
      ],
    });
    this.offset = aligned + bytes.length;
    return name;
  }

  /** Random float32 values uniform in ±scale. */
  floats(hint: string, dims: number[], scale: number): string {
    const count = dims.reduce((a, b) => a * b, 1);
    const out = new Float32Array(count);
    let s = 0x9e3779b9;
    for (let i = 0; i < count; i += 1) {
      s ^= s << 13;
      s ^= s >>> 17;
      s ^= s << 5;
      out[i] = ((s >>> 0) / 2 ** 32 - 0.5) * 2 * scale;
    }
    this.params += count;
    return this.tensor(hint, T.FLOAT, dims, new Uint8Array(out.buffer));
  }

  constant(values: number[] | bigint[], dims: number[]): string {
    const name = this.name('c');
    const isInt = typeof values[0] === 'bigint';
    this.nodes.push({
      opType: 'Constant',
      output: [name],
      name: this.name('n'),
      attribute: [
        {
          name: 'value',
          type: onnx.AttributeProto.AttributeType.TENSOR,
          t: isInt
            ? { dims, dataType: T.INT64, rawData: new Uint8Array(BigInt64Array.from(values as bigint[]).buffer) }
            : { dims, dataType: T.FLOAT, rawData: new Uint8Array(Float32Array.from(values as number[]).buffer) },
        },
      ],
    });
    return name;
  }

  op(type: string, inputs: string[], attrs: Record<string, number | number[]> = {}, domain = ''): string {
    const out = this.name(type.toLowerCase());
    this.nodes.push({
      opType: type,
      domain,
      input: inputs,
      output: [out],
      name: this.name('n'),
      attribute: Object.entries(attrs).map(([name, value]) =>
        Array.isArray(value)
          ? { name, type: onnx.AttributeProto.AttributeType.INTS, ints: value }
          : Number.isInteger(value)
            ? { name, type: onnx.AttributeProto.AttributeType.INT, i: value }
            : { name, type: onnx.AttributeProto.AttributeType.FLOAT, f: value },
      ),
    });
    return out;
  }

  /** x [.., K] @ a random 4-bit [K, N] weight: MatMulNBits (uint4, block 32, fp32 scales, default zero point 8). */
  linear4(x: string, k: number, n: number): string {
    const blocks = Math.ceil(k / BLOCK);
    const packed = new Uint8Array(n * blocks * (BLOCK / 2));
    for (let at = 0; at < packed.length; at += 1 << 26) randomFillSync(packed, at, Math.min(1 << 26, packed.length - at));
    const b = this.tensor('w4', T.UINT8, [n, blocks, BLOCK / 2], packed);
    // Scales so that an output has about unit variance for unit-variance inputs (uniform nibbles: std ~4.6).
    const scales = new Float32Array(n * blocks).fill(1 / (4.6 * Math.sqrt(k)));
    const s = this.tensor('scales', T.FLOAT, [n * blocks], new Uint8Array(scales.buffer));
    this.params += k * n;
    return this.op('MatMulNBits', [x, b, s], { K: k, N: n, bits: 4, block_size: BLOCK, accuracy_level: 4 }, 'com.microsoft');
  }

  finish(): void {
    closeSync(this.fd);
  }
}

const valueInfo = (name: string, dims: (number | string)[]): onnxProto.onnx.IValueInfoProto => ({
  name,
  type: { tensorType: { elemType: T.FLOAT, shape: { dim: dims.map((d) => (typeof d === 'number' ? { dimValue: d } : { dimParam: d })) } } },
});

function rmsNorm(m: ExternalModel, x: string): string {
  const mean = m.op('ReduceMean', [m.op('Mul', [x, x])], { axes: [-1], keepdims: 1 });
  return m.op('Mul', [x, m.op('Reciprocal', [m.op('Sqrt', [m.op('Add', [mean, m.constant([1e-6], [])])])])]);
}

/** Multi-head attention with grouped key/value heads: q [1, Tq, H*D], k and v [1, Tk, KV*D]. */
function attention(m: ExternalModel, q: string, k: string, v: string): string {
  const { heads, kvHeads, headDim } = XL;
  const split = (x: string, h: number) =>
    m.op('Transpose', [m.op('Reshape', [x, m.constant([1n, 0n, BigInt(h), BigInt(headDim)], [4])])], { perm: [0, 2, 1, 3] });
  const grouped = (x: string) =>
    m.op('Reshape', [
      m.op('Expand', [
        m.op('Unsqueeze', [split(x, kvHeads), m.constant([2n], [1])]),
        m.constant([1n, BigInt(kvHeads), BigInt(heads / kvHeads), 1n, 1n], [5]),
      ]),
      m.constant([1n, BigInt(heads), -1n, BigInt(headDim)], [4]),
    ]);
  const scores = m.op('Mul', [
    m.op('MatMul', [split(q, heads), m.op('Transpose', [grouped(k)], { perm: [0, 1, 3, 2] })]),
    m.constant([1 / Math.sqrt(headDim)], []),
  ]);
  const out = m.op('MatMul', [m.op('Softmax', [scores], { axis: -1 }), grouped(v)]);
  return m.op('Reshape', [m.op('Transpose', [out], { perm: [0, 2, 1, 3] }), m.constant([1n, 0n, BigInt(heads * headDim)], [3])]);
}

/** The XL-shaped DiT with `layers` layers: hidden_states, timestep, encoder_hidden_states, context_latents -> velocity. */
function buildDit(dir: string, layers: number): { path: string; params: number } {
  const m = new ExternalModel(join(dir, `dit${layers}.onnx.data`), `dit${layers}.onnx.data`);
  const { hidden: H, latent: C, patch, intermediate: I, encoderHidden: E, heads, kvHeads, headDim } = XL;
  const x = m.op('Reshape', [
    m.op('Concat', ['context_latents', 'hidden_states'], { axis: 2 }),
    m.constant([1n, -1n, BigInt(patch * 3 * C)], [3]),
  ]);
  let h = m.linear4(x, patch * 3 * C, H);
  // The timestep's embedding, projected once to every layer's shift, scale and gate (AdaLN).
  const freqs = m.constant(
    Array.from({ length: 128 }, (_, i) => Math.exp((-Math.log(10_000) * i) / 128)),
    [1, 128],
  );
  const angles = m.op('Mul', [m.op('Unsqueeze', ['timestep', m.constant([1n], [1])]), freqs]);
  const temb = m.op('Unsqueeze', [
    m.linear4(m.op('Concat', [m.op('Sin', [angles]), m.op('Cos', [angles])], { axis: 1 }), 256, 6 * H),
    m.constant([1n], [1]),
  ]);
  const part = (i: number) =>
    m.op('Slice', [temb, m.constant([BigInt(i * H)], [1]), m.constant([BigInt((i + 1) * H)], [1]), m.constant([2n], [1])]);
  const [shift1, scale1, gate1, shift2, scale2, gate2] = [0, 1, 2, 3, 4, 5].map(part);
  const modulate = (y: string, shift: string, scale: string) =>
    m.op('Add', [m.op('Mul', [y, m.op('Add', [scale, m.constant([1], [])])]), shift]);
  for (let layer = 0; layer < layers; layer += 1) {
    const n1 = modulate(rmsNorm(m, h), shift1 ?? '', scale1 ?? '');
    const self = attention(m, m.linear4(n1, H, heads * headDim), m.linear4(n1, H, kvHeads * headDim), m.linear4(n1, H, kvHeads * headDim));
    h = m.op('Add', [h, m.op('Mul', [m.linear4(self, heads * headDim, H), gate1 ?? ''])]);
    const n2 = rmsNorm(m, h);
    const cross = attention(
      m,
      m.linear4(n2, H, heads * headDim),
      m.linear4('encoder_hidden_states', E, kvHeads * headDim),
      m.linear4('encoder_hidden_states', E, kvHeads * headDim),
    );
    h = m.op('Add', [h, m.linear4(cross, heads * headDim, H)]);
    const n3 = modulate(rmsNorm(m, h), shift2 ?? '', scale2 ?? '');
    const gate = m.linear4(n3, H, I);
    const swiglu = m.op('Mul', [m.op('Mul', [gate, m.op('Sigmoid', [gate])]), m.linear4(n3, H, I)]);
    h = m.op('Add', [h, m.op('Mul', [m.linear4(swiglu, I, H), gate2 ?? ''])]);
  }
  const out = m.linear4(rmsNorm(m, h), H, patch * C);
  m.nodes.push({ opType: 'Reshape', input: [out, m.constant([1n, -1n, BigInt(C)], [3])], output: ['velocity'], name: 'out' });
  m.finish();
  const model = onnx.ModelProto.create({
    irVersion: 8,
    producerName: 'songmint-bench',
    opsetImport: [
      { domain: '', version: 17 },
      { domain: 'com.microsoft', version: 1 },
    ],
    graph: {
      name: 'xl_dit_synthetic',
      node: m.nodes,
      initializer: m.inits,
      input: [
        valueInfo('hidden_states', [1, 'frames', C]),
        valueInfo('timestep', [1]),
        valueInfo('encoder_hidden_states', [1, 'condition_tokens', E]),
        valueInfo('context_latents', [1, 'frames', 2 * C]),
      ],
      output: [valueInfo('velocity', [1, 'frames', C])],
    },
  });
  const path = join(dir, `dit${layers}.onnx`);
  writeFileSync(path, onnx.ModelProto.encode(model).finish());
  return { path, params: m.params };
}

/** ACE-Step's VAE decoder shape (diffusers AutoencoderOobleck), random fp32 weights: latents [1, 64, F] -> waveform [1, 2, F x 1920]. */
function buildVae(dir: string): { path: string; params: number } {
  const m = new ExternalModel(join(dir, 'vae.onnx.data'), 'vae.onnx.data');
  const channels = [2048, 1024, 512, 256, 128, 128];
  const strides = [10, 6, 4, 4, 2];
  const conv = (x: string, cin: number, cout: number, kernel: number, dilation = 1) =>
    m.op('Conv', [x, m.floats('conv', [cout, cin, kernel], 1 / Math.sqrt(cin * kernel)), m.floats('bias', [cout], 0.01)], {
      dilations: [dilation],
      pads: [(dilation * (kernel - 1)) / 2, (dilation * (kernel - 1)) / 2],
    });
  const snake = (x: string, c: number) => {
    const alpha = m.floats('alpha', [1, c, 1], 0.5);
    const a = m.op('Add', [alpha, m.constant([1.5], [])]);
    const s = m.op('Sin', [m.op('Mul', [x, a])]);
    return m.op('Add', [x, m.op('Mul', [m.op('Reciprocal', [m.op('Add', [a, m.constant([1e-9], [])])]), m.op('Mul', [s, s])])]);
  };
  let x = conv('latents', XL.latent, channels[0] ?? 0, 7);
  for (const [i, stride] of strides.entries()) {
    const cin = channels[i] ?? 0;
    const cout = channels[i + 1] ?? 0;
    x = m.op(
      'ConvTranspose',
      [snake(x, cin), m.floats('convT', [cin, cout, 2 * stride], 1 / Math.sqrt(cin * 2)), m.floats('bias', [cout], 0.01)],
      {
        strides: [stride],
        pads: [Math.ceil(stride / 2), Math.floor(stride / 2)],
      },
    );
    for (const dilation of [1, 3, 9]) {
      const y = conv(snake(conv(snake(x, cout), cout, cout, 7, dilation), cout), cout, cout, 1);
      x = m.op('Add', [x, y]);
    }
  }
  const out = conv(snake(x, 128), 128, 2, 7);
  m.nodes.push({ opType: 'Identity', input: [out], output: ['waveform'], name: 'out' });
  m.finish();
  const model = onnx.ModelProto.create({
    irVersion: 8,
    producerName: 'songmint-bench',
    opsetImport: [{ domain: '', version: 17 }],
    graph: {
      name: 'oobleck_decoder_synthetic',
      node: m.nodes,
      initializer: m.inits,
      input: [valueInfo('latents', [1, XL.latent, 'frames'])],
      output: [valueInfo('waveform', [1, 2, 'samples'])],
    },
  });
  const path = join(dir, 'vae.onnx');
  writeFileSync(path, onnx.ModelProto.encode(model).finish());
  return { path, params: m.params };
}

/** The process's peak resident memory so far (VmHWM), MB. */
function peakRssMb(): number {
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
  return Number(match?.[1] ?? 0) / 1024;
}

const random = (n: number): Float32Array => {
  const out = new Float32Array(n);
  for (let i = 0; i < n; i += 1) out[i] = Math.sin(i * 12.9898) * 0.9;
  return out;
};

/** Loads a DiT (its load time and the resident memory after it) and times one call per entry of `frames`. */
async function timeDit(
  path: string,
  frames: number[],
): Promise<{ loadMs: number; rssAfterLoadMb: number; calls: { frames: number; ms: number }[]; finite: boolean }> {
  const t0 = performance.now();
  const session = await ort.InferenceSession.create(path, { executionProviders: ['cpu'], graphOptimizationLevel: 'all' });
  const loadMs = performance.now() - t0;
  const rssAfterLoadMb = process.memoryUsage().rss / 2 ** 20;
  const calls: { frames: number; ms: number }[] = [];
  let finite = true;
  for (const n of frames) {
    const feeds = {
      hidden_states: new ort.Tensor('float32', random(n * XL.latent), [1, n, XL.latent]),
      timestep: new ort.Tensor('float32', Float32Array.from([0.75]), [1]),
      encoder_hidden_states: new ort.Tensor('float32', random(CONDITION_TOKENS * XL.encoderHidden), [
        1,
        CONDITION_TOKENS,
        XL.encoderHidden,
      ]),
      context_latents: new ort.Tensor('float32', random(n * 2 * XL.latent), [1, n, 2 * XL.latent]),
    };
    const s = performance.now();
    const out = await session.run(feeds);
    calls.push({ frames: n, ms: performance.now() - s });
    const v = out.velocity?.data as Float32Array;
    finite &&= v.length === n * XL.latent && v.every((x) => Number.isFinite(x));
    console.log(
      `  ${path.split('/').at(-1)}: call on ${n} frames ${((calls.at(-1)?.ms ?? 0) / 1000).toFixed(1)} s, peak RSS ${peakRssMb().toFixed(0)} MB`,
    );
  }
  await session.release();
  return { loadMs, rssAfterLoadMb, calls, finite };
}

async function timeVae(
  path: string,
  windows: number[],
): Promise<{ loadMs: number; rows: { frames: number; ms: number }[]; peakMb: number }> {
  const t0 = performance.now();
  const session = await ort.InferenceSession.create(path, { executionProviders: ['cpu'], graphOptimizationLevel: 'all' });
  const loadMs = performance.now() - t0;
  const rows: { frames: number; ms: number }[] = [];
  for (const frames of windows) {
    const feeds = { latents: new ort.Tensor('float32', random(XL.latent * frames), [1, XL.latent, frames]) };
    const s = performance.now();
    const out = await session.run(feeds);
    rows.push({ frames, ms: performance.now() - s });
    if (out.waveform?.dims[2] !== frames * 1920) throw new Error(`VAE gave [${out.waveform?.dims.join(', ')}] for ${frames} frames`);
    console.log(`  VAE window of ${frames} frames: ${(rows.at(-1)?.ms ?? 0) / 1000} s, peak RSS ${peakRssMb().toFixed(0)} MB`);
  }
  await session.release();
  return { loadMs, rows, peakMb: peakRssMb() };
}

/** The tiny XL-shaped fixture through the real backend: a 240 s song, per-step and VAE time. */
async function tinyBaseline(): Promise<{ stepMs: number; vaeMs: number; totalMs: number }> {
  const dir = await makeTempDir('bench-xl-tiny');
  try {
    const folder = await xlFolder(join(dir.path, 'xl'));
    const imported = await importAcestep({ dir: folder });
    if (!imported.ok) throw new Error(imported.error.message);
    const loaded = await loadSongModel({ modelDir: folder, device: 'cpu' });
    if (!loaded.ok) throw new Error(loaded.error.message);
    const request = { prompt: 'dreamy synthwave, 96 bpm', lyrics: '[verse]\nneon rain on the night road', seed: 7n, steps: 27 };
    await loaded.value.render({ ...request, durationSeconds: 2 }, new AbortController().signal);
    const marks: { fraction: number; at: number }[] = [];
    const t0 = performance.now();
    await loaded.value.render({ ...request, durationSeconds: 240 }, new AbortController().signal, (fraction) =>
      marks.push({ fraction, at: performance.now() }),
    );
    const totalMs = performance.now() - t0;
    await loaded.value.release();
    const encoded = marks.find((m) => m.fraction === PROGRESS_ENCODED)?.at ?? t0;
    const sampled = marks.find((m) => Math.abs(m.fraction - PROGRESS_SAMPLED) < 1e-9)?.at ?? encoded;
    const steps = marks.filter((m) => m.fraction > PROGRESS_ENCODED && m.fraction <= PROGRESS_SAMPLED + 1e-9).length;
    return { stepMs: (sampled - encoded) / Math.max(1, steps), vaeMs: t0 + totalMs - sampled, totalMs };
  } finally {
    await dir.remove();
  }
}

const dir = await makeTempDir('bench-xl-synthetic');
try {
  const loadBefore = loadavg()[0] ?? 0;
  console.log(
    `bench:acestep --synthetic xl: ${XL.layers} and ${FEW_LAYERS} layers, ${SHORT_FRAMES} and ${FRAMES} frames; load average ${loadBefore.toFixed(2)}`,
  );
  const tiny = values['skip-tiny'] ? undefined : await tinyBaseline();
  if (tiny !== undefined)
    console.log(`  tiny XL-shaped model, 240 s song: ${(tiny.stepMs / 1000).toFixed(2)} s a step, VAE ${(tiny.vaeMs / 1000).toFixed(2)} s`);
  const full = buildDit(dir.path, XL.layers);
  console.log(`  built the ${XL.layers}-layer DiT: ${(full.params / 1e9).toFixed(3)} B parameters in 4 bits`);
  const fullRun = await timeDit(full.path, [SHORT_FRAMES, SHORT_FRAMES]);
  const few = buildDit(dir.path, FEW_LAYERS);
  const fewRun = await timeDit(few.path, [SHORT_FRAMES, SHORT_FRAMES, FRAMES]);
  const vae = buildVae(dir.path);
  console.log(`  built the VAE: ${(vae.params / 1e6).toFixed(1)} M parameters fp32`);
  const vaeWindows = String(values['vae-frames'])
    .split(',')
    .map(Number)
    .filter((n) => n > 0);
  const vaeRun = await timeVae(vae.path, vaeWindows);

  // One 240 s step: the few-layer call on 6000 frames x 32 / L (identical layers). The check: the
  // 32-layer / L-layer ratio on the short song, each the faster of its two calls (on a shared
  // machine the slower one measures the other sessions' load; both are in the results).
  const fullShort = Math.min(...fullRun.calls.map((c) => c.ms));
  const fewShort = Math.min(...fewRun.calls.filter((c) => c.frames === SHORT_FRAMES).map((c) => c.ms));
  const fewLong = fewRun.calls[2]?.ms ?? 0;
  const layerRatio = fullShort / fewShort;
  const stepMs = (fewLong * XL.layers) / FEW_LAYERS;
  const tokens = FRAMES / XL.patch;
  const ditFlops = 2 * full.params * tokens + XL.layers * 4 * tokens * (tokens + CONDITION_TOKENS) * XL.heads * XL.headDim;
  const achieved = ditFlops / (stepMs / 1000);
  // tiled_decode of 6000 frames: windows of 512 keeping their middle 384 (64 frames of context each side).
  const windowFrames = (() => {
    let total = 0;
    for (let start = 0; start < FRAMES; start += 384) total += Math.min(FRAMES, start + 384 + 64) - Math.max(0, start - 64);
    return total;
  })();
  const largest = vaeRun.rows.at(-1) ?? { frames: 1, ms: 0 };
  const vaeMs = (largest.ms / largest.frames) * windowFrames;
  const encoderFlops = 2 * 0.6e9 * 150 + 2 * 0.7e9 * CONDITION_TOKENS;
  const encodersMs = (encoderFlops / achieved) * 1000;
  const songMs = 8 * stepMs + vaeMs + encodersMs;
  const cuda = gpuPresent(systemGpuProbe)
    ? 'a GPU is present: run with MODEL_DEVICE=cuda on an onnxruntime-node with its CUDA provider'
    : 'no GPU on this machine, and none is lent to this project (device status: not drawn): no CUDA figures';
  const result = {
    date: new Date().toISOString(),
    machine: {
      cpus: cpus().length,
      cpu: cpus()[0]?.model ?? 'unknown',
      node: process.version,
      loadAverage: { before: loadBefore, after: loadavg()[0] ?? 0 },
    },
    synthetic: {
      ...XL,
      parameters: full.params,
      block: BLOCK,
      accuracyLevel: 4,
      frames: FRAMES,
      conditionTokens: CONDITION_TOKENS,
      vaeParameters: vae.params,
    },
    dit: {
      full: { layers: XL.layers, loadMs: fullRun.loadMs, rssAfterLoadMb: fullRun.rssAfterLoadMb, calls: fullRun.calls },
      few: { layers: FEW_LAYERS, calls: fewRun.calls },
      layerRatio,
      projectedStepMs: stepMs,
      flopsPerStep: ditFlops,
      achievedGflops: achieved / 1e9,
      outputFinite: fullRun.finite && fewRun.finite,
    },
    vae: { loadMs: vaeRun.loadMs, windows: vaeRun.rows, framesDecodedFor240s: windowFrames, projectedMs: vaeMs },
    encoders: { flops: encoderFlops, projectedMs: encodersMs },
    song240s: { projectedMs: songMs, realtimeFactor: 240 / (songMs / 1000) },
    peakRssMb: peakRssMb(),
    tinyBaseline: tiny ?? null,
    cuda,
  };
  await mkdir('bench/results', { recursive: true });
  await writeFile('bench/results/acestep-xl-synthetic.json', `${JSON.stringify(result, null, 2)}\n`);
  const s = (ms: number) => (ms / 1000).toFixed(1);
  const md = [
    '# ACE-Step 1.5 XL Turbo at real size, synthetic weights (`npm run bench:acestep -- --synthetic xl`)',
    '',
    `${result.date}; ${result.machine.cpus} x ${result.machine.cpu}; Node ${result.machine.node}; CPU only; load average ${loadBefore.toFixed(2)} before, ${result.machine.loadAverage.after.toFixed(2)} after (the machine is shared by several sessions: other work slows every figure here).`,
    '',
    `DiT: ${XL.layers} layers, hidden ${XL.hidden}, ${XL.heads} heads / ${XL.kvHeads} KV heads of ${XL.headDim}, intermediate ${XL.intermediate} (SwiGLU), patch ${XL.patch}, full self-attention in every layer (the XL alternates sliding and full: an upper bound) and cross-attention over ${CONDITION_TOKENS} condition tokens; ${(full.params / 1e9).toFixed(2)} B parameters, every projection a 4-bit MatMulNBits (block ${BLOCK}, fp32 scales, accuracy level 4), random weights. VAE: Oobleck decoder, ${(vae.params / 1e6).toFixed(1)} M parameters, fp32. A 240 s song: ${FRAMES} latent frames, ${tokens} DiT tokens.`,
    '',
    '| what | measured | per 240 s song |',
    '|---|---|---|',
    `| ${XL.layers}-layer DiT: load, resident memory after it | ${s(fullRun.loadMs)} s, ${fullRun.rssAfterLoadMb.toFixed(0)} MB | once per worker |`,
    `| ${XL.layers}-layer DiT, ${SHORT_FRAMES} frames (${SHORT_FRAMES / 25} s) | ${fullRun.calls.map((c) => s(c.ms)).join(' s, ')} s (two calls; the faster counts) | |`,
    `| ${FEW_LAYERS}-layer DiT, ${SHORT_FRAMES} frames | ${fewRun.calls
      .slice(0, 2)
      .map((c) => s(c.ms))
      .join(
        ' s, ',
      )} s: the ${XL.layers}-layer call took ${layerRatio.toFixed(2)}x (${XL.layers / FEW_LAYERS} for identical layers on an idle machine) | |`,
    `| ${FEW_LAYERS}-layer DiT, ${FRAMES} frames (240 s) | ${s(fewLong)} s | |`,
    `| one step, ${XL.layers} layers, 240 s (the line above x ${XL.layers / FEW_LAYERS}) | | ${s(stepMs)} s: 8 steps ${s(8 * stepMs)} s |`,
    `| DiT throughput | | ${(achieved / 1e9).toFixed(1)} GFLOP/s (${(ditFlops / 1e12).toFixed(1)} TFLOP a step) |`,
    ...vaeRun.rows.map((r) => `| VAE window of ${r.frames} frames (${(r.frames / 25).toFixed(1)} s) | ${s(r.ms)} s | |`),
    `| VAE, tiled_decode (${windowFrames} frames in 512-frame windows, per frame as the largest window) | | ${s(vaeMs)} s |`,
    `| text and condition encoders (${(encoderFlops / 1e12).toFixed(2)} TFLOP at the DiT's rate, not run) | | ${s(encodersMs)} s |`,
    `| **one 240 s song on this CPU (8 steps + VAE + encoders)** | | **${s(songMs)} s (${(240 / (songMs / 1000)).toFixed(3)} x real time)** |`,
    `| peak resident memory of the whole run (VmHWM) | ${result.peakRssMb.toFixed(0)} MB | |`,
    ...(tiny === undefined
      ? []
      : [
          `| baseline, same run: the tiny XL-shaped fixture through the real backend, 240 s song | ${s(tiny.stepMs)} s a step, VAE ${s(tiny.vaeMs)} s, total ${s(tiny.totalMs)} s | the loop's own cost |`,
        ]),
    '',
    `CUDA: ${cuda}.`,
    '',
  ];
  await writeFile('bench/results/acestep-xl-synthetic.md', md.join('\n'));
  console.log(md.join('\n'));
} finally {
  await dir.remove();
}
