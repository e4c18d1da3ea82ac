import type { PgBoss } from 'pg-boss';
import type { Database } from '../../../core/src/db/database.ts';
import { toPublicJobId } from '../../../core/src/generation-queue.ts';
import type { Tier } from '../../../core/src/generation-queue.ts';
import { JOB_STATUS, queueJob } from '../../../core/src/jobs/job-state.ts';
import { liveWorkerCapacity, queuePlace, queuedJobCount, runRates } from '../queue/queue-state.ts';
import { GPU_UNAVAILABLE_RETRY_SECONDS, QUEUE_FULL_RETRY_SECONDS, appError, fail, ok } from './errors.ts';
import type { AppError, DailyLimitError } from './errors.ts';
import { HOURLY_LIMITS, TIER_LIMITS, chargeHourly, nextUtcMidnight, tighter } from './limits.ts';
import type { LimitState } from './limits.ts';

export interface GenerationRequest {
  prompt: string;
  duration: number;
  seed?: bigint;
  lyrics?: string;
  steps: 27 | 60;
  withLyrics: boolean;
}

export interface Requester {
  id: string;
  walletAddress: string;
  tier: Tier;
}

export interface AcceptedGeneration {
  jobId: string;
  publicJobId: string;
  status: typeof JOB_STATUS.queued;
  position: number;
  estimatedTime: number;
  /** The tighter of the daily and hourly limits after this request. */
  limit: LimitState;
}

export interface RejectedGeneration {
  ok: false;
  error: AppError;
  /** Limit state to show in headers, when a limit refused the request. */
  limit?: LimitState;
  /** Which limit refused it (metrics). */
  refusedBy?: 'daily' | 'hourly';
}

export type SubmitResult = { ok: true; value: AcceptedGeneration } | RejectedGeneration;

export interface GenerationDeps {
  db: Database;
  boss: PgBoss;
  queueCapacity: number;
  now: () => Date;
}

/** GEN_004: a duration above the tier maximum (the spec's rule 3). */
export function checkTierDuration(tier: Tier, duration: number): AppError | null {
  const max = TIER_LIMITS[tier].maxDurationSeconds;
  if (duration <= max) return null;
  return appError('GEN_004', `Duration ${duration} s exceeds the ${tier} tier maximum of ${max} s`, {
    details: `tier maximums: free ${TIER_LIMITS.free.maxDurationSeconds} s, pro ${TIER_LIMITS.pro.maxDurationSeconds} s, enterprise ${TIER_LIMITS.enterprise.maxDurationSeconds} s`,
    fields: { max_duration: max, tier },
  });
}

/** Thrown inside the transaction to roll it back, carrying the rejection out. */
class Rejection extends Error {
  readonly rejected: RejectedGeneration;
  constructor(rejected: RejectedGeneration) {
    super(rejected.error.message);
    this.rejected = rejected;
  }
}

/** Advisory lock key that serializes queue admission ("SMQA"). */
const QUEUE_ADMISSION_LOCK = 0x534d5141;

/**
 * The daily tier counter, rules 1 and 2 in one statement: a counter last reset before today
 * starts again from 0; the request is counted only while the counter is below the tier's limit.
 * The row lock serializes concurrent requests of one user, so exactly `limit` pass.
 */
const CHARGE_DAILY_SQL = `
  UPDATE users SET
    daily_generations = CASE WHEN last_generation_reset < CURRENT_DATE THEN 1 ELSE daily_generations + 1 END,
    last_generation_reset = CURRENT_DATE,
    total_generations = total_generations + 1,
    updated_at = now()
  WHERE id = $1
    AND (last_generation_reset < CURRENT_DATE OR daily_generations < $2)
  RETURNING daily_generations`;

/**
 * Accepts a generation: GEN_002 without a live worker, then in one transaction GEN_001 when the
 * queue is full, the daily counter, the hourly generation limit, the job row and its queue
 * message. Any refusal rolls the whole transaction back, so nothing is half-written and no
 * counter is charged for a refused request.
 */
export async function submitGeneration(
  deps: GenerationDeps,
  user: Requester,
  request: GenerationRequest,
): Promise<SubmitResult> {
  const tooLong = checkTierDuration(user.tier, request.duration);
  if (tooLong !== null) return fail(tooLong);

  const capacity = await liveWorkerCapacity(deps.db);
  if (capacity.workers === 0) {
    return fail(
      appError('GEN_002', 'No GPU capacity: no generation worker is live', {
        details: 'retry after 1 minute',
        retryAfter: GPU_UNAVAILABLE_RETRY_SECONDS,
      }),
    );
  }
  const now = deps.now();
  const dailyLimit = TIER_LIMITS[user.tier].dailyGenerations;
  const hourlyLimit = HOURLY_LIMITS.generation[user.tier];
  try {
    const created = await deps.db.tx('submit-generation', async (tx) => {
      // Admission is serialized (one transaction-scoped lock across replicas) so that concurrent
      // requests cannot overshoot QUEUE_CAPACITY: each counts the queue with the ones before it.
      await tx.one('SELECT pg_advisory_xact_lock($1)', [QUEUE_ADMISSION_LOCK]);
      const queued = await queuedJobCount(tx);
      if (queued >= deps.queueCapacity) {
        throw new Rejection({
          ok: false,
          error: appError('GEN_001', 'Queue full: too many pending jobs', {
            details: `${queued} jobs are waiting (capacity ${deps.queueCapacity}); retry with backoff`,
            fields: { queued, capacity: deps.queueCapacity },
            retryAfter: QUEUE_FULL_RETRY_SECONDS,
          }),
        });
      }
      const daily = await tx.oneOrNone<{ daily_generations: number }>(CHARGE_DAILY_SQL, [user.id, dailyLimit]);
      const resetAt = nextUtcMidnight(now);
      if (daily === null) {
        const error: DailyLimitError = {
          code: 'RATE_001',
          message: `Daily limit of ${dailyLimit} generations for the ${user.tier} tier reached`,
          details: `the counter resets at ${resetAt.toISOString()}`,
          limit: dailyLimit,
          resetAt,
          retryAfter: Math.max(1, Math.ceil((resetAt.getTime() - now.getTime()) / 1000)),
        };
        throw new Rejection({ ok: false, error, limit: { limit: dailyLimit, remaining: 0, resetAt }, refusedBy: 'daily' });
      }
      const dailyState: LimitState = { limit: dailyLimit, remaining: Math.max(0, dailyLimit - daily.daily_generations), resetAt };
      const hourly = await chargeHourly(tx, `user:${user.id}`, 'generation', hourlyLimit, now);
      if (!hourly.allowed) {
        const state = hourly.state;
        throw new Rejection({
          ok: false,
          error: appError('RATE_002', `Hourly limit of ${state.limit} generations reached`, {
            details: `the limit resets at ${state.resetAt.toISOString()}`,
            fields: { category: 'generation', limit: state.limit, reset_at: state.resetAt.toISOString() },
            retryAfter: Math.max(1, Math.ceil((state.resetAt.getTime() - now.getTime()) / 1000)),
          }),
          limit: state,
          refusedBy: 'hourly',
        });
      }
      const job = await queueJob(tx, deps.boss, { ...request, userId: user.id, userAddress: user.walletAddress, tier: user.tier });
      return { job, limit: tighter(dailyState, hourly.state) };
    });
    const rates = await runRates(deps.db);
    const place = await queuePlace(
      deps.db,
      { id: created.job.id, tier: user.tier, createdAt: created.job.createdAt, duration: request.duration, steps: request.steps },
      rates,
      capacity.slots,
    );
    return ok({
      jobId: created.job.id,
      publicJobId: toPublicJobId(created.job.id),
      status: JOB_STATUS.queued,
      position: place.position,
      estimatedTime: place.estimatedSeconds,
      limit: created.limit,
    });
  } catch (error) {
    if (error instanceof Rejection) return error.rejected;
    throw error;
  }
}
