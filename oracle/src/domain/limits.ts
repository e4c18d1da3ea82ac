import type { Database, DatabaseTask } from '../../../core/src/db/database.ts';
import type { Tier } from '../../../core/src/generation-queue.ts';

/** The spec's tier table: daily generations and maximum duration (seconds). */
export const TIER_LIMITS: Readonly<Record<Tier, { dailyGenerations: number; maxDurationSeconds: number }>> = {
  free: { dailyGenerations: 10, maxDurationSeconds: 30 },
  pro: { dailyGenerations: 100, maxDurationSeconds: 120 },
  // "Described as unlimited; the enforced daily count is 10000."
  enterprise: { dailyGenerations: 10000, maxDurationSeconds: 240 },
};

/** The spec's endpoint categories. */
export type RateCategory = 'generation' | 'metadata_nft' | 'trading' | 'general';

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
};

/** Unauthenticated endpoints (sign-in) are limited per IP address at the general rate. */
export const ANONYMOUS_HOURLY_LIMIT = HOURLY_LIMITS.general.free;

export interface LimitState {
  limit: number;
  remaining: number;
  resetAt: Date;
}

export type HourlyCharge = { allowed: true; state: LimitState } | { allowed: false; state: LimitState };

const HOUR_MS = 3_600_000;

export function hourWindowStart(now: Date): Date {
  return new Date(Math.floor(now.getTime() / HOUR_MS) * HOUR_MS);
}

/** Next UTC midnight: when the daily counter resets. */
export function nextUtcMidnight(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
}

/**
 * Counts one request of `subject` in `category` for the current hour, in one atomic upsert, only
 * while the count is below `limit`: a refused request is not counted.
 */
export async function chargeHourly(
  db: Database | DatabaseTask,
  subject: string,
  category: RateCategory,
  limit: number,
  now: Date,
): Promise<HourlyCharge> {
  const windowStart = hourWindowStart(now);
  const resetAt = new Date(windowStart.getTime() + HOUR_MS);
  const row = await db.oneOrNone<{ count: number }>(
    `INSERT INTO rate_limit_counters AS c (subject, category, window_start, count)
     VALUES ($1, $2, $3, 1)
     ON CONFLICT (subject, category, window_start)
     DO UPDATE SET count = c.count + 1 WHERE c.count < $4
     RETURNING c.count`,
    [subject, category, windowStart, limit],
  );
  if (row === null) return { allowed: false, state: { limit, remaining: 0, resetAt } };
  return { allowed: true, state: { limit, remaining: Math.max(0, limit - row.count), resetAt } };
}

/**
 * Takes back one request counted in `windowStart`: a request the service refused after charging
 * it (bad input, unknown job) must not use up the caller's limit.
 */
export async function refundHourly(db: Database, subject: string, category: RateCategory, windowStart: Date): Promise<void> {
  await db.none(
    `UPDATE rate_limit_counters SET count = count - 1
      WHERE subject = $1 AND category = $2 AND window_start = $3 AND count > 0`,
    [subject, category, windowStart],
  );
}

/** Drops counters of windows that ended more than a day ago. */
export async function pruneRateLimitCounters(db: Database, now: Date): Promise<number> {
  const result = await db.result('DELETE FROM rate_limit_counters WHERE window_start < $1', [new Date(now.getTime() - 24 * HOUR_MS)]);
  return result.rowCount;
}

/** The state to show in `X-RateLimit-*` headers when two limits apply: the one with less room. */
export function tighter(a: LimitState, b: LimitState): LimitState {
  if (a.remaining !== b.remaining) return a.remaining < b.remaining ? a : b;
  return a.resetAt.getTime() >= b.resetAt.getTime() ? a : b;
}
