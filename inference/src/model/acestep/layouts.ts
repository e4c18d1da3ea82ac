/**
 * The ACE-Step 1.5 exports Songmint runs, each one table: per graph role its files and, per
 * tensor, the exact name, the dtypes and the rank (with the model's widths). This module is the one
 * place a graph's names and files live: the loader binds sessions by these names (bind.ts), import
 * recognises a layout by these files (import.ts), `model:fetch` downloads them (hub-presets.ts),
 * `model:check` and docs/inference.md read them. A graph whose interface differs is refused with
 * the expected and the found interface side by side; nothing is bound by rank or position.
 *
 * Two layouts, each from evidence (code, not a README):
 * - `exporter-2b`: the public exporter's ACE-Step 1.5 (2B) turbo directory,
 *   SuzukiDaishi/ACE-Step-ONNX-Rust@9dfcc6e tools/onnx_export/export_core.py (`_export_core`:
 *   input_names, output_names; `_sample_inputs`: float32 masks, int64 order mask, bool is_covers)
 *   and export_qwen_embedding.py (qwen3_embedding_0p6.onnx, qwen3_token_embedding_0p6.onnx);
 *   its manifest.json records every file's sha256 and external-data sidecars.
 * - `xl-turbo`: the files Emb1ter/ai-music-js 0.4.0 (@835fa4a, MIT) runs ACE-Step 1.5 XL Turbo from:
 *   lib/model-manifest.ts (file names, sidecars, sizes) and workers/ace-step.worker.ts (every
 *   `session.run`: the feeds it builds and the outputs it reads). Four-input DiT without masks,
 *   float32 masks and `is_covers`, the DiT's weights in three shards, 4-bit MatMulNBits graphs.
 *
 *   caption --tokenizer--> text_encoder ----> text_hidden_states  \
 *   lyrics  --tokenizer--> lyric_embedding -> lyric_hidden_states  -> condition_encoder
 *   silence latent (source + timbre reference) ----------------- /          |
 *   seeded noise -> dit x N (flow-matching Euler) <- encoder states, context -/
 *                -> vae_decoder -> 48 kHz stereo
 *   remix (optional): latents -> audio_tokenizer (5 Hz codes) -> audio_detokenizer -> LM hints
 */

/** Widths fixed by the checkpoint; the manifest records each (read from the graphs) and every graph must agree. */
export const WIDTHS = ['text_hidden', 'latent_channels', 'context_channels', 'encoder_hidden', 'timbre_frames'] as const;
export type Width = (typeof WIDTHS)[number];

/** ACE-Step 1.5's widths (2B and XL, turbo, base and SFT share them); used where a graph leaves one undeclared. */
export const ACE_STEP_15_WIDTHS: Readonly<Record<Width, number>> = {
  text_hidden: 1024,
  latent_channels: 64,
  context_channels: 128,
  encoder_hidden: 2048,
  timbre_frames: 750,
};

/** The VAE's frame: 1920 samples at 48 kHz, 25 latent frames a second (every ACE-Step 1.5 checkpoint). */
export const SAMPLES_PER_FRAME = 1920;
export const FRAMES_PER_SECOND = 25;
export const SAMPLE_RATE = SAMPLES_PER_FRAME * FRAMES_PER_SECOND;
/** The DiT patches two latent frames into one token: its sequence must be even. */
export const PATCH_SIZE = 2;
/** The audio tokenizer pools this many 25 Hz latent frames into one 5 Hz code (the reference's `pool_window_size`). */
export const FRAMES_PER_CODE = 5;

export type TensorType = 'float32' | 'float16' | 'int64' | 'bool';

/** A dimension: a fixed width of the model, a size that varies per song (only its place matters), or a number. */
export type ContractDim = { width: Width } | { varies: string } | { fixed: number };

export interface LayoutTensor {
  /** What the backend calls this tensor (the reference's argument name where it has one). */
  role: string;
  /** The graph's own name for it, exactly. */
  name: string;
  /** The dtypes this export declares (more than one only where the evidence does not settle it). */
  types: readonly TensorType[];
  dims: readonly ContractDim[];
  /** Why a graph of this layout may leave it out (`torch.onnx.export` drops an unread argument). */
  optional?: string;
}

export const GRAPH_ROLES = [
  'text_encoder',
  'lyric_embedding',
  'condition_encoder',
  'dit',
  'vae_decoder',
  'audio_tokenizer',
  'audio_detokenizer',
  'vae_encoder',
] as const;
export type GraphRole = (typeof GRAPH_ROLES)[number];

export const PRECISIONS = ['fp32', 'fp16', 'bf16', 'int8', 'q4', 'q8'] as const;
export type Precision = (typeof PRECISIONS)[number];
export const QUALITIES = ['standard', 'high'] as const;
export type Quality = (typeof QUALITIES)[number];

/** One file a graph may come as, with its external-data sidecars. */
export interface GraphFile {
  file: string;
  /**
   * The sidecars, by name; `exporter-manifest` where the export's own manifest.json lists them
   * (the public exporter writes one `.onnx.data` or tensor-named files, as the model needs).
   */
  externalData: readonly string[] | 'exporter-manifest';
  precision: Precision | 'declared';
  /** Where a layout ships a graph at two qualities (XL: q4 standard, q8 high). */
  quality?: Quality;
}

export interface LayoutGraph {
  files: readonly GraphFile[];
  inputs: readonly LayoutTensor[];
  outputs: readonly LayoutTensor[];
  /** Null for a graph every song needs; else what it serves (the model runs without it and says what it lacks). */
  optionalFor: string | null;
  /** The licence entry (below) its files fall under. */
  licence: string;
}

export interface LayoutLicence {
  component: string;
  spdx: string;
  commercial_use: boolean;
  url: string;
}

export type LayoutId = 'exporter-2b' | 'xl-turbo';

export interface KnownLayout {
  id: LayoutId;
  title: string;
  /** Where the names and files come from. */
  evidence: string;
  graphs: Readonly<Partial<Record<GraphRole, LayoutGraph>>>;
  tokenizer: { file: string; config: string | null; licence: string };
  silenceLatent: { file: string; licence: string };
  licences: Readonly<Record<string, LayoutLicence>>;
  /**
   * Remix's 5 Hz round trip: which audio_tokenizer output the audio_detokenizer takes, by role
   * (the 2B export passes the FSQ codes' values, the XL detokenizer takes code numbers).
   */
  codes: 'quantized' | 'indices';
}

const w = (width: Width): ContractDim => ({ width });
const v = (label: string): ContractDim => ({ varies: label });
const F32 = ['float32'] as const;
const I64 = ['int64'] as const;
/** An output the XL consumer reads through `asFloat32` without naming its dtype. */
const FLOAT = ['float32', 'float16'] as const;

const t = (role: string, name: string, types: readonly TensorType[], dims: readonly ContractDim[], optional?: string): LayoutTensor =>
  optional === undefined ? { role, name, types, dims } : { role, name, types, dims, optional };

const latents = (role: string, name = role): LayoutTensor => t(role, name, F32, [v('batch'), v('frames'), w('latent_channels')]);

/** The condition encoder's inputs both layouts share, by the reference's argument names (`prepare_condition`). */
const CONDITION_INPUTS: readonly LayoutTensor[] = [
  t('text_hidden_states', 'text_hidden_states', F32, [v('batch'), v('caption_tokens'), w('text_hidden')]),
  t('text_attention_mask', 'text_attention_mask', F32, [v('batch'), v('caption_tokens')]),
  t('lyric_hidden_states', 'lyric_hidden_states', F32, [v('batch'), v('lyric_tokens'), w('text_hidden')]),
  t('lyric_attention_mask', 'lyric_attention_mask', F32, [v('batch'), v('lyric_tokens')]),
  t('refer_audio_acoustic_hidden_states_packed', 'refer_audio_acoustic_hidden_states_packed', F32, [
    v('references'),
    w('timbre_frames'),
    w('latent_channels'),
  ]),
  t('refer_audio_order_mask', 'refer_audio_order_mask', I64, [v('references')]),
  latents('src_latents'),
  latents('chunk_masks'),
];

const DROPPED = 'the exporter wrapper passes it, but prepare_condition reads it only without LM hints, so torch.onnx.export drops it';

const EXPORTER_LICENCES = {
  acestep: {
    component: 'ACE-Step 1.5 (condition encoder, DiT, VAE, audio tokenizer, silence latent)',
    spdx: 'MIT',
    commercial_use: true,
    url: 'https://github.com/ace-step/ACE-Step-1.5',
  },
  qwen: {
    component: 'Qwen3-Embedding-0.6B (caption encoder, token table, tokenizer)',
    spdx: 'Apache-2.0',
    commercial_use: true,
    url: 'https://huggingface.co/Qwen/Qwen3-Embedding-0.6B',
  },
} as const satisfies Record<string, LayoutLicence>;

const one = (file: string): readonly GraphFile[] => [{ file, externalData: 'exporter-manifest', precision: 'declared' }];

export const EXPORTER_2B: KnownLayout = {
  id: 'exporter-2b',
  title: "ACE-Step 1.5 turbo (2B), the public exporter's directory",
  evidence: 'SuzukiDaishi/ACE-Step-ONNX-Rust@9dfcc6e7 tools/onnx_export/export_core.py, export_qwen_embedding.py',
  graphs: {
    text_encoder: {
      files: one('qwen3_embedding_0p6.onnx'),
      inputs: [
        t('input_ids', 'input_ids', I64, [v('batch'), v('caption_tokens')]),
        t('attention_mask', 'attention_mask', I64, [v('batch'), v('caption_tokens')]),
      ],
      outputs: [t('hidden', 'last_hidden_state', F32, [v('batch'), v('caption_tokens'), w('text_hidden')])],
      optionalFor: null,
      licence: 'qwen',
    },
    lyric_embedding: {
      files: one('qwen3_token_embedding_0p6.onnx'),
      inputs: [t('input_ids', 'input_ids', I64, [v('batch'), v('lyric_tokens')])],
      outputs: [t('hidden', 'token_embeddings', F32, [v('batch'), v('lyric_tokens'), w('text_hidden')])],
      optionalFor: null,
      licence: 'qwen',
    },
    condition_encoder: {
      files: one('condition_encoder.onnx'),
      inputs: [
        ...CONDITION_INPUTS.slice(0, 6),
        latents('hidden_states', 'hidden_states'),
        t('attention_mask', 'attention_mask', F32, [v('batch'), v('frames')], DROPPED),
        t('silence_latent', 'silence_latent', F32, [v('batch'), v('frames'), w('latent_channels')], DROPPED),
        ...CONDITION_INPUTS.slice(6),
        t('is_covers', 'is_covers', ['bool'], [v('batch')]),
        latents('precomputed_lm_hints_25hz'),
      ].map((tensor) => (tensor.role === 'hidden_states' ? { ...tensor, optional: DROPPED } : tensor)),
      outputs: [
        t('encoder_hidden_states', 'encoder_hidden_states', F32, [v('batch'), v('condition_tokens'), w('encoder_hidden')]),
        // The exporter's own docs (docs/io_contract.md) say the mask may come out bool or float.
        t('encoder_attention_mask', 'encoder_attention_mask', ['bool', 'float32'], [v('batch'), v('condition_tokens')]),
        t('context_latents', 'context_latents', F32, [v('batch'), v('frames'), w('context_channels')]),
      ],
      optionalFor: null,
      licence: 'acestep',
    },
    dit: {
      files: one('dit_decoder.onnx'),
      inputs: [
        latents('hidden_states'),
        t('timestep', 'timestep', F32, [v('batch')]),
        t('timestep_r', 'timestep_r', F32, [v('batch')]),
        t('attention_mask', 'attention_mask', F32, [v('batch'), v('frames')]),
        t('encoder_hidden_states', 'encoder_hidden_states', F32, [v('batch'), v('condition_tokens'), w('encoder_hidden')]),
        t('encoder_attention_mask', 'encoder_attention_mask', F32, [v('batch'), v('condition_tokens')]),
        t('context_latents', 'context_latents', F32, [v('batch'), v('frames'), w('context_channels')]),
      ],
      outputs: [latents('velocity', 'vt')],
      optionalFor: null,
      licence: 'acestep',
    },
    vae_decoder: {
      files: one('vae_decoder.onnx'),
      inputs: [t('latents', 'latents', F32, [v('batch'), w('latent_channels'), v('frames')])],
      outputs: [t('waveform', 'audio', F32, [v('batch'), { fixed: 2 }, v('samples')])],
      optionalFor: null,
      licence: 'acestep',
    },
    audio_tokenizer: {
      files: one('audio_tokenizer.onnx'),
      inputs: [latents('hidden_states')],
      outputs: [
        t('quantized', 'quantized', F32, [v('batch'), v('codes'), v('code_width')]),
        t('indices', 'indices', I64, [v('batch'), v('codes'), v('quantizers')]),
      ],
      optionalFor: 'remix',
      licence: 'acestep',
    },
    audio_detokenizer: {
      files: one('audio_detokenizer.onnx'),
      inputs: [t('quantized', 'quantized', F32, [v('batch'), v('codes'), v('code_width')])],
      outputs: [latents('hints', 'lm_hints_25hz')],
      optionalFor: 'remix',
      licence: 'acestep',
    },
    vae_encoder: {
      files: one('vae_encoder.onnx'),
      inputs: [t('audio', 'audio', F32, [v('batch'), { fixed: 2 }, v('samples')])],
      outputs: [t('latents', 'latents', F32, [v('batch'), w('latent_channels'), v('frames')])],
      optionalFor: 'uploaded audio',
      licence: 'acestep',
    },
  },
  tokenizer: { file: 'tokenizer.json', config: null, licence: 'qwen' },
  silenceLatent: { file: 'silence_latent.pt', licence: 'acestep' },
  licences: EXPORTER_LICENCES,
  codes: 'quantized',
};

/** The XL Turbo files' repositories: shreyask's ONNX repository, the XL export, the checkpoint. */
const XL_LICENCES = {
  shreyask: {
    component: 'shreyask/ACE-Step-v1.5-ONNX: Qwen3-Embedding-0.6B text encoder and lyric token table',
    spdx: 'Apache-2.0',
    commercial_use: true,
    url: 'https://huggingface.co/shreyask/ACE-Step-v1.5-ONNX',
  },
  xl: {
    component: 'ACE-Step 1.5 XL Turbo (emb1ter/ACE-Step-v1.5-XL-Turbo-ONNX-WebGPU: condition encoder, detokenizer, DiT, VAE)',
    spdx: 'MIT',
    commercial_use: true,
    url: 'https://huggingface.co/emb1ter/ACE-Step-v1.5-XL-Turbo-ONNX-WebGPU',
  },
  checkpoint: {
    component: 'ACE-Step/Ace-Step1.5: Qwen3 tokenizer and silence latent',
    spdx: 'MIT',
    commercial_use: true,
    url: 'https://huggingface.co/ACE-Step/Ace-Step1.5',
  },
  songmint: {
    component: "Graphs exported from the ACE-Step 1.5 XL checkpoint by Songmint's scripts (VAE encoder, audio tokenizer)",
    spdx: 'MIT',
    commercial_use: true,
    url: 'https://github.com/ace-step/ACE-Step-1.5',
  },
} as const satisfies Record<string, LayoutLicence>;

const data = (file: string, shards: number): readonly string[] =>
  shards === 1 ? [`${file}.data`] : Array.from({ length: shards }, (_, i) => `${file}.data.${i}`);

export const XL_TURBO: KnownLayout = {
  id: 'xl-turbo',
  title: 'ACE-Step 1.5 XL Turbo, as Emb1ter/ai-music-js 0.4.0 runs it',
  evidence: 'Emb1ter/ai-music-js@835fa4a1 lib/model-manifest.ts, workers/ace-step.worker.ts',
  graphs: {
    text_encoder: {
      files: [{ file: 'onnx/text_encoder_q4.onnx', externalData: data('onnx/text_encoder_q4.onnx', 1), precision: 'q4' }],
      inputs: [t('input_ids', 'input_ids', I64, [v('batch'), v('caption_tokens')])],
      outputs: [t('hidden', 'hidden_states', FLOAT, [v('batch'), v('caption_tokens'), w('text_hidden')])],
      optionalFor: null,
      licence: 'shreyask',
    },
    lyric_embedding: {
      files: [{ file: 'onnx/text_embed_tokens_fp16.onnx', externalData: data('onnx/text_embed_tokens_fp16.onnx', 1), precision: 'fp16' }],
      inputs: [t('input_ids', 'input_ids', I64, [v('batch'), v('lyric_tokens')])],
      outputs: [t('hidden', 'hidden_states', FLOAT, [v('batch'), v('lyric_tokens'), w('text_hidden')])],
      optionalFor: null,
      licence: 'shreyask',
    },
    condition_encoder: {
      files: [
        {
          file: 'condition_encoder_xl_turbo_q4.onnx',
          externalData: data('condition_encoder_xl_turbo_q4.onnx', 1),
          precision: 'q4',
          quality: 'standard',
        },
        {
          file: 'condition_encoder_xl_turbo_q8.onnx',
          externalData: [`condition_encoder_xl_turbo_q8.onnx.data.0`],
          precision: 'q8',
          quality: 'high',
        },
      ],
      inputs: [...CONDITION_INPUTS, t('is_covers', 'is_covers', F32, [v('batch')]), latents('precomputed_lm_hints_25hz')],
      outputs: [
        t('encoder_hidden_states', 'encoder_hidden_states', FLOAT, [v('batch'), v('condition_tokens'), w('encoder_hidden')]),
        // Read by nobody (the consumer disposes it; the DiT takes no mask): any dtype.
        t('encoder_attention_mask', 'encoder_attention_mask', ['float32', 'float16', 'bool', 'int64'], [v('batch'), v('condition_tokens')]),
        t('context_latents', 'context_latents', FLOAT, [v('batch'), v('frames'), w('context_channels')]),
      ],
      optionalFor: null,
      licence: 'xl',
    },
    dit: {
      files: [
        {
          file: 'dit_decoder_xl_turbo_q4.onnx',
          externalData: data('dit_decoder_xl_turbo_q4.onnx', 3),
          precision: 'q4',
          quality: 'standard',
        },
        {
          file: 'dit_decoder_xl_turbo_q8.onnx',
          externalData: data('dit_decoder_xl_turbo_q8.onnx', 6),
          precision: 'q8',
          quality: 'high',
        },
      ],
      inputs: [
        latents('hidden_states'),
        t('timestep', 'timestep', F32, [v('batch')]),
        t('encoder_hidden_states', 'encoder_hidden_states', F32, [v('batch'), v('condition_tokens'), w('encoder_hidden')]),
        t('context_latents', 'context_latents', F32, [v('batch'), v('frames'), w('context_channels')]),
      ],
      outputs: [t('velocity', 'velocity', FLOAT, [v('batch'), v('frames'), w('latent_channels')])],
      optionalFor: null,
      licence: 'xl',
    },
    vae_decoder: {
      files: [{ file: 'vae_decoder_fp32.onnx', externalData: data('vae_decoder_fp32.onnx', 1), precision: 'fp32' }],
      inputs: [t('latents', 'latents', F32, [v('batch'), w('latent_channels'), v('frames')])],
      outputs: [t('waveform', 'waveform', FLOAT, [v('batch'), { fixed: 2 }, v('samples')])],
      optionalFor: null,
      licence: 'xl',
    },
    // The XL files have no audio tokenizer: remix names it as lacking (docs/inference.md says how to export one).
    audio_tokenizer: {
      files: [{ file: 'audio_tokenizer_xl.onnx', externalData: [], precision: 'declared' }],
      inputs: [latents('hidden_states')],
      outputs: [t('indices', 'code_indices', I64, [v('batch'), v('codes'), { fixed: 1 }])],
      optionalFor: 'remix',
      licence: 'songmint',
    },
    audio_detokenizer: {
      files: [
        {
          file: 'audio_code_detokenizer_xl_fp16.onnx',
          externalData: data('audio_code_detokenizer_xl_fp16.onnx', 1),
          precision: 'fp16',
        },
      ],
      inputs: [t('indices', 'code_indices', I64, [v('batch'), v('codes'), { fixed: 1 }])],
      outputs: [t('hints', 'semantic_hints_25hz', FLOAT, [v('batch'), v('frames'), w('latent_channels')])],
      optionalFor: 'remix',
      licence: 'xl',
    },
    vae_encoder: {
      files: [{ file: 'vae_encoder.onnx', externalData: [], precision: 'declared' }],
      inputs: [t('audio', 'audio', F32, [v('batch'), { fixed: 2 }, v('samples')])],
      outputs: [t('latents', 'latents', F32, [v('batch'), w('latent_channels'), v('frames')])],
      optionalFor: 'uploaded audio',
      licence: 'songmint',
    },
  },
  tokenizer: { file: 'Qwen3-Embedding-0.6B/tokenizer.json', config: 'Qwen3-Embedding-0.6B/tokenizer_config.json', licence: 'checkpoint' },
  silenceLatent: { file: 'acestep-v15-turbo/silence_latent.pt', licence: 'checkpoint' },
  licences: XL_LICENCES,
  codes: 'indices',
};

export const LAYOUTS: Readonly<Record<LayoutId, KnownLayout>> = { 'exporter-2b': EXPORTER_2B, 'xl-turbo': XL_TURBO };

/** Where each width is read from the graphs at import (by tensor role; the same in both layouts). */
export const WIDTH_SOURCES: Readonly<Record<Width, { graph: GraphRole; kind: 'inputs' | 'outputs'; role: string; axis: number }>> = {
  text_hidden: { graph: 'text_encoder', kind: 'outputs', role: 'hidden', axis: 2 },
  latent_channels: { graph: 'vae_decoder', kind: 'inputs', role: 'latents', axis: 1 },
  context_channels: { graph: 'dit', kind: 'inputs', role: 'context_latents', axis: 2 },
  encoder_hidden: { graph: 'dit', kind: 'inputs', role: 'encoder_hidden_states', axis: 2 },
  timbre_frames: { graph: 'condition_encoder', kind: 'inputs', role: 'refer_audio_acoustic_hidden_states_packed', axis: 1 },
};

/**
 * The graphs the exporter's `io_contract_core.json` describes, each under its file's stem
 * (`dit_decoder` for dit_decoder.onnx): validate.ts checks the contract against the graphs.
 */
export const IO_CONTRACT_GRAPHS: readonly GraphRole[] = ['condition_encoder', 'dit', 'audio_tokenizer', 'audio_detokenizer', 'vae_decoder'];

/** A graph's key in the exporter's io_contract_core.json: its file's name without `.onnx`. */
export function ioContractKey(role: GraphRole): string {
  return (EXPORTER_2B.graphs[role]?.files[0]?.file ?? role).replace(/\.onnx$/, '');
}

/** The graphs every song needs, in load order. */
export function requiredGraphs(layout: KnownLayout): GraphRole[] {
  return GRAPH_ROLES.filter((role) => layout.graphs[role] !== undefined && layout.graphs[role]?.optionalFor === null);
}

/** The file of a graph at a quality: the one for that quality, else the only one. */
export function graphFile(layout: KnownLayout, role: GraphRole, quality: Quality): GraphFile | undefined {
  const files = layout.graphs[role]?.files ?? [];
  return files.find((f) => f.quality === quality) ?? files.find((f) => f.quality === undefined);
}

/** What remix lacks in a directory with only `present` of the layout's graphs; null when it has both. */
export function remixLack(layout: KnownLayout, present: readonly GraphRole[]): string | null {
  const missing = (['audio_tokenizer', 'audio_detokenizer'] as const).filter((g) => !present.includes(g));
  if (missing.length === 0) return null;
  const files = missing.map((g) => layout.graphs[g]?.files[0]?.file ?? g);
  if (layout.id === 'xl-turbo' && missing.includes('audio_tokenizer'))
    return `remix needs an audio tokenizer (25 Hz latents to 5 Hz codes) that the XL Turbo files lack: the model directory has no ${files.join(' or ')} (docs/inference.md "Remix on XL" says how to export one)`;
  return `remix needs the audio_tokenizer and audio_detokenizer graphs (the 5 Hz FSQ round trip of the public export); the model directory has no ${files.join(' or ')}`;
}

/** What uploads lack without a VAE encoder (scripts/export_acestep_vae_encoder.py exports it). */
export function importLack(layout: KnownLayout): string {
  const file = layout.graphs.vae_encoder?.files[0]?.file ?? 'vae_encoder.onnx';
  return `uploaded audio needs a vae_encoder graph (the AutoencoderOobleck encoder, scripts/export_acestep_vae_encoder.py): the model directory has no ${file}`;
}
