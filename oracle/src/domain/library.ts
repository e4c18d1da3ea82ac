/**
 * A library its owner manages (docs/api.md "Manage your library"): rename an unminted song, move
 * a song to the trash and restore it. Each is one conditional UPDATE of the owner's row; when it
 * changes nothing, a second read says why, in this order:
 *
 * - NOT_FOUND (404): no job with this id is the caller's;
 * - LIBRARY_001 (409): the song is minted: its name is its metadata's and it stays in the library
 *   for good (the chain holds it);
 * - LIBRARY_002 (409): the song is in the trash: restore it first (also the refusal of a
 *   download, a mint signature or an edit of a trashed song);
 * - LIBRARY_003 (410): retention deleted the trashed song's audio: it can no longer be restored;
 * - LIBRARY_004 (409): the song is still being made: cancel it first, then delete it.
 *
 * Trashing an already trashed song and restoring one in the library answer as if they had acted
 * (idempotent). What the trash means elsewhere: a trashed song leaves every view but the trash;
 * its files stay until retention deletes them, `TRASH_RETENTION_DAYS` after it was trashed (or
 * 90 days after it was made, whichever comes first; core/src/jobs/job-state.ts); it cannot be
 * signed, downloaded or edited; a mint signature issued before it was trashed still mints, and
 * the chain watcher then takes the song out of the trash.
 */
import type { Queryable } from '../../../core/src/db/database.ts';
import { JOB_STATUS, sqlStatus } from '../../../core/src/jobs/job-state.ts';
import { TRASH_RETENTION_DAYS } from '../../../core/src/jobs/job-state.ts';
import { appError, fail, ok } from './errors.ts';
import type { AppError, Result } from './errors.ts';
import { jobSummary } from './job-list.ts';
import type { JobSummary } from './job-list.ts';
import { parsePublicJobId } from './jobs.ts';

interface SongState {
  id: string;
  status: string;
  minted: boolean;
  deleted: boolean;
  purged: boolean;
}

/** 404 for an id that is not the caller's (the status route's words). */
export function songNotFound(publicId: string): AppError {
  return appError('NOT_FOUND', 'Job not found', { details: 'no job with this id belongs to you', jobId: publicId.slice(0, 64) });
}

export function mintedRefusal(jobId: string, what: string): AppError {
  return appError('LIBRARY_001', `A minted song cannot be ${what}`, {
    details: 'its name and audio are on chain and on IPFS for good: it stays in your library',
    jobId,
  });
}

export function trashedRefusal(jobId: string): AppError {
  return appError('LIBRARY_002', 'The song is in the trash', {
    details: `restore it first (POST /api/generate/${jobId}/restore)`,
    jobId,
  });
}

function purgedRefusal(jobId: string): AppError {
  return appError('LIBRARY_003', 'The song can no longer be restored', {
    details: `retention deleted its audio (${TRASH_RETENTION_DAYS} days after it was trashed, or 90 days after it was made)`,
    jobId,
  });
}

function runningRefusal(jobId: string, status: string): AppError {
  return appError('LIBRARY_004', `The song is ${status}`, { details: 'cancel it first, then delete it', jobId });
}

async function stateOf(db: Queryable, userId: string, id: string): Promise<SongState | null> {
  return db.oneOrNone<SongState>(
    `SELECT id, status, nft_token_id IS NOT NULL AS minted, deleted_at IS NOT NULL AS deleted, purged_at IS NOT NULL AS purged
       FROM generation_jobs WHERE id = $1 AND user_id = $2`,
    [id, userId],
  );
}

/** The song after a change, as the list shows it. */
async function answer(db: Queryable, userId: string, id: string, publicId: string): Promise<Result<JobSummary>> {
  const summary = await jobSummary(db, userId, id);
  return summary === null ? fail(songNotFound(publicId)) : ok(summary);
}

/** Renames an unminted song of the caller's that is not in the trash. */
export async function renameSong(db: Queryable, userId: string, publicId: string, title: string): Promise<Result<JobSummary>> {
  const id = parsePublicJobId(publicId);
  if (id === null) return fail(songNotFound(publicId));
  const renamed = await db.result(
    'UPDATE generation_jobs SET title = $3 WHERE id = $1 AND user_id = $2 AND nft_token_id IS NULL AND deleted_at IS NULL',
    [id, userId, title],
  );
  if (renamed.rowCount === 1) return answer(db, userId, id, publicId);
  const state = await stateOf(db, userId, id);
  if (state === null) return fail(songNotFound(publicId));
  return fail(state.minted ? mintedRefusal(publicId, 'renamed') : trashedRefusal(publicId));
}

/** Moves a finished, unminted song of the caller's to the trash (again: the same answer). */
export async function trashSong(db: Queryable, userId: string, publicId: string): Promise<Result<JobSummary>> {
  const id = parsePublicJobId(publicId);
  if (id === null) return fail(songNotFound(publicId));
  await db.none(
    `UPDATE generation_jobs SET deleted_at = now()
      WHERE id = $1 AND user_id = $2 AND deleted_at IS NULL AND nft_token_id IS NULL
        AND status NOT IN (${sqlStatus(JOB_STATUS.queued)}, ${sqlStatus(JOB_STATUS.processing)})`,
    [id, userId],
  );
  const state = await stateOf(db, userId, id);
  if (state === null) return fail(songNotFound(publicId));
  if (state.deleted) return answer(db, userId, id, publicId);
  if (state.minted) return fail(mintedRefusal(publicId, 'deleted'));
  return fail(runningRefusal(publicId, state.status));
}

/** Takes a song of the caller's out of the trash while retention has not deleted its audio (in the library: the same answer). */
export async function restoreSong(db: Queryable, userId: string, publicId: string): Promise<Result<JobSummary>> {
  const id = parsePublicJobId(publicId);
  if (id === null) return fail(songNotFound(publicId));
  await db.none(
    'UPDATE generation_jobs SET deleted_at = NULL WHERE id = $1 AND user_id = $2 AND deleted_at IS NOT NULL AND purged_at IS NULL',
    [id, userId],
  );
  const state = await stateOf(db, userId, id);
  if (state === null) return fail(songNotFound(publicId));
  if (state.deleted) return fail(purgedRefusal(publicId));
  return answer(db, userId, id, publicId);
}
