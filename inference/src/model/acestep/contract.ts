/**
 * The ACE-Step 1.5 layout contract, DiT-only mode: the five graphs the backend runs, each input
 * and output by name (as in the public ONNX exports' `io_contract_core.json`), its rank, the
 * dtypes it may take, and which of its dimensions are fixed widths of the model (named here, given
 * numbers by the manifest's `dims`) and which vary per song (batch, tokens, frames).
 *
 *   caption --tokenizer--> qwen3_embedding_0p6 ----------> text_hidden_states  \
 *   lyrics  --tokenizer--> qwen3_token_embeddings ------> lyric_hidden_states  -> condition_encoder
 *   silence latent (source + timbre reference) ------------------------------- /        |
 *   seeded noise -> dit_decoder x N (flow-matching Euler) <- encoder states, context ----/
 *                 -> vae_decoder -> 48 kHz stereo
 *
 * The lyrics use the embedding model's token table only (ACE-Step feeds `embed_tokens(ids)`, no
 * transformer pass): exports ship it as the small graph `qwen3_token_embeddings`.
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

export type TensorType = 'float32' | 'int64' | 'bool';

/** A dimension: a fixed width, or a label for one that varies (only its rank position matters). */
export type ContractDim = { width: Width } | { varies: string } | { fixed: number };

export interface ContractTensor {
  name: string;
  /** The dtypes an export may use here (masks are float in some exports, int64 in others). */
  types: readonly TensorType[];
  dims: readonly ContractDim[];
}

export interface ContractGraph {
  inputs: readonly ContractTensor[];
  outputs: readonly ContractTensor[];
}

const w = (width: Width): ContractDim => ({ width });
const v = (label: string): ContractDim => ({ varies: label });
const FLOAT = ['float32'] as const;
const MASK = ['float32', 'int64', 'bool'] as const;
const INT = ['int64'] as const;

export const GRAPH_NAMES = ['qwen3_embedding_0p6', 'qwen3_token_embeddings', 'condition_encoder', 'dit_decoder', 'vae_decoder'] as const;
export type GraphName = (typeof GRAPH_NAMES)[number];

/** The graphs `io_contract_core.json` describes (the embedding graphs have their own contract files). */
export const CORE_GRAPHS: readonly GraphName[] = ['condition_encoder', 'dit_decoder', 'vae_decoder'];

export const CONTRACT: Readonly<Record<GraphName, ContractGraph>> = {
  qwen3_embedding_0p6: {
    inputs: [
      { name: 'input_ids', types: INT, dims: [v('batch'), v('caption_tokens')] },
      { name: 'attention_mask', types: INT, dims: [v('batch'), v('caption_tokens')] },
    ],
    outputs: [{ name: 'last_hidden_state', types: FLOAT, dims: [v('batch'), v('caption_tokens'), w('text_hidden')] }],
  },
  qwen3_token_embeddings: {
    inputs: [{ name: 'input_ids', types: INT, dims: [v('batch'), v('lyric_tokens')] }],
    outputs: [{ name: 'token_embeddings', types: FLOAT, dims: [v('batch'), v('lyric_tokens'), w('text_hidden')] }],
  },
  condition_encoder: {
    inputs: [
      { name: 'text_hidden_states', types: FLOAT, dims: [v('batch'), v('caption_tokens'), w('text_hidden')] },
      { name: 'text_attention_mask', types: MASK, dims: [v('batch'), v('caption_tokens')] },
      { name: 'lyric_hidden_states', types: FLOAT, dims: [v('batch'), v('lyric_tokens'), w('text_hidden')] },
      { name: 'lyric_attention_mask', types: MASK, dims: [v('batch'), v('lyric_tokens')] },
      {
        name: 'refer_audio_acoustic_hidden_states_packed',
        types: FLOAT,
        dims: [v('references'), w('timbre_frames'), w('latent_channels')],
      },
      { name: 'refer_audio_order_mask', types: INT, dims: [v('references')] },
      { name: 'hidden_states', types: FLOAT, dims: [v('batch'), v('frames'), w('latent_channels')] },
      { name: 'attention_mask', types: MASK, dims: [v('batch'), v('frames')] },
      { name: 'silence_latent', types: FLOAT, dims: [v('batch'), v('frames'), w('latent_channels')] },
      { name: 'src_latents', types: FLOAT, dims: [v('batch'), v('frames'), w('latent_channels')] },
      { name: 'chunk_masks', types: FLOAT, dims: [v('batch'), v('frames'), w('latent_channels')] },
      { name: 'is_covers', types: ['bool'], dims: [v('batch')] },
      { name: 'precomputed_lm_hints_25hz', types: FLOAT, dims: [v('batch'), v('frames'), w('latent_channels')] },
    ],
    outputs: [
      { name: 'encoder_hidden_states', types: FLOAT, dims: [v('batch'), v('condition_tokens'), w('encoder_hidden')] },
      { name: 'encoder_attention_mask', types: MASK, dims: [v('batch'), v('condition_tokens')] },
      { name: 'context_latents', types: FLOAT, dims: [v('batch'), v('frames'), w('context_channels')] },
    ],
  },
  dit_decoder: {
    inputs: [
      { name: 'hidden_states', types: FLOAT, dims: [v('batch'), v('padded_frames'), w('latent_channels')] },
      { name: 'timestep', types: FLOAT, dims: [v('batch')] },
      { name: 'timestep_r', types: FLOAT, dims: [v('batch')] },
      { name: 'attention_mask', types: MASK, dims: [v('batch'), v('padded_frames')] },
      { name: 'encoder_hidden_states', types: FLOAT, dims: [v('batch'), v('condition_tokens'), w('encoder_hidden')] },
      { name: 'encoder_attention_mask', types: MASK, dims: [v('batch'), v('condition_tokens')] },
      { name: 'context_latents', types: FLOAT, dims: [v('batch'), v('padded_frames'), w('context_channels')] },
    ],
    outputs: [{ name: 'vt', types: FLOAT, dims: [v('batch'), v('padded_frames'), w('latent_channels')] }],
  },
  vae_decoder: {
    inputs: [{ name: 'latents', types: FLOAT, dims: [v('batch'), w('latent_channels'), v('frames')] }],
    outputs: [{ name: 'waveform', types: FLOAT, dims: [v('batch'), { fixed: 2 }, v('samples')] }],
  },
};
