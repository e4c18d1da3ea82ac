/**
 * Seeded token sampling: classifier-free guidance, temperature and top-k over one codebook's
 * logits, drawn with the job's own PRNG (`seededRandom` in model/seed.ts), so the same seed gives
 * the same tokens.
 */
import type { Random } from '../seed.ts';

export interface SamplingSettings {
  /** > 1 mixes the unconditional logits in: uncond + (cond - uncond) x scale. */
  guidanceScale: number;
  temperature: number;
  /** 0: the whole vocabulary. */
  topK: number;
}

/** Classifier-free guidance: `cond` and `uncond` are one codebook's logits from the two halves of the batch. */
export function guidedLogits(cond: Float32Array, uncond: Float32Array | undefined, scale: number): Float32Array {
  if (uncond === undefined || scale === 1) return cond;
  const out = new Float32Array(cond.length);
  for (let i = 0; i < cond.length; i += 1) out[i] = (uncond[i] ?? 0) + ((cond[i] ?? 0) - (uncond[i] ?? 0)) * scale;
  return out;
}

/**
 * Draws one token from `logits` (temperature, then the top k, then softmax). Ties rank the lower
 * index first so the candidate order, and hence the draw, depends on the logits alone.
 */
export function sampleToken(logits: Float32Array, settings: Pick<SamplingSettings, 'temperature' | 'topK'>, random: Random): number {
  const order = Array.from({ length: logits.length }, (_, i) => i);
  order.sort((a, b) => (logits[b] ?? 0) - (logits[a] ?? 0) || a - b);
  const k = settings.topK > 0 ? Math.min(settings.topK, order.length) : order.length;
  const best = logits[order[0] ?? 0] ?? 0;
  const weights = new Float64Array(k);
  let total = 0;
  for (let i = 0; i < k; i += 1) {
    const w = Math.exp(((logits[order[i] ?? 0] ?? 0) - best) / settings.temperature);
    weights[i] = w;
    total += w;
  }
  let u = random.next() * total;
  for (let i = 0; i < k; i += 1) {
    u -= weights[i] ?? 0;
    if (u < 0) return order[i] ?? 0;
  }
  return order[k - 1] ?? 0;
}
