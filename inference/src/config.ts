/**
 * The worker's configuration, read from the environment once at start and validated. Storage
 * variables have the same names as the oracle's.
 */
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { parseEnv } from '../../core/src/config/env.ts';
import type { EnvResult } from '../../core/src/config/env.ts';
import { objectStoreEnvShape, refineObjectStoreEnv } from '../../core/src/config/object-store-env.ts';
import { parseKeyReference } from '../../core/src/signing/key-reference.ts';
import { PIPELINE_STAGES } from './worker/pipeline.ts';
import { FLEET_PARALLEL_JOBS, JOB_TIME_LIMIT_SECONDS } from '../../core/src/generation-queue.ts';

export const BUILTIN_MODEL_DIR = fileURLToPath(new URL('../models/builtin', import.meta.url));

const positiveInt = z.coerce.number({ error: 'must be a whole number' }).int().positive();

export const workerEnvSchema = z
  .object({
    DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// URL' }),
    ...objectStoreEnvShape,
    /** Model directory (manifest.json + ONNX file); the built-in model by default. */
    MODEL_DIR: z.string().min(1).default(BUILTIN_MODEL_DIR),
    MODEL_DEVICE: z.enum(['auto', 'cuda', 'cpu']).default('auto'),
    /** Directory of an ONNX causal LM + tokenizer.json for the lyrics step; built-in templates when unset. */
    LYRICS_MODEL_DIR: z.string().min(1).optional(),
    MP3_ENCODER: z.enum(['auto', 'lame', 'ffmpeg', 'wasm']).default('auto'),
    /**
     * The operator's C2PA signing identity (docs/content-credentials.md): a PEM certificate chain,
     * signer first, and the signer's PEM private key. Every song and preview is signed with it;
     * the worker checks both at start and refuses to run without them.
     */
    C2PA_SIGN_CERT: z
      .string({ error: "required: path of the PEM certificate chain that signs every MP3's C2PA manifest (docs/content-credentials.md)" })
      .min(1),
    C2PA_PRIVATE_KEY: z.string().min(1).optional(),
    /**
     * The C2PA key in an HSM or KMS instead (a P-256 key; the worker never reads it): a `pkcs11:`
     * URI (RFC 7512) or `awskms://[endpoint]/<key>` (docs/operations.md, "Signing keys").
     */
    C2PA_SIGNER: z
      .string()
      .superRefine((value, ctx) => {
        const parsed = parseKeyReference('C2PA_SIGNER', value);
        if (!parsed.ok) ctx.addIssue({ code: 'custom', message: parsed.error.message.replace(/^C2PA_SIGNER: /, '') });
      })
      .optional(),
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
    /**
     * Test hook: the model waits this long (ms) per second of audio before each render or edit
     * (inference/src/model/paced-song-model.ts), so the calibration measures a slow model. Never set in production.
     */
    INFERENCE_TEST_MODEL_MS_PER_AUDIO_SECOND: z.coerce.number().int().min(0).default(0),
    /**
     * Test hook: hold every attempt at this stage (logging `test hook: holding at stage <name>`)
     * until the job's time limit (or INFERENCE_TEST_HOLD_MS), so a fault test can SIGKILL the worker there. Never set in production.
     */
    INFERENCE_TEST_HOLD_AT_STAGE: z.enum(PIPELINE_STAGES).optional(),
    /** Test hook: hold for this long (ms) instead, then go on with the stage. */
    INFERENCE_TEST_HOLD_MS: positiveInt.optional(),
  })
  .superRefine(refineObjectStoreEnv)
  // Checked even when other variables are bad (`when`), so a missing signing key is reported with them.
  .refine((env) => env.C2PA_PRIVATE_KEY !== undefined || env.C2PA_SIGNER !== undefined, {
    path: ['C2PA_PRIVATE_KEY'],
    message:
      'required: path of the PEM private key of the C2PA signing certificate, or C2PA_SIGNER naming the key in an HSM or KMS (docs/content-credentials.md)',
    when: () => true,
  })
  .refine((env) => env.C2PA_PRIVATE_KEY === undefined || env.C2PA_SIGNER === undefined, {
    path: ['C2PA_SIGNER'],
    message: 'set C2PA_SIGNER (HSM or KMS) or C2PA_PRIVATE_KEY (a PEM file), not both',
  });

export type WorkerEnv = z.infer<typeof workerEnvSchema>;

export type WorkerConfigResult = EnvResult<WorkerEnv>;

/** Validates `env` (normally `process.env`); empty strings count as unset, secrets are not echoed. */
export function loadWorkerConfig(env: Readonly<Record<string, string | undefined>>): WorkerConfigResult {
  return parseEnv(workerEnvSchema, env);
}
