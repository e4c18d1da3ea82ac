/**
 * The worker's configuration, read from the environment once at start and validated. Storage
 * variables have the same names as the oracle's.
 */
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { FLEET_PARALLEL_JOBS, JOB_TIME_LIMIT_SECONDS } from '../../core/src/generation-queue.ts';

export const BUILTIN_MODEL_DIR = fileURLToPath(new URL('../models/builtin', import.meta.url));

const positiveInt = z.coerce.number({ error: 'must be a whole number' }).int().positive();
const bool = z
  .enum(['true', 'false', '1', '0'], { error: 'must be true or false' })
  .transform((value) => value === 'true' || value === '1');
const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' });

export const workerEnvSchema = z
  .object({
    DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// URL' }),
    S3_ENDPOINT: httpUrl.optional(),
    S3_REGION: z.string().min(1).default('us-east-1'),
    S3_BUCKET: z.string().regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a valid S3 bucket name').default('songmint'),
    S3_ACCESS_KEY_ID: z.string().min(1).optional(),
    S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
    S3_FORCE_PATH_STYLE: bool.optional(),
    STORAGE_PUBLIC_URL: httpUrl.optional(),
    /** Model directory (manifest.json + ONNX file); the built-in model by default. */
    MODEL_DIR: z.string().min(1).default(BUILTIN_MODEL_DIR),
    MODEL_DEVICE: z.enum(['auto', 'cuda', 'cpu']).default('auto'),
    /** Directory of an ONNX causal LM + tokenizer.json for the lyrics step; built-in templates when unset. */
    LYRICS_MODEL_DIR: z.string().min(1).optional(),
    MP3_ENCODER: z.enum(['auto', 'lame', 'ffmpeg', 'wasm']).default('auto'),
    /** Encoder threads (and chunks encoded in parallel per song). */
    ENCODER_THREADS: positiveInt.max(64).default(Math.max(1, Math.min(4, availableParallelism()))),
    WORKER_ID: z.string().min(1).max(200).optional(),
    WORKER_CONCURRENCY: positiveInt.max(FLEET_PARALLEL_JOBS, `at most ${FLEET_PARALLEL_JOBS} (the fleet cap)`).default(1),
    FLEET_SLOTS: positiveInt.max(1000).default(FLEET_PARALLEL_JOBS),
    JOB_TIME_LIMIT_MS: positiveInt.default(JOB_TIME_LIMIT_SECONDS * 1000),
    POLL_INTERVAL_MS: positiveInt.default(500),
    SHUTDOWN_GRACE_MS: positiveInt.default(JOB_TIME_LIMIT_SECONDS * 1000),
    RETENTION_INTERVAL_SECONDS: positiveInt.default(3600),
    WORKER_METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /** Test hook: delay (ms) before the model runs, to make a job slow. Never set in production. */
    INFERENCE_TEST_SLOW_MODEL_MS: z.coerce.number().int().min(0).default(0),
  })
  .superRefine((env, ctx) => {
    if (env.S3_ENDPOINT !== undefined && (env.S3_ACCESS_KEY_ID === undefined || env.S3_SECRET_ACCESS_KEY === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['S3_ACCESS_KEY_ID'], message: 'S3_ENDPOINT needs S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY' });
    }
    if (env.S3_ENDPOINT === undefined && env.STORAGE_PUBLIC_URL === undefined) {
      ctx.addIssue({ code: 'custom', path: ['STORAGE_PUBLIC_URL'], message: 'required when S3_ENDPOINT is not set (AWS S3)' });
    }
  });

export type WorkerEnv = z.infer<typeof workerEnvSchema>;

export type WorkerConfigResult = { ok: true; config: WorkerEnv } | { ok: false; problems: string[] };

/** Validates `env` (normally `process.env`); empty strings count as unset; secrets are not echoed. */
export function loadWorkerConfig(env: Readonly<Record<string, string | undefined>>): WorkerConfigResult {
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = workerEnvSchema.safeParse(present);
  if (parsed.success) return { ok: true, config: parsed.data };
  return {
    ok: false,
    problems: parsed.error.issues.map((issue) => {
      const key = issue.path.join('.') || '(environment)';
      const given = typeof issue.path[0] === 'string' ? present[issue.path[0]] : undefined;
      const shown = given === undefined ? '' : /SECRET|KEY|PASSWORD/.test(key) ? ' (value hidden)' : ` (got ${JSON.stringify(given)})`;
      return `${key}: ${issue.message}${shown}`;
    }),
  };
}

export function storagePublicUrl(config: WorkerEnv): string {
  return config.STORAGE_PUBLIC_URL ?? `${(config.S3_ENDPOINT ?? '').replace(/\/+$/, '')}/${config.S3_BUCKET}`;
}
