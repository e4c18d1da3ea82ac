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

/** Process groups of the stacks this process started and has not removed. */
const liveGroups = new Set<number>();

/**
 * Kills a stack's whole process group: scripts/dev-stack.ts, its worker, chain and PostgreSQL.
 * Killing only its pid left the worker orphaned (it outlived the test run, polling a database
 * that was gone), and a stack whose file timed out kept running with all of its parts.
 */
function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // ESRCH: nothing of it is left.
  }
}

let exitHookInstalled = false;
function killLiveGroupsOnExit(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // 'exit' listeners run synchronously, as process.kill does: --test-force-exit ends here too.
  process.once('exit', () => {
    for (const pid of liveGroups) killGroup(pid);
  });
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
    // Its own process group, so that removing it ends every process it started.
    detached: true,
  });
  const group = child.pid;
  if (group !== undefined) {
    killLiveGroupsOnExit();
    liveGroups.add(group);
  }
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const remove = async () => {
    const exited = child.exitCode === null && child.signalCode === null ? new Promise((resolve) => child.once('exit', resolve)) : undefined;
    // The group even when dev-stack itself has exited: its children may not have.
    if (group !== undefined) {
      killGroup(group);
      liveGroups.delete(group);
    }
    await exited;
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
