/**
 * The ACE-Step loop: seeded noise integrated to clean latents by the flow-matching Euler sampler
 * (flow-sampler.ts), one DiT call per step (two with guidance), on the song's latent frames padded
 * as the reference pads them (ace-step/ACE-Step-1.5, conditioning_target.py: `max(128, length)`
 * frames, the padding taken from the silence latent's first frames and masked out of attention),
 * each call padded with zero frames to the DiT's patch size and its velocity cropped back. An edit
 * re-injects its kept frames on the path from the noise to the clean source for the first steps
 * (edits.ts `injectKeptFrames`, the reference's `apply_repaint_step_injection`).
 */
import * as ort from 'onnxruntime-node';
import type { Condition } from './condition.ts';
import { flowTimesteps, gaussianNoise, guidedVelocity, sampleFlow } from './flow-sampler.ts';
import type { BoundGraph } from './graph-session.ts';
import { BoundGraph as Graph } from './graph-session.ts';
import { PATCH_SIZE } from './layouts.ts';
import type { Random } from '../seed.ts';

/** The reference runs the DiT on at least this many latent frames (5.12 s): `max(128, max_latent_length)`. */
export const MIN_LATENT_FRAMES = 128;

/** The frames the DiT runs on for a song of `frames` frames. */
export function latentFrames(frames: number): number {
  return Math.max(MIN_LATENT_FRAMES, frames);
}

/** 1 per song frame, 0 per padding frame (the reference's `latent_masks`). */
export function latentMask(frames: number, padded: number): Uint8Array {
  return new Uint8Array(padded).fill(1, 0, frames);
}

/** `[frames, channels]` padded with zero frames to `padded` frames. */
function padFrames(values: Float32Array, frames: number, padded: number, channels: number): Float32Array {
  if (padded === frames) return values;
  const out = new Float32Array(padded * channels);
  out.set(values.subarray(0, frames * channels));
  return out;
}

export interface LoopOptions {
  dit: BoundGraph;
  /** Frames the DiT runs on (latentFrames of the song) and the song's own frames among them. */
  frames: number;
  songFrames: number;
  channels: number;
  contextChannels: number;
  diffusionSteps: number;
  shift: number;
  random: Random;
  /** The condition for each step (a remix switches to the plain one after its cover steps). */
  condition: (step: number) => Condition;
  /** Classifier-free guidance: the scale and the unconditioned encoder states for a condition. */
  guidance?: { scale: number; unconditioned: (condition: Condition) => ort.Tensor } | undefined;
  /** After each step, may change x in place at its new time `t` (an edit re-injects its kept frames). */
  adjust?: ((x: Float32Array, t: number, step: number, noise: Float32Array) => void) | undefined;
  signal: AbortSignal;
  onStep?: ((done: number, total: number) => void) | undefined;
}

/** One DiT velocity at `x`, time `t`, on the frames padded to the patch size; cropped back. */
async function velocity(options: LoopOptions, x: Float32Array, t: number, condition: Condition, states: ort.Tensor): Promise<Float32Array> {
  const { frames, channels: C, contextChannels: Cc } = options;
  const patched = Math.ceil(frames / PATCH_SIZE) * PATCH_SIZE;
  const mask = new Uint8Array(patched).fill(1, 0, options.songFrames);
  const out = await options.dit.run({
    hidden_states: new ort.Tensor('float32', padFrames(x, frames, patched, C), [1, patched, C]),
    timestep: new ort.Tensor('float32', Float32Array.from([t]), [1]),
    timestep_r: new ort.Tensor('float32', Float32Array.from([t]), [1]),
    attention_mask: { mask, dims: [1, patched] },
    encoder_hidden_states: states,
    encoder_attention_mask: { mask: condition.mask, dims: [1, condition.mask.length] },
    context_latents: new ort.Tensor('float32', padFrames(condition.context, frames, patched, Cc), [1, patched, Cc]),
  });
  const v = Graph.float(out, 'velocity', 'dit');
  if (v.dims[1] !== patched || v.dims[2] !== C) throw new Error(`dit velocity is [${v.dims.join(', ')}], expected [1, ${patched}, ${C}]`);
  // Batch 1, frames-major: the first `frames` frames are the latent, the rest the patch padding.
  return (v.data as Float32Array).slice(0, frames * C);
}

/** Samples `[frames, channels]` latents from the job's seed (all `frames`, padding included). */
export async function runLoop(options: LoopOptions): Promise<Float32Array> {
  const noise = gaussianNoise(options.frames * options.channels, options.random);
  return sampleFlow(noise, {
    timesteps: flowTimesteps(options.diffusionSteps, options.shift),
    signal: options.signal,
    velocity: async (x, t, step) => {
      const condition = options.condition(step);
      const conditioned = await velocity(options, x, t, condition, condition.hidden);
      if (options.guidance === undefined) return conditioned;
      const unconditioned = await velocity(options, x, t, condition, options.guidance.unconditioned(condition));
      return guidedVelocity(conditioned, unconditioned, options.guidance.scale);
    },
    ...(options.adjust === undefined ? {} : { adjust: (x: Float32Array, t: number, step: number) => options.adjust?.(x, t, step, noise) }),
    onStep: options.onStep,
  });
}
