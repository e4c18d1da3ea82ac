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
import { fingerprintToBytes } from '../fingerprint/encoding.ts';
import type { PgBoss } from 'pg-boss';
import type { DatabaseTask, Queryable } from '../db/database.ts';
import { GENERATION_QUEUE, TIER_PRIORITY, WORKER_RETRY_LIMIT } from '../generation-queue.ts';
import type { PreviewMessage, Tier } from '../generation-queue.ts';
import { bossDbFromTask } from '../queue.ts';
import {
  ERROR_MESSAGE_MAX,
  GENERATION_FAILED_CODE,
  JOB_STATUS,
  claimAttempt,
  lockAttempt,
  raiseAttemptProgress,
  retryAttempt,
  sqlStatus,
} from './job-state.ts';
import type { ClaimedJob } from './job-state.ts';

export type PreviewStatus =
  typeof JOB_STATUS.queued | typeof JOB_STATUS.processing | typeof JOB_STATUS.completed | typeof JOB_STATUS.failed;

/** A preview record (its status, without the clip) is kept this long for a 410 answer, then removed. */
export const PREVIEW_RECORD_DAYS = 7;

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

/** A preview's attempt: a song's attempt fields and the session its clip is stored under. */
export type ClaimedPreview = ClaimedJob & { sessionId: string };

/** Starts an attempt (`claimAttempt`, as for songs); undefined when the preview is finished or unknown. */
export async function claimPreview(db: Queryable, previewId: string, derivedSeed: bigint): Promise<ClaimedPreview | undefined> {
  const claimed = await claimAttempt<{ session_id: string }>(db, 'preview_jobs', previewId, derivedSeed, ['session_id']);
  return claimed === undefined ? undefined : { ...claimed.attempt, sessionId: claimed.extra.session_id };
}

export async function reportPreviewProgress(db: Queryable, preview: ClaimedPreview, progress: number): Promise<void> {
  await raiseAttemptProgress(db, 'preview_jobs', preview, progress);
}

/** Locks the preview row for the storing transaction; false when this attempt no longer owns it. */
export async function lockPreviewForPublish(tx: DatabaseTask, preview: ClaimedPreview): Promise<boolean> {
  return lockAttempt(tx, 'preview_jobs', preview);
}

/** `completed` with the stored clip's hash and length; false when this attempt no longer owns it. */
export async function completePreview(
  tx: DatabaseTask,
  preview: ClaimedPreview,
  clip: { audioHash: string; actualDuration: number; fingerprint?: Uint32Array },
): Promise<boolean> {
  const result = await tx.result(
    `UPDATE preview_jobs
        SET status = ${S.completed}, progress = 100, completed_at = now(), audio_hash = $3, actual_duration = $4,
            fingerprint = $5, error_code = NULL, error_message = NULL
      WHERE id = $1 AND claim_id = $2 AND status = ${S.processing}`,
    [
      preview.id,
      preview.claimId,
      clip.audioHash,
      clip.actualDuration,
      clip.fingerprint === undefined ? null : Buffer.from(fingerprintToBytes(clip.fingerprint)),
    ],
  );
  return result.rowCount === 1;
}

export async function retryPreview(db: Queryable, preview: ClaimedPreview, message: string): Promise<void> {
  await retryAttempt(db, 'preview_jobs', preview, message);
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
