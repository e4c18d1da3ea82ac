/**
 * The preview job state machine (issue 15 item 7): the transitions of `preview_jobs.status`,
 * for the oracle (queue) and the workers (claim, progress, complete, retry, fail) and the
 * retention sweep (abandoned attempts, old records). The statuses are those of job-state.ts
 * without `cancelled`; each transition is one statement guarded by the status it leaves and,
 * after the claim, by the attempt's claim id, as for songs.
 *
 *   queued ──claim──▶ processing ──complete──▶ completed ──24 h: clip deleted (sweep)──▶ expired (410)
 *     ▲                  │  │
 *     └─────retry────────┘  └──fail (last attempt) / sweep (abandoned)──▶ failed (GEN_005)
 *
 * Unlike a song, a preview charges no daily generation, so failing one gives nothing back.
 */
import type { PgBoss } from 'pg-boss';
import type { DatabaseTask, Queryable } from '../db/database.ts';
import { GENERATION_QUEUE, TIER_PRIORITY, WORKER_RETRY_LIMIT } from '../generation-queue.ts';
import type { PreviewMessage, Tier } from '../generation-queue.ts';
import { bossDbFromTask } from '../queue.ts';
import { GENERATION_FAILED_CODE, JOB_STATUS, sqlStatus } from './job-state.ts';

export type PreviewStatus = typeof JOB_STATUS.queued | typeof JOB_STATUS.processing | typeof JOB_STATUS.completed | typeof JOB_STATUS.failed;

/** A preview record (its status, without the clip) is kept this long for a 410 answer, then removed. */
export const PREVIEW_RECORD_DAYS = 7;

const ERROR_MESSAGE_MAX = 1000;

const S = {
  queued: sqlStatus(JOB_STATUS.queued),
  processing: sqlStatus(JOB_STATUS.processing),
  completed: sqlStatus(JOB_STATUS.completed),
  failed: sqlStatus(JOB_STATUS.failed),
};

export interface NewPreview {
  sessionId: string;
  userId: string;
  prompt: string;
  duration: number;
  seed?: bigint;
  steps: 27 | 60;
  lyrics?: string;
  withLyrics: boolean;
  /** Tier at enqueue time: it fixes the queue priority. */
  tier: Tier;
}

/** Writes a `queued` preview and its queue message in the caller's transaction. */
export async function queuePreview(tx: DatabaseTask, boss: PgBoss, preview: NewPreview): Promise<{ id: string; createdAt: Date }> {
  const row = await tx.one<{ id: string; created_at: Date }>(
    `INSERT INTO preview_jobs (session_id, user_id, prompt, duration, seed, steps, lyrics, with_lyrics, tier, status)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, ${S.queued})
     RETURNING id, created_at`,
    [
      preview.sessionId,
      preview.userId,
      preview.prompt,
      preview.duration,
      preview.seed === undefined ? null : preview.seed.toString(),
      preview.steps,
      preview.lyrics ?? null,
      preview.withLyrics,
      preview.tier,
    ],
  );
  const message: PreviewMessage = { previewId: row.id };
  await boss.send(GENERATION_QUEUE, message, { priority: TIER_PRIORITY[preview.tier], db: bossDbFromTask(tx) });
  return { id: row.id, createdAt: row.created_at };
}

export interface ClaimedPreview {
  id: string;
  sessionId: string;
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
  session_id: string;
  claim_id: string;
  prompt: string;
  duration: number;
  seed: string | null;
  steps: number;
  lyrics: string | null;
  with_lyrics: boolean;
  attempts: number;
}

/** Starts an attempt (as `claimJob`); undefined when the preview is finished or unknown. */
export async function claimPreview(db: Queryable, previewId: string, derivedSeed: bigint): Promise<ClaimedPreview | undefined> {
  const row = await db.oneOrNone<ClaimRow>(
    `UPDATE preview_jobs
        SET status = ${S.processing}, started_at = now(), attempts = attempts + 1, progress = 0,
            claim_id = gen_random_uuid(), seed = coalesce(seed, $2::bigint), error_code = NULL
      WHERE id = $1 AND status IN (${S.queued}, ${S.processing})
      RETURNING id, session_id, claim_id, prompt, duration, seed::text AS seed, steps, lyrics, with_lyrics, attempts`,
    [previewId, derivedSeed.toString()],
  );
  if (row === null) return undefined;
  if (row.steps !== 27 && row.steps !== 60) throw new Error(`preview ${row.id} has steps ${row.steps}`);
  return {
    id: row.id,
    sessionId: row.session_id,
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

export async function reportPreviewProgress(db: Queryable, preview: ClaimedPreview, progress: number): Promise<void> {
  await db.none(
    `UPDATE preview_jobs SET progress = $3 WHERE id = $1 AND claim_id = $2 AND status = ${S.processing} AND progress < $3`,
    [preview.id, preview.claimId, Math.max(0, Math.min(100, Math.round(progress)))],
  );
}

/** Locks the preview row for the storing transaction; false when this attempt no longer owns it. */
export async function lockPreviewForPublish(tx: DatabaseTask, preview: ClaimedPreview): Promise<boolean> {
  const row = await tx.oneOrNone<{ id: string }>(
    `SELECT id FROM preview_jobs WHERE id = $1 AND claim_id = $2 AND status = ${S.processing} FOR UPDATE`,
    [preview.id, preview.claimId],
  );
  return row !== null;
}

/** `completed` with the stored clip's hash and length; false when this attempt no longer owns it. */
export async function completePreview(tx: DatabaseTask, preview: ClaimedPreview, clip: { audioHash: string; actualDuration: number }): Promise<boolean> {
  const result = await tx.result(
    `UPDATE preview_jobs
        SET status = ${S.completed}, progress = 100, completed_at = now(), audio_hash = $3, actual_duration = $4,
            error_code = NULL, error_message = NULL
      WHERE id = $1 AND claim_id = $2 AND status = ${S.processing}`,
    [preview.id, preview.claimId, clip.audioHash, clip.actualDuration],
  );
  return result.rowCount === 1;
}

export async function retryPreview(db: Queryable, preview: ClaimedPreview, message: string): Promise<void> {
  await db.none(
    `UPDATE preview_jobs SET status = ${S.queued}, progress = 0, error_message = $3
      WHERE id = $1 AND claim_id = $2 AND status = ${S.processing}`,
    [preview.id, preview.claimId, message.slice(0, ERROR_MESSAGE_MAX)],
  );
}

export async function failPreview(db: Queryable, preview: ClaimedPreview, message: string): Promise<void> {
  await db.none(
    `UPDATE preview_jobs SET status = ${S.failed}, error_code = '${GENERATION_FAILED_CODE}', error_message = $3
      WHERE id = $1 AND claim_id = $2 AND status = ${S.processing}`,
    [preview.id, preview.claimId, message.slice(0, ERROR_MESSAGE_MAX)],
  );
}

/** Previews left `processing` by a worker killed on its last attempt: failed, as `failAbandonedJobs`. */
export async function failAbandonedPreviews(db: Queryable, abandonedAfterSeconds: number, message: string): Promise<number> {
  const result = await db.result(
    `UPDATE preview_jobs SET status = ${S.failed}, error_code = '${GENERATION_FAILED_CODE}', error_message = $3
      WHERE status = ${S.processing} AND attempts >= $1 AND started_at < now() - make_interval(secs => $2)`,
    [1 + WORKER_RETRY_LIMIT, abandonedAfterSeconds, message],
  );
  return result.rowCount;
}

/** Removes preview records past `PREVIEW_RECORD_DAYS` (their clips went at 24 hours). */
export async function prunePreviewRecords(db: Queryable): Promise<number> {
  const result = await db.result(`DELETE FROM preview_jobs WHERE created_at < now() - make_interval(days => $1)`, [PREVIEW_RECORD_DAYS]);
  return result.rowCount;
}
