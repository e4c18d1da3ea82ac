/** Settings of the API benchmark, from the environment (see bench/api.ts). */
import { availableParallelism } from 'node:os';

export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
export const POLL_SECONDS = Number(process.env.BENCH_POLL_SECONDS ?? 5);
export const POLL_ROUNDS = Number(process.env.BENCH_POLL_ROUNDS ?? 5);
export const SIGNATURES = Number(process.env.BENCH_SIGNATURES ?? 4000);
export const DOWNLOAD_SIGNATURES = Math.ceil(SIGNATURES / 2);
/** Jobs signed before the measured signatures, so the issuance path is warm too. */
export const SIGNATURE_WARMUP = 200;
export const AUDIO_BYTES = Number(process.env.BENCH_AUDIO_BYTES ?? 200_000);
/**
 * The oracle's PostgreSQL pool (DATABASE_POOL_SIZE): PostgreSQL's rule of thumb, twice the cores
 * plus one. The database shares these cores, and 20 backends contending for 2 cores cost
 * PostgreSQL CPU per statement (polling / bare in alternating runs: 30.2% and 35.7% with 20
 * connections, 39.9% and 42.8% with 6).
 */
export const DB_POOL = Number(process.env.BENCH_DB_POOL ?? 2 * availableParallelism() + 1);
/**
 * Hourly limits are per user (metadata_nft 100, general 1000 requests): the load is spread over
 * this many users, so no request of the benchmark is refused.
 */
export const SIGNATURE_JOBS = SIGNATURES + DOWNLOAD_SIGNATURES + 2 * SIGNATURE_WARMUP;
export const USERS = Math.max(200, Math.ceil(SIGNATURE_JOBS / 90));
export const METADATA_URI = 'ipfs://bafkreibwnxqpvx2gp2ayinmhfyd5ns7oyjfqtbspo4zrnkpbpagn5g62eq';
