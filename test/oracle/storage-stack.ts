/**
 * The oracle with the storage, minting, trading and preview routes over real services: PostgreSQL, pg-boss and the
 * app from startTestApp, s3rver for objects, a filesystem IPFS blockstore, a real platform key.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createPublicClient, http } from 'viem';
import type { Address, Hex } from 'viem';
import { createCoinChainReads } from '../../oracle/src/chain/coin-reads.ts';
import { generatePrivateKey } from 'viem/accounts';
import { audioObjectKey, toPublicJobId } from '../../core/src/generation-queue.ts';
import { createObjectStore } from '../../core/src/object-store.ts';
import { createAudioProber } from '../../core/src/audio/audio-prober.ts';
import { createUploadsInFlight } from '../../oracle/src/domain/uploads-in-flight.ts';
import type { OutsideFingerprintCheck } from '../../oracle/src/domain/outside-fingerprint-check.ts';
import type { FarcasterUserDataReader } from '../../oracle/src/domain/farcaster-user-data.ts';
import type { ObjectStore } from '../../core/src/object-store.ts';
import { startTestS3, testObjectStoreOptions } from '../../core/src/testing/s3.ts';
import type { TestS3 } from '../../core/src/testing/s3.ts';
import { createMintSigner } from '../../oracle/src/chain/mint-signer.ts';
import type { MintSigner } from '../../oracle/src/chain/mint-signer.ts';
import type { ModelLicencePolicy } from '../../oracle/src/domain/model-licence.ts';
import type { SignerStatus } from '../../oracle/src/chain/signer-status.ts';
import type { WalletSignatureVerifier } from '../../oracle/src/chain/wallet-signature.ts';
import { contentHash } from '../../core/src/content-hash.ts';
import { openIpfsContentStore } from '../../oracle/src/ipfs/content-store.ts';
import type { IpfsContentStore } from '../../oracle/src/ipfs/content-store.ts';
import type { PinningClient } from '../../oracle/src/ipfs/pinning-client.ts';
import type { TradingRouterDeps } from '../../oracle/src/http/routes/trading.ts';
import { startTestApp } from './helpers/test-app.ts';
import type { TestApp, TestAppOptions } from './helpers/test-app.ts';
import { makeTempDir } from '../../core/src/testing/temp-dirs.ts';
import { RGB, encodePng } from '../../scripts/png.ts';
import { pino } from 'pino';
import { loadWorkerConfig } from '../../inference/src/config.ts';
import { startWorkerProcess } from '../../inference/src/worker/process.ts';
import { testSigningIdentity } from '../support/c2pa.ts';
import type { TestSigningIdentity } from '../support/c2pa.ts';
import type { WorkerProcess } from '../../inference/src/worker/process.ts';
import type { JobStatus } from '../../core/src/jobs/job-state.ts';
import { JOB_STATUS } from '../../core/src/jobs/job-state.ts';
import type { AllowList } from '../../oracle/src/webhooks/address-policy.ts';

export const PUBLIC_BASE_URL = 'https://cdn.songmint.test';

/**
 * The coin routes' dependencies with no chain behind them (a closed loopback port, no retries, a
 * 1 s timeout): routes that read coins answer without their chain figures, as when the RPC is down.
 */
export function coinsWithoutChain(vault: Address): NonNullable<StorageStackOptions['coins']> {
  const noChain = createPublicClient({ transport: http('http://127.0.0.1:9', { retryCount: 0, timeout: 1000 }) });
  return {
    vaultAddress: vault,
    poolManagerAddress: vault,
    chain: createCoinChainReads(noChain, { vault, poolManager: vault, quoter: vault }),
  };
}

export interface SeededJob {
  id: string;
  publicId: string;
  audioKey: string;
  audioUrl: string;
  audioHash: Hex;
  bytes: Uint8Array;
}

export interface StorageStack {
  app: TestApp;
  s3: TestS3;
  objectStore: ObjectStore;
  ipfs: IpfsContentStore;
  signer: MintSigner;
  /** The C2PA signing identity the stack's workers sign songs with. */
  c2pa: TestSigningIdentity;
  /** A job of `userId` in `status`; completed jobs get an audio object and its hash. */
  seedJob(userId: string, address: string, status?: JobStatus): Promise<SeededJob>;
  stop(): Promise<void>;
}

export interface StorageStackOptions {
  pinning?: PinningClient;
  chain?: { chainId: number; songNftAddress?: Address };
  /** The platform signer: a fresh key by default. */
  signer?: MintSigner;
  signerKey?: Hex;
  signerStatus?: SignerStatus;
  /** The mint licence guard's policy (enforcing when absent). */
  modelLicence?: ModelLicencePolicy;
  /** Sign-in signature checks (a chain-backed one for smart wallets). */
  walletSignatures?: WalletSignatureVerifier;
  /** The SongVault whose indexed pools the trading routes serve (none by default). */
  vault?: TradingRouterDeps['vault'];
  /** The coin routes' services (none by default: those routes are not mounted). */
  coins?: TradingRouterDeps['coins'];
  /** Webhook hosts exempt from the https and public-address rules (none by default). */
  webhookAllowList?: AllowList;
  /** The outside fingerprint lookup of uploads (none by default). */
  outsideCheck?: OutsideFingerprintCheck;
  /** Linked fids' Farcaster user data for profiles (none by default). */
  farcasterUserData?: FarcasterUserDataReader;
  /** Routers beside the API (the web app at /app). */
  publicRouters?: TestAppOptions['publicRouters'];
}

export async function startStorageStack(options: StorageStackOptions = {}): Promise<StorageStack> {
  const s3 = await startTestS3();
  const objectStore = createObjectStore(testObjectStoreOptions(s3, PUBLIC_BASE_URL));
  // Unref'd: it never keeps the test process alive.
  const prober = createAudioProber();
  const ipfsDir = await makeTempDir('ipfs');
  const ipfs = await openIpfsContentStore(ipfsDir.path);
  const c2pa = await testSigningIdentity();
  const signer = options.signer ?? createMintSigner(options.signerKey ?? generatePrivateKey());
  const chain = options.chain ?? { chainId: 8453 };
  const signerStatus = options.signerStatus === undefined ? {} : { signerStatus: options.signerStatus };
  const app = await startTestApp({
    ...(options.walletSignatures === undefined ? {} : { walletSignatures: options.walletSignatures }),
    ...(options.webhookAllowList === undefined ? {} : { webhookAllowList: options.webhookAllowList }),
    ...(options.farcasterUserData === undefined ? {} : { farcasterUserData: options.farcasterUserData }),
    ...(options.publicRouters === undefined ? {} : { publicRouters: options.publicRouters }),
    services: () => ({
      metadata: { objectStore, ipfs, ...(options.pinning === undefined ? {} : { pinning: options.pinning }) },
      mint: { objectStore, signer, chain, ...signerStatus, modelLicence: options.modelLicence },
      trading: {
        chainId: chain.chainId,
        ...(options.vault === undefined ? {} : { vault: options.vault }),
        ...(options.coins === undefined ? {} : { coins: options.coins }),
      },
      previews: { objectStore },
      uploads: { objectStore, prober, inFlight: createUploadsInFlight(), outsideCheck: options.outsideCheck },
    }),
  });

  async function seedJob(userId: string, address: string, status: JobStatus = JOB_STATUS.completed): Promise<SeededJob> {
    const id = randomUUID();
    const audioKey = audioObjectKey(id);
    const bytes = new Uint8Array(randomBytes(64 * 1024));
    const audioHash = contentHash(bytes);
    const audioUrl = objectStore.publicUrl(audioKey);
    const completed = status === JOB_STATUS.completed;
    if (completed) {
      const put = await objectStore.put(audioKey, bytes, { contentType: 'audio/mpeg' });
      if (!put.ok) throw new Error(put.error.message);
    }
    await app.db.none(
      `INSERT INTO generation_jobs (id, user_id, user_address, prompt, duration, tier, status, progress, audio_key, audio_url,
                                    audio_hash, actual_duration, error_code, error_message, completed_at)
       VALUES ($1, $2, $3, 'test song', 30, 'free', $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
      [
        id,
        userId,
        address,
        status,
        completed ? 100 : 0,
        completed ? audioKey : null,
        completed ? audioUrl : null,
        completed ? audioHash : null,
        completed ? 29.6 : null,
        status === JOB_STATUS.failed ? 'GEN_005' : null,
        status === JOB_STATUS.failed ? 'model error' : null,
        completed ? new Date() : null,
      ],
    );
    return { id, publicId: toPublicJobId(id), audioKey, audioUrl, audioHash, bytes };
  }

  return {
    app,
    s3,
    objectStore,
    ipfs,
    signer,
    c2pa,
    seedJob,
    async stop() {
      await app.stop();
      objectStore.close();
      await s3.stop();
      await ipfs.close();
      await ipfsDir.remove();
      await c2pa.remove();
    },
  };
}

/** A real PNG (RGB, mid grey) of the given size, optionally padded after IEND to `padTo` bytes. */
export function pngBytes(width: number, height: number, padTo = 0): Uint8Array {
  const png = encodePng(width, height, RGB, () => [0x7f, 0x7f, 0x7f]);
  if (padTo <= png.length) return png;
  const padded = new Uint8Array(padTo);
  padded.set(png);
  return padded;
}

export function dataUri(mime: string, bytes: Uint8Array): string {
  return `data:${mime};base64,${Buffer.from(bytes).toString('base64')}`;
}

/**
 * Starts a real inference worker (in this process) on the stack's PostgreSQL and bucket, with the
 * wasm encoder and a fast poll; `settings` add or override worker environment variables.
 */
export async function startStackWorker(stack: StorageStack, settings: Record<string, string> = {}): Promise<WorkerProcess> {
  const config = loadWorkerConfig({
    DATABASE_URL: stack.app.pg.url,
    S3_ENDPOINT: stack.s3.endpoint,
    S3_BUCKET: stack.s3.bucket,
    S3_REGION: stack.s3.region,
    S3_ACCESS_KEY_ID: stack.s3.accessKeyId,
    S3_SECRET_ACCESS_KEY: stack.s3.secretAccessKey,
    S3_FORCE_PATH_STYLE: 'true',
    STORAGE_PUBLIC_URL: PUBLIC_BASE_URL,
    MP3_ENCODER: 'wasm',
    POLL_INTERVAL_MS: '100',
    LOG_LEVEL: 'silent',
    ...stack.c2pa.env,
    ...settings,
  });
  if (!config.ok) throw new Error(config.error.problems.join('; '));
  const started = await startWorkerProcess(config.value, pino({ level: 'silent' }));
  if (!started.ok) throw new Error(`${started.error.code}: ${started.error.message}`);
  return started.value;
}
