import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { pino } from 'pino';
import type { Database } from '../../core/src/db/database.ts';
import { startOutboxRelay } from '../../oracle/src/webhooks/outbox-relay.ts';
import { startQueueDatabase } from '../support/queue-database.ts';
import type { QueueDatabase } from '../support/queue-database.ts';

type Connection = Awaited<ReturnType<Database['connect']>>;

describe('oracle: the webhook outbox relay releases its LISTEN connection once, whatever fails (real PostgreSQL and pg-boss)', () => {
  let services: QueueDatabase;
  before(async () => {
    services = await startQueueDatabase();
  });
  after(() => services.stop());

  /** A relay on the real database, and the direct connection it listens on once it listens. */
  async function listeningRelay(): Promise<{ relay: ReturnType<typeof startOutboxRelay>; listener: Connection }> {
    let listener: Connection | undefined;
    const { db, boss } = services;
    const recording = new Proxy(db, {
      get(target, property, receiver) {
        if (property !== 'connect') return Reflect.get(target, property, receiver) as unknown;
        return async (...args: Parameters<Database['connect']>) => {
          const connection = await target.connect(...args);
          listener = connection;
          return connection;
        };
      },
    });
    const relay = startOutboxRelay({ db: recording, boss, logger: pino({ level: 'silent' }), sweepIntervalMs: 60_000 });
    for (let waited = 0; waited < 100; waited += 1) {
      const listening = await db.one<{ n: number }>(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE query ILIKE 'LISTEN%webhook_delivery_pending%'",
      );
      if (listener !== undefined && listening.n > 0) return { relay, listener };
      await sleep(20);
    }
    throw new Error('the relay never listened');
  }

  it('a listener error reported twice releases the connection once, and stop still resolves', async () => {
    const { relay, listener } = await listeningRelay();
    // node-postgres may report a lost connection more than once (the socket's error, then its end).
    assert.doesNotThrow(() => listener.client.emit('error', new Error('the backend went away')));
    assert.doesNotThrow(() => listener.client.emit('error', new Error('the backend went away')));
    await relay.stop();
  });

  it('stop resolves when the listener fails while its UNLISTEN is in flight', async () => {
    const { relay, listener } = await listeningRelay();
    // The server going away during shutdown: the error arrives while stop waits on UNLISTEN.
    const none = listener.none.bind(listener);
    listener.none = ((query: unknown, values?: unknown) => {
      if (typeof query === 'string' && query.startsWith('UNLISTEN')) listener.client.emit('error', new Error('the backend went away'));
      return none(query as string, values);
    }) as typeof listener.none;
    await relay.stop();
  });
});
