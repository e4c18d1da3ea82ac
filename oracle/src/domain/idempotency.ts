/**
 * Idempotency keys (the `Idempotency-Key` request header, IETF draft
 * httpapi-idempotency-key-header): the first request with a key runs; a repeat with the same key
 * and the same request within 24 hours gets the first answer again, byte for byte, and runs
 * nothing; a repeat with another request is refused. Records live in PostgreSQL
 * (core/src/db/migrations/0008_idempotency_keys.sql), so every oracle replica sees them.
 *
 * A key is `in_flight` while its first request runs: a concurrent duplicate is told so (409,
 * retry shortly) rather than run. Only a successful (2xx) answer is recorded; any other answer
 * releases the key, so a request refused for bad input, a limit or a fault may be sent again
 * with the same key. The in-flight state is a lease: a replica that dies mid-request frees the
 * key when the lease runs out.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { Queryable } from '../../../core/src/db/database.ts';
import { JOB_TIME_LIMIT_SECONDS } from '../../../core/src/generation-queue.ts';
import { canonicalJson } from './metadata.ts';

/** Spec-independent choice, as Stripe's: a key is remembered for 24 hours. */
export const IDEMPOTENCY_KEY_TTL_SECONDS = 24 * 3600;
/**
 * How long the first request holds the key: the longest request is Variant B's `Prefer: wait`
 * generation (up to the job time limit), plus a margin.
 */
export const IDEMPOTENCY_LEASE_SECONDS = JOB_TIME_LIMIT_SECONDS + 60;
/** A concurrent duplicate is told to retry after this many seconds. */
export const IDEMPOTENCY_IN_FLIGHT_RETRY_SECONDS = 1;
export const IDEMPOTENCY_KEY_MAX_CHARS = 255;

/** Printable ASCII without spaces at the ends: UUIDs, ULIDs and the like. */
const KEY_PATTERN = /^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/;

export type KeyCheck = { ok: true; key: string } | { ok: false; reason: string };

export function checkIdempotencyKey(raw: string): KeyCheck {
  if (raw.length === 0 || raw.length > IDEMPOTENCY_KEY_MAX_CHARS) {
    return { ok: false, reason: `Idempotency-Key must be 1 to ${IDEMPOTENCY_KEY_MAX_CHARS} characters` };
  }
  if (!KEY_PATTERN.test(raw)) return { ok: false, reason: 'Idempotency-Key must be printable ASCII (a UUID is a good key)' };
  return { ok: true, key: raw };
}

/** sha256 hex of the request as the key binds it: the body with sorted keys and the varying headers. */
export function requestFingerprint(body: unknown, vary: Readonly<Record<string, string | null>>): string {
  return createHash('sha256')
    .update(canonicalJson({ body: body ?? null, vary }))
    .digest('hex');
}

/** Who sent the key to which route: keys are never shared between users or routes. */
export interface KeyScope {
  userId: string;
  /** Method and route template, e.g. `POST /api/generate`. */
  route: string;
  key: string;
}

export interface StoredResponse {
  status: number;
  headers: Readonly<Record<string, string>>;
  /** The body exactly as sent. */
  body: string;
}

export type KeyClaim =
  /** This request holds the key: run it, then `completeKey` or `releaseKey` with this lease. */
  | { kind: 'acquired'; leaseId: string }
  | { kind: 'replay'; response: StoredResponse }
  /** The key was used with a different request. */
  | { kind: 'mismatch' }
  /** The first request with the key is still running. */
  | { kind: 'in_flight' };

interface KeyRow {
  fingerprint: string;
  state: 'in_flight' | 'completed';
  response_status: number | null;
  response_headers: Record<string, string> | null;
  response_body: string | null;
}

/** Claims `scope` for a request with `fingerprint` at `now`. */
export async function claimKey(db: Queryable, scope: KeyScope, fingerprint: string, now: Date): Promise<KeyClaim> {
  const leaseUntil = new Date(now.getTime() + IDEMPOTENCY_LEASE_SECONDS * 1000);
  const expiresAt = new Date(now.getTime() + IDEMPOTENCY_KEY_TTL_SECONDS * 1000);
  // A key released or expired between the two statements is simply claimed on the next round.
  for (let round = 0; round < 3; round += 1) {
    const acquired = await db.oneOrNone<{ lease_id: string }>(
      `INSERT INTO idempotency_keys AS k (user_id, route, key, fingerprint, state, lease_id, lease_until, created_at, expires_at)
       VALUES ($1, $2, $3, $4, 'in_flight', $5, $6, $7, $8)
       ON CONFLICT (user_id, route, key) DO UPDATE
          SET fingerprint = EXCLUDED.fingerprint, state = 'in_flight', lease_id = EXCLUDED.lease_id,
              lease_until = EXCLUDED.lease_until, response_status = NULL, response_headers = NULL,
              response_body = NULL, created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at
        WHERE k.expires_at <= $7
           OR (k.state = 'in_flight' AND k.lease_until <= $7 AND k.fingerprint = EXCLUDED.fingerprint)
       RETURNING lease_id`,
      [scope.userId, scope.route, scope.key, fingerprint, randomUUID(), leaseUntil, now, expiresAt],
    );
    if (acquired !== null) return { kind: 'acquired', leaseId: acquired.lease_id };
    const row = await db.oneOrNone<KeyRow>(
      `SELECT fingerprint, state, response_status, response_headers, response_body FROM idempotency_keys
        WHERE user_id = $1 AND route = $2 AND key = $3 AND expires_at > $4`,
      [scope.userId, scope.route, scope.key, now],
    );
    if (row === null) continue;
    if (row.fingerprint !== fingerprint) return { kind: 'mismatch' };
    if (row.state === 'in_flight' || row.response_status === null || row.response_body === null) return { kind: 'in_flight' };
    return { kind: 'replay', response: { status: row.response_status, headers: row.response_headers ?? {}, body: row.response_body } };
  }
  return { kind: 'in_flight' };
}

/** Records the first request's successful answer; false when this request no longer holds the key. */
export async function completeKey(db: Queryable, scope: KeyScope, leaseId: string, response: StoredResponse): Promise<boolean> {
  const result = await db.result(
    `UPDATE idempotency_keys SET state = 'completed', response_status = $5, response_headers = $6, response_body = $7
      WHERE user_id = $1 AND route = $2 AND key = $3 AND lease_id = $4 AND state = 'in_flight'`,
    [scope.userId, scope.route, scope.key, leaseId, response.status, JSON.stringify(response.headers), response.body],
  );
  return result.rowCount === 1;
}

/** Frees the key of a request that did not succeed, so the same key may be sent again. */
export async function releaseKey(db: Queryable, scope: KeyScope, leaseId: string): Promise<void> {
  await db.none(`DELETE FROM idempotency_keys WHERE user_id = $1 AND route = $2 AND key = $3 AND lease_id = $4 AND state = 'in_flight'`, [
    scope.userId,
    scope.route,
    scope.key,
    leaseId,
  ]);
}

/** Deletes keys whose 24 hours are over (the oracle's prune timer). */
export async function pruneIdempotencyKeys(db: Queryable, now: Date): Promise<number> {
  const result = await db.result('DELETE FROM idempotency_keys WHERE expires_at <= $1', [now]);
  return result.rowCount;
}
