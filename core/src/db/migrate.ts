import { fileURLToPath } from 'node:url';
import { runner } from 'node-pg-migrate';
import pg from 'pg';
import { connectionSettings } from './database.ts';
import type { ConnectionDeadlines } from './database.ts';

/**
 * SQL migrations of the whole platform (oracle, storage, inference), run in file-name order. They
 * live in core because both services own these tables; the job states they check are those of
 * core/src/jobs/job-state.ts. File names are `NNNN_what.sql`, numbered from 0001 without gaps or
 * repeats (test/core/migrations.test.ts).
 */
export const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations', import.meta.url));

/** The table where node-pg-migrate records each applied migration by its file name (no extension). */
export const MIGRATIONS_TABLE = 'pgmigrations';

/**
 * The migration session's deadlines (docs/operations.md, "Deadlines"). A start-up against a
 * database that accepts the connection and then says nothing must end, so that the process exits
 * and its supervisor starts it again, instead of hanging unready: the connect deadline covers the
 * server's first answer, and the read deadline bounds every statement, the wait for another
 * replica's migration lock included. Both are generous next to the API's (a migration may build
 * an index on a large table; a replica may wait while another migrates).
 */
export const MIGRATION_DEADLINES: ConnectionDeadlines = {
  connectMs: 5000,
  statementMs: 240_000,
  readMs: 250_000,
  idleInTransactionMs: 60_000,
  keepAliveMs: 10_000,
};

/** node-pg-migrate's own advisory lock id: held here too, so a rename and a run never interleave. */
const MIGRATION_LOCK_ID = 7241865325823964;

/**
 * Migrations renamed after they shipped (issue 22: two were numbered 0005 and none 0009), as
 * `[recorded name, current name]`. node-pg-migrate knows an applied migration only by the name in
 * `pgmigrations`, so a database migrated before the rename would see four "new" files preceding
 * applied ones and refuse to start (`checkOrder`). `migrate` first rewrites those recorded names,
 * in the same session and under the same lock as the run, so the renamed files count as applied.
 * Keep an entry for as long as a database migrated before it may still be upgraded.
 */
export const RENAMED_MIGRATIONS: ReadonlyArray<readonly [string, string]> = [
  ['0005_signature_reissue', '0006_signature_reissue'],
  ['0006_cancelled_jobs', '0007_cancelled_jobs'],
  ['0007_idempotency_keys', '0008_idempotency_keys'],
  ['0008_job_change_notify', '0009_job_change_notify'],
];

/** Rewrites the recorded names of renamed migrations; idempotent (an old name is gone once rewritten). */
async function renameRecordedMigrations(client: pg.Client): Promise<void> {
  const table = await client.query<{ exists: boolean }>(`SELECT to_regclass($1) IS NOT NULL AS exists`, [MIGRATIONS_TABLE]);
  if (table.rows[0]?.exists !== true) return;
  // One statement, so that the names never pass through a state where one name is recorded twice.
  await client.query(
    `UPDATE ${MIGRATIONS_TABLE} AS m SET name = r.current_name
       FROM unnest($1::text[], $2::text[]) AS r (recorded_name, current_name)
      WHERE m.name = r.recorded_name`,
    [RENAMED_MIGRATIONS.map(([recorded]) => recorded), RENAMED_MIGRATIONS.map(([, current]) => current)],
  );
}

/**
 * Applies every pending migration to the database at `databaseUrl`. Several processes (oracle
 * replicas, workers) may start at once: the advisory lock makes the others wait, then find
 * nothing left to do.
 */
export async function migrate(databaseUrl: string): Promise<void> {
  const client = new pg.Client(connectionSettings(databaseUrl, MIGRATION_DEADLINES));
  await client.connect();
  let failed = true;
  try {
    // Session-level advisory locks nest: the runner takes the same lock again on this session.
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    try {
      await renameRecordedMigrations(client);
      await runner({
        dbClient: client,
        dir: MIGRATIONS_DIR,
        direction: 'up',
        migrationsTable: MIGRATIONS_TABLE,
        checkOrder: true,
        singleTransaction: true,
        advisoryLockMode: 'wait',
        lockValue: MIGRATION_LOCK_ID,
        log: () => undefined,
      });
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]);
    }
    failed = false;
  } finally {
    // After a failure the server may be silent: a graceful end would wait for its goodbye. The
    // server releases the session's lock and rolls back its transaction when the socket closes.
    if (failed) (client as pg.Client & { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
    else await client.end();
  }
}
