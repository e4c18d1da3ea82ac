import { createHubUserDataReader } from './domain/farcaster-user-data.ts';
import { availableParallelism } from 'node:os';
import type { Server } from 'node:http';
import type { Router } from 'express';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { pino } from 'pino';
import type { Logger } from 'pino';
import { createPublicClient } from 'viem';
import type { PublicClient } from 'viem';
import type { Address } from 'viem';
import { closeDatabase, createDatabase } from '../../core/src/db/database.ts';
import { migrate } from '../../core/src/db/migrate.ts';
import { objectStoreOptionsFromEnv, storagePublicUrl } from '../../core/src/config/object-store-env.ts';
import { createAudioProber, decodeThreadsFor } from '../../core/src/audio/audio-prober.ts';
import { createObjectStore } from '../../core/src/object-store.ts';
import { createBoss, ensureGenerationQueue, logBossErrors } from '../../core/src/queue.ts';
import { checkPlatformSigner, openPlatformSigner } from './chain/platform-signer.ts';
import type { MintSigner } from './chain/mint-signer.ts';
import { rpcTransport } from './chain/rpc-transport.ts';
import { createSignerStatus } from './chain/signer-status.ts';
import { createWalletSignatureVerifier } from './chain/wallet-signature.ts';
import { createChainWatcher } from './chain/watcher.ts';
import type { ChainWatcher } from './chain/watcher.ts';
import { createClaimableFeesReader } from './chain/pool-fees.ts';
import { createPoolIndexer, poolCursorName } from './chain/pool-indexer.ts';
import { createCoinChainReads } from './chain/coin-reads.ts';
import { createEthUsdReader } from './chain/eth-usd-feed.ts';
import type { PoolIndexer } from './chain/pool-indexer.ts';
import { apiOrigin, loadConfig, miniAppManifestOf, webhookSettings } from './config.ts';
import { miniAppManifestRouter } from './http/miniapp-manifest.ts';
import type { OracleEnv } from './config.ts';
import { devJwtSecret, devSignerKey } from './dev-secrets.ts';
import { isDatabaseUnavailable } from './domain/errors.ts';
import { createFarcasterFidVerifier, createFarcasterSignInVerifier, createQuickAuthVerifier } from './domain/farcaster.ts';
import { DEFAULT_JOB_STREAM_LIMITS, createJobEventsHub } from './domain/job-events-hub.ts';
import { pruneRateLimitCounters } from './domain/request-charge.ts';
import { pruneIdempotencyKeys } from './domain/idempotency.ts';
import { createUploadsInFlight } from './domain/uploads-in-flight.ts';
import { createOutsideFingerprintCheck } from './domain/outside-fingerprint-check.ts';
import type { OutsideFingerprintCheck } from './domain/outside-fingerprint-check.ts';
import { createApp } from './http/app.ts';
import type { AppDeps } from './http/deps.ts';
import { createMetrics } from './http/metrics.ts';
import { gatewayRouter } from './http/routes/gateway.ts';
import { openIpfsContentStore } from './ipfs/content-store.ts';
import { startWebhookService } from './webhooks/service.ts';
import { createPinningClient } from './ipfs/pinning-client.ts';

export interface RunningOracle {
  url: string;
  docsUrl: string;
  storageUrl: string;
  signerAddress: string;
  stop(): Promise<void>;
}

const PRUNE_INTERVAL_MS = 3_600_000;

/** How long start-up waits for a database that is not reachable yet (a container starting beside us). */
const DATABASE_WAIT_MS = 30_000;

/** The outside AcoustID-compatible lookup of uploads, when `ACOUSTID_LOOKUP_URL` configures one. */
function outsideLookup(config: OracleEnv, logger: Logger): OutsideFingerprintCheck | undefined {
  if (config.ACOUSTID_LOOKUP_URL === undefined || config.ACOUSTID_CLIENT_KEY === undefined) return undefined;
  return createOutsideFingerprintCheck(
    {
      url: config.ACOUSTID_LOOKUP_URL,
      clientKey: config.ACOUSTID_CLIENT_KEY,
      minScore: config.ACOUSTID_MIN_SCORE,
      timeoutMs: config.ACOUSTID_TIMEOUT_MS,
    },
    logger,
  );
}

async function migrateWhenReachable(databaseUrl: string, logger: Logger): Promise<void> {
  const deadline = Date.now() + DATABASE_WAIT_MS;
  for (;;) {
    try {
      await migrate(databaseUrl);
      return;
    } catch (error) {
      if (!isDatabaseUnavailable(error) || Date.now() > deadline) throw error;
      logger.warn('database not reachable yet; retrying');
      await new Promise((done) => setTimeout(done, 1000));
    }
  }
}

export interface StartOracleOptions {
  /** More routers that need no token and no limit (the development stack's web app at /app). */
  publicRouters?: ReadonlyArray<{ path: string; router: Router }>;
}

/**
 * Connects to PostgreSQL (migrating it), pg-boss, object storage and IPFS, and serves the API.
 * `config.DATABASE_URL` must be set (scripts/dev-stack.ts sets it to an embedded server).
 */
export async function startOracle(config: OracleEnv, logger: Logger, options: StartOracleOptions = {}): Promise<RunningOracle> {
  const databaseUrl = config.DATABASE_URL;
  if (databaseUrl === undefined) throw new Error('DATABASE_URL is not set (run `npm start` for the embedded development stack)');
  const dataDir = resolve(config.DATA_DIR);
  // The signer first: a key the HSM or KMS refuses, or one SongNFT does not trust, stops the start
  // before anything else is opened.
  const opened = await openPlatformSigner(config, () => devSignerKey(join(dataDir, 'secrets', 'platform-signer.key')));
  if (!opened.ok) throw new Error(opened.error.message);
  const signer = opened.value;
  if (config.PLATFORM_SIGNER === undefined && config.NODE_ENV === 'production')
    logger.warn('PLATFORM_SIGNER_KEY holds the mint key in the environment: keep it in an HSM or KMS with PLATFORM_SIGNER');
  const songNftAddress = config.SONG_NFT_ADDRESS as Address | undefined;
  // CHAIN_RPC_URL and SONG_NFT_ADDRESS come together (config.ts): one client for the signer reads
  // and the watcher.
  const chainClient =
    config.CHAIN_RPC_URL !== undefined && songNftAddress !== undefined
      ? createPublicClient({ transport: rpcTransport(config.CHAIN_RPC_URL) })
      : undefined;
  if (chainClient !== undefined && songNftAddress !== undefined) {
    const trusted = await checkPlatformSigner({ client: chainClient, songNftAddress, signer });
    if (!trusted.ok) {
      await signer.close();
      throw new Error(trusted.error.message);
    }
    if (trusted.value === 'unknown')
      logger.warn({ signer: signer.address }, 'the chain did not answer: SongNFT.platformSigner() not checked');
  }
  try {
    return await startWithSigner(config, logger, options, { databaseUrl, dataDir, signer, songNftAddress, chainClient });
  } catch (error) {
    await signer.close();
    throw error;
  }
}

async function startWithSigner(
  config: OracleEnv,
  logger: Logger,
  options: StartOracleOptions,
  started: {
    databaseUrl: string;
    dataDir: string;
    signer: MintSigner;
    songNftAddress: Address | undefined;
    chainClient: PublicClient | undefined;
  },
): Promise<RunningOracle> {
  const { databaseUrl, dataDir, signer, songNftAddress, chainClient } = started;
  await migrateWhenReachable(databaseUrl, logger);
  const db = createDatabase(databaseUrl, { max: config.DATABASE_POOL_SIZE });
  const boss = createBoss(databaseUrl);
  logBossErrors(boss, logger);
  await boss.start();
  await ensureGenerationQueue(boss);
  // Signed webhooks: the outbox relay and the delivery workers (oracle/src/webhooks/).
  const webhooks = await startWebhookService({ db, boss, logger, settings: webhookSettings(config), now: () => new Date() });

  const jwtSecret = config.JWT_SECRET ?? (await devJwtSecret(join(dataDir, 'secrets', 'jwt-secret')));
  const modelLicence = { allowNonCommercialModels: config.ALLOW_NONCOMMERCIAL_MODEL_MINTING };
  if (modelLicence.allowNonCommercialModels)
    logger.warn('ALLOW_NONCOMMERCIAL_MODEL_MINTING: mint signatures are issued for audio from non-commercial models too');
  logger.info({ signer: signer.address, backend: signer.backend, key: signer.keyReference }, 'platform mint signer');
  const storageUrl = storagePublicUrl(config);
  const objectStore = createObjectStore(objectStoreOptionsFromEnv(config));
  const ipfs = await openIpfsContentStore(join(dataDir, 'ipfs'));
  const pinning =
    config.IPFS_PINNING_URL !== undefined && config.IPFS_PINNING_TOKEN !== undefined
      ? createPinningClient({ endpoint: config.IPFS_PINNING_URL, accessToken: config.IPFS_PINNING_TOKEN })
      : undefined;
  // Sign-in checks smart wallets' signatures (ERC-1271, ERC-6492) on the configured chain.
  const signInClient =
    config.CHAIN_RPC_URL === undefined ? undefined : createPublicClient({ transport: rpcTransport(config.CHAIN_RPC_URL) });
  const origin = apiOrigin(config);
  // One LISTEN connection (outside the pool) for every job event stream this process serves.
  const jobEvents = createJobEventsHub({
    db,
    logger,
    limits: {
      maxStreams: config.JOB_EVENTS_MAX_STREAMS,
      heartbeatMs: config.JOB_EVENTS_HEARTBEAT_SECONDS * 1000,
      maxStreamMs: config.JOB_EVENTS_MAX_STREAM_SECONDS * 1000,
      retryMs: DEFAULT_JOB_STREAM_LIMITS.retryMs,
    },
  });
  const deps: AppDeps = {
    db,
    boss,
    logger,
    metrics: createMetrics(db, {
      openJobEventStreams: () => jobEvents.stats().streams,
      signer: { backend: signer.backend, key: signer.keyReference },
    }),
    session: { secret: new TextEncoder().encode(jwtSecret), ttlSeconds: config.JWT_TTL_SECONDS },
    siwe: {
      domain: config.SIWE_DOMAIN ?? new URL(origin).host,
      uri: config.SIWE_URI ?? origin,
      nonceTtlSeconds: config.SIWE_NONCE_TTL_SECONDS,
    },
    queueCapacity: config.QUEUE_CAPACITY,
    corsOrigins: config.CORS_ORIGINS,
    trustProxy: config.TRUST_PROXY,
    ...(config.FARCASTER_RPC_URL === undefined
      ? {}
      : {
          fidVerifier: createFarcasterFidVerifier(config.FARCASTER_RPC_URL),
          farcasterSignIn: createFarcasterSignInVerifier(config.FARCASTER_RPC_URL),
        }),
    quickAuth: createQuickAuthVerifier(config.FARCASTER_QUICK_AUTH_ORIGIN),
    ...(config.FARCASTER_HUB_URL === undefined
      ? {}
      : {
          farcasterUserData: createHubUserDataReader(
            { hubUrl: config.FARCASTER_HUB_URL, apiKey: config.FARCASTER_HUB_API_KEY, timeoutMs: config.FARCASTER_HUB_TIMEOUT_MS },
            logger,
          ),
        }),
    walletSignatures: createWalletSignatureVerifier(signInClient === undefined ? {} : { client: signInClient }),
    jobEvents,
    now: () => new Date(),
    webhookAllowList: config.WEBHOOK_ALLOWED_HOSTS,
  };
  const chain = { chainId: 8453, ...(songNftAddress === undefined ? {} : { songNftAddress }) };
  const songVaultAddress = config.SONG_VAULT_ADDRESS as Address | undefined;
  const vault =
    chainClient === undefined || songVaultAddress === undefined
      ? undefined
      : {
          address: songVaultAddress,
          cursorName: poolCursorName(songVaultAddress),
          readClaimable: createClaimableFeesReader(chainClient, songVaultAddress),
        };
  deps.metadata = { objectStore, ipfs, ...(pinning === undefined ? {} : { pinning }) };
  deps.mint = {
    objectStore,
    signer,
    modelLicence,
    maxOutsideShare: config.MINT_MAX_OUTSIDE_SHARE,
    chain,
    ...(chainClient === undefined || songNftAddress === undefined
      ? {}
      : { signerStatus: createSignerStatus({ client: chainClient, songNftAddress }) }),
  };
  const ethUsdFeed = config.ETH_USD_FEED_ADDRESS as Address | undefined;
  const coins =
    chainClient === undefined || vault === undefined
      ? undefined
      : {
          vaultAddress: vault.address,
          poolManagerAddress: config.POOL_MANAGER_ADDRESS as Address,
          chain: createCoinChainReads(chainClient, {
            vault: vault.address,
            poolManager: config.POOL_MANAGER_ADDRESS as Address,
            quoter: config.V4_QUOTER_ADDRESS as Address,
          }),
          ...(ethUsdFeed === undefined
            ? {}
            : {
                ethUsd: createEthUsdReader({
                  client: chainClient,
                  feed: ethUsdFeed,
                  maxAgeSeconds: config.ETH_USD_FEED_MAX_AGE_SECONDS,
                  now: deps.now,
                  logger,
                }),
              }),
        };
  deps.trading = { chainId: chain.chainId, ...(vault === undefined ? {} : { vault }), ...(coins === undefined ? {} : { coins }) };
  deps.previews = { objectStore };
  // Decode threads: all cores but the event loop's, at least two (one account runs on at most all
  // but one), no more than the uploads that may be in flight.
  const prober = createAudioProber({
    threads: Math.max(2, Math.min(config.UPLOADS_IN_FLIGHT, decodeThreadsFor(availableParallelism()))),
    perAccount: config.UPLOADS_IN_FLIGHT_PER_USER,
  });
  deps.uploads = {
    objectStore,
    prober,
    inFlight: createUploadsInFlight({ perUser: config.UPLOADS_IN_FLIGHT_PER_USER, perProcess: config.UPLOADS_IN_FLIGHT }),
    outsideCheck: outsideLookup(config, logger),
  };
  const miniAppManifest = miniAppManifestOf(config);
  deps.publicRouters = [
    { path: '/ipfs', router: gatewayRouter({ ipfs }) },
    ...(miniAppManifest?.ok === true ? [{ path: '/.well-known', router: miniAppManifestRouter(miniAppManifest.value) }] : []),
    ...(options.publicRouters ?? []),
  ];

  // Node's default server timeouts (headersTimeout, requestTimeout) bound receiving a request, not
  // sending the answer, so they do not cut a long job event stream; `server.timeout` stays 0.
  const server: Server = await new Promise((resolveServer, reject) => {
    const listening = createApp(deps).listen(config.PORT, config.HOST, () => resolveServer(listening));
    listening.once('error', reject);
  });
  const address = server.address() as AddressInfo;
  const url = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
  // Marks signature_used and nft_token_id from SongMinted events.
  let watcher: ChainWatcher | undefined;
  if (chainClient !== undefined && songNftAddress !== undefined) {
    watcher = createChainWatcher({
      db,
      client: chainClient,
      songNftAddress,
      confirmations: config.CHAIN_CONFIRMATIONS,
      startBlock: BigInt(config.CHAIN_START_BLOCK),
      logger,
      now: deps.now,
    });
    watcher.start();
  }
  // Follows the vault's launches and its pools' swaps, liquidity and fees for /v1/trading/pools.
  let poolIndexer: PoolIndexer | undefined;
  if (chainClient !== undefined && vault !== undefined) {
    poolIndexer = createPoolIndexer({
      db,
      client: chainClient,
      songVaultAddress: vault.address,
      poolManagerAddress: config.POOL_MANAGER_ADDRESS as Address,
      confirmations: config.CHAIN_CONFIRMATIONS,
      startBlock: BigInt(config.CHAIN_START_BLOCK),
      logger,
    });
    poolIndexer.start();
  } else if (chainClient !== undefined) {
    logger.info('SONG_VAULT_ADDRESS is not set: no pool is indexed and /v1/trading/pools stays empty');
  }
  const prune = setInterval(() => {
    pruneRateLimitCounters(db).catch((error: unknown) => logger.warn({ err: error }, 'pruning rate-limit counters failed'));
    pruneIdempotencyKeys(db, new Date()).catch((error: unknown) => logger.warn({ err: error }, 'pruning idempotency keys failed'));
  }, PRUNE_INTERVAL_MS);
  prune.unref();

  return {
    url,
    docsUrl: `${url}/docs`,
    storageUrl,
    signerAddress: signer.address,
    async stop() {
      clearInterval(prune);
      await webhooks.stop();
      await watcher?.stop();
      await poolIndexer?.stop();
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
      await jobEvents.close();
      await boss.stop({ graceful: true, timeout: 5000, close: true });
      await closeDatabase(db);
      await ipfs.close();
      objectStore.close();
      await prober.close();
      await signer.close();
    },
  };
}

/** Entry point of `npm run oracle`: configuration from the environment, clean stop on signals. */
async function main(): Promise<void> {
  const loaded = loadConfig(process.env);
  if (!loaded.ok) {
    pino().fatal({ problems: loaded.error.problems }, 'invalid configuration');
    process.exit(1);
  }
  const logger = pino({ level: loaded.value.LOG_LEVEL });
  const oracle = await startOracle(loaded.value, logger);
  logger.info({ url: oracle.url, docs: oracle.docsUrl, storage: oracle.storageUrl, signer: oracle.signerAddress }, 'oracle listening');
  const shutdown = (signal: string) => {
    logger.info({ signal }, 'stopping');
    oracle.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'stop failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main().catch((error: unknown) => {
    pino().fatal({ err: error }, 'the oracle could not start');
    process.exit(1);
  });
}
