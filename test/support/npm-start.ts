/**
 * `npm start` (scripts/dev-stack.ts) as a user runs it, for tests: every service embedded, on a
 * free run of three ports (API, S3, chain), with a fresh private DATA_DIR.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { freePort } from '../../core/src/testing/free-port.ts';
import { makeTempDir } from '../../core/src/testing/temp-dirs.ts';
import type { TempDir } from '../../core/src/testing/temp-dirs.ts';

async function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** npm start takes PORT (API), PORT+1 (S3) and PORT+2 (chain): find a free run of three. */
export async function freePortRun(): Promise<number> {
  for (;;) {
    const port = await freePort();
    if (port < 65533 && (await canListen(port + 1)) && (await canListen(port + 2))) return port;
  }
}

/** Environment for a stack on `port` with data in `dataDir`, ignoring any real service the caller's environment names. */
export function stackEnv(port: number, dataDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    PORT: String(port),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    DATABASE_URL: '',
    S3_ENDPOINT: '',
    CHAIN_RPC_URL: '',
    SONG_NFT_ADDRESS: '',
    ...extra,
  };
}

/** Removes the PostgreSQL stand-in cluster folder a root run keeps outside DATA_DIR (see README). */
export async function removeStandInCluster(dataDir: string): Promise<void> {
  const standIn = await readFile(join(dataDir, 'postgres', 'CLUSTER_HOME'), 'utf8').then(
    (text) => text.split('\n')[0],
    () => undefined,
  );
  // The killed stack's PostgreSQL may still be writing its WAL for a moment: rm's own retries
  // (ENOTEMPTY, EBUSY) outlast it, where one pass failed a test's teardown once.
  if (standIn !== undefined && standIn !== '') await rm(standIn, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
}

export interface NpmStartStack {
  process: ChildProcess;
  baseUrl: string;
  dataDir: string;
  /** stdout and stderr so far. */
  output(): string;
  /** Kills the stack (if still running) and removes its data. */
  remove(): Promise<void>;
}

/** Starts the stack and resolves once its banner is printed; rejects with its output otherwise. */
export async function startNpmStack({
  timeoutMs = 90_000,
  env = {},
}: {
  timeoutMs?: number;
  /** Variables set (or, as '', cleared) on top of stackEnv's: e.g. PLATFORM_SIGNER. */
  env?: Record<string, string>;
} = {}): Promise<NpmStartStack> {
  const data: TempDir = await makeTempDir('stack');
  const port = await freePortRun();
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/dev-stack.ts'], {
    env: stackEnv(port, data.path, env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const remove = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    }
    await removeStandInCluster(data.path);
    await data.remove();
  };
  const deadline = Date.now() + timeoutMs;
  while (!output.includes('development stack is up')) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await remove();
      throw new Error(`stack did not start:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { process: child, baseUrl: `http://127.0.0.1:${port}`, dataDir: data.path, output: () => output, remove };
}
