import type { PgBoss } from 'pg-boss';
import { closeDatabase, createDatabase } from '../../core/src/db/database.ts';
import type { Database } from '../../core/src/db/database.ts';
import { createBoss } from '../../core/src/queue.ts';
import { startTestPostgres } from '../../core/src/testing/postgres.ts';

/** A test database (migrated) with its pool and a started pg-boss on it. */
export interface QueueDatabase {
  url: string;
  db: Database;
  boss: PgBoss;
  /** Stops pg-boss at once, closes the pool and drops the database. */
  stop(): Promise<void>;
}

/**
 * The database, pool and pg-boss most service tests start in `before`. pg-boss supervises nothing
 * (a test drives its queues) and its errors are dropped: a test asserts what it waits for.
 */
export async function startQueueDatabase(): Promise<QueueDatabase> {
  const pg = await startTestPostgres();
  const db = createDatabase(pg.url);
  const boss = createBoss(pg.url, { supervise: false });
  boss.on('error', () => undefined);
  await boss.start();
  return {
    url: pg.url,
    db,
    boss,
    async stop() {
      await boss.stop({ graceful: false, close: true });
      await closeDatabase(db);
      await pg.stop();
    },
  };
}
