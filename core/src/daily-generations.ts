/**
 * The daily tier counter of generations (the spec's rules 1 and 2), in one place: the charge the
 * oracle makes when it admits a song, the refund the job state machine makes when a song fails
 * (GEN_005) or is cancelled, the day a stored counter belongs to, and when it resets.
 *
 * `users.daily_generations` counts the songs of the UTC day `users.last_generation_reset`; a
 * counter of an earlier day reads as zero and starts again at the next charge.
 */
import type { Queryable } from './db/database.ts';

/** Next UTC midnight: when the daily counter resets. */
export function nextUtcMidnight(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
}

/** The songs counted today: the stored counter, or zero when it belongs to an earlier day (`today` is `YYYY-MM-DD`, UTC). */
export function dailyGenerationsUsed(stored: { dailyGenerations: number; lastGenerationReset: string }, today: string): number {
  return stored.lastGenerationReset < today ? 0 : stored.dailyGenerations;
}

/**
 * Rules 1 and 2 in one statement: a counter last reset before today starts again from 0; the
 * request is counted only while the counter is below the tier's limit. The row lock serializes
 * concurrent requests of one user, so exactly `limit` pass. The day is the database's
 * (`CURRENT_DATE`), and its time comes back with the count for the reset the answer shows.
 */
const CHARGE_DAILY_GENERATION = {
  name: 'charge-daily-generation',
  text: `WITH counted AS (
           UPDATE users SET
             daily_generations = CASE WHEN last_generation_reset < CURRENT_DATE THEN 1 ELSE daily_generations + 1 END,
             last_generation_reset = CURRENT_DATE,
             total_generations = total_generations + 1,
             updated_at = now()
           WHERE id = $1
             AND (last_generation_reset < CURRENT_DATE OR daily_generations < $2)
           RETURNING daily_generations
         )
         SELECT (SELECT daily_generations FROM counted) AS counted, now() AS db_now`,
};

/** A daily charge: the songs counted today (null when the limit was reached), and the database's time. */
export interface DailyCharge {
  counted: number | null;
  dbNow: Date;
}

/**
 * Counts one song of `userId` against `limit` in the caller's transaction (the one that writes
 * the job); nothing is counted when the limit is reached.
 */
export async function chargeDailyGeneration(db: Queryable, userId: string, limit: number): Promise<DailyCharge> {
  const row = await db.one<{ counted: number | null; db_now: Date }>({ ...CHARGE_DAILY_GENERATION, values: [userId, limit] });
  return { counted: row.counted, dbNow: row.db_now };
}

/**
 * A CTE that gives the daily generation of each job in `settled` (user_id, created_at) back to
 * its user, while the user's counter still counts that job's day. GEN_005 is the service's
 * failure and a cancelled job never ran: neither should cost the user a generation. Used by the
 * job state machine's fail, sweep and cancel statements (core/src/jobs/job-state.ts), in the
 * statement that settles the job.
 */
export const REFUND_DAILY_GENERATION_CTE = `refunded AS (
    UPDATE users u SET daily_generations = u.daily_generations - 1, updated_at = now()
      FROM settled s
     WHERE u.id = s.user_id AND u.daily_generations > 0
       AND u.last_generation_reset = (s.created_at AT TIME ZONE 'UTC')::date
    RETURNING u.id
  )`;
