import { rm } from 'node:fs/promises';
import { startEmbeddedPostgres } from '../embedded-postgres.ts';
import { migrate } from '../db/migrate.ts';
import { freePort } from './free-port.ts';
import { makeTempDir } from './temp-dirs.ts';

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
 */
export async function startTestPostgres(): Promise<TestPostgres> {
  const dir = await makeTempDir('pg');
  let server;
  try {
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
