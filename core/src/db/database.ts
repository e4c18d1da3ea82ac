import pgPromise from 'pg-promise';

/**
 * One pg-promise root per process: it owns the driver settings. Databases opened from it share
 * them; each `createDatabase` call gets its own connection pool.
 */
const pgp = pgPromise({ capSQL: true });

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

/** Opens a pooled connection to `databaseUrl`; close it with `closeDatabase`. */
export function createDatabase(databaseUrl: string, options: DatabaseOptions = {}): Database {
  const connection = {
    connectionString: databaseUrl,
    max: options.max ?? 20,
    connectionTimeoutMillis: options.connectionTimeoutMillis ?? 3000,
    allowExitOnIdle: true,
    // Dates (`CURRENT_DATE`, the daily counter's reset day) are UTC days on every replica.
    // node-postgres sends `options` at connect; pg-promise's typings do not list it.
    options: '-c TimeZone=UTC',
  };
  return pgp(connection);
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
