import { fileURLToPath } from 'node:url';
import { runner } from 'node-pg-migrate';

/**
 * SQL migrations of the whole platform (oracle, storage, inference), run in file-name order. They
 * live in core because both services own these tables; the job states they check are those of
 * core/src/jobs/job-state.ts.
 */
export const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations', import.meta.url));

/**
 * Applies every pending migration to the database at `databaseUrl`. Several processes (oracle
 * replicas, workers) may start at once: the advisory lock makes the others wait, then find
 * nothing left to do.
 */
export async function migrate(databaseUrl: string): Promise<void> {
  await runner({
    databaseUrl,
    dir: MIGRATIONS_DIR,
    direction: 'up',
    migrationsTable: 'pgmigrations',
    checkOrder: true,
    singleTransaction: true,
    advisoryLockMode: 'wait',
    log: () => undefined,
  });
}
