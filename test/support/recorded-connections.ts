import type { Database } from '../../core/src/db/database.ts';

/** A direct connection as `Database['connect']` hands it out. */
export type DirectConnection = Awaited<ReturnType<Database['connect']>>;

/**
 * `db` whose connections are handed to `seen` as they open: a test reaches the connection a
 * component listens on (to emit a client error on it, or make a statement fail) without a seam in
 * the component.
 */
export function recordingConnections(db: Database, seen: (connection: DirectConnection) => void): Database {
  return new Proxy(db, {
    get(target, property, receiver) {
      if (property !== 'connect') return Reflect.get(target, property, receiver) as unknown;
      return async (...args: Parameters<Database['connect']>) => {
        const connection = await target.connect(...args);
        seen(connection);
        return connection;
      };
    },
  });
}

/**
 * Makes `connection`'s client emit an error as its `UNLISTEN` is sent: the backend going away
 * while a listener closes.
 */
export function errorOnUnlisten(connection: DirectConnection): void {
  const none = connection.none.bind(connection);
  connection.none = ((query: unknown, values?: unknown) => {
    if (typeof query === 'string' && query.startsWith('UNLISTEN')) connection.client.emit('error', new Error('the backend went away'));
    return none(query as string, values);
  }) as typeof connection.none;
}
