import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile, rename, rm, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { packagedNativeDir, startEmbeddedPostgres } from '../embedded-postgres.ts';
import { MIGRATIONS_DIR, migrate } from '../db/migrate.ts';
import { freePort } from './free-port.ts';
import { makeTempDir, TEMP_PREFIX } from './temp-dirs.ts';

const run = promisify(execFile);

export interface TestPostgres {
  /** Connection string of a migrated database. */
  url: string;
  /** The server's log file (named in start-up errors). */
  logPath: string;
  /** Stops the server and deletes its data (in a shared cluster: drops the database). */
  stop(): Promise<void>;
  /** Stops only the server process (to test outages); `resume` brings it back with its data. A shared cluster's database refuses both: see `own`. */
  suspend(): Promise<void>;
  resume(): Promise<void>;
}

/**
 * Where scripts/test-services.ts hands its shared cluster to the test processes it starts: the
 * connection string of that cluster's `postgres` database, from which each caller creates its own.
 */
export const SHARED_POSTGRES_ENV = 'SONGMINT_TEST_POSTGRES_URL';
/** The shared cluster's log file, named in errors as a private cluster's is. */
export const SHARED_POSTGRES_LOG_ENV = 'SONGMINT_TEST_POSTGRES_LOG';

/**
 * The migrated database of the shared cluster that each test database is copied from. It accepts
 * no connections, so a copy never waits for (or fails on) a session someone left open in it.
 */
const SHARED_TEMPLATE_DATABASE = 'songmint_migrated';

/**
 * The shared cluster's connection limit: three test files at once, each with its pools, pg-boss
 * and worker processes (a private cluster allows 200 to one file).
 */
const SHARED_MAX_CONNECTIONS = 1000;

export interface TestPostgresOptions {
  /**
   * A cluster of the caller's own even where the run shares one: for outages (`suspend` and
   * `resume`), and for tests that act on the whole server (terminating its backends, its settings).
   */
  own?: boolean;
}

/**
 * A real PostgreSQL with every migration applied. Within `npm run test:services` (which sets
 * SHARED_POSTGRES_ENV) a fresh database of its own in the run's shared cluster, unless `own`;
 * elsewhere (a test file run alone, the fault suites, the benches) a cluster of its own in a temp
 * folder on a free port.
 *
 * Why a shared cluster: test files asked for some fifty clusters per run, and each copy of the
 * 41 MB template, start and shutdown cost about a CPU-second on a suite bound by its two cores;
 * `CREATE DATABASE ... TEMPLATE` copies only the migrated database, inside a server already up.
 * Databases are isolated where these tests look: tables, LISTEN/NOTIFY channels and advisory
 * locks (pg-boss's, the migration lock, the fleet's slots) are all per database.
 */
export async function startTestPostgres(options: TestPostgresOptions = {}): Promise<TestPostgres> {
  const shared = process.env[SHARED_POSTGRES_ENV];
  if (options.own !== true && shared !== undefined && shared !== '') {
    return createTestDatabase(shared, process.env[SHARED_POSTGRES_LOG_ENV] ?? 'the log of the shared test cluster');
  }
  return startOwnTestPostgres();
}

export interface SharedTestPostgres {
  /** The variables that lead startTestPostgres to this cluster (SHARED_POSTGRES_ENV, SHARED_POSTGRES_LOG_ENV). */
  env: Record<string, string>;
  /** Stops the server and deletes its data. */
  stop(): Promise<void>;
}

/**
 * The cluster that the test processes of one run share (scripts/test-services.ts starts it before
 * the files and stops it after them; as its child, the server also ends when the runner dies):
 * a private test cluster with a higher connection limit and the migrated template database.
 */
export async function startSharedTestPostgres(): Promise<SharedTestPostgres> {
  const cluster = await startOwnTestPostgres({ maxConnections: SHARED_MAX_CONNECTIONS });
  try {
    // From template1: the source of a copy must have no other session, and `postgres` is the one migrated.
    await adminQuery(
      withDatabase(cluster.url, 'template1'),
      `CREATE DATABASE ${SHARED_TEMPLATE_DATABASE} TEMPLATE postgres IS_TEMPLATE true ALLOW_CONNECTIONS false`,
    );
  } catch (error) {
    await cluster.stop();
    throw error;
  }
  return {
    env: { [SHARED_POSTGRES_ENV]: cluster.url, [SHARED_POSTGRES_LOG_ENV]: cluster.logPath },
    stop: () => cluster.stop(),
  };
}

/** A fresh copy of the shared cluster's migrated database; `stop` drops it (closing sessions left open). */
async function createTestDatabase(adminUrl: string, logPath: string): Promise<TestPostgres> {
  // Unquoted identifiers: lower case letters, digits and underscores only.
  const name = `test_${process.pid}_${randomBytes(6).toString('hex')}`;
  await adminQuery(adminUrl, `CREATE DATABASE ${name} TEMPLATE ${SHARED_TEMPLATE_DATABASE}`);
  const url = withDatabase(adminUrl, name);
  const drop = () => adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  try {
    // A no-op on the copy, as on a private cluster: the database is migrated whichever way it came about.
    await migrate(url);
  } catch (error) {
    await drop().catch(() => undefined);
    throw error;
  }
  const shared = (): Promise<void> =>
    Promise.reject(
      new Error(
        `the test database ${name} lives in the run's shared PostgreSQL, which other test files use: pass { own: true } to startTestPostgres (ownPostgres to startTestApp) to stop and restart a server`,
      ),
    );
  let dropped: Promise<void> | undefined;
  return {
    url,
    logPath,
    stop() {
      dropped ??= drop();
      return dropped;
    },
    suspend: shared,
    resume: shared,
  };
}

/** Runs one statement in a short session (CREATE and DROP DATABASE cannot run in a pool's transaction). */
async function adminQuery(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  client.on('error', () => undefined);
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** `url` with its database replaced by `database`. */
function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/**
 * A real PostgreSQL of the caller's own in a temp folder on a free port, with every migration
 * applied. Start-up is bounded (core/src/startup.ts); the folder goes away on `stop`, on failure
 * and at process exit.
 *
 * The cluster starts as a copy of a migrated template cluster (see `migratedTemplate`) rather
 * than from `initdb`: a copy and a start take a third of the time of initdb and a start. The
 * migrations still run on every start (a no-op on the copy), so the database is migrated
 * whichever way the cluster came about.
 */
async function startOwnTestPostgres(settings: { maxConnections?: number } = {}): Promise<TestPostgres> {
  const dir = await makeTempDir('pg');
  let server;
  try {
    await copyTemplateInto(join(dir.path, 'pgdata'));
    server = await startEmbeddedPostgres({
      dir: dir.path,
      port: await freePort(),
      ephemeral: true,
      ...(settings.maxConnections === undefined ? {} : { maxConnections: settings.maxConnections }),
    });
  } catch (error) {
    await dir.remove();
    throw error;
  }
  const started = server;
  const removeData = async () => {
    // As root with an unreachable temp folder the cluster lives in a stand-in folder.
    if (started.home !== dir.path) await rm(started.home, { recursive: true, force: true });
    await dir.remove();
  };
  try {
    await migrate(started.url);
  } catch (error) {
    await started.stop();
    await removeData();
    throw error;
  }
  let running = true;
  return {
    url: started.url,
    logPath: started.logPath,
    async stop() {
      if (running) await started.stop();
      running = false;
      await removeData();
    },
    async suspend() {
      await started.stop();
      running = false;
    },
    async resume() {
      await started.start();
      running = true;
    },
  };
}

/** Template folders start with this (no owner file: the temp sweeper removes one unused for a day). */
const TEMPLATE_PREFIX = `${TEMP_PREFIX}pgtemplate-`;

/**
 * Copies the migrated template's data folder to `pgdata` (with owners and modes: as root the
 * files belong to the `postgres` user). Best effort: when there is no template or the copy fails,
 * `pgdata` is left absent and startEmbeddedPostgres runs initdb as it would anyway.
 */
async function copyTemplateInto(pgdata: string): Promise<void> {
  let template: string | undefined;
  try {
    template = await migratedTemplate();
    if (template === undefined) return;
    await run('cp', ['-a', template, pgdata]);
    // Marks it as in use, so the sweeper (a day unused) leaves it alone.
    const now = new Date();
    await utimes(template, now, now).catch(() => undefined);
  } catch {
    await rm(pgdata, { recursive: true, force: true });
  }
}

let templateOfThisProcess: Promise<string | undefined> | undefined;

/**
 * The data folder of a stopped cluster on which every migration has run, shared by the test
 * processes of a run (and later runs) through the temp folder. Its name carries a digest of
 * what makes it: the PostgreSQL build, core/src/embedded-postgres.ts (initdb's settings),
 * migrate.ts and every migration file; a change to any of them makes a new one. The first
 * process that needs it builds it in a folder of its own and renames that into place; a
 * process that loses the race uses the winner's. Undefined where a template cannot be built
 * the way a test cluster would use it (the cluster lives in a stand-in folder).
 */
function migratedTemplate(): Promise<string | undefined> {
  templateOfThisProcess ??= findOrBuildTemplate().catch(() => undefined);
  return templateOfThisProcess;
}

async function findOrBuildTemplate(): Promise<string | undefined> {
  const template = join(tmpdir(), `${TEMPLATE_PREFIX}${await templateDigest()}`);
  if (existsSync(join(template, 'PG_VERSION'))) return template;
  const staging = await makeTempDir('pg-template');
  try {
    const server = await startEmbeddedPostgres({ dir: staging.path, port: await freePort(), ephemeral: true });
    try {
      await migrate(server.url);
    } finally {
      // A fast shutdown: the cluster is left consistent, with no postmaster.pid.
      await server.stop();
    }
    if (server.home !== staging.path) {
      await rm(server.home, { recursive: true, force: true });
      return undefined;
    }
    try {
      await rename(join(staging.path, 'pgdata'), template);
    } catch {
      // Another process put its template there first.
    }
    return existsSync(join(template, 'PG_VERSION')) ? template : undefined;
  } finally {
    await staging.remove();
  }
}

async function templateDigest(): Promise<string> {
  const hash = createHash('sha256');
  const native = await packagedNativeDir();
  hash.update(native);
  hash.update(await readFile(join(native, '..', 'package.json'), 'utf8').catch(() => ''));
  for (const module of ['../embedded-postgres.ts', '../db/migrate.ts']) {
    hash.update(await readFile(fileURLToPath(new URL(module, import.meta.url))));
  }
  for (const name of (await readdir(MIGRATIONS_DIR)).sort()) {
    hash.update(name);
    hash.update(await readFile(join(MIGRATIONS_DIR, name)));
  }
  return hash.digest('hex').slice(0, 16);
}
