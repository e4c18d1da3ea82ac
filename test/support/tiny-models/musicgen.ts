/**
 * A tiny model in exactly the public MusicGen ONNX export's layout, built from TypeScript with
 * the project's ONNX builder (no downloads, no Python): the same files, graph input and output
 * names, dtypes and ranks as `musicgen-small` (text encoder; merged decoder with
 * `use_cache_branch`, an `If` between computing and reusing the cross-attention cache, and
 * self-attention keys/values that grow each call; EnCodec decoder), with a few layers, a small
 * vocabulary and seeded random weights. It proves the backend end to end where the real weights
 * (hundreds of MB, CC-BY-NC-4.0) cannot be downloaded. Deterministic: same options, same bytes.
 */
import type { ModelLicence } from '../../../inference/src/model/licence.ts';
import { writeModelDirectory } from '../../../inference/src/model/model-directory.ts';
import { GraphBuilder, encodeModel, jsonFileBytes, randomWeights } from '../../../inference/src/model/onnx-builder.ts';
import { GRAPH_FILES } from '../../../inference/src/model/musicgen/layout.ts';
import { seededRandom } from '../../../inference/src/model/seed.ts';
import { specialToken } from '../tokenizer-json.ts';

export interface TinyMusicgenOptions {
  licence?: ModelLicence;
  /** Decoder positions (and generation max_length): small, so short songs already need several windows. */
  maxPositions?: number;
  name?: string;
}

export const TINY_DIMS = {
  codebooks: 4,
  codebookSize: 64,
  hidden: 16,
  heads: 2,
  layers: 2,
  ffn: 32,
  textHidden: 8,
  codecChannels: 8,
  sampleRate: 32_000,
  upsampling: [8, 5, 4, 4],
} as const;

const SPECIAL = ['<pad>', '</s>', '<unk>'] as const;
const WORDS = [
  'rock',
  'pop',
  'song',
  'dreamy',
  'synthwave',
  'jazz',
  'piano',
  'drums',
  'bass',
  'guitar',
  'love',
  'night',
  'verse',
  'chorus',
  'bridge',
  'lyrics',
  'bpm',
  'in',
  'minor',
  'major',
  'the',
  'a',
];
const CHARS = [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.,!?\'"-:;()[]#'];

/** T5-style unigram tokenizer.json (Metaspace pre-tokenizer, `</s>` appended). */
function tokenizerJson(): { json: object; vocabSize: number } {
  const vocab: [string, number][] = [...SPECIAL.map((t): [string, number] => [t, 0]), ['▁', -3]];
  for (const w of WORDS) vocab.push([`▁${w}`, -2]);
  for (const c of CHARS) vocab.push([c, -6], [`▁${c}`, -7]);
  const json = {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: SPECIAL.map((content, id) => specialToken(id, content)),
    normalizer: { type: 'Sequence', normalizers: [{ type: 'NFKC' }, { type: 'Replace', pattern: { Regex: ' {2,}' }, content: ' ' }] },
    pre_tokenizer: {
      type: 'Sequence',
      pretokenizers: [{ type: 'WhitespaceSplit' }, { type: 'Metaspace', replacement: '▁', prepend_scheme: 'always', split: true }],
    },
    post_processor: {
      type: 'TemplateProcessing',
      single: [{ Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '</s>', type_id: 0 } }],
      pair: [
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: { id: '</s>', type_id: 0 } },
        { Sequence: { id: 'B', type_id: 0 } },
        { SpecialToken: { id: '</s>', type_id: 0 } },
      ],
      special_tokens: { '</s>': { id: '</s>', ids: [1], tokens: ['</s>'] } },
    },
    decoder: { type: 'Metaspace', replacement: '▁', prepend_scheme: 'always', split: true },
    model: { type: 'Unigram', unk_id: 2, vocab, byte_fallback: false },
  };
  return { json, vocabSize: vocab.length };
}

function textEncoderGraph(vocabSize: number, random: () => number): Uint8Array {
  const D = TINY_DIMS.textHidden;
  const g = new GraphBuilder('');
  const ids = g.input('input_ids', 'int64', ['batch_size', 'encoder_sequence_length']);
  const mask = g.input('attention_mask', 'int64', ['batch_size', 'encoder_sequence_length']);
  const emb = g.op('Gather', [g.f(randomWeights(random, vocabSize * D, 1), [vocabSize, D]), ids]);
  const maskF = g.op('Unsqueeze', [g.op('Cast', [mask], { to: { int: 1 } }), g.i([2])]);
  const h = g.op('Mul', [g.op('Tanh', [g.op('MatMul', [emb, g.f(randomWeights(random, D * D, 0.6), [D, D])])]), maskF]);
  // A little context: every token sees the sequence's mean.
  const mean = g.op('ReduceMean', [h], { axes: { ints: [1] }, keepdims: { int: 1 } });
  const mixed = g.op('Tanh', [g.op('Add', [h, g.op('MatMul', [mean, g.f(randomWeights(random, D * D, 0.6), [D, D])])])]);
  g.output(g.op('Mul', [mixed, maskF]), 'last_hidden_state', 'float', ['batch_size', 'encoder_sequence_length', D]);
  return encodeModel(g.graph('text_encoder'), 'songmint tiny MusicGen-format text encoder (T5 stand-in)');
}

function decoderGraph(random: () => number): Uint8Array {
  const { codebooks: K, codebookSize: V, hidden: D, heads: H, layers: L, ffn: F, textHidden: Dt } = TINY_DIMS;
  const hd = D / H;
  const g = new GraphBuilder('');
  const mat = (rows: number, cols: number, scale = 1 / Math.sqrt(rows)) => g.f(randomWeights(random, rows * cols, scale), [rows, cols]);
  const norm = (x: string) =>
    g.op('LayerNormalization', [x, g.f(new Array<number>(D).fill(1), [D]), g.f(new Array<number>(D).fill(0), [D])], {
      axis: { int: -1 },
      epsilon: { float: 1e-5 },
    });
  const splitHeads = (b: GraphBuilder, x: string) =>
    b.op('Transpose', [b.op('Reshape', [x, b.i([0, 0, H, hd])])], { perm: { ints: [0, 2, 1, 3] } });
  const mergeHeads = (x: string) => g.op('Reshape', [g.op('Transpose', [x], { perm: { ints: [0, 2, 1, 3] } }), g.i([0, 0, D])]);

  const encMask = g.input('encoder_attention_mask', 'int64', ['batch_size', 'encoder_sequence_length']);
  const ids = g.input('input_ids', 'int64', ['batch_size_x_num_codebooks', 'decoder_sequence_length']);
  const encStates = g.input('encoder_hidden_states', 'float', ['batch_size', 'encoder_sequence_length', Dt]);
  const past: { dk: string; dv: string; ek: string; ev: string }[] = [];
  for (let l = 0; l < L; l += 1) {
    past.push({
      dk: g.input(`past_key_values.${l}.decoder.key`, 'float', ['batch_size', H, 'past_decoder_sequence_length', hd]),
      dv: g.input(`past_key_values.${l}.decoder.value`, 'float', ['batch_size', H, 'past_decoder_sequence_length', hd]),
      ek: g.input(`past_key_values.${l}.encoder.key`, 'float', ['batch_size', H, 'encoder_sequence_length_out', hd]),
      ev: g.input(`past_key_values.${l}.encoder.value`, 'float', ['batch_size', H, 'encoder_sequence_length_out', hd]),
    });
  }
  const useCache = g.input('use_cache_branch', 'bool', [1]);

  // Embeddings: the sum of one table per codebook (V codes + the start/pad token each).
  const seq1d = g.op('Slice', [g.op('Shape', [ids]), g.i([1]), g.i([2])]);
  const ids3 = g.op('Reshape', [ids, g.op('Concat', [g.i([-1, K]), seq1d], { axis: { int: 0 } })]);
  const offsets = g.i(
    Array.from({ length: K }, (_, k) => k * (V + 1)),
    [1, K, 1],
  );
  const table = g.f(randomWeights(random, K * (V + 1) * D, 0.5), [K * (V + 1), D]);
  let x = g.op('ReduceSum', [g.op('Gather', [table, g.op('Add', [ids3, offsets])]), g.i([1])], { keepdims: { int: 0 } });

  // Sinusoidal positions continue from the cache's length.
  const pastLen = g.op('Gather', [g.op('Shape', [past[0]?.dk ?? '']), g.i(2)]);
  const total = g.op('Add', [pastLen, g.op('Gather', [g.op('Shape', [ids]), g.i(1)])]);
  const positions = g.op('Range', [pastLen, total, g.i(1)]);
  const freqs = g.f(
    Array.from({ length: D / 2 }, (_, i) => 1 / 10000 ** ((2 * i) / D)),
    [1, D / 2],
  );
  const angles = g.op('Mul', [g.op('Unsqueeze', [g.op('Cast', [positions], { to: { int: 1 } }), g.i([1])]), freqs]);
  x = g.op('Add', [x, g.op('Concat', [g.op('Sin', [angles]), g.op('Cos', [angles])], { axis: { int: 1 } })]);

  // Causal mask over (past + new) keys; padding mask over the text.
  const keyPositions = g.op('Unsqueeze', [g.op('Range', [g.i(0), total, g.i(1)]), g.i([0])]);
  const future = g.op('Greater', [keyPositions, g.op('Unsqueeze', [positions, g.i([1])])]);
  const causal = g.op('Mul', [g.op('Cast', [future], { to: { int: 1 } }), g.f(-1e9)]);
  const encMaskF = g.op('Cast', [encMask], { to: { int: 1 } });
  const crossMask = g.op('Unsqueeze', [g.op('Mul', [g.op('Sub', [g.f(1), encMaskF]), g.f(-1e9)]), g.i([1, 2])]);
  const scale = g.f(1 / Math.sqrt(hd));

  // The merged export's branch: compute the cross-attention cache from the text, or reuse it.
  const projected = g.op('MatMul', [encStates, mat(Dt, D)]);
  const crossWeights = Array.from({ length: L }, () => ({ k: mat(D, D), v: mat(D, D) }));
  const computeBranch = new GraphBuilder('nocache_');
  const reuseBranch = new GraphBuilder('cache_');
  const encDims = ['batch_size', H, 'encoder_sequence_length_out', hd];
  for (let l = 0; l < L; l += 1) {
    const w = crossWeights[l] as { k: string; v: string };
    const p = past[l] as { ek: string; ev: string };
    computeBranch.output(splitHeads(computeBranch, computeBranch.op('MatMul', [projected, w.k])), `nocache_ek_${l}`, 'float', encDims);
    computeBranch.output(splitHeads(computeBranch, computeBranch.op('MatMul', [projected, w.v])), `nocache_ev_${l}`, 'float', encDims);
    reuseBranch.output(p.ek, `cache_ek_${l}`, 'float', encDims);
    reuseBranch.output(p.ev, `cache_ev_${l}`, 'float', encDims);
  }
  const cross = g.opN('If', [useCache], 2 * L, {
    then_branch: { graph: reuseBranch.graph('with_past') },
    else_branch: { graph: computeBranch.graph('without_past') },
  });

  const attend = (q: string, k: string, v: string, mask: string) =>
    g.op('MatMul', [
      g.op(
        'Softmax',
        [g.op('Add', [g.op('Mul', [g.op('MatMul', [q, g.op('Transpose', [k], { perm: { ints: [0, 1, 3, 2] } })]), scale]), mask])],
        { axis: { int: -1 } },
      ),
      v,
    ]);

  for (let l = 0; l < L; l += 1) {
    const p = past[l] as { dk: string; dv: string };
    let h = norm(x);
    const keys = g.op('Concat', [p.dk, splitHeads(g, g.op('MatMul', [h, mat(D, D)]))], { axis: { int: 2 } });
    const values = g.op('Concat', [p.dv, splitHeads(g, g.op('MatMul', [h, mat(D, D)]))], { axis: { int: 2 } });
    g.output(keys, `present.${l}.decoder.key`, 'float', ['batch_size', H, 'past_decoder_sequence_length + decoder_sequence_length', hd]);
    g.output(values, `present.${l}.decoder.value`, 'float', [
      'batch_size',
      H,
      'past_decoder_sequence_length + decoder_sequence_length',
      hd,
    ]);
    const ownQ = splitHeads(g, g.op('MatMul', [h, mat(D, D)]));
    x = g.op('Add', [
      x,
      g.op('MatMul', [mergeHeads(attend(ownQ, `present.${l}.decoder.key`, `present.${l}.decoder.value`, causal)), mat(D, D)]),
    ]);

    h = norm(x);
    const ek = cross[2 * l] as string;
    const ev = cross[2 * l + 1] as string;
    const crossQ = splitHeads(g, g.op('MatMul', [h, mat(D, D)]));
    x = g.op('Add', [x, g.op('MatMul', [mergeHeads(attend(crossQ, ek, ev, crossMask)), mat(D, D)])]);
    g.output(ek, `present.${l}.encoder.key`, 'float', encDims);
    g.output(ev, `present.${l}.encoder.value`, 'float', encDims);

    h = norm(x);
    x = g.op('Add', [x, g.op('MatMul', [g.op('Relu', [g.op('MatMul', [h, mat(D, F)])]), mat(F, D)])]);
  }

  // One head per codebook: [batch, seq, K x V] -> [batch x K, seq, V].
  const heads = g.op('MatMul', [norm(x), mat(D, K * V, 3 / Math.sqrt(D))]);
  const perCodebook = g.op('Transpose', [g.op('Reshape', [heads, g.i([0, 0, K, V])])], { perm: { ints: [0, 2, 1, 3] } });
  const logits = g.op('Reshape', [perCodebook, g.op('Concat', [g.i([-1]), seq1d, g.i([V])], { axis: { int: 0 } })]);
  g.output(logits, 'logits', 'float', ['batch_size_x_num_codebooks', 'decoder_sequence_length', V]);
  return encodeModel(g.graph('decoder_model_merged'), 'songmint tiny MusicGen-format merged decoder (use_cache_branch)');
}

function codecGraph(random: () => number): Uint8Array {
  const { codebooks: K, codebookSize: V, codecChannels: C, sampleRate, upsampling } = TINY_DIMS;
  const hop = upsampling.reduce((a: number, b: number) => a * b, 1);
  const g = new GraphBuilder('');
  const codes = g.input('audio_codes', 'int64', [1, 'batch_size', K, 'chunk_length']);
  const squeezed = g.op('Squeeze', [codes, g.i([0])]);
  const offsets = g.i(
    Array.from({ length: K }, (_, k) => k * V),
    [1, K, 1],
  );
  const table = g.f(randomWeights(random, K * V * C, 0.3), [K * V, C]);
  const features = g.op('ReduceSum', [g.op('Gather', [table, g.op('Add', [squeezed, offsets])]), g.i([1])], { keepdims: { int: 0 } });
  // Each frame: a mix of tones at whole multiples of the frame rate, so phases meet at frame edges.
  const frameRate = sampleRate / hop;
  const multiples = [4, 5, 6, 8, 10, 12, 15, 20];
  const basis: number[] = [];
  for (let c = 0; c < C; c += 1) {
    const f = frameRate * (multiples[c] ?? c + 1);
    for (let n = 0; n < hop; n += 1) basis.push(Math.sin((2 * Math.PI * f * n) / sampleRate));
  }
  const frames = g.op('Tanh', [g.op('MatMul', [features, g.f(basis, [C, hop])])]);
  const audio = g.op('Mul', [g.op('Reshape', [frames, g.i([0, 1, -1])]), g.f(0.5)]);
  g.output(audio, 'audio_values', 'float', ['batch_size', 1, 'sequence_length']);
  return encodeModel(g.graph('encodec_decode'), 'songmint tiny MusicGen-format EnCodec decoder');
}

/** The directory's files by relative path. */
export function tinyMusicgenFiles(options: TinyMusicgenOptions = {}): Record<string, Uint8Array> {
  const { codebooks: K, codebookSize: V, hidden: D, heads: H, layers: L, ffn: F, textHidden: Dt, sampleRate, upsampling } = TINY_DIMS;
  const maxPositions = options.maxPositions ?? 128;
  const random = seededRandom(20_260_101n, 'tiny-musicgen-weights');
  const next = () => random.next();
  const tokenizer = tokenizerJson();
  return {
    'config.json': jsonFileBytes({
      architectures: ['MusicgenForConditionalGeneration'],
      model_type: 'musicgen',
      decoder: {
        model_type: 'musicgen_decoder',
        vocab_size: V,
        num_codebooks: K,
        hidden_size: D,
        num_hidden_layers: L,
        num_attention_heads: H,
        ffn_dim: F,
        max_position_embeddings: maxPositions,
        pad_token_id: V,
        bos_token_id: V,
        audio_channels: 1,
      },
      text_encoder: { model_type: 't5', d_model: Dt, vocab_size: tokenizer.vocabSize, num_layers: 1 },
      audio_encoder: {
        model_type: 'encodec',
        sampling_rate: sampleRate,
        upsampling_ratios: [...upsampling],
        audio_channels: 1,
        codebook_size: V,
      },
    }),
    'generation_config.json': jsonFileBytes({
      _from_model_config: false,
      bos_token_id: V,
      decoder_start_token_id: V,
      pad_token_id: V,
      do_sample: true,
      guidance_scale: 3.0,
      max_length: maxPositions,
      top_k: 32,
    }),
    'tokenizer.json': jsonFileBytes(tokenizer.json),
    'tokenizer_config.json': jsonFileBytes({
      tokenizer_class: 'T5Tokenizer',
      model_max_length: 512,
      eos_token: '</s>',
      pad_token: '<pad>',
      unk_token: '<unk>',
    }),
    'songmint.json': jsonFileBytes({
      format: 'songmint-musicgen/1',
      name: options.name ?? 'songmint-musicgen-tiny',
      version: '1.0.0',
      licence: options.licence ?? { spdx: 'MIT', commercial_use: true },
    }),
    [GRAPH_FILES.textEncoder]: textEncoderGraph(tokenizer.vocabSize, next),
    [GRAPH_FILES.decoder]: decoderGraph(next),
    [GRAPH_FILES.codec]: codecGraph(next),
  };
}

/** Writes the tiny model into `dir` (created if need be). */
export function writeTinyMusicgen(dir: string, options: TinyMusicgenOptions = {}): Promise<string[]> {
  return writeModelDirectory(dir, tinyMusicgenFiles(options));
}
