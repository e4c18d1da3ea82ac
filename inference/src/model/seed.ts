/**
 * Seeds: a job without a seed gets one derived from its id (recorded on the job), so a rerun of
 * the same job reproduces it. The model takes the seed as two floats in [0, 1000).
 */
import { createHash } from 'node:crypto';

/** A non-negative seed below 2^48 (fits PostgreSQL bigint and a JS number exactly). */
export function seedFromJobId(jobId: string): bigint {
  const digest = createHash('sha256').update(`songmint-seed:${jobId}`).digest();
  return digest.readBigUInt64BE(0) >> 16n;
}

const MOD_A = 999_983n;
const MOD_B = 999_979n;

export function seedToModelInput(seed: bigint): Float32Array {
  const positive = seed < 0n ? -seed * 2n + 1n : seed;
  const a = Number(positive % MOD_A) / 999.983;
  const b = Number((positive / MOD_A) % MOD_B) / 999.979;
  return Float32Array.from([a, b]);
}
