/**
 * ACE-Step 1.5's sampler: flow matching integrated with Euler steps from pure noise (t = 1) to the
 * clean latent (t = 0). The timesteps are the shifted schedule t_i = s u / (1 + (s - 1) u) with
 * u = 1 - i / N, i = 0..N-1 (turbo: N = 8, s = 3 -> 1, .9545, .9, .8333, .75, .6429, .5, .3).
 * Each step moves x along the predicted velocity v to the next timestep, x <- x - v (t_i - t_{i+1});
 * the last step jumps to t = 0, x0 = x - t_last v. With classifier-free guidance the velocity is
 * v_uncond + g (v_cond - v_uncond). The start noise is Gaussian, drawn from the job's seed.
 */
import type { Random } from '../seed.ts';

export function flowTimesteps(steps: number, shift: number): number[] {
  return Array.from({ length: steps }, (_, i) => {
    const u = 1 - i / steps;
    return (shift * u) / (1 + (shift - 1) * u);
  });
}

/** Standard normal draws (Box-Muller over the job's own PRNG), so the same seed gives the same noise. */
export function gaussianNoise(count: number, random: Random): Float32Array {
  const out = new Float32Array(count);
  for (let i = 0; i < count; i += 2) {
    // 1 - u keeps the logarithm's argument in (0, 1].
    const radius = Math.sqrt(-2 * Math.log(1 - random.next()));
    const angle = 2 * Math.PI * random.next();
    out[i] = radius * Math.cos(angle);
    if (i + 1 < count) out[i + 1] = radius * Math.sin(angle);
  }
  return out;
}

export function guidedVelocity(conditioned: Float32Array, unconditioned: Float32Array, scale: number): Float32Array {
  const out = new Float32Array(conditioned.length);
  for (let i = 0; i < out.length; i += 1) out[i] = (unconditioned[i] ?? 0) + scale * ((conditioned[i] ?? 0) - (unconditioned[i] ?? 0));
  return out;
}

export interface FlowSamplerOptions {
  timesteps: readonly number[];
  /** The model's velocity at `x`, time `t` (the DiT, guided if need be). */
  velocity: (x: Float32Array, t: number, step: number) => Promise<Float32Array>;
  signal: AbortSignal;
  /** After each step: steps done, steps in all. */
  onStep?: (done: number, total: number) => void;
  /** After each step, may change x in place at its new time `t` (a repaint re-injects the kept frames). */
  adjust?: (x: Float32Array, t: number, step: number) => void;
}

/** Integrates from `noise` (not modified) to the clean latent. */
export async function sampleFlow(noise: Float32Array, options: FlowSamplerOptions): Promise<Float32Array> {
  const { timesteps } = options;
  let x = Float32Array.from(noise);
  for (const [i, t] of timesteps.entries()) {
    if (options.signal.aborted) throw options.signal.reason instanceof Error ? options.signal.reason : new Error('aborted');
    const v = await options.velocity(x, t, i);
    if (v.length !== x.length) throw new Error(`velocity has ${v.length} values, the latent ${x.length}`);
    const next = timesteps[i + 1] ?? 0;
    const dt = t - next;
    const moved = new Float32Array(x.length);
    for (let k = 0; k < x.length; k += 1) moved[k] = (x[k] ?? 0) - (v[k] ?? 0) * dt;
    x = moved;
    options.adjust?.(x, next, i);
    options.onStep?.(i + 1, timesteps.length);
  }
  return x;
}
