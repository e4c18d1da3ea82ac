import type { Router } from 'express';
import type { Logger } from 'pino';
import type { PgBoss } from 'pg-boss';
import type { Database } from '../../../core/src/db/database.ts';
import type { SessionTokenKeys } from '../domain/session-token.ts';
import type { RateCategory } from '../domain/request-charge.ts';
import type { FidVerifier } from '../domain/farcaster.ts';
import type { JobEventsHub } from '../domain/job-events-hub.ts';
import type { WalletSignatureVerifier } from '../chain/wallet-signature.ts';
import type { OracleMetrics } from './metrics.ts';
import type { OpenApiContribution } from './openapi.ts';
import type { AllowList } from '../webhooks/address-policy.ts';

/** Sign-In with Ethereum expectations: a message for another site or chain is refused. */
export interface SiweSettings {
  /** RFC 3986 authority the message must name (e.g. `app.songmint.xyz` or `127.0.0.1:3000`). */
  domain: string;
  /** Origin the message's URI must start with. */
  uri: string;
  nonceTtlSeconds: number;
}

/**
 * A router another module contributes (metadata, signature, NFT, trading). `createApp` mounts it
 * at `path` behind bearer authentication and the hourly limit of the path's category in its
 * `ROUTE_CHARGES` table (oracle/src/http/app.ts), with a JSON body
 * parser limited to `bodyLimit` (default 64 kB). Routes inside the router are relative to `path`.
 * Handlers read the caller with `authenticatedUser(req)` from ./auth.ts and answer errors with
 * `sendError` from ./error-response.ts.
 */
export interface MountedRouter {
  path: string;
  router: Router;
  /** Only for a path that `ROUTE_CHARGES` does not list (a test's probe router). */
  category?: RateCategory;
  /**
   * The router reads the user and charges its category itself, in one statement with its own
   * lookup (after validating the body, so bad input is never charged): it is mounted behind the
   * bearer token check only (`requireBearerFor`), not `authenticateAndCharge`.
   */
  chargesItself?: boolean;
  bodyLimit?: string;
  /** Registers the router's paths in /openapi.json. */
  openapi?: OpenApiContribution;
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
  /** Checks sign-in signatures; with a chain client smart wallets (ERC-1271, ERC-6492) sign in too. Absent: EOAs only. */
  walletSignatures?: WalletSignatureVerifier;
  /** Routers of other modules, mounted after the core routes. */
  routers?: ReadonlyArray<MountedRouter>;
  /** Routers that need no token (the development IPFS gateway at /ipfs; public market data, which charges per client address itself). */
  publicRouters?: ReadonlyArray<{ path: string; router: Router; openapi?: OpenApiContribution }>;
  /** Origins allowed by CORS; `*` (default) allows any (tokens are bearer headers, never cookies). */
  corsOrigins?: ReadonlyArray<string> | '*';
  /** This process's job event streams and their LISTEN connection (GET /api/generate/{job_id}/events). */
  jobEvents: JobEventsHub;
  /** Source of the current time (tests move it). */
  now: () => Date;
  /** Webhook hosts exempt from the https and public-address rules (`WEBHOOK_ALLOWED_HOSTS`); absent: none. */
  webhookAllowList?: AllowList;
}
