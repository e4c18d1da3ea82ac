/**
 * The authenticated request's database work in one statement: read the session's user (it must
 * still exist and hold the token's wallet; its tier is read fresh every time), charge the user's
 * hourly category counter atomically while it is below the tier's limit, and, for job polling and
 * signature issuance, read the caller's job. One round trip instead of three; the rules are those
 * of `findUserById`, `chargeHourly` and the routes' job lookups, which the other paths still use.
 */
import type { Database } from '../../../core/src/db/database.ts';
import type { Tier } from '../../../core/src/generation-queue.ts';
import { JOB_COLUMNS, toJobRecord } from './jobs.ts';
import type { JobRecord, JobRow } from './jobs.ts';
import { HOURLY_LIMITS, hourWindowStart } from './limits.ts';
import type { LimitState, RateCategory } from './limits.ts';

const HOUR_MS = 3_600_000;

export interface SessionUser {
  id: string;
  walletAddress: string;
  tier: Tier;
}

export type SessionCharge =
  /** The token names no current user (deleted, or the wallet differs): nothing was charged. */
  | { kind: 'no_user' }
  | { kind: 'refused'; user: SessionUser; state: LimitState }
  | { kind: 'charged'; user: SessionUser; state: LimitState };

/**
 * The user CTE and the conditional counter upsert. The limit follows the tier just read, so a
 * tier change applies to the very next request. A refused request is not counted (the
 * `DO UPDATE ... WHERE` leaves the row alone and returns nothing).
 */
const CHARGE_CTE = `caller AS (
    SELECT id, wallet_address, tier FROM users WHERE id = $1 AND wallet_address = $2
  ), charge AS (
    INSERT INTO rate_limit_counters AS c (subject, category, window_start, count)
    SELECT 'user:' || id::text, $3, $4, 1 FROM caller
    ON CONFLICT (subject, category, window_start)
    DO UPDATE SET count = c.count + 1
     WHERE c.count < (SELECT CASE tier WHEN 'free' THEN $5::int WHEN 'pro' THEN $6::int ELSE $7::int END FROM caller)
    RETURNING c.count
  )`;

/*
 * Named prepared statements: PostgreSQL parses and plans each once per connection, and the
 * client sends only the name and the values.
 */
const CHARGE_SESSION = {
  name: 'session-charge',
  text: `WITH ${CHARGE_CTE}
         SELECT u.id, u.wallet_address, u.tier, (SELECT count FROM charge) AS count FROM caller u`,
};

/** A session charge joined to one lookup of the caller's data: see `chargeSessionStatement`. */
export interface ChargeAndSelectStatement {
  readonly name: string;
  readonly text: string;
}

/**
 * The charge statement extended by `lateral`, a subquery over the caller `u` whose parameters
 * start at `$8`: its columns (none of them named `session_user_id`, `session_tier`,
 * `wallet_address` or `count`) come back beside the charge, NULL when it finds no row.
 */
export function chargeSessionStatement(name: string, lateral: string): ChargeAndSelectStatement {
  return {
    name,
    text: `WITH ${CHARGE_CTE}
           SELECT u.id AS session_user_id, u.wallet_address, u.tier AS session_tier, (SELECT count FROM charge) AS count, j.*
             FROM caller u
             LEFT JOIN LATERAL (${lateral}) j ON true`,
  };
}

const CHARGE_SESSION_AND_FIND_JOB = chargeSessionStatement(
  'session-charge-find-job',
  `SELECT ${JOB_COLUMNS} FROM generation_jobs WHERE id = $8::uuid AND user_id = u.id`,
);

interface ChargeRow {
  wallet_address: string;
  count: number | null;
}

function chargeValues(userId: string, walletAddress: string, category: RateCategory, now: Date): unknown[] {
  const limits = HOURLY_LIMITS[category];
  return [userId, walletAddress, category, hourWindowStart(now), limits.free, limits.pro, limits.enterprise];
}

function toCharge(id: string, tier: Tier, row: ChargeRow, category: RateCategory, now: Date): SessionCharge {
  const user = { id, walletAddress: row.wallet_address, tier };
  const limit = HOURLY_LIMITS[category][tier];
  const resetAt = new Date(hourWindowStart(now).getTime() + HOUR_MS);
  if (row.count === null) return { kind: 'refused', user, state: { limit, remaining: 0, resetAt } };
  return { kind: 'charged', user, state: { limit, remaining: Math.max(0, limit - row.count), resetAt } };
}

/** `userId` must be a UUID (the caller checks the token's subject first). */
export async function chargeSession(
  db: Database,
  claims: { userId: string; walletAddress: string },
  category: RateCategory,
  now: Date,
): Promise<SessionCharge> {
  const row = await db.oneOrNone<ChargeRow & { id: string; tier: Tier }>({
    ...CHARGE_SESSION,
    values: chargeValues(claims.userId, claims.walletAddress, category, now),
  });
  return row === null ? { kind: 'no_user' } : toCharge(row.id, row.tier, row, category, now);
}

/**
 * Runs a `chargeSessionStatement` for `category` with the lookup's parameters `lookupValues`:
 * the charge, and the looked-up row's columns (all undefined or null when it found none).
 */
export async function chargeSessionAndSelect<Row extends object>(
  db: Database,
  statement: ChargeAndSelectStatement,
  claims: { userId: string; walletAddress: string },
  category: RateCategory,
  now: Date,
  lookupValues: unknown[],
): Promise<{ charge: SessionCharge; row: Partial<Row> }> {
  const row = await db.oneOrNone<ChargeRow & { session_user_id: string; session_tier: Tier } & Partial<Row>>({
    ...statement,
    values: [...chargeValues(claims.userId, claims.walletAddress, category, now), ...lookupValues],
  });
  if (row === null) return { charge: { kind: 'no_user' }, row: {} };
  return { charge: toCharge(row.session_user_id, row.session_tier, row, category, now), row };
}

/**
 * `chargeSession` for the `general` category plus the caller's job `jobId` (a UUID, or null for
 * an id that cannot exist): null when it is not the caller's.
 */
export async function chargeSessionAndFindJob(
  db: Database,
  claims: { userId: string; walletAddress: string },
  jobId: string | null,
  now: Date,
): Promise<{ charge: SessionCharge; job: JobRecord | null }> {
  const { charge, row } = await chargeSessionAndSelect<JobRow>(db, CHARGE_SESSION_AND_FIND_JOB, claims, 'general', now, [jobId]);
  return { charge, job: isJobRow(row) ? toJobRecord(row) : null };
}

function isJobRow(row: Partial<JobRow>): row is JobRow {
  return typeof row.id === 'string';
}
