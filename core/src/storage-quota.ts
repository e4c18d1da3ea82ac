/**
 * Storage quotas (issue 49 item 4, docs/api.md "Storage quota"): the bytes the object store holds
 * for an account (its uploads, and what its songs keep: the MP3, the kept latents, the WAV and
 * FLAC masters, the covers of its metadata), by tier. Each object is one `stored_objects` row with
 * its exact size (a file's metadata chunks included: a WAV with a 99 MiB LIST chunk costs
 * 99 MiB); `users.stored_bytes` is their sum, moved in the statement that adds or removes the row,
 * so the counter is exact across replicas and an object is released once, whoever deletes it.
 *
 * What a request adds is refused before it is stored: an upload or a cover by `claimStorage`
 * (one conditional statement), a song at admission by `songStorageRefusal` (its files are made
 * later by a worker, so what the queued and running songs of the account will store is counted
 * as an estimate until each stores its files, which `recordJobStorage` counts exactly).
 */
import type { Queryable } from './db/database.ts';
import { JOB_STATUS, sqlStatus } from './jobs/job-state.ts';
import { LOSSLESS_MASTERS_DEADLINE_SECONDS } from './generation-queue.ts';
import type { Tier } from './generation-queue.ts';

const GIB = 1024 ** 3;

/**
 * Bytes an account may store, by tier. Free 2 GiB: about 30 uploads at the largest WAV a free song
 * can be (30 s of 8-channel 192 kHz 24-bit is 138 MB; a stereo 48 kHz WAV of 30 s is 8.6 MB), or
 * some 3,000 free songs of 30 s with their masters (about 19 MB each at the estimate below), more
 * than the 300 a month the daily limit allows. Pro 50 GiB: about 400 pro songs of 120 s with their
 * masters a month kept for the 90 days of retention (3 months x 100 a day would be far more: pro
 * accounts delete or mint). Enterprise 1 TiB: a label's catalogue of thousands of 240 s songs.
 */
export const STORAGE_QUOTA_BYTES: Readonly<Record<Tier, number>> = {
  free: 2 * GIB,
  pro: 50 * GIB,
  enterprise: 1024 * GIB,
};

/** The quota of the row's `tier` column, in SQL. */
export const QUOTA_SQL = `CASE tier WHEN 'enterprise' THEN ${STORAGE_QUOTA_BYTES.enterprise} WHEN 'pro' THEN ${STORAGE_QUOTA_BYTES.pro} ELSE ${STORAGE_QUOTA_BYTES.free} END`;

/**
 * What one second of a song stores at most: the MP3 at 320 kbps (40,000 B), the WAV and FLAC
 * masters at 24 bits, 2 channels and up to 48 kHz (288,000 B each; the FLAC is at most the WAV),
 * and the kept latents (ACE-Step: 25 frames of 64 floats, 6,400 B; 16,000 B allowed). Per song
 * also the tags, C2PA manifests and container headers: 1 MiB allowed.
 */
export const SONG_BYTES_PER_SECOND = 40_000 + 2 * 288_000 + 16_000;
export const SONG_BYTES_FIXED = 1024 * 1024;

/** The masters' share (WAV and FLAC), still held for a completed song while its masters are being made. */
export const MASTERS_BYTES_PER_SECOND = 2 * 288_000;

/** The most a song of `seconds` stores (the admission's estimate until its files are stored). */
export function songBytesEstimate(seconds: number): number {
  return Math.ceil(seconds * SONG_BYTES_PER_SECOND) + SONG_BYTES_FIXED;
}

/**
 * SQL of what the songs of the user `$userParam` will still store (their estimates): queued and
 * processing songs all of it, completed songs whose masters are being made (within the masters'
 * deadline) their WAV and FLAC. Counted against the quota beside what is stored, so concurrent
 * songs cannot overshoot it together.
 */
export function pendingSongBytesSql(userParam: string): string {
  return `(SELECT coalesce(sum(CASE WHEN status = ${sqlStatus(JOB_STATUS.completed)} THEN ceil(duration * ${MASTERS_BYTES_PER_SECOND})
                                    ELSE ceil(duration * ${SONG_BYTES_PER_SECOND}) + ${SONG_BYTES_FIXED} END), 0)::bigint
             FROM generation_jobs
            WHERE user_id = ${userParam}
              AND (status IN (${sqlStatus(JOB_STATUS.queued)}, ${sqlStatus(JOB_STATUS.processing)})
                   OR (status = ${sqlStatus(JOB_STATUS.completed)} AND purged_at IS NULL AND lossless->>'pending' IS NOT NULL
                       AND completed_at > now() - make_interval(secs => ${LOSSLESS_MASTERS_DEADLINE_SECONDS}))))`;
}

export interface StorageUsage {
  /** Bytes stored now. */
  used: number;
  /** The tier's quota. */
  quota: number;
  /** What queued and running songs will store (estimated). */
  pending: number;
}

export async function storageUsage(db: Queryable, userId: string): Promise<StorageUsage | null> {
  const row = await db.oneOrNone<{ used: string; quota: string; pending: string }>(
    `SELECT stored_bytes AS used, ${QUOTA_SQL} AS quota, ${pendingSongBytesSql('$1')} AS pending FROM users WHERE id = $1`,
    [userId],
  );
  return row === null ? null : { used: Number(row.used), quota: Number(row.quota), pending: Number(row.pending) };
}

export type ClaimResult = { ok: true } | { ok: false; usage: StorageUsage };

/**
 * Counts `bytes` at `key` for `userId` when they fit the quota beside what is stored and what
 * the account's songs in the queue will store; else nothing is counted and the usage is returned.
 * One statement: the user row's lock orders concurrent claims, each re-checked on the row it
 * locked, so two claims cannot both take the last bytes. The caller stores the object after a
 * claim and calls `releaseStorage` when storing it fails.
 */
export async function claimStorage(db: Queryable, userId: string, key: string, bytes: number): Promise<ClaimResult> {
  const row = await db.one<{ claimed: boolean; used: string; quota: string; pending: string }>(
    `WITH charged AS (
       UPDATE users SET stored_bytes = stored_bytes + $3
        WHERE id = $1 AND stored_bytes + $3 + ${pendingSongBytesSql('$1')} <= ${QUOTA_SQL}
       RETURNING id
     ), recorded AS (
       INSERT INTO stored_objects (object_key, user_id, bytes) SELECT $2, id, $3 FROM charged RETURNING 1
     )
     SELECT EXISTS (SELECT 1 FROM recorded) AS claimed, stored_bytes AS used, ${QUOTA_SQL} AS quota, ${pendingSongBytesSql('$1')} AS pending
       FROM users WHERE id = $1`,
    [userId, key, bytes],
  );
  return row.claimed
    ? { ok: true }
    : { ok: false, usage: { used: Number(row.used), quota: Number(row.quota), pending: Number(row.pending) } };
}

/**
 * Counts the objects a worker stored for the job `jobId` (its MP3, kept latents, masters) for the
 * job's owner, each once (a retried publish counts nothing twice). Never refused: the song was
 * admitted with its estimate counted (`songStorageRefusal`).
 */
export async function recordJobStorage(
  db: Queryable,
  jobId: string,
  objects: ReadonlyArray<{ key: string; bytes: number }>,
): Promise<void> {
  if (objects.length === 0) return;
  await db.none(
    `WITH recorded AS (
       INSERT INTO stored_objects (object_key, user_id, bytes)
       SELECT o.key, j.user_id, o.bytes FROM generation_jobs j, unnest($2::text[], $3::bigint[]) AS o(key, bytes) WHERE j.id = $1
       ON CONFLICT (object_key) DO NOTHING
       RETURNING user_id, bytes
     )
     UPDATE users SET stored_bytes = stored_bytes + r.total
       FROM (SELECT user_id, sum(bytes) AS total FROM recorded GROUP BY user_id) r
      WHERE users.id = r.user_id`,
    [jobId, objects.map((object) => object.key), objects.map((object) => object.bytes)],
  );
}

/** The objects at `keys` are gone (retention, trash purge, a delete, a failed store): their bytes are released, each once. */
export async function releaseStorage(db: Queryable, keys: readonly string[]): Promise<void> {
  if (keys.length === 0) return;
  await db.none(
    `WITH released AS (DELETE FROM stored_objects WHERE object_key = ANY($1::text[]) RETURNING user_id, bytes)
     UPDATE users SET stored_bytes = stored_bytes - r.total
       FROM (SELECT user_id, sum(bytes) AS total FROM released GROUP BY user_id) r
      WHERE users.id = r.user_id`,
    [keys],
  );
}

/**
 * At a song's admission (inside its transaction, the user row locked by the charge's statement
 * or here): null when what is stored, what the account's queued songs will store and this song's
 * estimate fit the quota; else the usage and what this song needs.
 */
export async function songStorageRefusal(
  db: Queryable,
  userId: string,
  seconds: number,
): Promise<{ usage: StorageUsage; needed: number } | null> {
  const needed = songBytesEstimate(seconds);
  const row = await db.one<{ used: string; quota: string; pending: string }>(
    `SELECT stored_bytes AS used, ${QUOTA_SQL} AS quota, ${pendingSongBytesSql('$1')} AS pending FROM users WHERE id = $1 FOR UPDATE`,
    [userId],
  );
  const usage = { used: Number(row.used), quota: Number(row.quota), pending: Number(row.pending) };
  return usage.used + usage.pending + needed <= usage.quota ? null : { usage, needed };
}
