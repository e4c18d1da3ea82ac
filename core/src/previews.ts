/**
 * Previews (spec, "Files"): private MP3s at `preview/<session_id>.mp3`, never public, reachable
 * only through presigned GET URLs valid one hour, deleted by the retention sweep after 24 hours.
 *
 * The one home of the preview expiry: a preview expires 24 hours after it was requested
 * (`preview_jobs.created_at`). The status route (`previewExpiresAt`, 410 from then on), the
 * signed links (`previewLink`) and the sweep (`findExpiredClips`) all count from that moment.
 *
 * In core because both services need it: workers store previews, the oracle signs fresh links
 * for GET /api/previews/{session_id}, and neither may import the other.
 */
import { contentHash, sha256OfContentHash } from './content-hash.ts';
import type { Queryable } from './db/database.ts';
import type { ObjectStore } from './object-store.ts';
import { publishObject } from './publish-object.ts';
import { fail, ok } from './result.ts';
import type { DomainError, Result } from './result.ts';

/** Spec: "signed preview URL 1 hour". */
export const PREVIEW_URL_SECONDS = 3600;
/** Spec: "preview retention 24 hours", counted from the request. */
export const PREVIEW_RETENTION_HOURS = 24;

/** When a preview requested at `requestedAt` expires: its status is 410 and its clip deleted from then on. */
export function previewExpiresAt(requestedAt: Date): Date {
  return new Date(requestedAt.getTime() + PREVIEW_RETENTION_HOURS * 3_600_000);
}

/**
 * SQL: the clip row `clip` (audio_previews) has expired, as `previewExpiresAt` says, at the
 * database's clock. A clip counts from its preview's request; one stored without a preview job,
 * or whose job record is already pruned, from when it was stored.
 */
const CLIP_EXPIRED = `coalesce((SELECT p.created_at FROM preview_jobs p WHERE p.session_id = clip.session_id), clip.created_at)
      + make_interval(hours => ${PREVIEW_RETENTION_HOURS}) <= now()`;
const SESSION_ID = /^[A-Za-z0-9_-]{8,128}$/;

export function isPreviewSessionId(value: string): boolean {
  return SESSION_ID.test(value);
}

export function previewObjectKey(sessionId: string): string {
  return `preview/${sessionId}.mp3`;
}

/** True for a URL of a preview object (signed or not, any host): what metadata must not point at. */
export function isPreviewObjectUrl(url: string): boolean {
  let path: string;
  try {
    path = decodeURIComponent(new URL(url).pathname);
  } catch {
    return false;
  }
  return /(^|\/)preview\/[A-Za-z0-9_-]{8,128}\.mp3$/.test(path);
}

export interface PreviewLink {
  sessionId: string;
  key: string;
  url: string;
  audioHash: string;
  /** When the signed URL stops working (issue time + 1 hour). */
  expiresAt: Date;
}

export type PreviewResult = Result<PreviewLink, DomainError<'PREVIEW_INVALID_SESSION' | 'PREVIEW_NOT_FOUND' | 'PREVIEW_STORAGE_FAILED'>>;

async function signedLink(store: Pick<ObjectStore, 'presignedGetUrl'>, sessionId: string, audioHash: string): Promise<PreviewResult> {
  const key = previewObjectKey(sessionId);
  // The expiry is taken before signing, so the URL never outlives what the caller is told.
  const expiresAt = new Date(Date.now() + PREVIEW_URL_SECONDS * 1000);
  const url = await store.presignedGetUrl(key, PREVIEW_URL_SECONDS);
  if (!url.ok) return fail({ code: 'PREVIEW_STORAGE_FAILED', message: url.error.message });
  return ok({ sessionId, key, url: url.value, audioHash, expiresAt });
}

/**
 * Stores a preview (private, create-only: `publishObject`) and returns a signed URL for it. An
 * earlier preview of the same session is replaced; a late upload of a dead attempt cannot be.
 */
export async function createPreview(db: Queryable, store: ObjectStore, sessionId: string, mp3: Uint8Array): Promise<PreviewResult> {
  if (!SESSION_ID.test(sessionId)) {
    return fail({ code: 'PREVIEW_INVALID_SESSION', message: 'session id must be 8-128 characters of A-Z a-z 0-9 _ -' });
  }
  const key = previewObjectKey(sessionId);
  const audioHash = contentHash(mp3);
  const put = await publishObject(store, key, mp3, { contentType: 'audio/mpeg', private: true, sha256: sha256OfContentHash(audioHash) });
  if (!put.ok) return fail({ code: 'PREVIEW_STORAGE_FAILED', message: put.error.message });
  await db.none(
    `INSERT INTO audio_previews (session_id, object_key, audio_hash, size_bytes) VALUES ($1, $2, $3, $4)
     ON CONFLICT (session_id) DO UPDATE SET audio_hash = EXCLUDED.audio_hash, size_bytes = EXCLUDED.size_bytes, created_at = now()`,
    [sessionId, key, audioHash, mp3.length],
  );
  return signedLink(store, sessionId, audioHash);
}

/** A fresh one-hour URL for a preview that has not expired. */
export async function previewLink(db: Queryable, store: Pick<ObjectStore, 'presignedGetUrl'>, sessionId: string): Promise<PreviewResult> {
  const row = await db.oneOrNone<{ audio_hash: string }>(
    `SELECT audio_hash FROM audio_previews clip WHERE session_id = $1 AND NOT (${CLIP_EXPIRED})`,
    [sessionId],
  );
  if (row === null) return fail({ code: 'PREVIEW_NOT_FOUND', message: `no live preview for session ${sessionId}` });
  return signedLink(store, sessionId, row.audio_hash);
}

/** Up to `limit` expired clips, oldest first: for the sweep to delete (object first, then `forgetClip`). */
export async function findExpiredClips(db: Queryable, limit: number): Promise<{ sessionId: string; key: string }[]> {
  return db.map(
    `SELECT session_id, object_key FROM audio_previews clip WHERE ${CLIP_EXPIRED} ORDER BY created_at LIMIT $1`,
    [limit],
    (row: { session_id: string; object_key: string }) => ({ sessionId: row.session_id, key: row.object_key }),
  );
}

/** Removes the record of a clip whose object is deleted. */
export async function forgetClip(db: Queryable, sessionId: string): Promise<void> {
  await db.none('DELETE FROM audio_previews WHERE session_id = $1', [sessionId]);
}
