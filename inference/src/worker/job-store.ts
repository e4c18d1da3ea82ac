/**
 * The worker's SQL on generation_jobs. Every transition is guarded by status (and, after the
 * claim, by the attempt's claim id) in the statement itself, so duplicate deliveries, expired
 * attempts and killed workers cannot complete a job twice or move a finished job.
 */
import type { Database, DatabaseTask } from '../../../core/src/db/database.ts';

type Queryable = Database | DatabaseTask;

export interface ClaimedJob {
  id: string;
  claimId: string;
  prompt: string;
  duration: number;
  seed: bigint;
  steps: 27 | 60;
  lyrics: string | null;
  withLyrics: boolean;
  attempts: number;
}

interface ClaimRow {
  id: string;
  claim_id: string;
  prompt: string;
  duration: number;
  seed: string | null;
  steps: number;
  lyrics: string | null;
  with_lyrics: boolean;
  attempts: number;
}

/**
 * Starts an attempt: `processing`, `started_at`, attempts + 1, a fresh claim id, the seed fixed
 * (derived from the job id when none was given). Undefined when the job is finished or unknown.
 */
export async function claimJob(db: Queryable, jobId: string, derivedSeed: bigint): Promise<ClaimedJob | undefined> {
  const row = await db.oneOrNone<ClaimRow>(
    `UPDATE generation_jobs
        SET status = 'processing', started_at = now(), attempts = attempts + 1, progress = 0,
            claim_id = gen_random_uuid(), seed = coalesce(seed, $2::bigint), error_code = NULL
      WHERE id = $1 AND status IN ('queued', 'processing')
      RETURNING id, claim_id, prompt, duration, seed::text AS seed, steps, lyrics, with_lyrics, attempts`,
    [jobId, derivedSeed.toString()],
  );
  if (row === null) return undefined;
  if (row.steps !== 27 && row.steps !== 60) throw new Error(`job ${row.id} has steps ${row.steps}`);
  return {
    id: row.id,
    claimId: row.claim_id,
    prompt: row.prompt,
    duration: row.duration,
    seed: BigInt(row.seed ?? derivedSeed.toString()),
    steps: row.steps,
    lyrics: row.lyrics,
    withLyrics: row.with_lyrics,
    attempts: row.attempts,
  };
}

export async function reportProgress(db: Queryable, job: ClaimedJob, progress: number): Promise<void> {
  await db.none(
    `UPDATE generation_jobs SET progress = $3 WHERE id = $1 AND claim_id = $2 AND status = 'processing' AND progress < $3`,
    [job.id, job.claimId, Math.max(0, Math.min(100, Math.round(progress)))],
  );
}

/** Locks the job row for the publishing transaction; false when this attempt no longer owns it. */
export async function lockForPublish(tx: DatabaseTask, job: ClaimedJob): Promise<boolean> {
  const row = await tx.oneOrNone<{ id: string }>(
    `SELECT id FROM generation_jobs WHERE id = $1 AND claim_id = $2 AND status = 'processing' FOR UPDATE`,
    [job.id, job.claimId],
  );
  return row !== null;
}

export interface CompletedAudio {
  audioKey: string;
  audioUrl: string;
  audioHash: string;
  actualDuration: number;
  modelName: string;
  modelVersion: string;
  device: 'cuda' | 'cpu';
  usedLyrics: string | null;
  lyricsTokens: number | null;
  /** SPDX id of the model's licence, and whether it allows commercial use (the mint guard reads it). */
  modelLicence: string;
  modelCommercialUse: boolean;
}

export async function markCompleted(tx: DatabaseTask, job: ClaimedJob, audio: CompletedAudio): Promise<boolean> {
  const result = await tx.result(
    `UPDATE generation_jobs
        SET status = 'completed', progress = 100, completed_at = now(), audio_key = $3, audio_url = $4,
            audio_hash = $5, actual_duration = $6, model_name = $7, model_version = $8, device = $9,
            used_lyrics = $10, lyrics_tokens = $11, model_licence = $12, model_commercial_use = $13,
            error_code = NULL, error_message = NULL
      WHERE id = $1 AND claim_id = $2 AND status = 'processing'`,
    [
      job.id,
      job.claimId,
      audio.audioKey,
      audio.audioUrl,
      audio.audioHash,
      audio.actualDuration,
      audio.modelName,
      audio.modelVersion,
      audio.device,
      audio.usedLyrics,
      audio.lyricsTokens,
      audio.modelLicence,
      audio.modelCommercialUse,
    ],
  );
  return result.rowCount === 1;
}

/** A failed attempt with retries left: back to `queued`, attempts kept, the error recorded. */
export async function requeueAfterFailure(db: Queryable, job: ClaimedJob, message: string): Promise<void> {
  await db.none(
    `UPDATE generation_jobs SET status = 'queued', progress = 0, error_message = $3
      WHERE id = $1 AND claim_id = $2 AND status = 'processing'`,
    [job.id, job.claimId, message.slice(0, 1000)],
  );
}

/** The last attempt failed: `failed` with GEN_005. */
/**
 * A CTE that gives the daily generation of each job in `failed` (user_id, created_at) back to its
 * user, while the user's counter still counts that job's day. GEN_005 is the service's failure:
 * the spec lets the user retry it, and the retry should not cost a second generation.
 */
export const REFUND_DAILY_GENERATION_CTE = `refunded AS (
    UPDATE users u SET daily_generations = u.daily_generations - 1, updated_at = now()
      FROM failed f
     WHERE u.id = f.user_id AND u.daily_generations > 0
       AND u.last_generation_reset = (f.created_at AT TIME ZONE 'UTC')::date
    RETURNING u.id
  )`;

export async function markFailed(db: Queryable, job: ClaimedJob, message: string): Promise<void> {
  await db.one(
    `WITH failed AS (
       UPDATE generation_jobs SET status = 'failed', error_code = 'GEN_005', error_message = $3
        WHERE id = $1 AND claim_id = $2 AND status = 'processing'
       RETURNING user_id, created_at
     ), ${REFUND_DAILY_GENERATION_CTE}
     SELECT count(*)::int AS failed FROM failed`,
    [job.id, job.claimId, message.slice(0, 1000)],
  );
}
