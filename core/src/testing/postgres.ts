import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedPostgres } from '../embedded-postgres.ts';
import { migrate } from '../db/migrate.ts';
import { freePort } from './free-port.ts';

export interface TestPostgres {
  /** Connection string of a migrated database. */
  url: string;
  /** Stops the server and deletes its data. */
  stop(): Promise<void>;
  /** Stops only the server process (to test outages); `resume` brings it back with its data. */
  suspend(): Promise<void>;
  resume(): Promise<void>;
}

/** A real PostgreSQL in a temp folder on a free port, with every migration applied. */
export async function startTestPostgres(): Promise<TestPostgres> {
  const dir = await mkdtemp(join(tmpdir(), 'songmint-pg-'));
  const server = await startEmbeddedPostgres({ dir, port: await freePort(), ephemeral: true });
  try {
    await migrate(server.url);
  } catch (error) {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  let running = true;
  return {
    url: server.url,
    async stop() {
      if (running) await server.stop();
      running = false;
      await rm(dir, { recursive: true, force: true });
    },
    async suspend() {
      await server.stop();
      running = false;
    },
    async resume() {
      await server.start();
      running = true;
    },
  };
}
