/**
 * ACE-Step edits as current upstream runs them (ace-step/ACE-Step-1.5@01aeee3,
 * acestep/core/generation/handler/generate_music.py `_resolve_repaint_config`, the repaint helpers
 * `apply_repaint_step_injection` / `apply_repaint_boundary_blend`, repaint_waveform_splice.py):
 *
 * - repaint and extend are one task, "repaint" of the frames [start, end): the source latents with
 *   that range replaced by silence, a chunk mask of 1 over it, and a repaint mask (generate there,
 *   keep elsewhere). An extend repaints [source end, result end) of the source padded to the result.
 * - strength 0.5 (the reference's default; Songmint's API has no repaint strength) gives an
 *   injection ratio of 1 - 0.5: for the first round(0.5 x steps) steps the kept frames are put back
 *   on the path from this noise to the clean source (x_t = t noise + (1 - t) source);
 * - after the loop, round(25 x (1 - 0.5)) = 12 frames each side of the range blend from the source to
 *   the generated latents (a linear ramp in the kept frames next to the range: an extend blends the
 *   source's last frames, on its right side); every other kept frame is the source's exactly;
 * - after decoding, the kept audio is the source's own waveform, spliced in with a 0.05 x (1 - 0.5)
 *   = 0.025 s crossfade (again a ramp in the kept samples next to the range).
 * Python's round() halves to even (round(12.5) = 12): `roundHalfEven` gives the same numbers.
 */
import * as ort from 'onnxruntime-node';
import type { SilenceLatent } from './condition.ts';
import { padWithSilence, silenceFrames } from './condition.ts';
import type { BoundGraph } from './graph-session.ts';
import { BoundGraph as Graph } from './graph-session.ts';
import type { KnownLayout } from './layouts.ts';
import { FRAMES_PER_CODE } from './layouts.ts';

/** Python's round(): to the nearest integer, halves to the even one. */
export function roundHalfEven(x: number): number {
  const floor = Math.floor(x);
  const diff = x - floor;
  if (diff > 0.5) return floor + 1;
  if (diff < 0.5) return floor;
  return floor % 2 === 0 ? floor : floor + 1;
}

/** The reference's `_MAX_REPAINT_CROSSFADE_FRAMES` and waveform crossfade at full preservation. */
const MAX_CROSSFADE_FRAMES = 25;
const MAX_WAVEFORM_CROSSFADE_SECONDS = 0.05;
/** The reference's default `repaint_strength` (balanced mode). */
export const DEFAULT_REPAINT_STRENGTH = 0.5;

export interface RepaintConfig {
  injectionRatio: number;
  crossfadeFrames: number;
  waveformCrossfadeSeconds: number;
}

/** `_resolve_repaint_config("balanced", strength)`. */
export function repaintConfig(strength = DEFAULT_REPAINT_STRENGTH): RepaintConfig {
  const keep = 1 - Math.max(0, Math.min(1, strength));
  return {
    injectionRatio: keep,
    crossfadeFrames: roundHalfEven(MAX_CROSSFADE_FRAMES * keep),
    waveformCrossfadeSeconds: MAX_WAVEFORM_CROSSFADE_SECONDS * keep,
  };
}

/** The steps whose result gets the kept frames re-injected: round(ratio x steps). */
export function injectionSteps(config: RepaintConfig, steps: number): number {
  return roundHalfEven(config.injectionRatio * steps);
}

/** A repaint of [start, end) of `frames` latent frames: the source with the range silenced, the masks. */
export interface RepaintPlan {
  start: number;
  end: number;
  /** `[frames, C]` the clean source (kept frames and padding): what is injected and blended back. */
  clean: Float32Array;
  /** `[frames, C]` the condition's source: the clean source with the range replaced by silence. */
  source: Float32Array;
  /** `[frames, C]` 1 over the range. */
  chunkMask: Float32Array;
  /** 1 per frame to generate. */
  generate: Uint8Array;
}

/**
 * The repaint of frames [start, end) of a source of `sourceFrames` frames, in a latent of `frames`
 * frames (the result's, padded to at least 128): the source padded with the silence latent's first
 * frames (the reference pads every latent so), the range replaced by the silence at its positions.
 */
export function planRepaint(
  sourceLatents: Float32Array,
  sourceFrames: number,
  start: number,
  end: number,
  frames: number,
  silence: SilenceLatent,
): RepaintPlan {
  const C = silence.channels;
  const clean = padWithSilence(sourceLatents, sourceFrames, frames, silence);
  const tiled = silenceFrames(silence, frames);
  const source = Float32Array.from(clean);
  source.set(tiled.subarray(start * C, end * C), start * C);
  const chunkMask = new Float32Array(frames * C).fill(1, start * C, end * C);
  const generate = new Uint8Array(frames).fill(1, start, end);
  return { start, end, clean, source, chunkMask, generate };
}

/** `apply_repaint_step_injection`: frames outside the range back on the path from `noise` to the clean source at time t. */
export function injectKeptFrames(x: Float32Array, plan: RepaintPlan, t: number, noise: Float32Array, channels: number): void {
  for (let f = 0; f < plan.generate.length; f += 1) {
    if (plan.generate[f] === 1) continue;
    for (let c = 0; c < channels; c += 1) {
      const k = f * channels + c;
      x[k] = t * (noise[k] ?? 0) + (1 - t) * (plan.clean[k] ?? 0);
    }
  }
}

/**
 * `build_soft_repaint_mask`: 1 inside [start, end), linear ramps of `width` units outside it
 * (k / (width + 1), k = 1..width, toward the range), 0 elsewhere; no ramp when the range is all.
 */
export function softMask(length: number, start: number, end: number, width: number): Float32Array {
  const mask = new Float32Array(length).fill(1, start, end);
  if (width <= 0 || (start <= 0 && end >= length) || end <= start) return mask;
  const fadeStart = Math.max(start - width, 0);
  const left = start - fadeStart;
  for (let i = 0; i < left; i += 1) mask[fadeStart + i] = (i + 1) / (left + 1);
  const fadeEnd = Math.min(end + width, length);
  const right = fadeEnd - end;
  for (let i = 0; i < right; i += 1) mask[end + i] = (right - i) / (right + 1);
  return mask;
}

/** `apply_repaint_boundary_blend`: x = m x + (1 - m) clean over the soft mask, in place. */
export function blendBoundaries(x: Float32Array, plan: RepaintPlan, width: number, channels: number): void {
  const mask = softMask(plan.generate.length, plan.start, plan.end, width);
  for (let f = 0; f < mask.length; f += 1) {
    const m = mask[f] ?? 0;
    for (let c = 0; c < channels; c += 1) {
      const k = f * channels + c;
      x[k] = m * (x[k] ?? 0) + (1 - m) * (plan.clean[k] ?? 0);
    }
  }
}

/**
 * `apply_repaint_waveform_splice`: outside [startSample, endSample) the source's own samples
 * (zero past its end), the edit's inside, a linear crossfade of `crossfadeSamples` in the kept
 * samples next to the range; in place, per channel.
 */
export function spliceWaveform(
  edited: Float32Array[],
  source: Float32Array[],
  startSample: number,
  endSample: number,
  crossfadeSamples: number,
): void {
  for (const [ch, channel] of edited.entries()) {
    const src = source[ch] ?? new Float32Array();
    const length = channel.length;
    const start = Math.max(0, Math.min(startSample, length));
    const end = Math.max(start, Math.min(endSample, length));
    if (start === 0 && end >= length) continue;
    const mask = softMask(length, start, end, crossfadeSamples);
    for (let i = 0; i < length; i += 1) {
      const m = mask[i] ?? 0;
      if (m === 1) continue;
      channel[i] = m * (channel[i] ?? 0) + (1 - m) * (src[i] ?? 0);
    }
  }
}

/**
 * Remix's 5 Hz round trip (the reference's `tokenize` then `detokenize`): the latents padded with
 * the silence latent's first frames to whole codes (`AceStepAudioTokenizer.tokenize`), the codes
 * (the 2B export's FSQ values, or the XL detokenizer's code numbers) back to 25 Hz hints, cropped
 * to the latents' frames.
 */
export async function codesRoundTrip(
  layout: KnownLayout,
  graphs: { tokenizer: BoundGraph; detokenizer: BoundGraph },
  latents: Float32Array,
  frames: number,
  silence: SilenceLatent,
): Promise<Float32Array> {
  const C = silence.channels;
  const padded = Math.ceil(frames / FRAMES_PER_CODE) * FRAMES_PER_CODE;
  const input = padWithSilence(latents, frames, padded, silence);
  const codes = await graphs.tokenizer.run({ hidden_states: new ort.Tensor('float32', input, [1, padded, C]) });
  const role = layout.codes;
  const code = codes.get(role);
  if (code === undefined) throw new Error(`audio_tokenizer returned no ${role}`);
  if (code.dims.length !== 3 || code.dims[1] !== padded / FRAMES_PER_CODE)
    throw new Error(`audio_tokenizer ${role} is [${code.dims.join(', ')}], expected [1, ${padded / FRAMES_PER_CODE}, …]`);
  const hints = Graph.float(await graphs.detokenizer.run({ [role]: code }), 'hints', 'audio_detokenizer');
  if (hints.dims[1] !== padded || hints.dims[2] !== C)
    throw new Error(`audio_detokenizer hints are [${hints.dims.join(', ')}], expected [1, ${padded}, ${C}]`);
  return (hints.data as Float32Array).slice(0, frames * C);
}
