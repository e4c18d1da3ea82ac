/**
 * Uploaded source audio (issue 35, docs/api.md "Upload audio"): what the oracle writes when it
 * takes an upload and the workers read when an edit starts from one. The file is kept as
 * uploaded, privately, at `uploads/<upload_id>.<ext>`; retention deletes it `UPLOAD_RETENTION_DAYS`
 * after the upload (inference/src/retention/sweep.ts), and the row stays as the record an edit's
 * provenance names (its SHA-256 and format).
 */
import type { Queryable } from './db/database.ts';
import type { UploadFormat } from './audio/uploaded-audio.ts';

export const PUBLIC_UPLOAD_ID_PREFIX = 'upl_';

/** Uploads are deleted this many days after they were made. */
export const UPLOAD_RETENTION_DAYS = 30;

/** The largest file taken (bytes): about 6 minutes of 48 kHz stereo 24-bit WAV. */
export const MAX_UPLOAD_BYTES = 100 * 1024 * 1024;

/** The shortest upload taken (seconds): an edit works on whole seconds. */
export const MIN_UPLOAD_SECONDS = 1;

export function toPublicUploadId(id: string): string {
  return `${PUBLIC_UPLOAD_ID_PREFIX}${id}`;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The row id of a public upload id (`upl_<uuid>`), or null for anything else. */
export function parsePublicUploadId(publicId: string): string | null {
  if (!publicId.startsWith(PUBLIC_UPLOAD_ID_PREFIX)) return null;
  const id = publicId.slice(PUBLIC_UPLOAD_ID_PREFIX.length).toLowerCase();
  return UUID.test(id) ? id : null;
}

/** Object key of an upload: private, under `uploads/`, with the public id and the format's extension. */
export function uploadObjectKey(id: string, format: UploadFormat): string {
  return `uploads/${toPublicUploadId(id)}.${format}`;
}

/**
 * The seconds of an upload an edit works on: its whole seconds (a song's length is whole
 * seconds); the fraction after them is left out.
 */
export function editableSeconds(duration: number): number {
  return Math.floor(duration + 1e-9);
}

export interface ExpiredUpload {
  id: string;
  objectKey: string;
}

/** Uploads past their expiry whose object is not deleted yet. */
export async function findExpiredUploads(db: Queryable, limit: number): Promise<ExpiredUpload[]> {
  const rows = await db.any<{ id: string; object_key: string }>(
    `SELECT id, object_key FROM uploads WHERE deleted_at IS NULL AND expires_at <= now() ORDER BY expires_at LIMIT $1`,
    [limit],
  );
  return rows.map((row) => ({ id: row.id, objectKey: row.object_key }));
}

/** Records that retention deleted an upload's object. */
export async function markUploadDeleted(db: Queryable, id: string): Promise<void> {
  await db.none('UPDATE uploads SET deleted_at = now() WHERE id = $1 AND deleted_at IS NULL', [id]);
}
