/**
 * The migration files: numbered 0001, 0002, … without a gap or a repeat, and a database migrated
 * under the names they had before the renumbering (issue 22) upgrades in place: nothing re-runs,
 * nothing is refused, and the recorded names become the current ones. The old database is made
 * by node-pg-migrate itself, as the previous release ran it, on a real embedded PostgreSQL.
 */
import assert from 'node:assert/strict';
import { copyFile, mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runner } from 'node-pg-migrate';
import pg from 'pg';
import { MIGRATIONS_DIR, MIGRATIONS_TABLE, RENAMED_MIGRATIONS, migrate } from '../../core/src/db/migrate.ts';
import { startEmbeddedPostgres } from '../../core/src/embedded-postgres.ts';
import type { EmbeddedPostgresServer } from '../../core/src/embedded-postgres.ts';
import { freePort } from '../../core/src/testing/free-port.ts';
import { makeTempDir } from '../../core/src/testing/temp-dirs.ts';
import type { TempDir } from '../../core/src/testing/temp-dirs.ts';

const FILE_NAME = /^(\d{4})_[a-z0-9_]+\.sql$/;

async function migrationFiles(): Promise<string[]> {
  return (await readdir(MIGRATIONS_DIR)).filter((name) => !name.startsWith('.')).sort();
}

async function recordedNames(url: string): Promise<{ name: string; run_on: Date }[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<{ name: string; run_on: Date }>(`SELECT name, run_on FROM ${MIGRATIONS_TABLE} ORDER BY id`)).rows;
  } finally {
    await client.end();
  }
}

describe('database migrations', () => {
  it('are numbered 0001, 0002, … in their file names: every number once, no gap', async () => {
    const files = await migrationFiles();
    assert.ok(files.length >= 12, `expected the migrations in ${MIGRATIONS_DIR}, found ${files.length}`);
    const numbers = files.map((file) => {
      const match = FILE_NAME.exec(file);
      assert.ok(match !== null, `${file} is not named NNNN_what.sql`);
      return Number(match[1]);
    });
    assert.deepEqual(
      numbers,
      files.map((_, index) => index + 1),
      `migration numbers must run 1..${files.length} once each: ${files.join(', ')}`,
    );
  });

  it('renames only files that exist now, each from a name no file has any more', async () => {
    const names = new Set((await migrationFiles()).map((file) => file.replace(/\.sql$/, '')));
    for (const [recorded, current] of RENAMED_MIGRATIONS) {
      assert.ok(names.has(current), `${current} (renamed from ${recorded}) is not a migration file`);
      assert.ok(!names.has(recorded), `${recorded} is still a migration file; renaming its record would hide it`);
    }
  });

  describe('a database migrated under the old file names', () => {
    let temp: TempDir;
    let server: EmbeddedPostgresServer;
    before(async () => {
      temp = await makeTempDir('migrations');
      server = await startEmbeddedPostgres({ dir: join(temp.path, 'pg'), port: await freePort(), ephemeral: true });
    });
    after(async () => {
      await server?.stop();
      await temp?.remove();
    });

    it('upgrades in place: the renamed migrations are not run again, the order check passes, the records carry the new names', async () => {
      // The migration folder as the previous release shipped it: the renamed files under their old names.
      const oldDir = join(temp.path, 'old-migrations');
      await mkdir(oldDir);
      const oldName = new Map(RENAMED_MIGRATIONS.map(([recorded, current]) => [current, recorded]));
      for (const file of await migrationFiles()) {
        const base = file.replace(/\.sql$/, '');
        await copyFile(join(MIGRATIONS_DIR, file), join(oldDir, `${oldName.get(base) ?? base}.sql`));
      }
      await runner({
        databaseUrl: server.url,
        dir: oldDir,
        direction: 'up',
        migrationsTable: MIGRATIONS_TABLE,
        checkOrder: true,
        singleTransaction: true,
        log: () => undefined,
      });
      const recordedBefore = await recordedNames(server.url);
      assert.ok(
        recordedBefore.some((row) => row.name === '0005_signature_reissue'),
        'the old database records the old names',
      );

      await migrate(server.url);
      const upgraded = await recordedNames(server.url);
      const current = (await migrationFiles()).map((file) => file.replace(/\.sql$/, ''));
      assert.deepEqual(
        upgraded.map((row) => row.name),
        current,
      );
      // Same rows, same run times: renamed, not applied a second time.
      assert.deepEqual(
        upgraded.map((row) => row.run_on.getTime()),
        recordedBefore.map((row) => row.run_on.getTime()),
      );

      // Starting again (another replica, a restart) changes nothing.
      await migrate(server.url);
      assert.deepEqual(await recordedNames(server.url), upgraded);
    });
  });
});
