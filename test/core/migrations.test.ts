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
import { fingerprintToBytes } from '../../core/src/fingerprint/encoding.ts';
import { fingerprintTerms } from '../../core/src/fingerprint/terms.ts';
import { uploadTitle } from '../../oracle/src/domain/song-edits.ts';

const FILE_NAME = /^(\d{4})_[a-z0-9_]+\.sql$/;

async function migrationFiles(): Promise<string[]> {
  return (await readdir(MIGRATIONS_DIR)).filter((name) => !name.startsWith('.')).sort();
}

/**
 * A folder `dir` holding every migration before the one named `…_<name>.sql`, for a test of that
 * migration on data written in the schema before it: `run` applies the folder's migrations to the
 * database at `url` (`down`: undoes the last), `addOwn` copies the migration itself in.
 */
async function migrationsBefore(
  name: string,
  dir: string,
  url: string,
): Promise<{ run: (direction?: 'up' | 'down') => Promise<unknown>; addOwn: () => Promise<void> }> {
  const files = await migrationFiles();
  const ownFile = files.find((file) => file.endsWith(`_${name}.sql`));
  assert.ok(ownFile !== undefined, `no migration named ${name}`);
  await mkdir(dir);
  for (const file of files.filter((other) => other < ownFile)) await copyFile(join(MIGRATIONS_DIR, file), join(dir, file));
  return {
    run: (direction = 'up') =>
      runMigrations(url, {
        dir,
        direction,
        count: direction === 'down' ? 1 : Infinity,
        migrationsTable: MIGRATIONS_TABLE,
        log: () => undefined,
      }),
    addOwn: () => copyFile(join(MIGRATIONS_DIR, ownFile), join(dir, ownFile)),
  };
}

/**
 * node-pg-migrate's runner over a client this test owns and ends, awaited: given a URL, the
 * runner ends its own client without waiting for it (`client.end()` unawaited in its close), so
 * a test that stops its server right after could see that connection terminated after the test
 * ended, an uncaught error that failed the file on a loaded machine.
 */
async function runMigrations(databaseUrl: string, options: Omit<Parameters<typeof runner>[0], 'databaseUrl' | 'dbClient'>): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await runner({ ...options, dbClient: client });
  } finally {
    await client.end();
  }
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
      await runMigrations(server.url, {
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

describe('migration 0021: ownership by creation (issue 50)', () => {
  let temp: TempDir;
  let server: EmbeddedPostgresServer;
  before(async () => {
    temp = await makeTempDir('migration-0021');
    server = await startEmbeddedPostgres({ dir: join(temp.path, 'pg'), port: await freePort(), ephemeral: true });
  });
  after(async () => {
    await server?.stop();
    await temp?.remove();
  });

  it('registers completed songs as of their completion, dates signature-time registrations back to it, and marks edits of uploads with the seconds they keep', async () => {
    // The database as the release before it left it: every migration before this one.
    const migrations = await migrationsBefore('ownership_by_creation', join(temp.path, 'earlier'), server.url);
    await migrations.run();

    const client = new pg.Client({ connectionString: server.url });
    await client.connect();
    try {
      const q = async <T extends pg.QueryResultRow>(text: string, values: unknown[] = []) => (await client.query<T>(text, values)).rows;
      const [owner] = await q<{ id: string }>(
        `INSERT INTO users (wallet_address, tier) VALUES ('0x${'11'.repeat(20)}', 'free') RETURNING id`,
      );
      const items = Uint32Array.from([0x12345678, 0x1234567f, 0xabcdef01, 0x0badf00d]);
      const fingerprint = Buffer.from(fingerprintToBytes(items));
      const job = async (completedAt: string, edit: { upload?: string; source?: string; parameters?: unknown } = {}) =>
        (
          await q<{ id: string }>(
            `INSERT INTO generation_jobs (user_id, user_address, prompt, duration, tier, status, progress, completed_at, fingerprint,
                                          edit_upload_id, edit_source_id, edit, audio_url, audio_hash)
             VALUES ($1, '0x${'11'.repeat(20)}', 'p', 20, 'free', 'completed', 100, $2, $3, $4, $5, $6, 'https://cdn.test/a.mp3',
                     '0x' || encode(sha256(gen_random_uuid()::text::bytea), 'hex')) RETURNING id`,
            [
              owner?.id,
              completedAt,
              fingerprint,
              edit.upload ?? null,
              edit.source ?? null,
              edit.parameters === undefined ? null : JSON.stringify(edit.parameters),
            ],
          )
        )[0]?.id ?? '';
      const unsigned = await job('2026-01-01T00:00:00Z');
      const signed = await job('2026-01-02T00:00:00Z');
      await q(
        `INSERT INTO fingerprint_registry (job_id, user_id, fingerprint, registered_at) VALUES ($1, $2, $3, '2026-02-01T00:00:00Z')`,
        [signed, owner?.id, fingerprint],
      );
      const [upload] = await q<{ id: string }>(
        `INSERT INTO uploads (user_id, object_key, format, bytes, sha256, sample_rate, channels, duration, rights_statement, rights_confirmed_at, expires_at)
         VALUES ($1, 'uploads/x.wav', 'wav', 44, '0x${'ab'.repeat(32)}', 44100, 1, 10.4, 'v1', now(), now() + interval '1 day') RETURNING id`,
        [owner?.id],
      );
      const extended = await job('2026-01-03T00:00:00Z', { upload: upload?.id, parameters: { task: 'extend' } });
      const repainted = await job('2026-01-04T00:00:00Z', { source: extended, parameters: { task: 'repaint', start: 4, end: 6 } });
      const remixed = await job('2026-01-05T00:00:00Z', { upload: upload?.id, parameters: { task: 'remix', strength: 0.5 } });
      const ownEdit = await job('2026-01-06T00:00:00Z', { source: unsigned, parameters: { task: 'extend' } });

      // This migration itself (migration 0025 later drops Chromaprint's registry for the landmark one).
      await migrations.addOwn();
      await migrations.run();
      const registry = await q<{ job_id: string; made: boolean; terms: number[] }>(
        `SELECT r.job_id, r.registered_at = j.completed_at AS made,
                array(SELECT t.term FROM fingerprint_terms t WHERE t.registry_id = r.id ORDER BY t.term) AS terms
           FROM fingerprint_registry r JOIN generation_jobs j ON j.id = r.job_id ORDER BY j.completed_at`,
      );
      const expectedTerms = Array.from(fingerprintTerms(items));
      assert.deepEqual(
        registry.map((row) => [row.job_id, row.made, row.terms]),
        [unsigned, signed, extended, repainted, remixed, ownEdit].map((id) => [id, true, id === signed ? [] : expectedTerms]),
        'every completed song registered as of its completion, with the terms the oracle computes (the signed one keeps its own rows)',
      );
      const outside = await q<{ id: string; outside_material: boolean; outside_spans: unknown }>(
        'SELECT id, outside_material, outside_spans FROM generation_jobs ORDER BY completed_at',
      );
      assert.deepEqual(
        outside.map((row) => [row.id, row.outside_material, row.outside_spans]),
        [
          [unsigned, false, []],
          [signed, false, []],
          [extended, true, [[0, 10]]],
          [
            repainted,
            true,
            [
              [0, 4],
              [6, 10],
            ],
          ],
          [remixed, true, []],
          [ownEdit, false, []],
        ],
      );
    } finally {
      await client.end();
    }
  });

  // On this describe's server, in a database of its own (no second PostgreSQL started for it).
  it('the upload-edit-titles migration titles the edits of an unnamed upload, and their edits, after the day it was uploaded; a renamed edit and a named upload keep theirs', async () => {
    const admin = new pg.Client({ connectionString: server.url });
    await admin.connect();
    await admin.query('CREATE DATABASE upload_edit_titles');
    await admin.end();
    const url = new URL(server.url);
    url.pathname = '/upload_edit_titles';
    const migrations = await migrationsBefore('upload_edit_titles', join(temp.path, 'before-upload-edit-titles'), url.href);
    await migrations.run();
    const client = new pg.Client({ connectionString: url.href });
    await client.connect();
    try {
      const q = async <T extends pg.QueryResultRow>(text: string, values: unknown[] = []) => (await client.query<T>(text, values)).rows;
      const [owner] = await q<{ id: string }>(
        `INSERT INTO users (wallet_address, tier) VALUES ('0x${'22'.repeat(20)}', 'free') RETURNING id`,
      );
      const upload = async (name: string | null, createdAt: string) =>
        (
          await q<{ id: string }>(
            `INSERT INTO uploads (user_id, object_key, format, bytes, sha256, sample_rate, channels, duration, rights_statement,
                                  rights_confirmed_at, expires_at, name, created_at)
             VALUES ($1, 'uploads/' || gen_random_uuid() || '.wav', 'wav', 44, '0x${'cd'.repeat(32)}', 44100, 1, 10, 'v1', now(),
                     now() + interval '1 day', $2, $3) RETURNING id`,
            [owner?.id, name, createdAt],
          )
        )[0]?.id ?? '';
      const edit = async (title: string, source: { upload?: string; job?: string }) =>
        (
          await q<{ id: string }>(
            `INSERT INTO generation_jobs (user_id, user_address, prompt, duration, tier, status, edit_upload_id, edit_source_id, edit, title)
             VALUES ($1, '0x${'22'.repeat(20)}', 'p', 20, 'free', 'queued', $2, $3, '{"task": "extend"}', $4) RETURNING id`,
            [owner?.id, source.upload ?? null, source.job ?? null, title],
          )
        )[0]?.id ?? '';
      // Late on 8 September in UTC (already the 9th east of it): the day is UTC's, the month en-GB's "Sept".
      const unnamed = await upload(null, '2026-09-08T23:30:00Z');
      const extended = await edit('Uploaded audio (extended +4 s)', { upload: unnamed });
      const repainted = await edit('Uploaded audio (extended +4 s) (repainted 4–6 s)', { job: extended });
      const renamed = await edit('Night bridge', { upload: unnamed });
      const named = await upload('chord.wav', '2026-09-08T10:00:00Z');
      const ofNamed = await edit('chord (extended +4 s)', { upload: named });

      await migrations.addOwn();
      await migrations.run();
      const titles = new Map(
        (await q<{ id: string; title: string }>('SELECT id, title FROM generation_jobs')).map((row) => [row.id, row.title]),
      );
      assert.deepEqual(
        [extended, repainted, renamed, ofNamed].map((id) => titles.get(id)),
        [
          'Upload of 8 Sept 2026 (extended +4 s)',
          'Upload of 8 Sept 2026 (extended +4 s) (repainted 4–6 s)',
          'Night bridge',
          'chord (extended +4 s)',
        ],
      );
      // The oracle titles a new edit of that upload the same way.
      assert.equal(uploadTitle({ name: null, createdAt: new Date('2026-09-08T23:30:00Z') }), 'Upload of 8 Sept 2026');
    } finally {
      await client.end();
    }
  });
});

describe('migration 0027: the landmark postings packed one row per hash (issue 50)', () => {
  let temp: TempDir;
  let server: EmbeddedPostgresServer;
  before(async () => {
    temp = await makeTempDir('migration-0027');
    server = await startEmbeddedPostgres({ dir: join(temp.path, 'pg'), port: await freePort(), ephemeral: true });
  });
  after(async () => {
    await server?.stop();
    await temp?.remove();
  });

  it("packs each hash's postings in registration order, drops a stop word's, and unpacks them on the way down", async () => {
    const { run, addOwn } = await migrationsBefore('landmark_posting_lists', join(temp.path, 'earlier'), server.url);
    await run('up');
    const client = new pg.Client({ connectionString: server.url });
    await client.connect();
    try {
      const q = async <T extends pg.QueryResultRow>(text: string, values: unknown[] = []) => (await client.query<T>(text, values)).rows;
      // Hash 7: three postings of two sounds (t and shape at their widest); hash 9: 65, past the cap of 64.
      const postings = [
        [7, 2, 5, 90 * 256 + 115],
        [7, 1, 1_000_000, 3],
        [7, 1, 4, 0],
        ...Array.from({ length: 65 }, (_, i) => [9, i + 1, i, 256]),
      ];
      await q(
        'INSERT INTO landmark_postings (hash, sound_id, t, shape) SELECT * FROM unnest($1::int4[], $2::int4[], $3::int4[], $4::int2[])',
        [0, 1, 2, 3].map((c) => postings.map((p) => p[c])),
      );
      await addOwn();
      await run('up');
      const packed = await q<{ hash: number; n: number; postings: Buffer }>('SELECT hash, n, postings FROM landmark_hashes ORDER BY hash');
      const entry = (sound: number, t: number, shape: number) => {
        const bytes = Buffer.alloc(10);
        bytes.writeInt32BE(sound, 0);
        bytes.writeInt32BE(t, 4);
        bytes.writeInt16BE(shape, 8);
        return bytes;
      };
      assert.deepEqual(
        packed.map((row) => [row.hash, row.n, row.postings.toString('hex')]),
        [
          [7, 3, Buffer.concat([entry(1, 4, 0), entry(1, 1_000_000, 3), entry(2, 5, 90 * 256 + 115)]).toString('hex')],
          [9, 65, ''],
        ],
      );
      assert.equal((await q("SELECT to_regclass('landmark_postings') AS t"))[0]?.t, null);
      await run('down');
      assert.deepEqual(
        (
          await q<{ hash: number; sound_id: number; t: number; shape: number }>(
            'SELECT hash, sound_id, t, shape FROM landmark_postings ORDER BY sound_id, t',
          )
        ).map((row) => [row.hash, row.sound_id, row.t, row.shape]),
        [
          [7, 1, 4, 0],
          [7, 1, 1_000_000, 3],
          [7, 2, 5, 90 * 256 + 115],
        ],
        "the packed postings come back; the stop word's do not",
      );
    } finally {
      await client.end();
    }
  });
});

describe("migration 0028: the landmark registry's postings in all (issue 50)", () => {
  let temp: TempDir;
  let server: EmbeddedPostgresServer;
  before(async () => {
    temp = await makeTempDir('migration-0028');
    server = await startEmbeddedPostgres({ dir: join(temp.path, 'pg'), port: await freePort(), ephemeral: true });
  });
  after(async () => {
    await server?.stop();
    await temp?.remove();
  });

  it("starts the total at every posting the hashes were registered with, stop words' included, and drops it on the way down", async () => {
    const { run, addOwn } = await migrationsBefore('landmark_registry_postings', join(temp.path, 'earlier'), server.url);
    await run('up');
    const client = new pg.Client({ connectionString: server.url });
    await client.connect();
    try {
      const q = async <T extends pg.QueryResultRow>(text: string) => (await client.query<T>(text)).rows;
      // Two hashes of postings kept, and a stop word's count.
      await q(
        `INSERT INTO landmark_hashes (hash, n, postings) VALUES (1, 2, '\\x0000000100000002000300000001000000040005'), (2, 1, '\\x00000002000000070008'), (3, 300, '')`,
      );
      await addOwn();
      await run('up');
      const slots = await q<{ slot: number; postings: string }>(
        'SELECT slot, postings::text FROM landmark_registry_postings ORDER BY slot',
      );
      assert.deepEqual(
        slots.map((row) => [row.slot, row.postings]),
        Array.from({ length: 16 }, (_, slot) => [slot, slot === 0 ? '303' : '0']),
      );
      await run('down');
      assert.equal((await q<{ t: string | null }>("SELECT to_regclass('landmark_registry_postings')::text AS t"))[0]?.t, null);
    } finally {
      await client.end();
    }
  });
});
