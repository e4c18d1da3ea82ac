import { after, before } from 'node:test';
import type { PgBoss } from 'pg-boss';
import { closeDatabase, createDatabase } from '../../core/src/db/database.ts';
import type { Database } from '../../core/src/db/database.ts';
import { createBoss } from '../../core/src/queue.ts';
import { startTestPostgres } from '../../core/src/testing/postgres.ts';

/** A test database (migrated) with its pool. */
export interface TestDatabase {
  url: string;
  db: Database;
  /** Closes the pool and drops the database. */
  stop(): Promise<void>;
}

/** The database and pool a test starts in `before`. */
export async function startTestDatabase(): Promise<TestDatabase> {
  const pg = await startTestPostgres();
  const db = createDatabase(pg.url);
  return {
    url: pg.url,
    db,
    async stop() {
      await closeDatabase(db);
      await pg.stop();
    },
  };
}

/**
 * A test database started in the calling suite's `before` and stopped in its `after`: call it in
 * the suite's body, read its fields in the tests.
 */
export function databaseOfSuite(): Pick<TestDatabase, 'url' | 'db'> {
  let database: TestDatabase | undefined;
  before(async () => {
    database = await startTestDatabase();
  });
  after(() => database?.stop());
  const started = (): TestDatabase => {
    if (database === undefined) throw new Error("the suite's database is read before its `before` hook started it");
    return database;
  };
  return {
    get url() {
      return started().url;
    },
    get db() {
      return started().db;
    },
  };
}

/** A test database (migrated) with its pool and a started pg-boss on it. */
export interface QueueDatabase extends TestDatabase {
  boss: PgBoss;
  /** Stops pg-boss at once, closes the pool and drops the database. */
  stop(): Promise<void>;
}

/**
 * The database, pool and pg-boss most service tests start in `before`. pg-boss supervises nothing
 * (a test drives its queues) and its errors are dropped: a test asserts what it waits for.
 */
export async function startQueueDatabase(): Promise<QueueDatabase> {
  const database = await startTestDatabase();
  const boss = createBoss(database.url, { supervise: false });
  boss.on('error', () => undefined);
  await boss.start();
  return {
    ...database,
    boss,
    async stop() {
      await boss.stop({ graceful: false, close: true });
      await database.stop();
    },
  };
}
