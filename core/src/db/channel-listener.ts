/**
 * One PostgreSQL channel LISTENed on a direct connection of its own: what the job events hub
 * (oracle/src/domain/job-events-hub.ts) and the webhook outbox relay
 * (oracle/src/webhooks/outbox-relay.ts) hold for the life of a process.
 *
 * The connection is lost at most once and ended at most once, whoever notices first: pg-promise
 * reports a lost direct connection through `onLost` once, but it throws at once, rather than
 * rejecting, on a second `done` or on a statement against a connection it released, and
 * node-postgres may emit `error` on a client after pg-promise stopped listening to it, which with
 * no listener left would throw out of the emitter. So every use of the connection here goes
 * through one guard, and none of those failures reaches the caller as a throw.
 */
import type { Notification } from 'pg';
import type { Database } from './database.ts';

type Connection = Awaited<ReturnType<Database['connect']>>;

export interface ChannelListenerOptions {
  channel: string;
  /** Each notification's payload on `channel` (empty when it has none). */
  onNotification(payload: string): void;
  /**
   * The connection was lost once it listened (a database restart, `pg_terminate_backend`, a probe
   * that failed): called once, never after `close`. It has been ended already.
   */
  onLost(error: unknown): void;
}

export interface ChannelListener {
  /** Whether the connection still listens: neither lost nor closed. */
  readonly listening: boolean;
  /**
   * A statement on the listening connection, for a connection that stops answering without closing
   * (a partition): a failure counts as the connection lost (`onLost`), and the promise rejects.
   */
  probe(): Promise<void>;
  /** Stops listening and ends the connection. Idempotent; never rejects. */
  close(): Promise<void>;
}

type State = 'connecting' | 'listening' | 'lost' | 'closed';

/** Connects and LISTENs on `options.channel`; rejects, holding nothing, when either fails. */
export async function listenOnChannel(db: Database, options: ChannelListenerOptions): Promise<ChannelListener> {
  let state: State = 'connecting';
  let connection: Connection | undefined;

  const onMessage = (message: Notification): void => {
    if (state === 'listening' && message.channel === options.channel) options.onNotification(message.payload ?? '');
  };
  // Stays on the client for good: an error emitted after pg-promise let go of it must not throw.
  const ignoreLateError = (): void => undefined;

  /** Ends the connection once; a connection pg-promise released already throws, which is ignored. */
  const end = async (): Promise<void> => {
    const held = connection;
    connection = undefined;
    if (held === undefined) return;
    held.client.removeListener('notification', onMessage);
    await Promise.resolve()
      .then(() => held.done())
      .catch(() => undefined);
  };

  const lost = (error: unknown): void => {
    if (state !== 'listening' && state !== 'connecting') return;
    const wasListening = state === 'listening';
    state = 'lost';
    void end();
    if (wasListening) options.onLost(error);
  };

  connection = await db.connect({ direct: true, onLost: (error) => lost(error) });
  connection.client.on('error', ignoreLateError);
  connection.client.on('notification', onMessage);
  const listening = connection;
  try {
    await Promise.resolve().then(() => listening.none('LISTEN $1:name', [options.channel]));
  } catch (error) {
    state = 'lost';
    await end();
    throw error;
  }
  if (state !== 'connecting') {
    await end();
    throw new Error(`the connection was lost while it began to listen on ${options.channel}`);
  }
  state = 'listening';

  return {
    get listening() {
      return state === 'listening';
    },
    async probe() {
      const held = connection;
      if (state !== 'listening' || held === undefined) throw new Error(`not listening on ${options.channel}`);
      try {
        await Promise.resolve().then(() => held.one('SELECT 1 AS alive'));
      } catch (error) {
        lost(error);
        throw error;
      }
    },
    async close() {
      if (state === 'closed') return;
      const wasListening = state === 'listening';
      state = 'closed';
      const held = connection;
      if (wasListening && held !== undefined)
        await Promise.resolve()
          .then(() => held.none('UNLISTEN $1:name', [options.channel]))
          .catch(() => undefined);
      await end();
    },
  };
}
