/**
 * Charging a request against the spec's limits, in one place: the hourly per-category counters
 * (per user at the tier's rate, or per IP address before sign-in), the daily tier counter of
 * generations (its statement and its refund: core/src/daily-generations.ts), the 429 errors they produce (RATE_001 daily, RATE_002 hourly) and the retry-after
 * arithmetic. `chargeRequest` is the only way in; which route charges which category is the
 * route table (oracle/src/http/route-table.ts).
 *
 * A refused request is never counted: each counter is one conditional statement that counts only
 * while below the limit. The windows run on the database's clock (docs/operations.md, "Clocks"):
 * the statement picks the hour and returns it with the database's time, so replicas whose clocks
 * disagree still count one user's requests in one window, and the refund and the reset
 * (`X-RateLimit-Reset`, `Retry-After`) follow the window that was charged. For a signed-in caller the user is read (it must still exist and hold
 * the token's wallet; the tier is read fresh) and charged in the same statement, optionally with
 * one lookup of the caller's data joined to it: one round trip for the hot routes (job polling,
 * signature issuance).
 */
import type { Database, Queryable } from '../../../core/src/db/database.ts';
import type { Tier } from '../../../core/src/generation-queue.ts';
import { chargeDailyGeneration, dailyGenerationsUsed, nextUtcMidnight } from '../../../core/src/daily-generations.ts';
import type { AppError, DailyLimitError } from './errors.ts';
import { appError } from './errors.ts';
import { TIER_LIMITS } from './limits.ts';

/** The spec's endpoint categories, and `preview` (POST /api/previews, docs/api.md "Previews"). */
export type RateCategory = 'generation' | 'metadata_nft' | 'trading' | 'general' | 'preview';

/**
 * Hourly request limits per category. The spec gives "Music generation 10 per hour" and, in
 * another description, "10 per hour for free and 100 per hour for pro": generation follows the
 * tier (enterprise gets ten times pro); the other categories are the same for every tier.
 */
export const HOURLY_LIMITS: Readonly<Record<RateCategory, Readonly<Record<Tier, number>>>> = {
  generation: { free: 10, pro: 100, enterprise: 1000 },
  metadata_nft: { free: 100, pro: 100, enterprise: 100 },
  trading: { free: 500, pro: 500, enterprise: 500 },
  general: { free: 1000, pro: 1000, enterprise: 1000 },
  // Previews (5-15 s, default 10 s): 30 default previews are 300 s of audio, the free tier's
  // hourly generation budget (10 songs of its 30 s maximum); pro and enterprise scale by ten as
  // generation does. Previews never touch the daily generation counter.
  preview: { free: 30, pro: 300, enterprise: 3000 },
};

/** Unauthenticated endpoints (sign-in) are limited per IP address at the general rate. */
export const ANONYMOUS_HOURLY_LIMIT = HOURLY_LIMITS.general.free;

export interface LimitState {
  limit: number;
  remaining: number;
  resetAt: Date;
}

/** The caller of an authenticated request. The tier is read from the database on every request. */
export interface SessionUser {
  id: string;
  walletAddress: string;
  tier: Tier;
}

const HOUR_MS = 3_600_000;

/**
 * The hour the database's clock is in (UTC, so a session time zone with a half-hour offset moves
 * nothing) and that clock itself: a CTE named `charge_window` every counter statement reads.
 */
const CHARGE_WINDOW_CTE = `charge_window AS (SELECT date_trunc('hour', now(), 'UTC') AS window_start, now() AS db_now)`;

/** Whole seconds until `resetAt`, at least 1 (the `Retry-After` of a 429). */
export function retryAfterSeconds(resetAt: Date, now: Date): number {
  return Math.max(1, Math.ceil((resetAt.getTime() - now.getTime()) / 1000));
}

/** RATE_002: the hourly limit of `category` is reached. */
export function hourlyLimitError(category: RateCategory, state: LimitState, now: Date): AppError {
  return appError('RATE_002', `Hourly limit of ${state.limit} requests for ${category} reached`, {
    details: `the limit resets at ${state.resetAt.toISOString()}`,
    fields: { category, limit: state.limit, reset_at: state.resetAt.toISOString() },
    retryAfter: retryAfterSeconds(state.resetAt, now),
  });
}

/** RATE_001: the tier's daily generations are used up (its 429 body is fixed by the spec). */
export function dailyLimitError(tier: Tier, limit: number, now: Date): DailyLimitError {
  const resetAt = nextUtcMidnight(now);
  return {
    code: 'RATE_001',
    message: `Daily limit of ${limit} generations for the ${tier} tier reached`,
    details: `the counter resets at ${resetAt.toISOString()}`,
    limit,
    resetAt,
    retryAfter: retryAfterSeconds(resetAt, now),
  };
}

/** The state to show in `X-RateLimit-*` headers when two limits apply: the one with less room. */
export function tighter(a: LimitState, b: LimitState): LimitState {
  if (a.remaining !== b.remaining) return a.remaining < b.remaining ? a : b;
  return a.resetAt.getTime() >= b.resetAt.getTime() ? a : b;
}

/**
 * The user CTE and the conditional counter upsert. The limit follows the tier just read, so a
 * tier change applies to the very next request.
 */
const SESSION_CHARGE_CTE = `${CHARGE_WINDOW_CTE}, caller AS (
    SELECT id, wallet_address, tier FROM users WHERE id = $1 AND wallet_address = $2
  ), charge AS (
    INSERT INTO rate_limit_counters AS c (subject, category, window_start, count)
    SELECT 'user:' || id::text, $3, w.window_start, 1 FROM caller, charge_window w
    ON CONFLICT (subject, category, window_start)
    DO UPDATE SET count = c.count + 1
     WHERE c.count < (SELECT CASE tier WHEN 'free' THEN $4::int WHEN 'pro' THEN $5::int ELSE $6::int END FROM caller)
    RETURNING c.count
  )`;

/**
 * One read of the caller's own data made in the charging statement (the status poll, the
 * signature and preview routes): a domain module builds it with `chargedLookup` and the route
 * table hands it to the charge, which returns what `found` makes of the row.
 */
export interface ChargedLookup<Found> {
  readonly statement: { readonly name: string; readonly text: string };
  readonly values: ReadonlyArray<unknown>;
  /** The lookup's columns of the charge's row (all absent when it matched nothing), or null. */
  found(row: Readonly<Record<string, unknown>>): Found | null;
}

/*
 * Named prepared statements: PostgreSQL parses and plans each once per connection, and the
 * client sends only the name and the values.
 */
const SESSION_CHARGE = {
  name: 'session-charge',
  text: `WITH ${SESSION_CHARGE_CTE}
         SELECT u.id AS session_user_id, u.wallet_address, u.tier AS session_tier, w.window_start, w.db_now,
                (SELECT count FROM charge) AS count
           FROM caller u, charge_window w`,
};

/** The charge's own parameters are $1-$6; a lookup's come after them. */
const CHARGE_PARAMETERS = 6;

/**
 * A lookup of the caller's data joined to the session charge, as a prepared statement called
 * `name`. `select` writes the query from the caller's id column (`caller`) and the SQL
 * placeholders of its own `values` in order (`params`); its columns must not be named
 * `session_user_id`, `session_tier`, `wallet_address`, `window_start`, `db_now` or `count`.
 */
export function chargedLookup<Found>(
  name: string,
  select: (caller: string, params: ReadonlyArray<string>) => string,
  found: (row: Readonly<Record<string, unknown>>) => Found | null,
): (...values: unknown[]) => ChargedLookup<Found> {
  let statement: ChargedLookup<Found>['statement'] | undefined;
  return (...values) => {
    statement ??= {
      name,
      text: `WITH ${SESSION_CHARGE_CTE}
             SELECT u.id AS session_user_id, u.wallet_address, u.tier AS session_tier, w.window_start, w.db_now,
                    (SELECT count FROM charge) AS count, j.*
               FROM caller u
               CROSS JOIN charge_window w
               LEFT JOIN LATERAL (${select(
                 'u.id',
                 values.map((_, index) => `$${CHARGE_PARAMETERS + 1 + index}`),
               )}) j ON true`,
    };
    return { statement, values, found };
  };
}

/**
 * Counts one request of `subject` in the database's current hour while the count is below
 * `limit`; one row either way (`count` null when refused), with the window and the clock.
 */
const CHARGE_HOURLY = {
  name: 'charge-hourly',
  text: `WITH ${CHARGE_WINDOW_CTE}, charge AS (
           INSERT INTO rate_limit_counters AS c (subject, category, window_start, count)
           SELECT $1, $2, w.window_start, 1 FROM charge_window w
           ON CONFLICT (subject, category, window_start)
           DO UPDATE SET count = c.count + 1 WHERE c.count < $3
           RETURNING c.count
         )
         SELECT w.window_start, w.db_now, (SELECT count FROM charge) AS count FROM charge_window w`,
};

/** What every counter statement returns besides the count: the window charged and the database's time. */
interface WindowRow {
  window_start: Date;
  db_now: Date;
  count: number | null;
}

/** Who is charged. */
export type Chargee =
  /** A bearer token's claims: the user is read and checked in the charging statement. */
  | { session: { userId: string; walletAddress: string }; lookup?: ChargedLookup<unknown> }
  /** A user read already (inside a caller's transaction, e.g. with the daily counter). */
  | { user: SessionUser; daily?: boolean }
  /** An unauthenticated client, by IP address. */
  | { ip: string };

export interface ChargeRequest {
  db: Queryable;
  chargee: Chargee;
  category: RateCategory;
}

export type ChargeOutcome =
  /** The token names no current user (deleted, or the wallet differs): nothing was charged. */
  | { kind: 'no_user' }
  | { kind: 'refused'; user: SessionUser | null; state: LimitState; limit: 'daily' | 'hourly'; error: AppError }
  /**
   * `state` is the tighter of the limits charged; `found` what the session lookup found (null:
   * nothing, or no lookup); `windowStart` the hour charged, which a refund must name.
   */
  | { kind: 'charged'; user: SessionUser | null; state: LimitState; found: unknown; windowStart: Date };

interface SessionRow extends WindowRow {
  session_user_id: string;
  wallet_address: string;
  session_tier: Tier;
}

/**
 * Charges one request of `category` (with `daily`, first the daily generation counter), counting
 * nothing that is refused. `userId` of a session must be a UUID (the token check ensures it).
 */
export async function chargeRequest(request: ChargeRequest): Promise<ChargeOutcome> {
  const { db, chargee, category } = request;
  const hourly = (user: SessionUser | null, limit: number, row: WindowRow, found: unknown, daily?: LimitState): ChargeOutcome => {
    const resetAt = new Date(row.window_start.getTime() + HOUR_MS);
    if (row.count === null) {
      const state = { limit, remaining: 0, resetAt };
      return { kind: 'refused', user, state, limit: 'hourly', error: hourlyLimitError(category, state, row.db_now) };
    }
    const state = { limit, remaining: Math.max(0, limit - row.count), resetAt };
    return { kind: 'charged', user, state: daily === undefined ? state : tighter(daily, state), found, windowStart: row.window_start };
  };

  if ('session' in chargee) {
    const limits = HOURLY_LIMITS[category];
    const statement = chargee.lookup?.statement ?? SESSION_CHARGE;
    const values = [chargee.session.userId, chargee.session.walletAddress, category, limits.free, limits.pro, limits.enterprise];
    const row = await db.oneOrNone<SessionRow & Record<string, unknown>>({
      ...statement,
      values: [...values, ...(chargee.lookup?.values ?? [])],
    });
    if (row === null) return { kind: 'no_user' };
    const user = { id: row.session_user_id, walletAddress: row.wallet_address, tier: row.session_tier };
    return hourly(user, limits[user.tier], row, chargee.lookup?.found(row) ?? null);
  }

  if ('ip' in chargee) {
    const row = await db.one<WindowRow>({ ...CHARGE_HOURLY, values: [`ip:${chargee.ip}`, category, ANONYMOUS_HOURLY_LIMIT] });
    return hourly(null, ANONYMOUS_HOURLY_LIMIT, row, null);
  }

  const { user } = chargee;
  let daily: LimitState | undefined;
  if (chargee.daily === true) {
    const dailyLimit = TIER_LIMITS[user.tier].dailyGenerations;
    const { counted, dbNow } = await chargeDailyGeneration(db, user.id, dailyLimit);
    const state = { limit: dailyLimit, remaining: Math.max(0, dailyLimit - (counted ?? dailyLimit)), resetAt: nextUtcMidnight(dbNow) };
    if (counted === null) return { kind: 'refused', user, state, limit: 'daily', error: dailyLimitError(user.tier, dailyLimit, dbNow) };
    daily = state;
  }
  const limit = HOURLY_LIMITS[category][user.tier];
  const row = await db.one<WindowRow>({ ...CHARGE_HOURLY, values: [`user:${user.id}`, category, limit] });
  return hourly(user, limit, row, null, daily);
}

/**
 * Takes back one request of a signed-in user counted in `windowStart` (the window its charge
 * returned): a request the service refused after charging it (bad input) must not use up the
 * caller's limit.
 */
export async function refundHourly(db: Database, userId: string, category: RateCategory, windowStart: Date): Promise<void> {
  await db.none(
    `UPDATE rate_limit_counters SET count = count - 1
      WHERE subject = $1 AND category = $2 AND window_start = $3 AND count > 0`,
    [`user:${userId}`, category, windowStart],
  );
}

/** Drops counters of windows that ended more than a day ago on the database's clock. */
export async function pruneRateLimitCounters(db: Database): Promise<number> {
  const result = await db.result(`DELETE FROM rate_limit_counters WHERE window_start < now() - interval '24 hours'`);
  return result.rowCount;
}

/** One limit as it stands: counted so far, what is left, and when the counter starts again. */
export interface LimitUsage extends LimitState {
  used: number;
}

/** What a user has left of the limits a song or a preview is charged against (the profile's `limits`). */
export interface UsageReport {
  songs: { daily: LimitUsage; hourly: LimitUsage };
  previews: { hourly: LimitUsage };
}

/**
 * The caller's counters of the current hour for songs and previews, read (never charged) on the
 * same database clock and window as `chargeRequest`, so what is shown is what the next charge sees.
 */
const READ_SONG_AND_PREVIEW_WINDOWS = {
  name: 'read-song-and-preview-windows',
  text: `WITH ${CHARGE_WINDOW_CTE}
         SELECT w.window_start, w.db_now,
                coalesce((SELECT c.count FROM rate_limit_counters c
                           WHERE c.subject = $1 AND c.category = 'generation' AND c.window_start = w.window_start), 0)::int AS generation,
                coalesce((SELECT c.count FROM rate_limit_counters c
                           WHERE c.subject = $1 AND c.category = 'preview' AND c.window_start = w.window_start), 0)::int AS preview
           FROM charge_window w`,
};

function usage(limit: number, used: number, resetAt: Date): LimitUsage {
  return { limit, used, remaining: Math.max(0, limit - used), resetAt };
}

/**
 * Songs left today (the daily tier counter, read by core's `dailyGenerationsUsed` for the
 * database's UTC day) and songs and previews left in this hour, with when each counter resets.
 */
export async function readUsage(
  db: Queryable,
  user: { id: string; tier: Tier; dailyGenerations: number; lastGenerationReset: string },
): Promise<UsageReport> {
  const row = await db.one<{ window_start: Date; db_now: Date; generation: number; preview: number }>({
    ...READ_SONG_AND_PREVIEW_WINDOWS,
    values: [`user:${user.id}`],
  });
  const hourEnd = new Date(row.window_start.getTime() + HOUR_MS);
  const today = row.db_now.toISOString().slice(0, 10);
  return {
    songs: {
      daily: usage(TIER_LIMITS[user.tier].dailyGenerations, dailyGenerationsUsed(user, today), nextUtcMidnight(row.db_now)),
      hourly: usage(HOURLY_LIMITS.generation[user.tier], row.generation, hourEnd),
    },
    previews: { hourly: usage(HOURLY_LIMITS.preview[user.tier], row.preview, hourEnd) },
  };
}
