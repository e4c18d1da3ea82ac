import { PgBoss } from 'pg-boss';
import type { Db } from 'pg-boss';
import { connectionSettings } from './db/database.ts';
import type { DatabaseTask } from './db/database.ts';
import { FLEET_PARALLEL_JOBS, GENERATION_QUEUE, JOB_TIME_LIMIT_SECONDS, WORKER_RETRY_LIMIT } from './generation-queue.ts';

/** First retry waits about this long; pg-boss doubles it (with jitter) per attempt. */
export const GENERATION_RETRY_DELAY_SECONDS = 5;
/** pg-boss job heartbeat: a job whose worker stopped touching it for this long is retried. */
export const GENERATION_HEARTBEAT_SECONDS = 30;
/** Upper bound of the retry backoff. */
export const GENERATION_RETRY_DELAY_MAX_SECONDS = 60;

export interface BossOptions {
  /** Connections pg-boss may hold (default 4). */
  max?: number;
  /** Whether this instance runs pg-boss maintenance (expiry, retention). Default true. */
  supervise?: boolean;
}

/**
 * Deadlines of pg-boss's own connections (fetching, completing, maintenance): the same connect
 * and keepalive as the API's pool (core/src/db/database.ts), longer statements because queue
 * maintenance deletes in bulk. No request waits on this pool: a queued job's message is written
 * through the request's own transaction (`bossDbFromTask`).
 */
export const BOSS_DEADLINES = {
  connectMs: 3000,
  statementMs: 10_000,
  readMs: 12_000,
  idleInTransactionMs: 10_000,
  keepAliveMs: 10_000,
} as const;

/**
 * A pg-boss instance on `databaseUrl` (not started). pg-boss keeps its tables in the `pgboss`
 * schema of the same database, so a job row and its queue message can commit together.
 * pg-boss reports background failures as `error` events: the caller must listen for them (an
 * unheard `error` event would crash the process during a database outage).
 */
export function createBoss(databaseUrl: string, options: BossOptions = {}): PgBoss {
  return new PgBoss({
    ...connectionSettings(databaseUrl, BOSS_DEADLINES),
    max: options.max ?? 4,
    supervise: options.supervise ?? true,
    schedule: false,
  });
}

/**
 * Listens for a started pg-boss's background failures (see `createBoss`). pg-boss recovers from
 * them itself, so they are warnings; their error objects carry whole pg clients (type tables,
 * socket state), so the code and the message are what an operator is shown.
 */
export function logBossErrors(boss: PgBoss, logger: { warn(fields: object, message: string): void }): void {
  boss.on('error', (error: Error & { code?: unknown }) => logger.warn({ code: error.code, message: error.message }, 'pg-boss error'));
}

/** Creates the generation queue (idempotent) with the spec's retry and time limits. */
export async function ensureGenerationQueue(boss: PgBoss): Promise<void> {
  const options = {
    policy: 'standard' as const,
    retryLimit: WORKER_RETRY_LIMIT,
    retryDelay: GENERATION_RETRY_DELAY_SECONDS,
    retryBackoff: true,
    retryDelayMax: GENERATION_RETRY_DELAY_MAX_SECONDS,
    expireInSeconds: JOB_TIME_LIMIT_SECONDS,
    // Workers touch their jobs every half of this; a SIGKILLed worker's job is retried once it
    // misses the heartbeat (plus the supervisor interval) instead of after the 300 s expiry.
    heartbeatSeconds: GENERATION_HEARTBEAT_SECONDS,
    // Queued work older than a day is stale: the user has long stopped polling.
    retentionSeconds: 24 * 60 * 60,
    warningQueueSize: FLEET_PARALLEL_JOBS * 100,
  };
  const existing = await boss.getQueue(GENERATION_QUEUE);
  if (existing === null) {
    await boss.createQueue(GENERATION_QUEUE, options);
  } else {
    const { policy: _policy, ...updatable } = options;
    await boss.updateQueue(GENERATION_QUEUE, updatable);
  }
}

/**
 * Lets pg-boss run its statements inside a pg-promise transaction (`send(..., { db })`), so a
 * queue message commits or rolls back with the rows written beside it.
 */
export function bossDbFromTask(task: DatabaseTask): Db {
  return {
    async executeSql(text: string, values?: unknown[]) {
      const result = await task.result({ text, values: values ?? [] });
      return { rows: result.rows };
    },
  };
}
