import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { listenOnChannel } from '../../core/src/db/channel-listener.ts';
import type { ChannelListener } from '../../core/src/db/channel-listener.ts';
import { databaseOfSuite } from '../support/queue-database.ts';
import { errorOnUnlisten, recordingConnections } from '../support/recorded-connections.ts';
import type { DirectConnection } from '../support/recorded-connections.ts';
import { waitUntil as waitUntilHolds } from '../support/wait-for.ts';

describe('core: a channel listener is lost once and ended once, on a really terminated backend (real PostgreSQL)', () => {
  const database = databaseOfSuite();

  /** Backends whose last statement LISTENed on (or UNLISTENed from) `channel`. */
  const backendsOf = async (channel: string): Promise<number> =>
    (
      await database.db.one<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE query ILIKE $1 AND pid <> pg_backend_pid()`,
        [`%LISTEN%${channel}%`],
      )
    ).n;

  const terminate = async (channel: string): Promise<number> =>
    (
      await database.db.one<{ n: number }>(
        `SELECT count(*)::int AS n FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity
          WHERE query ILIKE $1 AND pid <> pg_backend_pid()) AS terminated`,
        [`LISTEN%${channel}%`],
      )
    ).n;

  /** Polls `holds` every 20 ms for at most 5 s. */
  const waitUntil = (what: string, holds: () => boolean | Promise<boolean>): Promise<void> =>
    waitUntilHolds(what, holds, { timeoutMs: 5_000, intervalMs: 20 });

  /** A listener on `channel` through the suite's database, its direct connection, and the losses it reported. */
  async function recordedListener(channel: string): Promise<{ listener: ChannelListener; connection: DirectConnection; lost: unknown[] }> {
    let connection: DirectConnection | undefined;
    const lost: unknown[] = [];
    const listener = await listenOnChannel(
      recordingConnections(database.db, (opened) => (connection = opened)),
      { channel, onNotification: () => undefined, onLost: (error) => lost.push(error) },
    );
    assert.ok(connection !== undefined);
    return { listener, connection, lost };
  }

  it('hands over the notifications of its own channel, and none once closed', async () => {
    const payloads: string[] = [];
    const listener = await listenOnChannel(database.db, {
      channel: 'listener_a',
      onNotification: (p) => payloads.push(p),
      onLost: () => assert.fail('not lost'),
    });
    await database.db.any("SELECT pg_notify('listener_other', 'elsewhere'), pg_notify('listener_a', 'first')");
    await database.db.none('NOTIFY listener_a');
    await waitUntil('two notifications', () => payloads.length === 2);
    assert.deepEqual(payloads, ['first', '']);
    await listener.close();
    await listener.close();
    assert.equal(listener.listening, false);
    await database.db.any("SELECT pg_notify('listener_a', 'late')");
    await sleep(100);
    assert.deepEqual(payloads, ['first', '']);
    await waitUntil('the connection to end', async () => (await backendsOf('listener_a')) === 0);
  });

  it('reports a terminated backend once, ends it, and closes afterwards without a throw', async () => {
    const { listener, connection, lost } = await recordedListener('listener_b');
    assert.equal(listener.listening, true);
    assert.equal(await terminate('listener_b'), 1);
    await waitUntil('the loss to be reported', () => lost.length > 0);
    assert.equal(listener.listening, false);
    // node-postgres reporting it again, after pg-promise let go of the client: nothing throws.
    assert.doesNotThrow(() => connection.client.emit('error', new Error('the socket closed too')));
    await assert.rejects(listener.probe(), /not listening/);
    await listener.close();
    await sleep(50);
    assert.equal(lost.length, 1);
  });

  it('counts a failed probe as lost once, and a live one as nothing', async () => {
    const { listener, connection, lost } = await recordedListener('listener_c');
    await listener.probe();
    assert.equal(lost.length, 0);
    // A connection that stops answering: its statements fail as a read deadline would fail them.

    connection.one = (() => Promise.reject(new Error('Query read timeout'))) as unknown as typeof connection.one;
    await assert.rejects(listener.probe(), /read timeout/);
    await assert.rejects(listener.probe(), /not listening/);
    assert.equal(lost.length, 1);
    await waitUntil('the unanswering connection to be ended', async () => (await backendsOf('listener_c')) === 0);
    await listener.close();
    assert.equal(lost.length, 1);
  });

  it('closes when the backend is lost while its UNLISTEN is in flight, and reports nothing after close', async () => {
    const { listener, connection, lost } = await recordedListener('listener_d');

    errorOnUnlisten(connection);
    await listener.close();
    assert.deepEqual(lost, []);
    await waitUntil('the connection to end', async () => (await backendsOf('listener_d')) === 0);
  });

  it('rejects, holding no connection, when it cannot listen', async () => {
    const before = (
      await database.db.one<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE backend_type = $1', ['client backend'])
    ).n;
    await assert.rejects(listenOnChannel(database.db, { channel: '', onNotification: () => undefined, onLost: () => undefined }), /name/i);
    await waitUntil('no connection left', async () => {
      const now = (
        await database.db.one<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE backend_type = $1', ['client backend'])
      ).n;
      return now <= before;
    });
  });
});
