/**
 * Moves new outbox rows (written by migration 0011's trigger, whoever finished the job) into the
 * pg-boss delivery queue: `pending` -> `queued` (core/src/jobs/webhook-delivery-state.ts). Each row is claimed with `FOR UPDATE SKIP LOCKED` and its queue message
 * is sent in the same transaction that marks it `queued`, so with any number of replicas every
 * row is queued exactly once, and a crash in between leaves it `pending` for the next pass.
 * A pass runs on each NOTIFY of `webhook_delivery_pending` and on a timer (the backstop for a
 * notification sent while no listener was connected).
 */
import type { Logger } from 'pino';
import type { PgBoss } from 'pg-boss';
import { listenOnChannel } from '../../../core/src/db/channel-listener.ts';
import type { ChannelListener } from '../../../core/src/db/channel-listener.ts';
import type { Database } from '../../../core/src/db/database.ts';
import { claimPendingDeliveries, markQueued } from '../../../core/src/jobs/webhook-delivery-state.ts';
import { bossDbFromTask } from '../../../core/src/queue.ts';
import { WEBHOOK_QUEUE } from './webhook-queue.ts';
import type { WebhookMessage } from './webhook-queue.ts';

export const WEBHOOK_PENDING_CHANNEL = 'webhook_delivery_pending';

/** Rows one transaction moves; a pass loops until the outbox is empty. */
const RELAY_BATCH = 100;

/** Queues up to RELAY_BATCH pending rows; returns how many. */
export async function relayPendingDeliveries(db: Database, boss: PgBoss): Promise<number> {
  return db.tx('relay-webhooks', async (tx) => {
    const ids = await claimPendingDeliveries(tx, RELAY_BATCH);
    if (ids.length === 0) return 0;
    const bossDb = bossDbFromTask(tx);
    for (const deliveryId of ids) {
      const message: WebhookMessage = { deliveryId };
      await boss.send(WEBHOOK_QUEUE, message, { db: bossDb });
    }
    await markQueued(tx, ids);
    return ids.length;
  });
}

export interface OutboxRelay {
  stop(): Promise<void>;
}

export interface OutboxRelayDeps {
  db: Database;
  boss: PgBoss;
  logger: Logger;
  sweepIntervalMs: number;
}

export function startOutboxRelay(deps: OutboxRelayDeps): OutboxRelay {
  let stopped = false;
  let running: Promise<void> | null = null;
  let again = false;
  let listener: ChannelListener | null = null;
  let connecting = false;

  async function drain(): Promise<void> {
    do {
      again = false;
      while (!stopped && (await relayPendingDeliveries(deps.db, deps.boss)) === RELAY_BATCH) {
        // A full batch: there may be more.
      }
    } while (again && !stopped);
  }

  /** Runs a pass now, or one more after the pass that is running (notifications coalesce). */
  function pass(): void {
    if (stopped) return;
    if (running !== null) {
      again = true;
      return;
    }
    running = drain()
      .catch((error: unknown) => deps.logger.warn({ err: error }, 'webhook relay pass failed'))
      .finally(() => {
        running = null;
      });
  }

  async function listen(): Promise<void> {
    if (listener !== null || connecting || stopped) return;
    connecting = true;
    try {
      // `onLost` runs only once the listener listens, so `opened` is set by then.
      const opened: ChannelListener = await listenOnChannel(deps.db, {
        channel: WEBHOOK_PENDING_CHANNEL,
        onNotification: () => pass(),
        onLost: (error) => {
          deps.logger.warn({ err: error }, 'webhook relay listener lost; the sweep carries on');
          if (listener === opened) listener = null;
        },
      });
      if (stopped) {
        await opened.close();
        return;
      }
      listener = opened;
      // Rows written before the LISTEN took effect are picked up here.
      pass();
    } catch (error) {
      deps.logger.warn({ err: error }, 'webhook relay could not listen; the sweep carries on');
    } finally {
      connecting = false;
    }
  }

  void listen();
  const sweep = setInterval(() => {
    void listen();
    pass();
  }, deps.sweepIntervalMs);
  sweep.unref();

  return {
    async stop() {
      stopped = true;
      clearInterval(sweep);
      await running;
      const current = listener;
      listener = null;
      await current?.close();
    },
  };
}
