/**
 * The retention sweep (one sweeper at a time across the fleet, by advisory lock), over the job
 * transitions of core/src/jobs/job-state.ts:
 * - unminted published audio older than 90 days (`AUDIO_RETENTION_DAYS`), or trashed by its owner
 *   30 days ago (`TRASH_RETENTION_DAYS`, oracle/src/domain/library.ts): the MP3, the song's
 *   lossless WAV and FLAC and its kept latents (core/src/song-edits.ts) deleted, row marked
 *   `purged_at` (the row keeps audio_url and audio_hash as the record of what was published);
 * - previews past their expiry (core/src/previews.ts, 24 hours after the request): object and
 *   clip row deleted (the preview job's record stays, so its status route answers 410, until
 *   `PREVIEW_RECORD_DAYS`);
 * - uploaded source audio past its expiry (core/src/uploads.ts, `UPLOAD_RETENTION_DAYS` after the
 *   upload): object deleted, row marked `deleted_at` (it stays as the record edits name);
 * - jobs left `processing` by a worker killed on its last attempt (pg-boss gives up on them
 *   silently): failed with GEN_005 once their attempt is long past the job time limit; previews alike.
 */
import type { Database } from '../../../core/src/db/database.ts';
import { ABANDONED_JOB_MESSAGE, failAbandonedJobs, findExpiredAudio, markPurged, unmarkPurged } from '../../../core/src/jobs/job-state.ts';
import { failAbandonedPreviews, prunePreviewRecords } from '../../../core/src/jobs/preview-state.ts';
import { releaseStorage } from '../../../core/src/storage-quota.ts';
import { LOSSLESS_FORMATS, losslessObjectKey } from '../../../core/src/generation-queue.ts';
import type { ObjectStore } from '../../../core/src/object-store.ts';
import { findExpiredClips, forgetClip } from '../../../core/src/previews.ts';
import { findExpiredUploads, markUploadDeleted } from '../../../core/src/uploads.ts';

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
  uploadsDeleted: number;
  abandonedFailed: number;
  errors: string[];
}

export async function sweepRetention(db: Database, store: ObjectStore, options: SweepOptions): Promise<SweepReport> {
  return db.task(async (t) => {
    const lock = await t.one<{ ok: boolean }>('SELECT pg_try_advisory_lock($1) AS ok', [RETENTION_LOCK_KEY]);
    if (!lock.ok) return { ran: false, audioPurged: 0, previewsDeleted: 0, uploadsDeleted: 0, abandonedFailed: 0, errors: [] };
    const report: SweepReport = { ran: true, audioPurged: 0, previewsDeleted: 0, uploadsDeleted: 0, abandonedFailed: 0, errors: [] };
    try {
      for (const row of await findExpiredAudio(t, BATCH)) {
        // Mark first (unless minted meanwhile), then delete; undo the mark if the delete fails.
        if (!(await markPurged(t, row.id))) continue;
        // The kept latents (song edits) and the lossless masters go with the audio: an expired song
        // can no longer be edited or downloaded.
        const keys = [
          ...(row.lossless ? LOSSLESS_FORMATS.map((format) => losslessObjectKey(row.id, format)) : []),
          ...(row.latentsKey === null ? [] : [row.latentsKey]),
          row.audioKey,
        ];
        const failed: string[] = [];
        for (const key of keys) {
          const deleted = await store.delete(key);
          if (!deleted.ok) failed.push(`${key}: ${deleted.error.message}`);
        }
        if (failed.length === 0) {
          await releaseStorage(t, keys);
          report.audioPurged += 1;
        } else {
          await unmarkPurged(t, row.id);
          report.errors.push(...failed);
        }
      }
      for (const clip of await findExpiredClips(t, BATCH)) {
        const deleted = await store.delete(clip.key);
        if (!deleted.ok) {
          report.errors.push(`${clip.key}: ${deleted.error.message}`);
          continue;
        }
        await forgetClip(t, clip.sessionId);
        report.previewsDeleted += 1;
      }
      for (const upload of await findExpiredUploads(t, BATCH)) {
        const deleted = await store.delete(upload.objectKey);
        if (!deleted.ok) {
          report.errors.push(`${upload.objectKey}: ${deleted.error.message}`);
          continue;
        }
        await markUploadDeleted(t, upload.id);
        await releaseStorage(t, [upload.objectKey]);
        report.uploadsDeleted += 1;
      }
      report.abandonedFailed = await failAbandonedJobs(t, options.abandonedAfterSeconds);
      report.abandonedFailed += await failAbandonedPreviews(t, options.abandonedAfterSeconds, ABANDONED_JOB_MESSAGE);
      await prunePreviewRecords(t);
    } finally {
      await t.one('SELECT pg_advisory_unlock($1)', [RETENTION_LOCK_KEY]);
    }
    return report;
  });
}
