import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { pino } from 'pino';
import { startOutboxRelay } from '../../oracle/src/webhooks/outbox-relay.ts';
import { startQueueDatabase } from '../support/queue-database.ts';
import type { QueueDatabase } from '../support/queue-database.ts';
import { errorOnUnlisten, recordingConnections } from '../support/recorded-connections.ts';
import type { DirectConnection } from '../support/recorded-connections.ts';
import { waitFor } from '../support/wait-for.ts';

describe('oracle: the webhook outbox relay releases its LISTEN connection once, whatever fails (real PostgreSQL and pg-boss)', () => {
  let services: QueueDatabase;
  before(async () => {
    services = await startQueueDatabase();
  });
  after(() => services.stop());

  /** A relay on the real database, and the direct connection it listens on once it listens. */
  async function listeningRelay(): Promise<{ relay: ReturnType<typeof startOutboxRelay>; listener: DirectConnection }> {
    let listener: DirectConnection | undefined;
    const { db, boss } = services;
    const relay = startOutboxRelay({
      db: recordingConnections(db, (connection) => (listener = connection)),
      boss,
      logger: pino({ level: 'silent' }),
      sweepIntervalMs: 60_000,
    });
    const listening = await waitFor(
      'the relay to listen',
      async () => {
        const backends = await db.one<{ n: number }>(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE query ILIKE 'LISTEN%webhook_delivery_pending%'",
        );
        return backends.n > 0 ? listener : undefined;
      },
      { timeoutMs: 2_000, intervalMs: 20 },
    );
    return { relay, listener: listening };
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
    errorOnUnlisten(listener);
    await relay.stop();
  });
});
