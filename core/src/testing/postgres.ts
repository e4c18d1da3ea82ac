import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile, rename, rm, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
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
  /** Stops the server and deletes its data. */
  stop(): Promise<void>;
  /** Stops only the server process (to test outages); `resume` brings it back with its data. */
  suspend(): Promise<void>;
  resume(): Promise<void>;
}

/**
 * A real PostgreSQL in a temp folder on a free port, with every migration applied. Start-up is
 * bounded (core/src/startup.ts); the folder goes away on `stop`, on failure and at process exit.
 *
 * The cluster starts as a copy of a migrated template cluster (see `migratedTemplate`) rather
 * than from `initdb`: a copy and a start take a third of the time of initdb and a start, and
 * test files start some forty clusters. The migrations still run on every start (a no-op on
 * the copy), so the database is migrated whichever way the cluster came about.
 */
export async function startTestPostgres(): Promise<TestPostgres> {
  const dir = await makeTempDir('pg');
  let server;
  try {
    await copyTemplateInto(join(dir.path, 'pgdata'));
    server = await startEmbeddedPostgres({ dir: dir.path, port: await freePort(), ephemeral: true });
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
