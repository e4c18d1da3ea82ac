/**
 * A user's uploads (docs/api.md "Upload audio": list and delete): the live ones, newest first, a
 * page at a time (GET /api/uploads), and deleting one (DELETE /api/uploads/{upload_id}).
 *
 * Pages are cut by keyset on (created_at, id), as the job list's: an upload made while a client
 * pages never shifts or repeats an item. The cursor is opaque: base64url of `uploads:` and the
 * last item's exact creation time and id, so a job list's cursor is refused here and vice versa.
 *
 * Deleting: the owner's live upload only (anyone else's, an unknown, a deleted or an expired one
 * is NOT_FOUND, as for jobs). While an edit of it is queued or processing the delete is refused
 * (409 CONFLICT, naming the job): the edit would lose its source half-way. Otherwise the row is
 * marked deleted (`deleted_at`, as retention marks it) and the stored file deleted, in one
 * transaction: a store that fails rolls the mark back (503), so the row never says deleted while
 * its file is kept. The row stays as the record the edits already made from it name in their
 * provenance (its SHA-256 and format); those edits are songs of their own and are untouched.
 */
import type { Database, Queryable } from '../../../core/src/db/database.ts';
import type { UploadFormat } from '../../../core/src/audio/uploaded-audio.ts';
import { toPublicJobId } from '../../../core/src/generation-queue.ts';
import { JOB_STATUS } from '../../../core/src/jobs/job-state.ts';
import type { ObjectStore } from '../../../core/src/object-store.ts';
import { releaseStorage } from '../../../core/src/storage-quota.ts';
import { parsePublicUploadId, toPublicUploadId } from '../../../core/src/uploads.ts';
import { keysetCursorCodec } from './keyset-cursor.ts';
import type { KeysetPosition } from './keyset-cursor.ts';
import { appError, fail, ok } from './errors.ts';
import type { AppError, Result } from './errors.ts';
import type { UploadView } from './uploads.ts';

export const UPLOAD_LIST_DEFAULT_LIMIT = 20;
export const UPLOAD_LIST_MAX_LIMIT = 100;

export interface UploadPage {
  uploads: UploadView[];
  /** Pass back as `cursor` for the next page; null on the last page. */
  next_cursor: string | null;
}

/** The upload list's cursors: a job list's cursor is refused here and vice versa. */
export const uploadCursor = keysetCursorCodec('uploads:');

interface UploadRow {
  id: string;
  name: string | null;
  format: UploadFormat;
  duration: number;
  sample_rate: number;
  channels: number;
  bytes: number;
  sha256: string;
  rights_confirmed_at: Date;
  created_at: Date;
  created_at_exact: string;
  expires_at: Date;
}

/** Rounds seconds to the millisecond, as the API answers them. */
const millis = (seconds: number): number => Math.round(seconds * 1000) / 1000;

/** One page of `userId`'s live uploads (not deleted, not expired) after `after` (from the newest when absent). */
export async function listUploads(
  db: Queryable,
  userId: string,
  page: { after: KeysetPosition | null; limit: number },
): Promise<UploadPage> {
  const rows = await db.manyOrNone<UploadRow>(
    `SELECT id, name, format, duration, sample_rate, channels, bytes, sha256, rights_confirmed_at, created_at, expires_at,
            to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS created_at_exact
       FROM uploads
      WHERE user_id = $1 AND deleted_at IS NULL AND expires_at > now()
        AND ($2::timestamptz IS NULL OR (created_at, id) < ($2::timestamptz, $3::uuid))
      ORDER BY created_at DESC, id DESC
      LIMIT $4`,
    [userId, page.after?.createdAt ?? null, page.after?.id ?? null, page.limit + 1],
  );
  const shown = rows.slice(0, page.limit);
  const last = shown.at(-1);
  return {
    uploads: shown.map((row) => ({
      upload_id: toPublicUploadId(row.id),
      name: row.name,
      format: row.format,
      duration: millis(row.duration),
      sample_rate: row.sample_rate,
      channels: row.channels,
      bytes: row.bytes,
      sha256: row.sha256,
      rights_confirmed_at: row.rights_confirmed_at.toISOString(),
      created_at: row.created_at.toISOString(),
      expires_at: row.expires_at.toISOString(),
    })),
    next_cursor:
      rows.length > page.limit && last !== undefined ? uploadCursor.encode({ createdAt: last.created_at_exact, id: last.id }) : null,
  };
}

export interface DeletedUpload {
  upload_id: string;
  status: 'deleted';
}

/** The answer for an upload id that names none of the caller's live uploads (malformed ones too). */
export function uploadNotFound(publicId: string): AppError {
  return appError('NOT_FOUND', 'Upload not found', {
    details: `${publicId.slice(0, 80)} is not an upload of yours (or it was deleted, or it expired)`,
  });
}

/** Deletes `userId`'s upload `publicId`: its file and, as a mark, its row (see the header). */
export async function deleteUpload(
  deps: { db: Database; objectStore: Pick<ObjectStore, 'delete'> },
  userId: string,
  publicId: string,
): Promise<Result<DeletedUpload>> {
  const id = parsePublicUploadId(publicId);
  if (id === null) return fail(uploadNotFound(publicId));
  try {
    return await deps.db.tx((tx) => deleteInTransaction(tx, deps.objectStore, id, userId, publicId));
  } catch (error) {
    if (!(error instanceof StoreDeleteFailed)) throw error;
    return fail(appError('SERVICE_UNAVAILABLE', 'Object storage unavailable', { details: error.message, retryAfter: 5 }));
  }
}

/** The store refused to delete the file: thrown inside the transaction so that the mark rolls back. */
class StoreDeleteFailed extends Error {}

async function deleteInTransaction(
  tx: Queryable,
  objectStore: Pick<ObjectStore, 'delete'>,
  id: string,
  userId: string,
  publicId: string,
): Promise<Result<DeletedUpload>> {
  // The row lock holds a concurrent delete (and the retention sweep's mark) back until this settles.
  const upload = await tx.oneOrNone<{ object_key: string }>(
    `SELECT object_key FROM uploads WHERE id = $1 AND user_id = $2 AND deleted_at IS NULL AND expires_at > now() FOR UPDATE`,
    [id, userId],
  );
  if (upload === null) return fail(uploadNotFound(publicId));
  const editing = await tx.oneOrNone<{ id: string }>(
    `SELECT id FROM generation_jobs WHERE edit_upload_id = $1 AND status IN ('${JOB_STATUS.queued}', '${JOB_STATUS.processing}')
      ORDER BY created_at LIMIT 1`,
    [id],
  );
  if (editing !== null) {
    const jobId = toPublicJobId(editing.id);
    return fail(
      appError('CONFLICT', 'An edit of this upload is queued or running', {
        details: `${jobId} edits this upload: delete it once that edit finished (or cancel the edit first)`,
        jobId,
      }),
    );
  }
  await tx.none('UPDATE uploads SET deleted_at = now() WHERE id = $1', [id]);
  await releaseStorage(tx, [upload.object_key]);
  const removed = await objectStore.delete(upload.object_key);
  if (!removed.ok && removed.error.code !== 'not_found') {
    // Thrown, so the mark rolls back: the route answers 503 and the delete can be asked again.
    throw new StoreDeleteFailed(`deleting ${upload.object_key} failed: ${removed.error.code} ${removed.error.message}`);
  }
  return ok({ upload_id: toPublicUploadId(id), status: 'deleted' });
}
