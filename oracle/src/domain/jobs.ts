import type { Database } from '../../../core/src/db/database.ts';
import { PUBLIC_JOB_ID_PREFIX, toPublicJobId } from '../../../core/src/generation-queue.ts';
import type { Tier } from '../../../core/src/generation-queue.ts';
import { GENERATION_FAILED_CODE, JOB_STATUS, LOSSLESS_COLUMN_SQL } from '../../../core/src/jobs/job-state.ts';
import type { ContentCredentialsRecord, JobStatus, LosslessColumn } from '../../../core/src/jobs/job-state.ts';
import type { EditParameters } from '../../../core/src/song-edits.ts';
import { EDIT_SOURCE_COLUMNS, editOfView } from './edit-of.ts';
import type { EditOfView } from './edit-of.ts';
import { losslessView } from './lossless.ts';
import { MINTED_NAME_OF_JOB } from './song-title.ts';
import type { LosslessView } from './lossless.ts';
import { chargedLookup } from './request-charge.ts';
import type { ChargedLookup } from './request-charge.ts';
import { jobFailureCode } from './errors.ts';
import type { ErrorCode } from './errors.ts';
import { liveWorkerCapacity, queuePlace, runRates, runSeconds } from '../queue/queue-state.ts';

export interface JobRecord {
  id: string;
  userId: string;
  tier: Tier;
  status: JobStatus;
  progress: number;
  duration: number;
  steps: 27 | 60;
  actualDuration: number | null;
  audioUrl: string | null;
  audioHash: string | null;
  /** The lyrics the music step used (given, or written by the lyrics step); null for none. */
  usedLyrics: string | null;
  /** The model that made the audio (set when the job completed). */
  modelName: string | null;
  modelVersion: string | null;
  /** The C2PA manifest the audio carries; null for audio published before credentials were embedded. */
  contentCredentials: ContentCredentialsRecord | null;
  /**
   * The song's WAV and FLAC: stored, or pending (made after completion); null when it has none
   * (made before they were kept, purged by retention, or given up on).
   */
  lossless: LosslessColumn | null;
  errorCode: string | null;
  errorMessage: string | null;
  createdAt: Date;
  startedAt: Date | null;
  /** Set by the chain watcher once the song's SongMinted log is confirmed (`recordSongMinted`). */
  signatureUsed: boolean;
  /** The minted token's id (uint256, decimal); null until the watcher has seen the mint. */
  nftTokenId: string | null;
  /** The song this job edits and how; null for a song that is no edit. */
  editOf: EditOfView | null;
  prompt: string;
  /** The title its owner gave it, or an edit got from its source; null: it goes by its prompt (./song-title.ts). */
  title: string | null;
  /** The name in the metadata it was minted with; null until minted. */
  mintedName: string | null;
  /** When its owner moved it to the trash; null while it is in the library. */
  deletedAt: Date | null;
  /** Retention deleted its audio. */
  purged: boolean;
}

export type JobView =
  | { status: typeof JOB_STATUS.queued; job_id: string; progress: number; estimated_remaining: number; position: number }
  | { status: typeof JOB_STATUS.processing; job_id: string; progress: number; estimated_remaining: number }
  | {
      status: typeof JOB_STATUS.completed;
      job_id: string;
      audio_url: string;
      audio_hash: string;
      duration: number;
      created_at: string;
      lyrics: string | null;
      model: ModelRecord | null;
      content_credentials: ContentCredentialsRecord | null;
      lossless: LosslessView | null;
      signature_used: boolean;
      nft_token_id: string | null;
      edit_of: EditOfView | null;
    }
  | { status: typeof JOB_STATUS.failed; job_id: string; error: { code: ErrorCode; message: string; retry_after?: number } }
  | { status: typeof JOB_STATUS.cancelled; job_id: string };

/** The model that made a song, as the job status and the metadata's generation record show it. */
export interface ModelRecord {
  name: string;
  version: string;
}

/** Null until a model completed the job (both columns are written together by `completeJob`). */
export function modelRecord(name: string | null, version: string | null): ModelRecord | null {
  return name === null || version === null ? null : { name, version };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** `gen_<uuid>` to the UUID, or null for anything else. */
export function parsePublicJobId(publicId: string): string | null {
  if (!publicId.startsWith(PUBLIC_JOB_ID_PREFIX)) return null;
  const id = publicId.slice(PUBLIC_JOB_ID_PREFIX.length).toLowerCase();
  return UUID.test(id) ? id : null;
}

export interface JobRow {
  id: string;
  user_id: string;
  tier: Tier;
  status: JobStatus;
  progress: number;
  duration: number;
  steps: 27 | 60;
  actual_duration: number | null;
  audio_url: string | null;
  audio_hash: string | null;
  used_lyrics: string | null;
  model_name: string | null;
  model_version: string | null;
  content_credentials: ContentCredentialsRecord | null;
  lossless: LosslessColumn | null;
  error_code: string | null;
  error_message: string | null;
  created_at: Date;
  started_at: Date | null;
  signature_used: boolean;
  nft_token_id: string | null;
  edit_source_id: string | null;
  edit_upload_id: string | null;
  edit: EditParameters | null;
  prompt: string;
  title: string | null;
  minted_name: string | null;
  deleted_at: Date | null;
  purged: boolean;
}

export const JOB_COLUMNS = `id, user_id, tier, status, progress, duration, steps, actual_duration, audio_url, audio_hash,
            used_lyrics, model_name, model_version, content_credentials, error_code, error_message, created_at, started_at,
            signature_used, nft_token_id::text AS nft_token_id, ${LOSSLESS_COLUMN_SQL} AS lossless,
            ${EDIT_SOURCE_COLUMNS}, prompt, title, deleted_at, purged_at IS NOT NULL AS purged,
            (${MINTED_NAME_OF_JOB}) AS minted_name`;

export function toJobRecord(row: JobRow): JobRecord {
  return {
    id: row.id,
    userId: row.user_id,
    tier: row.tier,
    status: row.status,
    progress: row.progress,
    duration: row.duration,
    steps: row.steps,
    actualDuration: row.actual_duration,
    audioUrl: row.audio_url,
    audioHash: row.audio_hash,
    usedLyrics: row.used_lyrics,
    modelName: row.model_name,
    modelVersion: row.model_version,
    contentCredentials: row.content_credentials,
    lossless: row.lossless,
    errorCode: row.error_code,
    errorMessage: row.error_message,
    createdAt: row.created_at,
    startedAt: row.started_at,
    signatureUsed: row.signature_used,
    nftTokenId: row.nft_token_id,
    editOf: editOfView(row),
    prompt: row.prompt,
    title: row.title,
    mintedName: row.minted_name,
    deletedAt: row.deleted_at,
    purged: row.purged,
  };
}

/** The job if it exists and belongs to `userId`; others' jobs read as absent. */
export async function findOwnJob(db: Database, id: string, userId: string): Promise<JobRecord | null> {
  const row = await db.oneOrNone<JobRow>(`SELECT ${JOB_COLUMNS} FROM generation_jobs WHERE id = $1 AND user_id = $2`, [id, userId]);
  return row === null ? null : toJobRecord(row);
}

/** The spec allows one retry of GEN_005: we suggest waiting this long before resubmitting. */
export const GENERATION_FAILED_RETRY_SECONDS = 10;

/** The Variant A body of GET /api/generate/{job_id} for `job`'s state. */
export async function viewJob(db: Database, job: JobRecord, now: Date): Promise<JobView> {
  const jobId = toPublicJobId(job.id);
  switch (job.status) {
    case JOB_STATUS.completed:
      return {
        status: JOB_STATUS.completed,
        job_id: jobId,
        // The completed_has_audio constraint guarantees both.
        audio_url: job.audioUrl ?? '',
        audio_hash: job.audioHash ?? '',
        duration: Math.round(job.actualDuration ?? job.duration),
        created_at: job.createdAt.toISOString(),
        lyrics: job.usedLyrics,
        model: modelRecord(job.modelName, job.modelVersion),
        content_credentials: job.contentCredentials,
        lossless: losslessView(jobId, job.lossless),
        signature_used: job.signatureUsed,
        nft_token_id: job.nftTokenId,
        edit_of: job.editOf,
      };
    case JOB_STATUS.failed: {
      const code = jobFailureCode(job.errorCode);
      return {
        status: JOB_STATUS.failed,
        job_id: jobId,
        error: {
          code,
          message: job.errorMessage ?? 'Generation failed',
          ...(code === GENERATION_FAILED_CODE ? { retry_after: GENERATION_FAILED_RETRY_SECONDS } : {}),
        },
      };
    }
    case JOB_STATUS.processing: {
      const rates = await runRates(db);
      const total = runSeconds(rates, job.duration, job.steps);
      const elapsed = job.startedAt === null ? 0 : (now.getTime() - job.startedAt.getTime()) / 1000;
      // Progress reported by the worker is the better signal once there is any.
      const remaining = job.progress > 0 ? total * (1 - job.progress / 100) : total - elapsed;
      return {
        status: JOB_STATUS.processing,
        job_id: jobId,
        progress: job.progress,
        estimated_remaining: Math.max(1, Math.ceil(remaining)),
      };
    }
    case JOB_STATUS.queued: {
      const [rates, capacity] = await Promise.all([runRates(db), liveWorkerCapacity(db)]);
      const place = await queuePlace(
        db,
        { id: job.id, tier: job.tier, createdAt: job.createdAt, duration: job.duration, steps: job.steps },
        rates,
        capacity.slots,
      );
      return {
        status: JOB_STATUS.queued,
        job_id: jobId,
        progress: job.progress,
        estimated_remaining: place.estimatedSeconds,
        position: place.position,
      };
    }
    case JOB_STATUS.cancelled:
      return { status: JOB_STATUS.cancelled, job_id: jobId };
  }
}

const chargeAndFindOwnJob = chargedLookup<JobRecord>(
  'session-charge-find-job',
  (caller, [id]) => `SELECT ${JOB_COLUMNS} FROM generation_jobs WHERE id = ${id}::uuid AND user_id = ${caller}`,
  (row) => (typeof row.id === 'string' ? toJobRecord(row as unknown as JobRow) : null),
);

/**
 * The caller's job `publicId` read in the charge of its request (`chargeRequest`): the status
 * poll and the event stream answer with one database round trip. Malformed ids find nothing.
 */
export function ownJobLookup(publicId: string): ChargedLookup<JobRecord> {
  return chargeAndFindOwnJob(parsePublicJobId(publicId));
}
