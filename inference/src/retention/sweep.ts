/**
 * The retention sweep (one sweeper at a time across the fleet, by advisory lock):
 * - unminted published audio older than 90 days: object deleted, row marked `purged_at` (the
 *   row keeps audio_url and audio_hash as the record of what was published);
 * - previews older than 24 hours: object and row deleted;
 * - jobs left `processing` by a worker killed on its last attempt (pg-boss gives up on them
 *   silently): failed with GEN_005 once their attempt is long past the job time limit.
 */
import type { Database } from '../../../core/src/db/database.ts';
import { WORKER_RETRY_LIMIT } from '../../../core/src/generation-queue.ts';
import type { ObjectStore } from '../../../core/src/object-store.ts';
import { REFUND_DAILY_GENERATION_CTE } from '../worker/job-store.ts';
import { PREVIEW_RETENTION_HOURS } from './previews.ts';

export const AUDIO_RETENTION_DAYS = 90;
/** Second key "SMR" + 1 of the sweeper's advisory lock. */
export const RETENTION_LOCK_KEY = 0x534d5201;
const BATCH = 500;

export interface SweepOptions {
  /** Seconds after which a processing attempt is abandoned (twice the job time limit). */
  abandonedAfterSeconds: number;
}

export interface SweepReport {
  ran: boolean;
  audioPurged: number;
  previewsDeleted: number;
  abandonedFailed: number;
  errors: string[];
}

export async function sweepRetention(db: Database, store: ObjectStore, options: SweepOptions): Promise<SweepReport> {
  return db.task(async (t) => {
    const lock = await t.one<{ ok: boolean }>('SELECT pg_try_advisory_lock($1) AS ok', [RETENTION_LOCK_KEY]);
    if (!lock.ok) return { ran: false, audioPurged: 0, previewsDeleted: 0, abandonedFailed: 0, errors: [] };
    const report: SweepReport = { ran: true, audioPurged: 0, previewsDeleted: 0, abandonedFailed: 0, errors: [] };
    try {
      const audio = await t.any<{ id: string; audio_key: string }>(
        `SELECT id, audio_key FROM generation_jobs
          WHERE status = 'completed' AND nft_token_id IS NULL AND purged_at IS NULL AND audio_key IS NOT NULL
            AND completed_at < now() - make_interval(days => $1)
          ORDER BY completed_at LIMIT $2`,
        [AUDIO_RETENTION_DAYS, BATCH],
      );
      for (const row of audio) {
        // Mark first (unless minted meanwhile), then delete; undo the mark if the delete fails.
        const marked = await t.result(`UPDATE generation_jobs SET purged_at = now() WHERE id = $1 AND nft_token_id IS NULL AND purged_at IS NULL`, [row.id]);
        if (marked.rowCount !== 1) continue;
        const deleted = await store.delete(row.audio_key);
        if (deleted.ok) report.audioPurged += 1;
        else {
          await t.none('UPDATE generation_jobs SET purged_at = NULL WHERE id = $1', [row.id]);
          report.errors.push(`${row.audio_key}: ${deleted.error.message}`);
        }
      }
      const previews = await t.any<{ session_id: string; object_key: string }>(
        `SELECT session_id, object_key FROM audio_previews WHERE created_at < now() - make_interval(hours => $1) ORDER BY created_at LIMIT $2`,
        [PREVIEW_RETENTION_HOURS, BATCH],
      );
      for (const row of previews) {
        const deleted = await store.delete(row.object_key);
        if (!deleted.ok) {
          report.errors.push(`${row.object_key}: ${deleted.error.message}`);
          continue;
        }
        await t.none('DELETE FROM audio_previews WHERE session_id = $1', [row.session_id]);
        report.previewsDeleted += 1;
      }
      const abandoned = await t.one<{ failed: number }>(
        `WITH failed AS (
           UPDATE generation_jobs
              SET status = 'failed', error_code = 'GEN_005',
                  error_message = 'generation failed: the worker running the last attempt stopped responding'
            WHERE status = 'processing' AND attempts >= $1 AND started_at < now() - make_interval(secs => $2)
           RETURNING user_id, created_at
         ), ${REFUND_DAILY_GENERATION_CTE}
         SELECT count(*)::int AS failed FROM failed`,
        [1 + WORKER_RETRY_LIMIT, options.abandonedAfterSeconds],
      );
      report.abandonedFailed = abandoned.failed;
    } finally {
      await t.one('SELECT pg_advisory_unlock($1)', [RETENTION_LOCK_KEY]);
    }
    return report;
  });
}
