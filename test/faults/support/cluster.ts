/**
 * A multi-process Songmint for fault tests: one embedded PostgreSQL (killable with SIGKILL and
 * restartable on its data), the loopback S3 server (stoppable and restartable on its port and
 * objects), oracle replicas (`oracle/src/main.ts`) and inference workers (`inference/src/main.ts`)
 * as child processes, exactly as an operator runs them. Every wait is bounded.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PgBoss } from 'pg-boss';
import type { Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { PrivateKeyAccount } from 'viem/accounts';
import { createSiweMessage } from 'viem/siwe';
import { closeDatabase, createDatabase } from '../../../core/src/db/database.ts';
import type { Database } from '../../../core/src/db/database.ts';
import { migrate } from '../../../core/src/db/migrate.ts';
import { startEmbeddedPostgres } from '../../../core/src/embedded-postgres.ts';
import type { EmbeddedPostgresServer } from '../../../core/src/embedded-postgres.ts';
import { GENERATION_QUEUE } from '../../../core/src/generation-queue.ts';
import { startBlackholeProxy } from './blackhole-proxy.ts';
import type { BlackholeProxy } from './blackhole-proxy.ts';
import type { Tier } from '../../../core/src/generation-queue.ts';
import { freePort } from '../../../core/src/testing/free-port.ts';
import { runLoopbackS3rver } from '../../../core/src/testing/s3.ts';
import type { RunningS3rver } from '../../../core/src/testing/s3.ts';
import { makeTempDir } from '../../../core/src/testing/temp-dirs.ts';
import type { TempDir } from '../../../core/src/testing/temp-dirs.ts';
import { ensureDevelopmentIdentity } from '../../../inference/src/audio/development-identity.ts';

export const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

const READY_TIMEOUT_MS = 90_000;
const OUTPUT_KEPT_CHARS = 64_000;
const S3_BUCKET = 'songmint-faults';
const S3_KEY = 'S3RVER';

/** Polls `probe` until it returns a value; throws naming `what` after `timeoutMs`. */
/** Thrown by a `waitFor` probe when waiting on is pointless (the process waited on has exited). */
export class GaveUp extends Error {}

/**
 * Polls `probe` until it returns a value; a probe that throws counts as not yet, except with
 * `GaveUp`, which ends the wait at once.
 */
export async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 60_000, everyMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch((error: unknown) => {
      if (error instanceof GaveUp) throw error;
      return undefined;
    });
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

export interface ServiceProcess {
  name: string;
  child: ChildProcess;
  /** stdout and stderr so far (the last 64 KB). */
  output(): string;
  /** Resolves once `text` appears in the output (bounded). */
  waitForOutput(text: string, timeoutMs?: number): Promise<void>;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

function spawnService(name: string, script: string, env: Record<string, string>): ServiceProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-OUTPUT_KEPT_CHARS);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    name,
    child,
    output: () => output,
    waitForOutput: (text, timeoutMs = 120_000) =>
      waitFor(
        `"${text}" from ${name}`,
        async () => {
          if (output.includes(text)) return true;
          if (child.exitCode !== null || child.signalCode !== null) throw new GaveUp(`${name} exited`);
          return undefined;
        },
        timeoutMs,
      ).then(() => undefined),
    async kill(signal = 'SIGKILL') {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill(signal);
      const late = setTimeout(() => child.kill('SIGKILL'), 20_000);
      await exited;
      clearTimeout(late);
    },
  };
}

export interface OracleReplica extends ServiceProcess {
  url: string;
}

/** PostgreSQL that can be killed like a crashed machine's and started again on its data. */
export interface FaultPostgres {
  url: string;
  home: string;
  /** SIGKILL to the postmaster and every backend, then waits until all are gone. */
  kill(): Promise<void>;
  /** Starts the server again on the same port and data (crash recovery runs). */
  restart(): Promise<void>;
}

export interface RestartableS3 {
  endpoint: string;
  bucket: string;
  directory: string;
  stop(): Promise<void>;
  start(): Promise<void>;
}

export interface Session {
  token: string;
  userId: string;
  address: Hex;
  account: PrivateKeyAccount;
}

export interface HttpResult {
  status: number;
  headers: Headers;
  text: string;
  body: unknown;
}

/** Components the oracles and workers reach through a blackhole proxy (`ClusterOptions.blackholes`). */
export type BlackholeTarget = 'postgres' | 's3';

export interface FaultCluster {
  pg: FaultPostgres;
  s3: RestartableS3;
  /** The proxies in front of the components named in `ClusterOptions.blackholes`. */
  proxies: Partial<Record<BlackholeTarget, BlackholeProxy>>;
  db: Database;
  oracles: OracleReplica[];
  workers: ServiceProcess[];
  oracleEnv: Record<string, string>;
  workerEnv: Record<string, string>;
  dataDir: string;
  startOracle(extra?: Record<string, string>): Promise<OracleReplica>;
  startWorker(extra?: Record<string, string>): Promise<ServiceProcess>;
  /** Signs in over HTTP with SIWE on `oracle` (a fresh wallet by default). */
  /** Signs in on `oracle` (the nonce) and `verifyOn` (the signed message; `oracle` by default). */
  login(oracle: OracleReplica, options?: { tier?: Tier; account?: PrivateKeyAccount; verifyOn?: OracleReplica }): Promise<Session>;
  stop(): Promise<void>;
}

async function processChildren(pid: number): Promise<number[]> {
  const children: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    // pid (comm) state ppid ...: comm may hold spaces, so read after the last ')'.
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (ppid === pid) children.push(Number(entry));
  }
  return children;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function startFaultPostgres(dir: string, restartOnExit: boolean): Promise<{ pg: FaultPostgres; server: EmbeddedPostgresServer }> {
  // Durable (no `ephemeral`): with synchronous_commit off a SIGKILL may lose acknowledged commits.
  const server = await startEmbeddedPostgres({ dir, port: await freePort(), restartOnExit });
  await migrate(server.url);
  const pg: FaultPostgres = {
    url: server.url,
    home: server.home,
    async kill() {
      const pid = Number((await readFile(join(server.home, 'pgdata', 'postmaster.pid'), 'utf8')).split('\n')[0]);
      const backends = await processChildren(pid);
      process.kill(pid, 'SIGKILL');
      for (const backend of backends) if (alive(backend)) process.kill(backend, 'SIGKILL');
      await waitFor('PostgreSQL processes to end', async () => ([pid, ...backends].some(alive) ? undefined : true), 30_000, 50);
      // Lets the server handle see its exit, so `start` spawns a new one.
      await server.stop();
    },
    async restart() {
      await server.start();
    },
  };
  return { pg, server };
}

async function startRestartableS3(directory: string): Promise<{ s3: RestartableS3; close(): Promise<void> }> {
  const port = await freePort();
  let running: RunningS3rver | undefined = await runLoopbackS3rver({ port, directory, bucket: S3_BUCKET });
  const s3: RestartableS3 = {
    endpoint: `http://127.0.0.1:${port}`,
    bucket: S3_BUCKET,
    directory,
    async stop() {
      const current = running;
      running = undefined;
      await current?.close();
    },
    async start() {
      if (running !== undefined) return;
      running = await runLoopbackS3rver({ port, directory, bucket: S3_BUCKET });
    },
  };
  return { s3, close: () => s3.stop() };
}

export async function httpRequest(
  url: string,
  options: { method?: string; token?: string; body?: unknown; rawBody?: string; headers?: Record<string, string>; timeoutMs?: number } = {},
): Promise<HttpResult> {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
  let body: string | undefined = options.rawBody;
  if (body === undefined && options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(url, {
    method: options.method ?? (body === undefined ? 'GET' : 'POST'),
    headers,
    ...(body === undefined ? {} : { body }),
    signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: kept as text
  }
  return { status: response.status, headers: response.headers, text, body: parsed };
}

export interface ClusterOptions {
  /** pg-boss heartbeat of the generation queue (a SIGKILLed worker's job is retried after it). */
  heartbeatSeconds?: number;
  /**
   * Components the oracles and workers reach through a blackhole proxy (the test's own `db`, the
   * queue tuner and supervisor still reach PostgreSQL directly, as an operator's console would).
   */
  blackholes?: BlackholeTarget[];
  /**
   * A folder (a small filesystem) to hold all the cluster's data instead of the temp folder:
   * PostgreSQL's cluster, the S3 objects, each oracle's and worker's DATA_DIR (the IPFS
   * blockstore) and their TMPDIR. It must be reachable by the `postgres` account.
   */
  dataRoot?: string;
  /** PostgreSQL restarted by its supervisor when the postmaster exits (`restartOnExit`), as under `npm start`. */
  superviseDatabase?: boolean;
}

/** A fresh folder under `root` that the `postgres` account can enter, removed by `remove()`. */
async function dataFolderUnder(root: string): Promise<TempDir> {
  const path = await mkdtemp(join(root, 'faults-'));
  await chmod(path, 0o755);
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}

/** `url` with its port replaced by `port` (a proxy in front of the same server). */
function throughPort(url: string, port: number): string {
  const proxied = new URL(url);
  proxied.port = String(port);
  return proxied.toString().replace(/\/$/, '');
}

/**
 * PostgreSQL, S3 and one oracle; more oracles and workers on demand. The generation queue keeps
 * the spec's retry limit; retries start at once and a lost worker's job is retried after
 * `heartbeatSeconds` (10 by default), with queue maintenance every second.
 */
export async function startFaultCluster(options: ClusterOptions = {}): Promise<FaultCluster> {
  const temp: TempDir = options.dataRoot === undefined ? await makeTempDir('faults') : await dataFolderUnder(options.dataRoot);
  const started: Array<() => Promise<void>> = [async () => temp.remove()];
  const stopAll = async () => {
    for (const stop of started.splice(0).reverse()) await stop().catch(() => undefined);
  };
  try {
    const { pg, server } = await startFaultPostgres(join(temp.path, 'postgres'), options.superviseDatabase === true);
    started.push(async () => {
      await server.stop();
      if (server.home !== join(temp.path, 'postgres'))
        await import('node:fs/promises').then((fs) => fs.rm(server.home, { recursive: true, force: true }));
    });
    const s3 = await startRestartableS3(join(temp.path, 's3', 'objects'));
    started.push(() => s3.close());
    const db = createDatabase(pg.url, { max: 4 });
    started.push(() => closeDatabase(db));
    const proxies: Partial<Record<BlackholeTarget, BlackholeProxy>> = {};
    for (const target of options.blackholes ?? []) {
      const proxy = await startBlackholeProxy({ port: Number(new URL(target === 'postgres' ? pg.url : s3.s3.endpoint).port) });
      proxies[target] = proxy;
      started.push(() => proxy.close());
    }
    const stackPostgresUrl = proxies.postgres === undefined ? pg.url : throughPort(pg.url, proxies.postgres.port);
    const stackS3Endpoint = proxies.s3 === undefined ? s3.s3.endpoint : throughPort(s3.s3.endpoint, proxies.s3.port);

    const storage = {
      S3_ENDPOINT: stackS3Endpoint,
      S3_BUCKET: S3_BUCKET,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: S3_KEY,
      S3_SECRET_ACCESS_KEY: S3_KEY,
      S3_FORCE_PATH_STYLE: 'true',
      S3_STORED_CHECKSUMS: 'true',
    };
    const oracleEnv: Record<string, string> = {
      ...storage,
      DATABASE_URL: stackPostgresUrl,
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      JWT_SECRET: randomBytes(32).toString('hex'),
      PLATFORM_SIGNER_KEY: generatePrivateKey(),
      // One sign-in domain for every replica: a message signed for one verifies on the other.
      SIWE_DOMAIN: 'songmint.faults',
      SIWE_URI: 'https://songmint.faults',
      DATABASE_POOL_SIZE: '5',
      CHAIN_RPC_URL: '',
      SONG_NFT_ADDRESS: '',
      IPFS_PINNING_URL: '',
      IPFS_PINNING_TOKEN: '',
    };
    // Temp files of oracles and workers (none are written today) go to the data's filesystem too.
    if (options.dataRoot !== undefined) {
      await mkdir(join(temp.path, 'tmp'), { recursive: true });
      oracleEnv.TMPDIR = join(temp.path, 'tmp');
    }
    const signing = await ensureDevelopmentIdentity(join(temp.path, 'c2pa'));
    const workerEnv: Record<string, string> = {
      ...storage,
      C2PA_SIGN_CERT: signing.certFile,
      C2PA_PRIVATE_KEY: signing.keyFile,
      DATABASE_URL: stackPostgresUrl,
      MODEL_DEVICE: 'cpu',
      MP3_ENCODER: 'wasm',
      ENCODER_THREADS: '1',
      POLL_INTERVAL_MS: '100',
      LOG_LEVEL: 'warn',
      ...(oracleEnv.TMPDIR === undefined ? {} : { TMPDIR: oracleEnv.TMPDIR }),
    };
    const oracles: OracleReplica[] = [];
    const workers: ServiceProcess[] = [];
    started.push(async () => {
      for (const service of [...workers, ...oracles]) await service.kill('SIGKILL');
    });

    const startOracleReplica = async (extra: Record<string, string> = {}): Promise<OracleReplica> => {
      const port = await freePort();
      const index = oracles.length;
      const service = spawnService(`oracle-${index}`, 'oracle/src/main.ts', {
        ...oracleEnv,
        PORT: String(port),
        DATA_DIR: join(temp.path, `oracle-${index}`),
        ...extra,
      });
      const replica: OracleReplica = { ...service, url: `http://127.0.0.1:${port}` };
      oracles.push(replica);
      await waitFor(
        `${service.name} to answer /health/live\n${service.output()}`,
        async () => {
          if (service.child.exitCode !== null) throw new GaveUp(`${service.name} exited:\n${service.output()}`);
          const live = await httpRequest(`${replica.url}/health/live`, { timeoutMs: 2000 });
          return live.status === 200 ? true : undefined;
        },
        READY_TIMEOUT_MS,
        250,
      ).catch((error: unknown) => {
        throw new Error(`${error instanceof Error ? error.message : String(error)}\n${service.output()}`);
      });
      return replica;
    };

    // Oracles and workers create the queue with the spec's settings on start; test scale after
    // each start: retries at once, a lost worker noticed after a short heartbeat.
    const tuneQueue = async () => {
      const tuner = new PgBoss({ connectionString: pg.url, supervise: false, schedule: false, max: 1 });
      tuner.on('error', () => undefined);
      await tuner.start();
      try {
        await tuner.updateQueue(GENERATION_QUEUE, { retryDelay: 1, retryBackoff: false, heartbeatSeconds: options.heartbeatSeconds ?? 10 });
      } finally {
        await tuner.stop({ graceful: false, close: true });
      }
    };
    await startOracleReplica();
    await tuneQueue();
    // Queue maintenance every second (expiry, missed heartbeats), as a busy deployment's would be.
    const supervisor = new PgBoss({
      connectionString: pg.url,
      supervise: true,
      schedule: false,
      monitorIntervalSeconds: 1,
      superviseIntervalSeconds: 1,
      max: 2,
      connectionTimeoutMillis: 3000,
    });
    supervisor.on('error', () => undefined);
    await supervisor.start();
    started.push(() => supervisor.stop({ graceful: false, close: true, timeout: 2000 }));

    return {
      pg,
      s3: s3.s3,
      proxies,
      db,
      oracles,
      workers,
      oracleEnv,
      workerEnv,
      dataDir: temp.path,
      async startOracle(extra) {
        const replica = await startOracleReplica(extra);
        await tuneQueue();
        return replica;
      },
      async startWorker(extra = {}) {
        const id = extra.WORKER_ID ?? `fault-worker-${workers.length}-${randomBytes(3).toString('hex')}`;
        const worker = spawnService(id, 'inference/src/main.ts', { ...workerEnv, DATA_DIR: join(temp.path, id), WORKER_ID: id, ...extra });
        workers.push(worker);
        await waitFor(
          `${id} heartbeat`,
          async () => {
            if (worker.child.exitCode !== null) throw new GaveUp(`${id} exited:\n${worker.output()}`);
            const row = await db.oneOrNone<{ worker_id: string }>('SELECT worker_id FROM worker_heartbeats WHERE worker_id = $1', [id]);
            return row ?? undefined;
          },
          READY_TIMEOUT_MS,
          200,
        ).catch((error: unknown) => {
          throw new Error(`${error instanceof Error ? error.message : String(error)}\n${worker.output()}`);
        });
        await tuneQueue();
        return worker;
      },
      async login(oracle, { tier, account = privateKeyToAccount(generatePrivateKey()), verifyOn = oracle } = {}) {
        const nonce = await httpRequest(`${oracle.url}/api/auth/nonce`);
        const challenge = nonce.body as { nonce: string; domain: string; uri: string; chain_id: number };
        const message = createSiweMessage({
          address: account.address,
          chainId: challenge.chain_id,
          domain: challenge.domain,
          uri: challenge.uri,
          nonce: challenge.nonce,
          version: '1',
          issuedAt: new Date(),
        });
        const signature = await account.signMessage({ message });
        const verified = await httpRequest(`${verifyOn.url}/api/auth/verify`, { body: { message, signature } });
        const body = verified.body as { token?: string; user?: { id: string } };
        if (verified.status !== 200 || body.token === undefined || body.user === undefined)
          throw new Error(`sign-in failed: ${verified.status} ${verified.text}`);
        if (tier !== undefined) await db.none('UPDATE users SET tier = $2 WHERE id = $1', [body.user.id, tier]);
        return { token: body.token, userId: body.user.id, address: account.address, account };
      },
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

/** Objects under `prefix` in the cluster's bucket, read from s3rver's folder (works while S3 is down). */
export async function storedObjectKeys(s3: RestartableS3, prefix: string): Promise<string[]> {
  const root = join(s3.directory, s3.bucket, prefix);
  if (!existsSync(root)) return [];
  const names = await readdir(root);
  // s3rver keeps `<key>._S3rver_object` beside its metadata files.
  return names
    .filter((name) => name.endsWith('._S3rver_object'))
    .map((name) => `${prefix}${name.replace(/\._S3rver_object$/, '')}`)
    .sort();
}
