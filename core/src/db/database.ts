import pgPromise from 'pg-promise';

/**
 * The deadlines of every PostgreSQL connection the API and the workers open (docs/operations.md,
 * "Deadlines"). A database that stops answering without closing (a partition, a stuck proxy)
 * must cost a request a bounded wait, never a hang:
 *
 * - `connectMs`: waiting for a pooled connection, or opening one up to the server's ready message.
 * - `statementMs`: the server cancels a statement running longer (`statement_timeout`), with a
 *   clean error that keeps the connection usable. The API's statements take milliseconds.
 * - `readMs`: the client gives up on an answer that has not come (`query_timeout`), then closes
 *   the connection (`destroyOnReadTimeout`): its protocol state is unknown. Longer than
 *   `statementMs`, so a slow statement is cancelled by the server first.
 * - `idleInTransactionMs`: the server ends a session idle inside a transaction this long
 *   (`idle_in_transaction_session_timeout`): a client cut off mid-transaction releases its locks
 *   (the queue admission lock among them) instead of holding them until TCP gives up.
 * - `keepAliveMs`: TCP keepalive probes start after this much silence, so a peer that vanished
 *   is noticed by the kernel on connections no statement is waiting on.
 *
 * A request waits at most twice (its work, then the hourly refund of its 503), each wait at most
 * `connectMs + readMs`: the request deadline is `REQUEST_DEADLINE_MS`.
 */
export const DATABASE_DEADLINES = {
  connectMs: 2000,
  statementMs: 3000,
  readMs: 4000,
  idleInTransactionMs: 10_000,
  keepAliveMs: 10_000,
} as const;

/** The longest an API request waits on an unanswering database before its 503 goes out. */
export const REQUEST_DEADLINE_MS = 2 * (DATABASE_DEADLINES.connectMs + DATABASE_DEADLINES.readMs);

/** node-postgres' message when `query_timeout` passes. */
export const QUERY_READ_TIMEOUT_MESSAGE = 'Query read timeout';

interface ConnectionWithStream {
  connection?: { stream?: { destroy(): void } };
}

/**
 * node-postgres answers a read timeout but leaves the statement in flight on the connection, so
 * every later query on it would queue behind an answer that may never come (and the pool would
 * hand it out again). Closing the socket makes the pool drop it; the server rolls back whatever
 * the statement's transaction did once it sees the close.
 */
function destroyOnReadTimeout(error: unknown, client: unknown): void {
  if (!(error instanceof Error) || error.message !== QUERY_READ_TIMEOUT_MESSAGE) return;
  (client as ConnectionWithStream | undefined)?.connection?.stream?.destroy();
}

/**
 * One pg-promise root per process: it owns the driver settings. Databases opened from it share
 * them; each `createDatabase` call gets its own connection pool.
 */
const pgp = pgPromise({
  capSQL: true,
  error(error: unknown, context: { client?: unknown }) {
    destroyOnReadTimeout(error, context.client);
  },
});

export type Database = pgPromise.IDatabase<object>;
export type DatabaseTask = pgPromise.ITask<object>;
/** A pool or a task/transaction on it: statements that may run inside a caller's transaction take this. */
export type Queryable = Database | DatabaseTask;

export interface DatabaseOptions {
  /** Pool size. */
  max?: number;
  /** How long to wait for a new connection before the query fails (ms). */
  connectionTimeoutMillis?: number;
}

export interface ConnectionDeadlines {
  connectMs: number;
  statementMs: number;
  readMs: number;
  idleInTransactionMs: number;
  keepAliveMs: number;
}

/**
 * node-postgres connection settings carrying `deadlines` (pg-promise and pg-boss pools, direct
 * clients). Dates (`CURRENT_DATE`, the daily counter's reset day) are UTC days on every replica.
 */
export function connectionSettings(databaseUrl: string, deadlines: ConnectionDeadlines = DATABASE_DEADLINES) {
  return {
    connectionString: databaseUrl,
    connectionTimeoutMillis: deadlines.connectMs,
    statement_timeout: deadlines.statementMs,
    query_timeout: deadlines.readMs,
    idle_in_transaction_session_timeout: deadlines.idleInTransactionMs,
    keepAlive: true,
    keepAliveInitialDelayMillis: deadlines.keepAliveMs,
    // node-postgres sends `options` at connect; pg-promise's typings do not list it.
    options: '-c TimeZone=UTC',
  };
}

/** Opens a pooled connection to `databaseUrl`; close it with `closeDatabase`. */
export function createDatabase(databaseUrl: string, options: DatabaseOptions = {}): Database {
  const settings = connectionSettings(databaseUrl);
  return pgp({
    ...settings,
    max: options.max ?? 20,
    connectionTimeoutMillis: options.connectionTimeoutMillis ?? settings.connectionTimeoutMillis,
    allowExitOnIdle: true,
  });
}

/**
 * Closes the pool and waits for its connections to be gone. pg-promise's `$pool.end()` returns
 * before the sockets close and drops its pool error listener; a server stopping right after
 * would then raise an unheard error on a closing connection, so one is listened for here.
 */
export async function closeDatabase(db: Database): Promise<void> {
  const pool = db.$pool;
  pool.on('error', () => undefined);
  await pool.end();
  const deadline = Date.now() + 5000;
  while (pool.totalCount > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
