/**
 * Test tooling: a tiny model in exactly the public exporter's ACE-Step 1.5 (2B) layout
 * (inference/src/model/acestep/layouts.ts EXPORTER_2B), built from TypeScript with the project's
 * ONNX builder (no downloads, no Python): the five graphs with the table's names, ranks and dtypes
 * (float32 masks, int64 Qwen masks, bool `is_covers`, the DiT's `vt`, the VAE's `audio`), and the
 * optional ones (remix's FSQ tokenizer and detokenizer, the VAE encoder for uploads), a Qwen-style
 * byte-level BPE `tokenizer.json` with `<|endoftext|>`, a silence latent, the export's
 * `io_contract_core.json` and our `songmint-acestep.json` with every file's sha256. The widths are
 * small (the VAE keeps ACE-Step's 1920 samples per latent frame at 48 kHz) and the weights seeded
 * random: it proves the backend's loop end to end, not ACE-Step's music. The DiT really patches
 * frame pairs (an odd frame count fails in its Reshape), and the VAE is frame-local, so chunked
 * decoding must give the very samples a single call gives. Deterministic: same options, same bytes.
 */
import { createHash } from 'node:crypto';
import type { GraphRole, LayoutGraph, LayoutTensor, TensorType, Width } from '../../../inference/src/model/acestep/layouts.ts';
import {
  EXPORTER_2B,
  IO_CONTRACT_GRAPHS,
  ioContractKey,
  FRAMES_PER_CODE,
  FRAMES_PER_SECOND,
  SAMPLES_PER_FRAME,
  SAMPLE_RATE,
} from '../../../inference/src/model/acestep/layouts.ts';
import type { AcestepManifest, ManifestGraph, ManifestLicence } from '../../../inference/src/model/acestep/manifest.ts';
import { ACESTEP_MANIFEST_FILE, ACESTEP_MANIFEST_FORMAT, IO_CONTRACT_CORE_FILE } from '../../../inference/src/model/acestep/manifest.ts';
import { writeModelDirectory } from '../../../inference/src/model/model-directory.ts';
import { GraphBuilder, encodeModel, jsonFileBytes, randomWeights } from '../../../inference/src/model/onnx-builder.ts';
import { byteLevelTokenizer } from '../tokenizer-json.ts';
import type { ElemType } from '../../../inference/src/model/onnx-builder.ts';
import { seededRandom } from '../../../inference/src/model/seed.ts';

export const TINY_WIDTHS: Readonly<Record<Width, number>> = {
  text_hidden: 16,
  latent_channels: 8,
  context_channels: 16,
  encoder_hidden: 24,
  timbre_frames: 12,
};
const DIT_HIDDEN = 32;
const VAE_BASIS = 8;
/** The tokenizer's hidden size (the codes' width: 2048 in the checkpoint) and its FSQ levels (the reference's [8,8,8,5,5,5]; odd here, so no half-step offset). */
const CODE_WIDTH = 16;
const FSQ_LEVELS = [7, 5, 5, 5] as const;
/** Sizes no manifest width names but the checkpoint fixes, declared as numbers as a torch export declares them. */
const CHECKPOINT_FIXED: Readonly<Record<string, number>> = { code_width: CODE_WIDTH, quantizers: 1 };
/** 12 s of silence: longer songs repeat it, as the backend does past the real latent's end. */
const SILENCE_FRAMES = 300;

export interface TinyAcestepOptions {
  name?: string;
  /** The licences by component (every file is listed under the first). */
  licences?: Omit<ManifestLicence, 'files'>[];
  /** Classifier-free guidance (base/SFT-style); turbo's 1 (none) by default. */
  guidanceScale?: number;
  vaeChunkFrames?: number;
  vaeOverlapFrames?: number;
  /** The optional graphs to include (all by default): remix's FSQ pair, the VAE encoder for uploads. */
  optionalGraphs?: readonly ('audio_tokenizer' | 'audio_detokenizer' | 'vae_encoder')[];
}

/** The tiny model's dtypes: each tensor's first in the table (the builder writes no float16). */
const ELEM: Readonly<Record<Exclude<TensorType, 'float16'>, ElemType>> = { float32: 'float', int64: 'int64', bool: 'bool' };

interface TinyTensor {
  name: string;
  dtype: Exclude<TensorType, 'float16'>;
  shape: (number | string)[];
}

/** The table's tensor with the tiny widths and its first dtype. */
function tinyTensor(tensor: LayoutTensor): TinyTensor {
  return {
    name: tensor.name,
    dtype: tensor.types.find((t) => t !== 'float16') ?? 'float32',
    shape: tensor.dims.map((d) =>
      'width' in d ? TINY_WIDTHS[d.width] : 'fixed' in d ? d.fixed : (CHECKPOINT_FIXED[d.varies] ?? d.varies),
    ),
  };
}

function table(graph: GraphRole): LayoutGraph {
  const entry = EXPORTER_2B.graphs[graph];
  if (entry === undefined) throw new Error(`the exporter layout has no ${graph}`);
  return entry;
}

/** Declares the graph's inputs (those the exporter keeps: not the ones torch.onnx.export drops); their names by role. */
function declareInputs(g: GraphBuilder, graph: GraphRole): Record<string, string> {
  const names: Record<string, string> = {};
  for (const tensor of table(graph).inputs) {
    if (tensor.optional !== undefined) continue;
    const tiny = tinyTensor(tensor);
    names[tensor.role] = g.input(tiny.name, ELEM[tiny.dtype], tiny.shape);
  }
  return names;
}

/** Declares the output of this role under the table's name. */
function declareOutput(g: GraphBuilder, graph: GraphRole, value: string, role: string): void {
  const tensor = table(graph).outputs.find((t) => t.role === role);
  if (tensor === undefined) throw new Error(`the exporter layout's ${graph} has no output ${role}`);
  const tiny = tinyTensor(tensor);
  g.output(value, tiny.name, ELEM[tiny.dtype], tiny.shape);
}

type Draw = () => number;

const WORDS = [
  'Instruction',
  'Caption',
  'Metas',
  'Languages',
  'Lyric',
  'bpm',
  'duration',
  'seconds',
  'keyscale',
  'timesignature',
  'verse',
  'chorus',
  'love',
  'night',
];
const SPECIAL = ['<|endoftext|>', '<|im_start|>', '<|im_end|>'];

function captionEncoderGraph(tokens: number[], vocabSize: number, draw: Draw): Uint8Array {
  const D = TINY_WIDTHS.text_hidden;
  const g = new GraphBuilder('');
  const io = declareInputs(g, 'text_encoder');
  const emb = g.op('Gather', [g.f(tokens, [vocabSize, D]), io.input_ids ?? '']);
  const mask = g.op('Unsqueeze', [g.op('Cast', [io.attention_mask ?? ''], { to: { int: 1 } }), g.i([2])]);
  // One mixing layer: each token plus the mean of the (unmasked) sequence, as a stand-in for Qwen3's layers.
  const h = g.op('Mul', [g.op('Tanh', [g.op('MatMul', [emb, g.f(randomWeights(draw, D * D, 0.5), [D, D])])]), mask]);
  const mean = g.op('ReduceMean', [h], { axes: { ints: [1] }, keepdims: { int: 1 } });
  const mixed = g.op('Tanh', [g.op('Add', [h, g.op('MatMul', [mean, g.f(randomWeights(draw, D * D, 0.5), [D, D])])])]);
  declareOutput(g, 'text_encoder', g.op('Mul', [mixed, mask]), 'hidden');
  return encodeModel(g.graph('qwen3_embedding_0p6'), 'songmint tiny ACE-Step-1.5-format caption encoder (Qwen3-Embedding stand-in)');
}

function tokenEmbeddingGraph(tokens: number[], vocabSize: number): Uint8Array {
  const g = new GraphBuilder('');
  const io = declareInputs(g, 'lyric_embedding');
  declareOutput(g, 'lyric_embedding', g.op('Gather', [g.f(tokens, [vocabSize, TINY_WIDTHS.text_hidden]), io.input_ids ?? '']), 'hidden');
  return encodeModel(
    g.graph('qwen3_token_embedding_0p6'),
    "songmint tiny ACE-Step-1.5-format lyric token embeddings (the caption encoder's table)",
  );
}

function conditionEncoderGraph(draw: Draw): Uint8Array {
  const { text_hidden: Dt, latent_channels: C, encoder_hidden: He } = TINY_WIDTHS;
  const g = new GraphBuilder('');
  const io = declareInputs(g, 'condition_encoder');
  const input = (name: string): string => io[name] ?? '';
  const toFloat = (x: string) => g.op('Cast', [x], { to: { int: 1 } });
  const text = g.op('MatMul', [input('text_hidden_states'), g.f(randomWeights(draw, Dt * He, 0.6), [Dt, He])]);
  const lyric = g.op('Tanh', [g.op('MatMul', [input('lyric_hidden_states'), g.f(randomWeights(draw, Dt * He, 0.6), [Dt, He])])]);
  // The timbre token: the reference's mean frame, projected (one reference per song here).
  const timbre = g.op('MatMul', [
    g.op('ReduceMean', [input('refer_audio_acoustic_hidden_states_packed')], { axes: { ints: [1] }, keepdims: { int: 1 } }),
    g.f(randomWeights(draw, C * He, 0.6), [C, He]),
  ]);
  const lyricMask = toFloat(input('lyric_attention_mask'));
  const one = g.op('Add', [g.op('Mul', [g.op('Slice', [lyricMask, g.i([0]), g.i([1]), g.i([1])]), g.f(0)]), g.f(1)]);
  const mask = g.op('Concat', [lyricMask, one, toFloat(input('text_attention_mask'))], { axis: { int: 1 } });
  const states = g.op('Mul', [g.op('Concat', [lyric, timbre, text], { axis: { int: 1 } }), g.op('Unsqueeze', [mask, g.i([2])])]);
  declareOutput(g, 'condition_encoder', states, 'encoder_hidden_states');
  // The exporter's mask comes out bool (its prepare_condition compares): the DiT takes it as float.
  declareOutput(g, 'condition_encoder', g.op('Cast', [mask], { to: { int: 9 } }), 'encoder_attention_mask');
  // Context: the source (the LM hints for a cover) beside the chunk mask, as ACE-Step's encoder packs it.
  const source = g.op('Where', [
    g.op('Unsqueeze', [input('is_covers'), g.i([1, 2])]),
    input('precomputed_lm_hints_25hz'),
    input('src_latents'),
  ]);
  declareOutput(g, 'condition_encoder', g.op('Concat', [source, input('chunk_masks')], { axis: { int: 2 } }), 'context_latents');
  return encodeModel(g.graph('condition_encoder'), 'songmint tiny ACE-Step-1.5-format condition encoder');
}

function ditGraph(draw: Draw): Uint8Array {
  const { latent_channels: C, context_channels: Cc, encoder_hidden: He } = TINY_WIDTHS;
  const D = DIT_HIDDEN;
  const g = new GraphBuilder('');
  const io = declareInputs(g, 'dit');
  const input = (name: string): string => io[name] ?? '';
  const mat = (rows: number, cols: number, scale = 1 / Math.sqrt(rows)) => g.f(randomWeights(draw, rows * cols, scale), [rows, cols]);
  // Patchify: two frames of [latent, context] per token. An odd frame count cannot be reshaped.
  const frames = g.op('Concat', [input('hidden_states'), input('context_latents')], { axis: { int: 2 } });
  const patched = g.op('Reshape', [frames, g.i([0, -1, 2 * (C + Cc)])]);
  let h = g.op('MatMul', [patched, mat(2 * (C + Cc), D)]);
  // Time embedding of t and r (sinusoidal, projected), added to every token.
  const freqs = g.f(
    Array.from({ length: D / 2 }, (_, i) => 1000 / 10_000 ** ((2 * i) / D)),
    [1, D / 2],
  );
  const embed = (t: string) => {
    const angles = g.op('Mul', [g.op('Unsqueeze', [t, g.i([1])]), freqs]);
    return g.op('MatMul', [g.op('Concat', [g.op('Sin', [angles]), g.op('Cos', [angles])], { axis: { int: 1 } }), mat(D, D)]);
  };
  h = g.op('Add', [h, g.op('Unsqueeze', [g.op('Add', [embed(input('timestep')), embed(input('timestep_r'))]), g.i([1])])]);
  // Cross-attention over the condition, padding masked out.
  const q = g.op('MatMul', [h, mat(D, D)]);
  const k = g.op('MatMul', [input('encoder_hidden_states'), mat(He, D)]);
  const value = g.op('MatMul', [input('encoder_hidden_states'), mat(He, D)]);
  const encMask = g.op('Cast', [input('encoder_attention_mask')], { to: { int: 1 } });
  const bias = g.op('Unsqueeze', [g.op('Mul', [g.op('Sub', [g.f(1), encMask]), g.f(-1e9)]), g.i([1])]);
  const scores = g.op('Add', [
    g.op('Mul', [g.op('MatMul', [q, g.op('Transpose', [k], { perm: { ints: [0, 2, 1] } })]), g.f(1 / Math.sqrt(D))]),
    bias,
  ]);
  h = g.op('Add', [h, g.op('MatMul', [g.op('MatMul', [g.op('Softmax', [scores], { axis: { int: -1 } }), value]), mat(D, D)])]);
  h = g.op('Add', [h, g.op('MatMul', [g.op('Relu', [g.op('MatMul', [h, mat(D, 2 * D)])]), mat(2 * D, D)])]);
  // Padding frames (attention mask 0) predict no velocity.
  const patchMask = g.op('ReduceMax', [g.op('Reshape', [g.op('Cast', [input('attention_mask')], { to: { int: 1 } }), g.i([0, -1, 2])])], {
    axes: { ints: [2] },
    keepdims: { int: 1 },
  });
  const out = g.op('Mul', [g.op('Tanh', [g.op('MatMul', [h, mat(D, 2 * C)])]), patchMask]);
  declareOutput(g, 'dit', g.op('Reshape', [out, g.i([0, -1, C])]), 'velocity');
  return encodeModel(g.graph('dit_decoder'), 'songmint tiny ACE-Step-1.5-format DiT decoder (patch size 2)');
}

function vaeGraph(draw: Draw): Uint8Array {
  const C = TINY_WIDTHS.latent_channels;
  const g = new GraphBuilder('');
  const io = declareInputs(g, 'vae_decoder');
  const features = g.op('Tanh', [
    g.op('MatMul', [
      g.op('Transpose', [io.latents ?? ''], { perm: { ints: [0, 2, 1] } }),
      g.f(randomWeights(draw, C * VAE_BASIS, 1), [C, VAE_BASIS]),
    ]),
  ]);
  // Each frame: tones at whole multiples of the 25 Hz frame rate, so phases meet at frame edges; one set per channel.
  const basis: number[] = [];
  for (let k = 0; k < VAE_BASIS; k += 1) {
    for (let ch = 0; ch < 2; ch += 1) {
      const hz = FRAMES_PER_SECOND * (4 + 3 * k + ch);
      for (let n = 0; n < SAMPLES_PER_FRAME; n += 1) basis.push(Math.sin((2 * Math.PI * hz * n) / SAMPLE_RATE) / VAE_BASIS);
    }
  }
  const perFrame = g.op('MatMul', [features, g.f(basis, [VAE_BASIS, 2 * SAMPLES_PER_FRAME])]);
  const split = g.op('Transpose', [g.op('Reshape', [perFrame, g.i([0, 0, 2, SAMPLES_PER_FRAME])])], { perm: { ints: [0, 2, 1, 3] } });
  declareOutput(g, 'vae_decoder', g.op('Mul', [g.op('Reshape', [split, g.i([0, 2, -1])]), g.f(0.8)]), 'waveform');
  return encodeModel(g.graph('vae_decoder'), 'songmint tiny ACE-Step-1.5-format VAE decoder (1920 samples per frame, 48 kHz stereo)');
}

/**
 * The tokenizer as the reference's AceStepAudioTokenizer: latents projected to the hidden size,
 * attention-pooled over windows of FRAMES_PER_CODE frames (one learned query), then FSQ: projected
 * to one value per level, bounded by tanh, rounded to the level's integers, projected back
 * (`quantized`); `indices` the code numbers (mixed radix over the levels).
 */
function audioTokenizerGraph(draw: Draw): Uint8Array {
  const C = TINY_WIDTHS.latent_channels;
  const H = CODE_WIDTH;
  const L = FSQ_LEVELS.length;
  const g = new GraphBuilder('');
  const io = declareInputs(g, 'audio_tokenizer');
  const windows = g.op('Reshape', [io.hidden_states ?? '', g.i([0, -1, FRAMES_PER_CODE, C])]);
  const h = g.op('Tanh', [g.op('MatMul', [windows, g.f(randomWeights(draw, C * H, 0.8), [C, H])])]);
  const weights = g.op('Softmax', [g.op('MatMul', [h, g.f(randomWeights(draw, H, 1), [H, 1])])], { axis: { int: 2 } });
  const pooled = g.op('ReduceSum', [g.op('Mul', [h, weights]), g.i([2])], { keepdims: { int: 0 } });
  const half = FSQ_LEVELS.map((l) => (l - 1) / 2);
  const bounded = g.op('Mul', [g.op('Tanh', [g.op('MatMul', [pooled, g.f(randomWeights(draw, H * L, 1), [H, L])])]), g.f(half, [L])]);
  const rounded = g.op('Round', [bounded]);
  const codes = g.op('Div', [rounded, g.f(half, [L])]);
  declareOutput(g, 'audio_tokenizer', g.op('MatMul', [codes, g.f(randomWeights(draw, L * H, 1), [L, H])]), 'quantized');
  const radix = FSQ_LEVELS.map((_, i) => FSQ_LEVELS.slice(0, i).reduce((a, b) => a * b, 1));
  const index = g.op('ReduceSum', [g.op('Mul', [g.op('Add', [rounded, g.f(half, [L])]), g.f(radix, [L])]), g.i([2])], {
    keepdims: { int: 1 },
  });
  declareOutput(g, 'audio_tokenizer', g.op('Cast', [index], { to: { int: 7 } }), 'indices');
  return encodeModel(g.graph('audio_tokenizer'), 'songmint tiny ACE-Step-1.5-format audio tokenizer (25 Hz latents to 5 Hz FSQ codes)');
}

/** The detokenizer: each code embedded, repeated over FRAMES_PER_CODE frames with a learned position each, projected to latents. */
function audioDetokenizerGraph(draw: Draw): Uint8Array {
  const C = TINY_WIDTHS.latent_channels;
  const H = CODE_WIDTH;
  const g = new GraphBuilder('');
  const io = declareInputs(g, 'audio_detokenizer');
  const embedded = g.op('MatMul', [io.quantized ?? '', g.f(randomWeights(draw, H * H, 0.5), [H, H])]);
  const spread = g.op('Add', [
    g.op('Unsqueeze', [embedded, g.i([2])]),
    g.f(randomWeights(draw, FRAMES_PER_CODE * H, 0.5), [FRAMES_PER_CODE, H]),
  ]);
  const frames = g.op('MatMul', [g.op('Tanh', [spread]), g.f(randomWeights(draw, H * C, 0.6), [H, C])]);
  declareOutput(g, 'audio_detokenizer', g.op('Reshape', [frames, g.i([0, -1, C])]), 'hints');
  return encodeModel(g.graph('audio_detokenizer'), 'songmint tiny ACE-Step-1.5-format audio detokenizer (5 Hz codes to 25 Hz latents)');
}

/** The VAE encoder: each 1920-sample stereo frame projected to one latent frame, `[B, C, frames]` as the decoder takes it. */
function vaeEncoderGraph(draw: Draw): Uint8Array {
  const C = TINY_WIDTHS.latent_channels;
  const g = new GraphBuilder('');
  const io = declareInputs(g, 'vae_encoder');
  const frames = g.op('Transpose', [g.op('Reshape', [io.audio ?? '', g.i([0, 2, -1, SAMPLES_PER_FRAME])])], {
    perm: { ints: [0, 2, 1, 3] },
  });
  const flat = g.op('Reshape', [frames, g.i([0, 0, 2 * SAMPLES_PER_FRAME])]);
  const latents = g.op('MatMul', [flat, g.f(randomWeights(draw, 2 * SAMPLES_PER_FRAME * C, 0.1), [2 * SAMPLES_PER_FRAME, C])]);
  declareOutput(g, 'vae_encoder', g.op('Transpose', [latents], { perm: { ints: [0, 2, 1] } }), 'latents');
  return encodeModel(g.graph('vae_encoder'), 'songmint tiny ACE-Step-1.5-format VAE encoder (48 kHz stereo to latent means)');
}

/** Each graph's file, as the exporter names it (EXPORTER_2B's table). */
const GRAPH_FILE = (graph: GraphRole): string => table(graph).files[0]?.file ?? `${graph}.onnx`;
/** The graphs the exporter's io_contract_core.json describes, under its keys (layouts.ts). */
const CONTRACT_GRAPHS: readonly [GraphRole, string][] = IO_CONTRACT_GRAPHS.map((role) => [role, ioContractKey(role)]);
const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');
const floatBytes = (values: readonly number[]): Uint8Array => new Uint8Array(Float32Array.from(values).buffer);

const DEFAULT_LICENCES: Omit<ManifestLicence, 'files'>[] = [
  {
    component: 'ACE-Step 1.5 graphs (condition encoder, DiT, VAE)',
    spdx: 'MIT',
    commercial_use: true,
    url: 'https://github.com/ace-step/ACE-Step-1.5',
  },
  {
    component: 'Qwen3-Embedding-0.6B (caption encoder, token table, tokenizer)',
    spdx: 'Apache-2.0',
    commercial_use: true,
    url: 'https://huggingface.co/Qwen/Qwen3-Embedding-0.6B',
  },
];

/** The directory's files by relative path. */
export function tinyAcestepFiles(options: TinyAcestepOptions = {}): Record<string, Uint8Array> {
  const random = seededRandom(20_260_415n, 'tiny-acestep-weights');
  const draw: Draw = () => random.next();
  const tokenizer = byteLevelTokenizer({ flavour: 'qwen3', words: WORDS, added: SPECIAL });
  const tokens = randomWeights(draw, tokenizer.vocabSize * TINY_WIDTHS.text_hidden, 1);
  const guidance = options.guidanceScale ?? 1;

  const files: Record<string, Uint8Array> = {
    'tokenizer.json': jsonFileBytes(tokenizer.json),
    'silence_latent.bin': floatBytes(randomWeights(draw, SILENCE_FRAMES * TINY_WIDTHS.latent_channels, 0.3)),
    [GRAPH_FILE('text_encoder')]: captionEncoderGraph(tokens, tokenizer.vocabSize, draw),
    [GRAPH_FILE('lyric_embedding')]: tokenEmbeddingGraph(tokens, tokenizer.vocabSize),
    [GRAPH_FILE('condition_encoder')]: conditionEncoderGraph(draw),
    [GRAPH_FILE('dit')]: ditGraph(draw),
    [GRAPH_FILE('vae_decoder')]: vaeGraph(draw),
  };
  if (guidance > 1) files['null_condition.bin'] = floatBytes(randomWeights(draw, TINY_WIDTHS.encoder_hidden, 0.5));
  // Drawn after every other graph, so the five graphs keep their weights with or without these.
  const optional = options.optionalGraphs ?? ['audio_tokenizer', 'audio_detokenizer', 'vae_encoder'];
  const optionalBuilders = { audio_tokenizer: audioTokenizerGraph, audio_detokenizer: audioDetokenizerGraph, vae_encoder: vaeEncoderGraph };
  for (const graph of ['audio_tokenizer', 'audio_detokenizer', 'vae_encoder'] as const) {
    const bytes = optionalBuilders[graph](draw);
    if (optional.includes(graph)) files[GRAPH_FILE(graph)] = bytes;
  }
  const shipped = (graph: GraphRole) => files[GRAPH_FILE(graph)] !== undefined;
  const ref = (file: string) => ({ file, sha256: sha256(files[file] ?? new Uint8Array()) });
  const entry = (graph: GraphRole): ManifestGraph => ({ ...ref(GRAPH_FILE(graph)), precision: 'fp32', external_data: [] });
  const names = (graph: GraphRole, kind: 'inputs' | 'outputs') => {
    const tensors = table(graph)[kind];
    return tensors.filter((t) => t.optional === undefined).map((t) => t.name);
  };
  files[IO_CONTRACT_CORE_FILE] = jsonFileBytes({
    inputs: Object.fromEntries(CONTRACT_GRAPHS.filter(([g]) => shipped(g)).map(([g, name]) => [name, names(g, 'inputs')])),
    outputs: Object.fromEntries(CONTRACT_GRAPHS.filter(([g]) => shipped(g)).map(([g, name]) => [name, names(g, 'outputs')])),
  });
  const roles = ['text_encoder', 'lyric_embedding', 'condition_encoder', 'dit', 'vae_decoder', ...optional] as const;
  const licences = options.licences ?? DEFAULT_LICENCES;
  const manifest: AcestepManifest = {
    format: ACESTEP_MANIFEST_FORMAT,
    layout: 'exporter-2b',
    name: options.name ?? 'songmint-acestep-1.5-tiny',
    version: '1.5.0-tiny',
    description:
      "Tiny random-weight model in the public exporter's ACE-Step 1.5 layout (npm run build:acestep-tiny): proves the backend, makes no music.",
    sources: [],
    licences: licences.map((licence, i) => ({
      ...licence,
      files: i === 0 ? Object.keys(files).filter((f) => f !== IO_CONTRACT_CORE_FILE) : ['tokenizer.json'],
    })),
    sample_rate: 48_000,
    channels: 2,
    samples_per_frame: 1920,
    frames_per_second: 25,
    patch_size: 2,
    dims: { ...TINY_WIDTHS },
    tokenizer: { ...ref('tokenizer.json'), max_caption_tokens: 256, max_lyric_tokens: 2048 },
    silence_latent: { ...ref('silence_latent.bin'), dtype: 'float32', shape: [SILENCE_FRAMES, TINY_WIDTHS.latent_channels] },
    schedule: {
      // Turbo is distilled for 8 steps at shift 3: both of the spec's values run that schedule.
      steps_for_request: guidance > 1 ? { '27': 27, '60': 60 } : { '27': 8, '60': 8 },
      shift: guidance > 1 ? 1 : 3,
      guidance_scale: guidance,
      ...(guidance > 1
        ? { null_condition: { ...ref('null_condition.bin'), shape: [1, TINY_WIDTHS.encoder_hidden] as [number, number] } }
        : {}),
    },
    vae_chunk_frames: options.vaeChunkFrames ?? 48,
    vae_overlap_frames: options.vaeOverlapFrames ?? 4,
    graphs: Object.fromEntries(roles.map((graph) => [graph, entry(graph)])),
  };
  files[ACESTEP_MANIFEST_FILE] = jsonFileBytes(manifest);
  return files;
}

/** Writes the tiny model into `dir` (created if need be). */
export function writeTinyAcestep(dir: string, options: TinyAcestepOptions = {}): Promise<string[]> {
  return writeModelDirectory(dir, tinyAcestepFiles(options));
}
