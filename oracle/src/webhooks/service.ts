/**
 * The oracle's webhook machinery: the outbox relay and the pg-boss delivery workers. Every
 * replica runs both; the outbox claim and pg-boss's job claim keep each delivery to one runner.
 */
import type { Logger as PinoLogger } from 'pino';
import type { PgBoss } from 'pg-boss';
import type { Database } from '../../../core/src/db/database.ts';
import { deliverOnce, markAbandoned } from './deliver.ts';
import { startOutboxRelay } from './outbox-relay.ts';
import { WEBHOOK_DEAD_LETTER_QUEUE, WEBHOOK_QUEUE, ensureWebhookQueue } from './webhook-queue.ts';
import type { WebhookMessage, WebhookSettings } from './webhook-queue.ts';

export interface WebhookServiceDeps {
  db: Database;
  boss: PgBoss;
  logger: PinoLogger;
  settings: WebhookSettings;
  now: () => Date;
}

export interface WebhookService {
  stop(): Promise<void>;
}

/** Thrown to pg-boss so that it schedules the next attempt. */
class AttemptFailed extends Error {}

export async function startWebhookService(deps: WebhookServiceDeps): Promise<WebhookService> {
  await ensureWebhookQueue(deps.boss, deps.settings);
  const workerId = await deps.boss.work<WebhookMessage>(
    WEBHOOK_QUEUE,
    {
      // Each slot polls and delivers on its own: a target that hangs until the attempt deadline,
      // or keeps failing, holds one slot while the others go on.
      localConcurrency: deps.settings.concurrency,
      batchSize: 1,
      pollingIntervalSeconds: deps.settings.pollingIntervalSeconds,
    },
    async ([job]) => {
      if (job === undefined) return;
      const result = await deliverOnce(deps, job.data.deliveryId, job.retryCount);
      const log = { delivery: job.data.deliveryId, attempt: job.retryCount + 1 };
      if (result.kind === 'retry') {
        deps.logger.info({ ...log, reason: result.message }, 'webhook attempt failed; retrying later');
        throw new AttemptFailed(result.message);
      }
      if (result.kind === 'gave_up') deps.logger.warn({ ...log, reason: result.message }, 'webhook delivery given up');
    },
  );
  const deadWorkerId = await deps.boss.work<WebhookMessage>(
    WEBHOOK_DEAD_LETTER_QUEUE,
    { pollingIntervalSeconds: deps.settings.pollingIntervalSeconds },
    async (jobs) => {
      for (const job of jobs) {
        if (await markAbandoned(deps.db, job.data.deliveryId))
          deps.logger.warn({ delivery: job.data.deliveryId }, 'webhook delivery given up: its last attempt never finished');
      }
    },
  );
  const relay = startOutboxRelay({ db: deps.db, boss: deps.boss, logger: deps.logger, sweepIntervalMs: deps.settings.sweepIntervalMs });
  return {
    async stop() {
      await relay.stop();
      await deps.boss.offWork(WEBHOOK_QUEUE, { id: workerId, wait: true });
      await deps.boss.offWork(WEBHOOK_DEAD_LETTER_QUEUE, { id: deadWorkerId, wait: true });
    },
  };
}
