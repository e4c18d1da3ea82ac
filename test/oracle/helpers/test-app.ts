import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { pino } from 'pino';
import type { PgBoss } from 'pg-boss';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { PrivateKeyAccount } from 'viem/accounts';
import { createSiweMessage } from 'viem/siwe';
import { closeDatabase, createDatabase } from '../../../core/src/db/database.ts';
import type { Database } from '../../../core/src/db/database.ts';
import type { Tier } from '../../../core/src/generation-queue.ts';
import { createBoss, ensureGenerationQueue } from '../../../core/src/queue.ts';
import { startTestPostgres } from '../../../core/src/testing/postgres.ts';
import type { TestPostgres } from '../../../core/src/testing/postgres.ts';
import type { FarcasterSignInVerifier, FidVerifier, QuickAuthVerifier } from '../../../oracle/src/domain/farcaster.ts';
import type { FarcasterUserDataReader } from '../../../oracle/src/domain/farcaster-user-data.ts';
import { DEFAULT_JOB_STREAM_LIMITS, createJobEventsHub } from '../../../oracle/src/domain/job-events-hub.ts';
import type { JobStreamLimits } from '../../../oracle/src/domain/job-events-hub.ts';
import type { WalletSignatureVerifier } from '../../../oracle/src/chain/wallet-signature.ts';
import { createApp } from '../../../oracle/src/http/app.ts';
import type {
  AppDeps,
  MetadataServices,
  MintServices,
  PreviewServices,
  TradingServices,
  UploadServices,
} from '../../../oracle/src/http/deps.ts';
import type { Route } from '../../../oracle/src/http/route.ts';
import { API_ROUTES } from '../../../oracle/src/http/route-table.ts';
import { createMetrics } from '../../../oracle/src/http/metrics.ts';
import type { AllowList } from '../../../oracle/src/webhooks/address-policy.ts';

export const TEST_SIWE_DOMAIN = 'songmint.test';
export const TEST_SIWE_URI = 'https://songmint.test';

export interface TestResponse {
  status: number;
  headers: Headers;
  /** Parsed JSON, or the text when the body is not JSON. */
  body: unknown;
  text: string;
}

export interface RequestOptions {
  method?: string;
  token?: string;
  /** Serialized as JSON unless `rawBody` is given. */
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
}

export interface LoggedIn {
  token: string;
  userId: string;
  address: string;
  account: PrivateKeyAccount;
}

export interface TestApp {
  baseUrl: string;
  db: Database;
  boss: PgBoss;
  pg: TestPostgres;
  deps: AppDeps;
  request(path: string, options?: RequestOptions): Promise<TestResponse>;
  /** Signs in with SIWE as `account` (a fresh one by default). */
  login(account?: PrivateKeyAccount, extra?: Record<string, unknown>): Promise<LoggedIn>;
  setTier(userId: string, tier: Tier): Promise<void>;
  /** Records a live inference worker so generation is not refused with GEN_002. */
  addWorkerHeartbeat(workerId?: string, slots?: number): Promise<void>;
  stop(): Promise<void>;
}

export interface TestAppOptions {
  queueCapacity?: number;
  /** The services of the routes beyond the core ones (storage, minting, trading, previews), built from the core deps. */
  services?: (deps: AppDeps) => {
    metadata?: MetadataServices;
    mint?: MintServices;
    trading?: TradingServices;
    previews?: PreviewServices;
    uploads?: UploadServices;
  };
  /** Routes a test adds to the table (a probe). */
  extraRoutes?: ReadonlyArray<Route>;
  now?: () => Date;
  /** Stands in for the Farcaster IdRegistry on Optimism, which this machine cannot reach. */
  fidVerifier?: FidVerifier;
  /** Sign In With Farcaster over a local OP chain (test/support/local-optimism.ts); absent: the route is not mounted. */
  farcasterSignIn?: FarcasterSignInVerifier;
  /** Quick Auth against a local issuer's key set; absent: the route is not mounted. */
  quickAuth?: QuickAuthVerifier;
  /** Sign-in signature checks (a chain-backed one for smart wallets); EOAs only when absent. */
  walletSignatures?: WalletSignatureVerifier;
  /** Routers beside the API (the web app at /app, as npm start mounts it). */
  publicRouters?: AppDeps['publicRouters'];
  /** Linked fids' Farcaster user data (a reader over test/support/farcaster-hub.ts); absent: none. */
  farcasterUserData?: FarcasterUserDataReader;
  /** Job event stream limits (short heartbeats and lifetimes in tests). */
  jobStreams?: Partial<JobStreamLimits>;
  /** Webhook hosts exempt from the https and public-address rules (none by default, as in production). */
  webhookAllowList?: AllowList;
  /** A PostgreSQL server of this app's own rather than a database in the run's shared one: for outages (`pg.suspend()`) and server-wide acts. */
  ownPostgres?: boolean;
}

/** A real PostgreSQL (migrated), pg-boss and the oracle app on a free port. */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const pg = await startTestPostgres({ own: options.ownPostgres === true });
  const db = createDatabase(pg.url, { max: 30, connectionTimeoutMillis: 2000 });
  const boss = createBoss(pg.url, { supervise: false });
  const logger = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
  boss.on('error', (error) => logger.warn({ err: error }, 'pg-boss'));
  await boss.start();
  await ensureGenerationQueue(boss);
  const jobEvents = createJobEventsHub({ db, logger, limits: { ...DEFAULT_JOB_STREAM_LIMITS, ...options.jobStreams } });
  const deps: AppDeps = {
    db,
    boss,
    logger,
    metrics: createMetrics(db, { openJobEventStreams: () => jobEvents.stats().streams }),
    session: { secret: randomBytes(32), ttlSeconds: 3600 },
    siwe: { domain: TEST_SIWE_DOMAIN, uri: TEST_SIWE_URI, nonceTtlSeconds: 600 },
    queueCapacity: options.queueCapacity ?? 1000,
    jobEvents,
    now: options.now ?? (() => new Date()),
    ...(options.fidVerifier === undefined ? {} : { fidVerifier: options.fidVerifier }),
    ...(options.farcasterSignIn === undefined ? {} : { farcasterSignIn: options.farcasterSignIn }),
    ...(options.quickAuth === undefined ? {} : { quickAuth: options.quickAuth }),
    ...(options.walletSignatures === undefined ? {} : { walletSignatures: options.walletSignatures }),
    ...(options.webhookAllowList === undefined ? {} : { webhookAllowList: options.webhookAllowList }),
    ...(options.farcasterUserData === undefined ? {} : { farcasterUserData: options.farcasterUserData }),
    ...(options.publicRouters === undefined ? {} : { publicRouters: options.publicRouters }),
  };
  Object.assign(deps, options.services?.(deps));
  const routes = [...API_ROUTES, ...(options.extraRoutes ?? [])];
  const server: Server = await new Promise((resolve) => {
    const listening = createApp(deps, routes).listen(0, '127.0.0.1', () => resolve(listening));
  });
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  async function request(path: string, req: RequestOptions = {}): Promise<TestResponse> {
    const headers: Record<string, string> = { ...req.headers };
    if (req.token !== undefined) headers.authorization = `Bearer ${req.token}`;
    let body: string | undefined = req.rawBody;
    if (body === undefined && req.body !== undefined) {
      body = JSON.stringify(req.body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(`${baseUrl}${path}`, { method: req.method ?? (body === undefined ? 'GET' : 'POST'), headers, body });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // Not JSON: keep the text.
    }
    return { status: response.status, headers: response.headers, body: parsed, text };
  }

  async function login(
    account: PrivateKeyAccount = privateKeyToAccount(generatePrivateKey()),
    extra: Record<string, unknown> = {},
  ): Promise<LoggedIn> {
    const nonce = await request('/api/auth/nonce');
    const { nonce: value } = nonce.body as { nonce: string };
    const message = createSiweMessage({
      address: account.address,
      chainId: 8453,
      domain: TEST_SIWE_DOMAIN,
      uri: TEST_SIWE_URI,
      nonce: value,
      version: '1',
      issuedAt: new Date(),
    });
    const signature = await account.signMessage({ message });
    const verified = await request('/api/auth/verify', { body: { message, signature, ...extra } });
    if (verified.status !== 200) throw new Error(`login failed: ${verified.status} ${verified.text}`);
    const { token, user } = verified.body as { token: string; user: { id: string } };
    return { token, userId: user.id, address: account.address.toLowerCase(), account };
  }

  return {
    baseUrl,
    db,
    boss,
    pg,
    deps,
    request,
    login,
    async setTier(userId, tier) {
      await db.none('UPDATE users SET tier = $1 WHERE id = $2', [tier, userId]);
    },
    async addWorkerHeartbeat(workerId = 'test-worker', slots = 1) {
      await db.none(
        `INSERT INTO worker_heartbeats (worker_id, hostname, device, model_name, model_version, slots, last_seen)
         VALUES ($1, 'test-host', 'cpu', 'test-model', '0', $2, now())
         ON CONFLICT (worker_id) DO UPDATE SET last_seen = now(), slots = EXCLUDED.slots`,
        [workerId, slots],
      );
    },
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await deps.jobEvents.close();
      await boss.stop({ graceful: false, close: true });
      await closeDatabase(db);
      await pg.stop();
    },
  };
}
