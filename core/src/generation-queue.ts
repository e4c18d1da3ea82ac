/**
 * The contract between the oracle and the inference workers: the queue they share and the
 * liveness rule for worker heartbeats. Both sides import this module and nothing else of
 * each other; the rest of the contract is the schema in core/src/db/migrations.
 */

export type Tier = 'free' | 'pro' | 'enterprise';

/** pg-boss queue that carries generation jobs. */
export const GENERATION_QUEUE = 'generation';

/** Payload of a queued message: the `generation_jobs.id` (UUID) to process. */
export interface GenerationMessage {
  jobId: string;
}

/** Payload of a queued preview (core/src/jobs/preview-state.ts): the `preview_jobs.id` (UUID). */
export interface PreviewMessage {
  previewId: string;
}

/** What the generation queue carries: songs and previews share the queue and the workers. */
export type QueueMessage = GenerationMessage | PreviewMessage;

/** pg-boss priority: a higher number is served first. */
export const TIER_PRIORITY: Readonly<Record<Tier, number>> = {
  free: 1,
  pro: 2,
  enterprise: 3,
};

/** Spec: "worker retries 2": a job runs at most 1 + 2 times before it fails with GEN_005. */
export const WORKER_RETRY_LIMIT = 2;

/** Spec: one generation job runs for 300 seconds at most. */
export const JOB_TIME_LIMIT_SECONDS = 300;

/** Spec: 10 parallel generation workers across the fleet; further jobs wait in the queue. */
export const FLEET_PARALLEL_JOBS = 10;

/** Workers write `worker_heartbeats.last_seen` this often. */
export const HEARTBEAT_INTERVAL_SECONDS = 5;

/** A worker whose last heartbeat is older than this is not live (GEN_002, readiness). */
export const HEARTBEAT_STALE_SECONDS = 20;

/** Spec, "Files": a generated audio file is at most 50 MB (read as MiB, the larger reading). */
export const MAX_AUDIO_BYTES = 50 * 1024 * 1024;

/** Public job id in Variant A: `gen_<uuid>`. */
export const PUBLIC_JOB_ID_PREFIX = 'gen_';

export function toPublicJobId(id: string): string {
  return `${PUBLIC_JOB_ID_PREFIX}${id}`;
}

/** Object key of a job's published audio: `audio/<job_id>.mp3` with the public job id. */
export function audioObjectKey(id: string): string {
  return `audio/${toPublicJobId(id)}.mp3`;
}

/** The lossless formats every completed song is also stored in (docs/api.md, "Lossless downloads"). */
export const LOSSLESS_FORMATS = ['wav', 'flac'] as const;
export type LosslessFormat = (typeof LOSSLESS_FORMATS)[number];
export const LOSSLESS_CONTENT_TYPES: Readonly<Record<LosslessFormat, string>> = { wav: 'audio/wav', flac: 'audio/flac' };

/**
 * Object key of a song's lossless master: `lossless/<job_id>.<format>`, a private prefix (only
 * the owner gets a presigned URL, through the API), deleted with the MP3 by the retention sweep.
 */
export function losslessObjectKey(id: string, format: LosslessFormat): string {
  return `lossless/${toPublicJobId(id)}.${format}`;
}

/**
 * A song's WAV and FLAC are made after it completed (inference/src/worker/masters.ts): within
 * this many seconds of completion, or not at all. The worker gives up on them then, and a job
 * whose masters are still pending past it (its worker died meanwhile) has none.
 */
export const LOSSLESS_MASTERS_DEADLINE_SECONDS = 300;
