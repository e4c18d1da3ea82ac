/**
 * The ACE-Step 1.5 roles, DiT-only mode: the graphs the backend runs (five, or seven where the
 * condition encoder comes split in three), and for each the tensors the backend knows how to feed or read, by role, with the names exports give them, the
 * dtypes each may take, and which of its dimensions are fixed widths of the model (named here,
 * given numbers by the manifest's `dims`) and which vary per song (batch, tokens, frames).
 * The graph is the truth: the backend reads each graph's own inputs and outputs from its session
 * and feeds exactly those (validate.ts maps them onto these roles); nothing here is a list that
 * an export must repeat byte for byte. Names as the public exporter writes them
 * (SuzukiDaishi/ACE-Step-ONNX-Rust, tools/onnx_export/export_core.py, docs/io_contract.md).
 *
 *   caption --tokenizer--> qwen3_embedding_0p6 ----------> text_hidden_states  \
 *   lyrics  --tokenizer--> qwen3_token_embeddings ------> lyric_hidden_states  -> condition_encoder
 *   silence latent (source + timbre reference) ------------------------------- /        |
 *   seeded noise -> dit_decoder x N (flow-matching Euler) <- encoder states, context ----/
 *                 -> vae_decoder -> 48 kHz stereo
 *   remix (optional): source latents -> audio_tokenizer (5 Hz FSQ) -> audio_detokenizer -> LM hints
 *
 * The lyrics use the embedding model's token table only (ACE-Step feeds `embed_tokens(ids)`, no
 * transformer pass): the exporter ships it as `qwen3_token_embedding_0p6.onnx`.
 */

/** Widths fixed by the checkpoint; the manifest gives each a number and every graph must agree. */
export const WIDTHS = ['text_hidden', 'latent_channels', 'context_channels', 'encoder_hidden', 'timbre_frames'] as const;
export type Width = (typeof WIDTHS)[number];

/** ACE-Step 1.5's widths (turbo, base and SFT share them); the tiny model keeps the names, not the sizes. */
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

export type TensorType = 'float32' | 'float16' | 'int64' | 'bool';

/** A dimension: a fixed width, or a label for one that varies (only its rank position matters). */
export type ContractDim = { width: Width } | { varies: string } | { fixed: number };

export interface ContractTensor {
  /** The role's name: what the backend calls this tensor. */
  role: string;
  /** The names exports give it, the usual first (the public exporter's VAE says `audio`, older ones `waveform`). */
  names: readonly string[];
  /** The dtypes an export may use here (masks are float in some exports, bool or int64 in others). */
  types: readonly TensorType[];
  dims: readonly ContractDim[];
  /**
   * An input a graph may leave out: `torch.onnx.export` drops an argument the traced code never
   * reads (the public condition encoder reads `hidden_states`, `attention_mask` and
   * `silence_latent` only without LM hints, and its export has 10 of the wrapper's 13 inputs).
   */
  optional?: boolean;
}

export interface ContractGraph {
  inputs: readonly ContractTensor[];
  outputs: readonly ContractTensor[];
  /**
   * The graph's tensor names are nobody's contract (the Hub's split encoder graphs publish none):
   * a tensor no name matches is bound by its declared dtype and rank, then by its position among
   * tensors alike (validate.ts).
   */
  bindByShape?: boolean;
}

const w = (width: Width): ContractDim => ({ width });
const v = (label: string): ContractDim => ({ varies: label });
/** fp16 exports (the Hub's onnx_fp16/) take and give float16: the backend converts at the boundary. */
const FLOAT = ['float32', 'float16'] as const;
const MASK = ['float32', 'float16', 'int64', 'bool'] as const;
const INT = ['int64'] as const;

export const GRAPH_NAMES = [
  'qwen3_embedding_0p6',
  'qwen3_token_embeddings',
  'condition_encoder',
  'text_projector',
  'lyric_encoder',
  'timbre_encoder',
  'dit_decoder',
  'vae_decoder',
  'audio_tokenizer',
  'audio_detokenizer',
  'vae_encoder',
] as const;
export type GraphName = (typeof GRAPH_NAMES)[number];

/**
 * Graphs a directory may add for more edits: the 5 Hz FSQ round trip of the public export
 * (`audio_tokenizer`, `audio_detokenizer`) for remix, and AutoencoderOobleck's encoder
 * (`vae_encoder`, which the public exports do not ship; scripts/export_acestep_vae_encoder.py)
 * for uploaded source audio. Without them the model renders and repaints, and names what it lacks.
 */
export const OPTIONAL_GRAPHS: readonly GraphName[] = ['audio_tokenizer', 'audio_detokenizer', 'vae_encoder'];
export const REMIX_GRAPHS: readonly GraphName[] = ['audio_tokenizer', 'audio_detokenizer'];

/** The tokenizer pools this many 25 Hz latent frames into one 5 Hz code (the reference's `pool_window_size`). */
export const FRAMES_PER_CODE = 5;

/**
 * The condition encoder comes combined (the exporter's `condition_encoder.onnx`) or split into its
 * three parts, packed on the host (shreyask/ACE-Step-v1.5-ONNX; condition-packing.ts).
 */
export const COMBINED_ENCODER: readonly GraphName[] = ['condition_encoder'];
export const SPLIT_ENCODER: readonly GraphName[] = ['text_projector', 'lyric_encoder', 'timbre_encoder'];
const ENCODER_GRAPHS: readonly GraphName[] = [...COMBINED_ENCODER, ...SPLIT_ENCODER];
export const COMMON_GRAPHS: readonly GraphName[] = GRAPH_NAMES.filter((g) => !ENCODER_GRAPHS.includes(g) && !OPTIONAL_GRAPHS.includes(g));

/** The graphs a directory with these roles runs, or why its set is incomplete. */
export function encoderLayout(present: readonly GraphName[]): { graphs: GraphName[] } | { missing: string } {
  const missingCommon = COMMON_GRAPHS.find((g) => !present.includes(g));
  if (missingCommon !== undefined) return { missing: missingCommon };
  const combined = COMBINED_ENCODER.every((g) => present.includes(g));
  const split = SPLIT_ENCODER.filter((g) => present.includes(g));
  const optional = OPTIONAL_GRAPHS.filter((g) => present.includes(g));
  if (combined && split.length === 0) return { graphs: [...COMMON_GRAPHS, ...COMBINED_ENCODER, ...optional] };
  if (!combined && split.length === SPLIT_ENCODER.length) return { graphs: [...COMMON_GRAPHS, ...SPLIT_ENCODER, ...optional] };
  if (combined) return { missing: `either condition_encoder or ${SPLIT_ENCODER.join(', ')}, not both` };
  return { missing: `condition_encoder, or all of ${SPLIT_ENCODER.join(', ')}` };
}

/** The graphs `io_contract_core.json` describes (the embedding graphs have their own contract files). */
export const CORE_GRAPHS: readonly GraphName[] = [
  'condition_encoder',
  'dit_decoder',
  'audio_tokenizer',
  'audio_detokenizer',
  'vae_decoder',
];

export const CONTRACT: Readonly<Record<GraphName, ContractGraph>> = {
  qwen3_embedding_0p6: {
    inputs: [
      { role: 'input_ids', names: ['input_ids'], types: INT, dims: [v('batch'), v('caption_tokens')] },
      { role: 'attention_mask', names: ['attention_mask'], types: INT, dims: [v('batch'), v('caption_tokens')] },
    ],
    outputs: [
      { role: 'last_hidden_state', names: ['last_hidden_state'], types: FLOAT, dims: [v('batch'), v('caption_tokens'), w('text_hidden')] },
    ],
  },
  qwen3_token_embeddings: {
    inputs: [{ role: 'input_ids', names: ['input_ids'], types: INT, dims: [v('batch'), v('lyric_tokens')] }],
    outputs: [
      { role: 'token_embeddings', names: ['token_embeddings'], types: FLOAT, dims: [v('batch'), v('lyric_tokens'), w('text_hidden')] },
    ],
  },
  condition_encoder: {
    inputs: [
      {
        role: 'text_hidden_states',
        names: ['text_hidden_states'],
        types: FLOAT,
        dims: [v('batch'), v('caption_tokens'), w('text_hidden')],
      },
      { role: 'text_attention_mask', names: ['text_attention_mask'], types: MASK, dims: [v('batch'), v('caption_tokens')] },
      {
        role: 'lyric_hidden_states',
        names: ['lyric_hidden_states'],
        types: FLOAT,
        dims: [v('batch'), v('lyric_tokens'), w('text_hidden')],
      },
      { role: 'lyric_attention_mask', names: ['lyric_attention_mask'], types: MASK, dims: [v('batch'), v('lyric_tokens')] },
      {
        role: 'refer_audio_acoustic_hidden_states_packed',
        names: ['refer_audio_acoustic_hidden_states_packed'],
        types: FLOAT,
        dims: [v('references'), w('timbre_frames'), w('latent_channels')],
      },
      { role: 'refer_audio_order_mask', names: ['refer_audio_order_mask'], types: INT, dims: [v('references')] },
      {
        role: 'hidden_states',
        names: ['hidden_states'],
        optional: true,
        types: FLOAT,
        dims: [v('batch'), v('frames'), w('latent_channels')],
      },
      { role: 'attention_mask', names: ['attention_mask'], optional: true, types: MASK, dims: [v('batch'), v('frames')] },
      {
        role: 'silence_latent',
        names: ['silence_latent'],
        optional: true,
        types: FLOAT,
        dims: [v('batch'), v('frames'), w('latent_channels')],
      },
      { role: 'src_latents', names: ['src_latents'], types: FLOAT, dims: [v('batch'), v('frames'), w('latent_channels')] },
      { role: 'chunk_masks', names: ['chunk_masks'], types: FLOAT, dims: [v('batch'), v('frames'), w('latent_channels')] },
      { role: 'is_covers', names: ['is_covers'], types: ['bool'], dims: [v('batch')] },
      {
        role: 'precomputed_lm_hints_25hz',
        names: ['precomputed_lm_hints_25hz'],
        types: FLOAT,
        dims: [v('batch'), v('frames'), w('latent_channels')],
      },
    ],
    outputs: [
      {
        role: 'encoder_hidden_states',
        names: ['encoder_hidden_states'],
        types: FLOAT,
        dims: [v('batch'), v('condition_tokens'), w('encoder_hidden')],
      },
      { role: 'encoder_attention_mask', names: ['encoder_attention_mask'], types: MASK, dims: [v('batch'), v('condition_tokens')] },
      { role: 'context_latents', names: ['context_latents'], types: FLOAT, dims: [v('batch'), v('frames'), w('context_channels')] },
    ],
  },
  // The split encoder, as the reference modules' forward signatures (modeling_acestep_v15_turbo.py):
  // text_projector is Linear(text_hidden -> encoder_hidden); AceStepLyricEncoder(inputs_embeds,
  // attention_mask) -> last_hidden_state; AceStepTimbreEncoder(refer_audio_acoustic_hidden_states_packed,
  // refer_audio_order_mask) -> (timbre_embs_unpack, timbre_embs_mask).
  text_projector: {
    bindByShape: true,
    inputs: [
      {
        role: 'text_hidden_states',
        names: ['text_hidden_states'],
        types: FLOAT,
        dims: [v('batch'), v('caption_tokens'), w('text_hidden')],
      },
    ],
    outputs: [{ role: 'text_states', names: ['text_states'], types: FLOAT, dims: [v('batch'), v('caption_tokens'), w('encoder_hidden')] }],
  },
  lyric_encoder: {
    bindByShape: true,
    inputs: [
      { role: 'inputs_embeds', names: ['inputs_embeds'], types: FLOAT, dims: [v('batch'), v('lyric_tokens'), w('text_hidden')] },
      { role: 'attention_mask', names: ['attention_mask'], types: MASK, dims: [v('batch'), v('lyric_tokens')] },
    ],
    outputs: [
      { role: 'last_hidden_state', names: ['last_hidden_state'], types: FLOAT, dims: [v('batch'), v('lyric_tokens'), w('encoder_hidden')] },
    ],
  },
  timbre_encoder: {
    bindByShape: true,
    inputs: [
      {
        role: 'refer_audio_acoustic_hidden_states_packed',
        names: ['refer_audio_acoustic_hidden_states_packed'],
        types: FLOAT,
        dims: [v('references'), w('timbre_frames'), w('latent_channels')],
      },
      { role: 'refer_audio_order_mask', names: ['refer_audio_order_mask'], types: INT, dims: [v('references')] },
    ],
    outputs: [
      {
        role: 'timbre_embs_unpack',
        names: ['timbre_embs_unpack'],
        types: FLOAT,
        dims: [v('batch'), v('timbre_tokens'), w('encoder_hidden')],
      },
      // Some exports return the states alone: every timbre token of a one-reference song is valid.
      { role: 'timbre_embs_mask', names: ['timbre_embs_mask'], optional: true, types: MASK, dims: [v('batch'), v('timbre_tokens')] },
    ],
  },
  dit_decoder: {
    inputs: [
      { role: 'hidden_states', names: ['hidden_states'], types: FLOAT, dims: [v('batch'), v('padded_frames'), w('latent_channels')] },
      { role: 'timestep', names: ['timestep'], types: FLOAT, dims: [v('batch')] },
      { role: 'timestep_r', names: ['timestep_r'], types: FLOAT, dims: [v('batch')] },
      { role: 'attention_mask', names: ['attention_mask'], types: MASK, dims: [v('batch'), v('padded_frames')] },
      {
        role: 'encoder_hidden_states',
        names: ['encoder_hidden_states'],
        types: FLOAT,
        dims: [v('batch'), v('condition_tokens'), w('encoder_hidden')],
      },
      { role: 'encoder_attention_mask', names: ['encoder_attention_mask'], types: MASK, dims: [v('batch'), v('condition_tokens')] },
      { role: 'context_latents', names: ['context_latents'], types: FLOAT, dims: [v('batch'), v('padded_frames'), w('context_channels')] },
    ],
    outputs: [{ role: 'vt', names: ['vt'], types: FLOAT, dims: [v('batch'), v('padded_frames'), w('latent_channels')] }],
  },
  vae_decoder: {
    inputs: [{ role: 'latents', names: ['latents'], types: FLOAT, dims: [v('batch'), w('latent_channels'), v('frames')] }],
    outputs: [{ role: 'audio', names: ['audio', 'waveform'], types: FLOAT, dims: [v('batch'), { fixed: 2 }, v('samples')] }],
  },
  // The public export's FSQ round trip (export_core.py AudioTokenizerWrapper / AudioDetokenizerWrapper):
  // 25 Hz latents attention-pooled in windows of FRAMES_PER_CODE frames to 5 Hz, FSQ-quantized
  // (`quantized` the codes' values, `indices` their numbers, which the backend does not read),
  // and the detokenizer expanding each code back to FRAMES_PER_CODE latent frames.
  audio_tokenizer: {
    inputs: [{ role: 'hidden_states', names: ['hidden_states'], types: FLOAT, dims: [v('batch'), v('frames'), w('latent_channels')] }],
    outputs: [
      { role: 'quantized', names: ['quantized'], types: FLOAT, dims: [v('batch'), v('codes'), v('code_width')] },
      { role: 'indices', names: ['indices'], optional: true, types: INT, dims: [v('batch'), v('codes'), v('quantizers')] },
    ],
  },
  audio_detokenizer: {
    inputs: [{ role: 'quantized', names: ['quantized'], types: FLOAT, dims: [v('batch'), v('codes'), v('code_width')] }],
    outputs: [{ role: 'lm_hints_25hz', names: ['lm_hints_25hz'], types: FLOAT, dims: [v('batch'), v('frames'), w('latent_channels')] }],
  },
  // AutoencoderOobleck's encoder, named as the public vae_decoder's mirror image: 48 kHz stereo in,
  // the latent distribution's mean out (scripts/export_acestep_vae_encoder.py).
  vae_encoder: {
    inputs: [{ role: 'audio', names: ['audio'], types: FLOAT, dims: [v('batch'), { fixed: 2 }, v('samples')] }],
    outputs: [{ role: 'latents', names: ['latents'], types: FLOAT, dims: [v('batch'), w('latent_channels'), v('frames')] }],
  },
};
