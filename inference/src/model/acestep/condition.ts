/**
 * Condition packing: what the DiT attends to and the context it is given, as the reference's
 * `prepare_condition` builds them (ace-step/ACE-Step-1.5, acestep/core/generation/handler:
 * conditioning_target.py, conditioning_masks.py): the caption through the text encoder, the lyrics
 * through the token table, then the condition encoder once over the source latents, the chunk mask,
 * the timbre reference (the silence latent's first `timbre_frames` frames), `is_covers` and the LM
 * hints. Plain text-to-music: the silence latent as source, chunk mask 1. An edit passes its source
 * (a repaint's range silenced) and a chunk mask of 1 over what is generated; a remix (the reference's
 * cover) its source whole, `is_covers` 1 and the 5 Hz round trip of its latents as hints.
 */
import * as ort from 'onnxruntime-node';
import type { BoundGraph, MaskValue } from './graph-session.ts';
import { BoundGraph as Graph, maskValues } from './graph-session.ts';

/** The checkpoint's silence latent, `[frames, channels]` frames-major. */
export interface SilenceLatent {
  data: Float32Array;
  frames: number;
  channels: number;
}

/**
 * The silence latent's first `frames` frames, repeated when longer than it (the reference's
 * `_get_silence_latent_slice`: tiled along time).
 */
export function silenceFrames(silence: SilenceLatent, frames: number): Float32Array {
  const { data, channels } = silence;
  const out = new Float32Array(frames * channels);
  for (let f = 0; f < frames; f += 1) {
    const at = (f % silence.frames) * channels;
    out.set(data.subarray(at, at + channels), f * channels);
  }
  return out;
}

/**
 * `frames` latent frames followed by the silence latent's first frames up to `padded` frames: the
 * reference pads every latent to at least 128 frames this way (`torch.cat([latent,
 * silence_latent_slice(pad_length)])`), and pads the audio tokenizer's input to whole codes alike.
 */
export function padWithSilence(latents: Float32Array, frames: number, padded: number, silence: SilenceLatent): Float32Array {
  const C = silence.channels;
  if (padded <= frames) return latents.slice(0, padded * C);
  const out = new Float32Array(padded * C);
  out.set(latents.subarray(0, frames * C));
  out.set(silenceFrames(silence, padded - frames), frames * C);
  return out;
}

export interface ConditionGraphs {
  text: BoundGraph;
  lyric: BoundGraph;
  condition: BoundGraph;
}

export interface ConditionRequest {
  /** Token ids of the caption and lyric texts (prompt.ts templates). */
  caption: readonly number[];
  lyrics: readonly number[];
  /** Latent frames the DiT runs on (the song padded to at least 128). */
  frames: number;
  /** 1 per frame of the song, 0 per padding frame. */
  latentMask: ArrayLike<number>;
  /** `[frames, C]` source latents and chunk masks. */
  source: Float32Array;
  chunkMask: Float32Array;
  /** `[frames, C]` LM hints of a cover (remix); undefined otherwise. */
  hints: Float32Array | undefined;
  silence: SilenceLatent;
  timbreFrames: number;
  contextChannels: number;
}

export interface Condition {
  /** `[1, tokens, encoder_hidden]` */
  hidden: ort.Tensor;
  mask: number[];
  /** `[frames, context_channels]` */
  context: Float32Array;
  captionTokens: number;
  lyricTokens: number;
}

const ids = (list: readonly number[]) =>
  new ort.Tensor(
    'int64',
    BigInt64Array.from(list, (id) => BigInt(id)),
    [1, list.length],
  );
const ones = (n: number): MaskValue => ({ mask: new Array<number>(n).fill(1), dims: [1, n] });

/** Runs the text encoder, the token table and the condition encoder once. */
export async function encodeCondition(graphs: ConditionGraphs, request: ConditionRequest): Promise<Condition> {
  const { frames, silence, caption, lyrics } = request;
  const C = silence.channels;
  const text = Graph.float(
    await graphs.text.run({ input_ids: ids(caption), attention_mask: ones(caption.length) }),
    'hidden',
    'text_encoder',
  );
  const lyric = Graph.float(await graphs.lyric.run({ input_ids: ids(lyrics) }), 'hidden', 'lyric_embedding');
  const latent = (values: Float32Array) => new ort.Tensor('float32', values, [1, frames, C]);
  const cover = request.hints !== undefined;
  // Each graph takes the inputs it declares: the XL encoder has no hidden_states, attention_mask or
  // silence_latent, the exporter's 2B one drops them too (its prepare_condition reads them only
  // without LM hints); `is_covers` is bool in one and float32 in the other (graph-session.ts).
  const out = await graphs.condition.run({
    text_hidden_states: text,
    text_attention_mask: ones(caption.length),
    lyric_hidden_states: lyric,
    lyric_attention_mask: ones(lyrics.length),
    refer_audio_acoustic_hidden_states_packed: new ort.Tensor('float32', silenceFrames(silence, request.timbreFrames), [
      1,
      request.timbreFrames,
      C,
    ]),
    refer_audio_order_mask: new ort.Tensor('int64', BigInt64Array.from([0n]), [1]),
    hidden_states: latent(request.source),
    attention_mask: { mask: request.latentMask, dims: [1, frames] },
    silence_latent: latent(silenceFrames(silence, frames)),
    src_latents: latent(request.source),
    chunk_masks: latent(request.chunkMask),
    is_covers: new ort.Tensor('bool', Uint8Array.from([cover ? 1 : 0]), [1]),
    precomputed_lm_hints_25hz: latent(request.hints ?? new Float32Array(frames * C)),
  });
  const hidden = Graph.float(out, 'encoder_hidden_states', 'condition_encoder');
  const maskOut = out.get('encoder_attention_mask');
  if (maskOut === undefined) throw new Error('condition_encoder returned no encoder_attention_mask');
  const context = Graph.float(out, 'context_latents', 'condition_encoder');
  if (context.dims[1] !== frames || context.dims[2] !== request.contextChannels)
    throw new Error(
      `condition_encoder context_latents is [${context.dims.join(', ')}], expected [1, ${frames}, ${request.contextChannels}]`,
    );
  if (hidden.dims.length !== 3 || hidden.dims[0] !== 1)
    throw new Error(`condition_encoder encoder_hidden_states is [${hidden.dims.join(', ')}], expected [1, tokens, width]`);
  return {
    hidden,
    mask: maskValues(maskOut),
    context: context.data as Float32Array,
    captionTokens: caption.length,
    lyricTokens: lyrics.length,
  };
}
