import type { Router } from 'express';
import type { Address } from 'viem';
import type { Logger } from 'pino';
import type { PgBoss } from 'pg-boss';
import type { Database } from '../../../core/src/db/database.ts';
import type { SessionTokenKeys } from '../domain/session-token.ts';
import type { MetadataDeps } from '../domain/metadata.ts';
import type { ModelLicencePolicy } from '../domain/model-licence.ts';
import type { ObjectStore } from '../../../core/src/object-store.ts';
import type { AudioProber } from '../../../core/src/audio/audio-prober.ts';
import type { UploadsInFlight } from '../domain/uploads-in-flight.ts';
import type { OutsideFingerprintCheck } from '../domain/outside-fingerprint-check.ts';
import type { TrustProxy } from './trust-proxy.ts';
import type { MintSigner } from '../chain/mint-signer.ts';
import type { SignerStatus } from '../chain/signer-status.ts';
import type { ClaimableFeesReader } from '../chain/pool-fees.ts';
import type { CoinChainReads } from '../chain/coin-reads.ts';
import type { EthUsdReader } from '../chain/eth-usd-feed.ts';
import type { FarcasterSignInVerifier, FidVerifier, QuickAuthVerifier } from '../domain/farcaster.ts';
import type { FarcasterUserDataReader } from '../domain/farcaster-user-data.ts';
import type { JobEventsHub } from '../domain/job-events-hub.ts';
import type { WalletSignatureVerifier } from '../chain/wallet-signature.ts';
import type { OracleMetrics } from './metrics.ts';
import type { AllowList } from '../webhooks/address-policy.ts';

/** Sign-In with Ethereum expectations: a message for another site or chain is refused. */
export interface SiweSettings {
  /** RFC 3986 authority the message must name (e.g. `app.songmint.xyz` or `127.0.0.1:3000`). */
  domain: string;
  /** Origin the message's URI must start with. */
  uri: string;
  nonceTtlSeconds: number;
}

/** POST /api/metadata: object storage for covers, IPFS for the JSON, an optional pinning service. */
export type MetadataServices = Omit<MetadataDeps, 'db' | 'now'>;

/** POST /api/signature and /v1/nft: the audio check, the platform signer, the chain the mint goes to. */
export interface MintServices {
  objectStore: Pick<ObjectStore, 'sha256'>;
  signer: MintSigner;
  /** The licence guard's policy; absent: enforce. */
  modelLicence?: ModelLicencePolicy | undefined;
  /** `MINT_MAX_OUTSIDE_SHARE` (SIGN_008); absent: its default. */
  maxOutsideShare?: number | undefined;
  /** SongNFT's signer reads: a signature by a retired key, never used, is replaced (docs/minting.md). */
  signerStatus?: SignerStatus;
  chain: { chainId: number; songNftAddress?: Address };
}

/** /v1/trading: the pools of the SongVault this oracle indexes (oracle/src/chain/pool-indexer.ts). */
export interface TradingServices {
  chainId: number;
  /** Absent: no vault is configured, so no pool is indexed and the list is empty. */
  vault?: {
    /** The pool indexer's `chain_cursors` row (`SongPools:<vault>`). */
    cursorName: string;
    /** Reads the claimable fees from the vault at answer time. */
    readClaimable: ClaimableFeesReader;
  };
  /** The coin pages, creator profiles and portfolios (routes/coins.ts); absent: those routes are not mounted. */
  coins?: CoinServices;
}

/** What the coin routes read besides the indexed rows: the vault and PoolManager they name, chain reads, the ETH/USD feed. */
export interface CoinServices {
  vaultAddress: Address;
  poolManagerAddress: Address;
  chain: CoinChainReads;
  /** Absent: no ETH/USD feed is configured (the local chain), so every USD figure is null. */
  ethUsd?: EthUsdReader;
}

/** /api/previews and the downloads: the private clips' and the songs' presigned URLs (and the MP3's size). */
export interface PreviewServices {
  objectStore: Pick<ObjectStore, 'presignedGetUrl' | 'head'>;
}

/** POST /api/uploads: the private store the uploads go to (and GET /api/uploads signs their owners' play URLs in). */
export interface UploadServices {
  objectStore: Pick<ObjectStore, 'put' | 'delete' | 'presignedGetUrl'>;
  /** Decodes each upload in a bounded worker thread (core/src/audio/audio-prober.ts). */
  prober: Pick<AudioProber, 'probe'>;
  /** This process's uploads in flight (oracle/src/domain/uploads-in-flight.ts). */
  inFlight: UploadsInFlight;
  /** The optional AcoustID-compatible lookup of uploads (`ACOUSTID_LOOKUP_URL`); absent: off. */
  outsideCheck?: OutsideFingerprintCheck | undefined;
}

/** Everything the HTTP app needs; built once in oracle/src/main.ts (or a test helper). */
export interface AppDeps {
  db: Database;
  boss: PgBoss;
  logger: Logger;
  metrics: OracleMetrics;
  session: SessionTokenKeys;
  siwe: SiweSettings;
  /** GEN_001 when this many jobs are already queued. */
  queueCapacity: number;
  /** Verifies a Farcaster fid claim on-chain; absent: claims are ignored. */
  fidVerifier?: FidVerifier;
  /** Verifies Sign In With Farcaster messages against OP Mainnet (FARCASTER_RPC_URL); absent: the route is not mounted. */
  farcasterSignIn?: FarcasterSignInVerifier;
  /** Verifies Mini App Quick Auth tokens (FARCASTER_QUICK_AUTH_ORIGIN); absent: the route is not mounted. */
  quickAuth?: QuickAuthVerifier;
  /** Reads linked fids' Farcaster user data for profiles (FARCASTER_HUB_URL); absent: profiles show none. */
  farcasterUserData?: FarcasterUserDataReader;
  /** Checks sign-in signatures; with a chain client smart wallets (ERC-1271, ERC-6492) sign in too. Absent: EOAs only. */
  walletSignatures?: WalletSignatureVerifier;
  /** The services of the routes beyond the core ones; a route whose services are absent is not mounted (404). */
  metadata?: MetadataServices;
  mint?: MintServices;
  trading?: TradingServices;
  previews?: PreviewServices;
  uploads?: UploadServices;
  /** Routers that are no API operations and need no token and no limit (the development IPFS gateway at /ipfs, the web app). */
  publicRouters?: ReadonlyArray<{ path: string; router: Router }>;
  /** Express's `trust proxy` (`TRUST_PROXY`, ./trust-proxy.ts): who may name the client; absent: loopback. */
  trustProxy?: TrustProxy;
  /** Origins allowed by CORS; `*` (default) allows any (tokens are bearer headers, never cookies). */
  corsOrigins?: ReadonlyArray<string> | '*';
  /** This process's job event streams and their LISTEN connection (GET /api/generate/{job_id}/events). */
  jobEvents: JobEventsHub;
  /** Source of the current time (tests move it). */
  now: () => Date;
  /** Webhook hosts exempt from the https and public-address rules (`WEBHOOK_ALLOWED_HOSTS`); absent: none. */
  webhookAllowList?: AllowList;
}
