/**
 * Seeded token sampling: classifier-free guidance, temperature and top-k over one codebook's
 * logits, drawn with a per-job PRNG (xoshiro128**, seeded from SHA-256 of the job seed). The
 * PRNG is the job's own state, never shared, so concurrent jobs cannot disturb each other's draws
 * and the same seed gives the same tokens.
 */
import { createHash } from 'node:crypto';

export interface Random {
  /** A float in [0, 1). */
  next(): number;
}

export function seededRandom(seed: bigint, stream: string): Random {
  const digest = createHash('sha256').update(`songmint-musicgen:${stream}:${seed.toString()}`).digest();
  const s = new Uint32Array([digest.readUInt32LE(0), digest.readUInt32LE(4), digest.readUInt32LE(8), digest.readUInt32LE(12)]);
  if (s.every((word) => word === 0)) s[0] = 1;
  const rotl = (x: number, k: number): number => ((x << k) | (x >>> (32 - k))) >>> 0;
  return {
    next() {
      const a = s[0] ?? 0;
      const b = s[1] ?? 0;
      const result = Math.imul(rotl(Math.imul(b, 5) >>> 0, 7), 9) >>> 0;
      const t = (b << 9) >>> 0;
      s[2] = (s[2] ?? 0) ^ a;
      s[3] = (s[3] ?? 0) ^ b;
      s[1] = b ^ (s[2] ?? 0);
      s[0] = a ^ (s[3] ?? 0);
      s[2] = (s[2] ?? 0) ^ t;
      s[3] = rotl(s[3] ?? 0, 11);
      return result / 4294967296;
    },
  };
}

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
