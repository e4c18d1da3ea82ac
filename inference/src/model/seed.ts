/**
 * Seeds: a job without a seed gets one derived from its id (recorded on the job), so a rerun of
 * the same job reproduces it. The built-in model takes the seed as two floats in [0, 1000); the
 * MusicGen and ACE-Step backends draw from `seededRandom`, a per-job PRNG (xoshiro128**, seeded
 * from SHA-256 of the job seed and a stream name), never shared, so concurrent jobs cannot disturb
 * each other's draws. The noise is ours: the same seed does not reproduce the reference (torch)
 * implementations' output.
 */
import { createHash } from 'node:crypto';

/** A non-negative seed below 2^48 (fits PostgreSQL bigint and a JS number exactly). */
export function seedFromJobId(jobId: string): bigint {
  const digest = createHash('sha256').update(`songmint-seed:${jobId}`).digest();
  return digest.readBigUInt64BE(0) >> 16n;
}

const MOD_A = 999_983n;
const MOD_B = 999_979n;
const MASK_64 = (1n << 64n) - 1n;

/**
 * splitmix64's finaliser, a bijection on 64-bit words: neighbouring seeds land far apart. Without
 * it seeds 42 and 43 became phases 0.042 and 0.043 of the built-in model's sine hash, which a
 * float32 argument in the thousands cannot tell apart, so the two songs shared their draws (issue
 * 50: with seeds 42-53 and model 1.0.0, 148 of 396 pairs of one prompt's songs, and 111 of 360
 * pairs of two prompts' songs, reached the landmark registry's match threshold; 16 and 5 with the
 * seeds mixed, 8 and 1 with model 1.1.0's own parts per seed as well).
 */
function mixSeed(seed: bigint): bigint {
  let z = seed & MASK_64;
  z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK_64;
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK_64;
  return z ^ (z >> 31n);
}

/** The built-in model's two seed floats, each in [0, 1000). */
export function seedToModelInput(seed: bigint): Float32Array {
  const mixed = mixSeed(seed < 0n ? -seed * 2n + 1n : seed);
  const a = Number(mixed % MOD_A) / 999.983;
  const b = Number((mixed / MOD_A) % MOD_B) / 999.979;
  return Float32Array.from([a, b]);
}

export interface Random {
  /** A float in [0, 1). */
  next(): number;
}

/** The digest's prefix predates this module (it began in the MusicGen backend); kept so seeds keep their songs. */
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
