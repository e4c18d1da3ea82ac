import { z } from 'zod';
import { parseEnv } from '../../core/src/config/env.ts';
import type { EnvResult } from '../../core/src/config/env.ts';
import { objectStoreEnvShape, refineObjectStoreEnv } from '../../core/src/config/object-store-env.ts';
import { parseKeyReference } from '../../core/src/signing/key-reference.ts';
import { parseAllowList } from './webhooks/address-policy.ts';
import type { AllowList } from './webhooks/address-policy.ts';
import {
  DEFAULT_WEBHOOK_SETTINGS,
  WEBHOOK_ATTEMPT_TIMEOUT_MS,
  WEBHOOK_CONCURRENCY,
  WEBHOOK_RETRY_DELAY_SECONDS,
  WEBHOOK_RETRY_LIMIT,
} from './webhooks/webhook-queue.ts';
import type { WebhookSettings } from './webhooks/webhook-queue.ts';
import { DEFAULT_TRUST_PROXY, parseTrustProxy } from './http/trust-proxy.ts';
import type { TrustProxy } from './http/trust-proxy.ts';
import { DEFAULT_UPLOADS_IN_FLIGHT } from './domain/uploads-in-flight.ts';
import { FARCASTER_QUICK_AUTH_ORIGIN, FARCASTER_RELAY_URL } from './domain/farcaster.ts';
import { buildMiniAppManifest } from './http/miniapp-manifest.ts';
import { DEFAULT_MAX_OUTSIDE_SHARE } from './domain/signatures.ts';

/**
 * The oracle's whole configuration, read from the environment once at start. Every variable is
 * optional in development: a missing service is replaced by an embedded one (see
 * scripts/dev-stack.ts). In production (`NODE_ENV=production`) the secrets must be given.
 */

const port = z.coerce.number({ error: 'must be a port number' }).int().min(0).max(65535);
const positiveInt = z.coerce.number({ error: 'must be a whole number' }).int().positive();
const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' });
const hexKey = z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'must be a 0x-prefixed 32-byte hex private key');
const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 0x-prefixed 20-byte address');

export const envSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
    PORT: port.default(3000),
    HOST: z.string().min(1).default('127.0.0.1'),
    DATA_DIR: z.string().min(1).default('.data'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// URL' }).optional(),
    JWT_SECRET: z
      .string()
      .refine((value) => Buffer.byteLength(value) >= 32, 'must be at least 32 bytes')
      .optional(),
    JWT_TTL_SECONDS: positiveInt.max(30 * 24 * 3600).default(24 * 3600),
    SIWE_DOMAIN: z.string().min(1).optional(),
    SIWE_URI: httpUrl.optional(),
    SIWE_NONCE_TTL_SECONDS: positiveInt.max(3600).default(600),
    QUEUE_CAPACITY: positiveInt.default(1000),
    /** Connections this process keeps to PostgreSQL; size it to the database's cores, not the load. */
    DATABASE_POOL_SIZE: positiveInt.max(1000).default(10),
    /** Comma-separated origins allowed by CORS, or `*`. */
    CORS_ORIGINS: z
      .string()
      .default('*')
      .transform((value) =>
        value.trim() === '*'
          ? ('*' as const)
          : value
              .split(',')
              .map((origin) => origin.trim())
              .filter((origin) => origin !== ''),
      )
      .refine(
        (value) => value === '*' || value.every((origin) => /^https?:\/\/[^/\s]+$/.test(origin)),
        'must be * or a comma-separated list of origins like https://app.example',
      ),
    ...objectStoreEnvShape,
    IPFS_PINNING_URL: httpUrl.optional(),
    IPFS_PINNING_TOKEN: z.string().min(1).optional(),
    CHAIN_RPC_URL: httpUrl.optional(),
    SONG_NFT_ADDRESS: address.optional(),
    /** Blocks a SongMinted log must be buried under before the watcher records it. */
    CHAIN_CONFIRMATIONS: z.coerce.number({ error: 'must be a whole number' }).int().min(0).max(1000).default(2),
    /** First block the watcher reads on a fresh database (the SongNFT deployment block). */
    CHAIN_START_BLOCK: z.coerce.number({ error: 'must be a whole number' }).int().min(0).default(0),
    /** SongVault whose launches and pools the pool indexer follows (needs CHAIN_RPC_URL). */
    SONG_VAULT_ADDRESS: address.optional(),
    /** Uniswap v4 PoolManager of the vault's pools (its Base address by default). */
    POOL_MANAGER_ADDRESS: address.default('0x498581fF718922c3f8e6A244956aF099B2652b2b'),
    /** Uniswap v4-periphery's V4Quoter: the coin pages' and portfolios' sale quotes (its Base address by default, where the local chain places it too). */
    V4_QUOTER_ADDRESS: address.default('0x0d5e0F971ED27FBfF6c2837bf31316121532048D'),
    /**
     * A Chainlink ETH/USD feed (AggregatorV3Interface) for the coin pages' USD figures (needs
     * CHAIN_RPC_URL); on Base 0x71041dddad3595F9CEd3DcCFBe3D1F4b0a16Bb70. Unset: ETH only.
     */
    ETH_USD_FEED_ADDRESS: address.optional(),
    /** An ETH/USD answer older than this is not used (Base's feed updates at least every 1,200 s). */
    ETH_USD_FEED_MAX_AGE_SECONDS: positiveInt.max(86_400).default(3_600),
    /**
     * The mint key in an HSM or KMS, which the oracle asks for signatures and never reads: a
     * `pkcs11:` URI (RFC 7512) or `awskms://[endpoint]/<key>` (docs/operations.md, "Signing keys").
     */
    PLATFORM_SIGNER: z
      .string()
      .superRefine((value, ctx) => {
        const parsed = parseKeyReference('PLATFORM_SIGNER', value);
        if (!parsed.ok) ctx.addIssue({ code: 'custom', message: parsed.error.message.replace(/^PLATFORM_SIGNER: /, '') });
      })
      .optional(),
    /** The mint key's bytes in the environment: development only (PLATFORM_SIGNER in production). */
    PLATFORM_SIGNER_KEY: hexKey.optional(),
    /**
     * Sign mints of audio from models whose licence forbids commercial use (MusicGen's weights are
     * CC-BY-NC-4.0). Off by default: set it only with rights to the model for commercial use.
     */
    ALLOW_NONCOMMERCIAL_MODEL_MINTING: z
      .enum(['true', 'false'], { error: 'must be true or false' })
      .default('false')
      .transform((value) => value === 'true'),
    /**
     * The largest share of a song that may be uploaded audio kept verbatim through its edits for a
     * mint signature (SIGN_008 above it; core/src/outside-audio.ts): 0 signs only songs that keep
     * none, 1 any song.
     */
    MINT_MAX_OUTSIDE_SHARE: z.coerce.number({ error: 'must be a number from 0 to 1' }).min(0).max(1).default(DEFAULT_MAX_OUTSIDE_SHARE),
    /** OP Mainnet's JSON-RPC: Farcaster's IdRegistry and KeyRegistry for fid claims and Sign In With Farcaster. */
    FARCASTER_RPC_URL: httpUrl.optional(),
    /**
     * A Farcaster hub's HTTP API (Snapchain or Hubble, e.g. https://snapchain-api.neynar.com): profiles
     * show a linked fid's display name, username and picture where the creator set none
     * (oracle/src/domain/farcaster-user-data.ts). Unset: profiles show only what creators set.
     */
    FARCASTER_HUB_URL: httpUrl.optional(),
    /** Sent as `x-api-key` to the hub (hosted hubs ask for one). */
    FARCASTER_HUB_API_KEY: z.string().min(1).optional(),
    /** How long a profile waits for the hub before it answers without the fid's user data. */
    FARCASTER_HUB_TIMEOUT_MS: positiveInt.max(30_000).default(2000),
    /** The issuer of Mini App Quick Auth tokens (its key set at /.well-known/jwks.json). */
    FARCASTER_QUICK_AUTH_ORIGIN: httpUrl.default(FARCASTER_QUICK_AUTH_ORIGIN),
    /** The AuthKit relay the web app's "Sign in with Farcaster" opens its channel on (the app reads it from config.json). */
    FARCASTER_RELAY_URL: httpUrl.default(FARCASTER_RELAY_URL),
    // Songmint as a Farcaster Mini App (./http/miniapp-manifest.ts): /.well-known/farcaster.json is
    // served once the operator's signed account association is set.
    /** `{header, payload, signature}` from Farcaster's manifest tool, signed for SIWE_DOMAIN. */
    FARCASTER_ACCOUNT_ASSOCIATION: z.string().min(1).optional(),
    MINIAPP_NAME: z.string().min(1).max(32).default('Songmint'),
    MINIAPP_ICON_URL: httpUrl.optional(),
    MINIAPP_HOME_URL: httpUrl.optional(),
    MINIAPP_SPLASH_IMAGE_URL: httpUrl.optional(),
    MINIAPP_SPLASH_BACKGROUND_COLOR: z.string().optional(),
    MINIAPP_DESCRIPTION: z.string().max(170).optional(),
    /** Who may name the client in X-Forwarded-For: a hop count, addresses/CIDRs, or false (./http/trust-proxy.ts). */
    TRUST_PROXY: z
      .string()
      .default(DEFAULT_TRUST_PROXY)
      .transform((value, ctx): TrustProxy => {
        const parsed = parseTrustProxy(value);
        if (parsed.ok) return parsed.value;
        ctx.addIssue({ code: 'custom', message: parsed.error.message });
        return z.NEVER;
      }),
    // Uploads (oracle/src/domain/uploads-in-flight.ts): each holds up to 100 MiB and a decode thread's turn.
    /** Uploads this process takes at once; one more answers 429 UPLOAD_006. */
    UPLOADS_IN_FLIGHT: positiveInt.max(1000).default(DEFAULT_UPLOADS_IN_FLIGHT.perProcess),
    /** Uploads one user may have in flight in this process. */
    UPLOADS_IN_FLIGHT_PER_USER: positiveInt.max(1000).default(DEFAULT_UPLOADS_IN_FLIGHT.perUser),
    // The optional outside check of uploads against an AcoustID-compatible service
    // (oracle/src/domain/outside-fingerprint-check.ts, docs/fingerprints.md): off unless the URL is set.
    /** The service's lookup endpoint, e.g. https://api.acoustid.org/v2/lookup. */
    ACOUSTID_LOOKUP_URL: httpUrl.optional(),
    /** The application's client key at that service (required with the URL). */
    ACOUSTID_CLIENT_KEY: z.string().min(1).optional(),
    /** The lowest score that counts as the service knowing the recording (0 to 1). */
    ACOUSTID_MIN_SCORE: z.coerce.number({ error: 'must be a number' }).min(0).max(1).default(0.9),
    /** How long an upload waits for the service before it is taken without its answer. */
    ACOUSTID_TIMEOUT_MS: positiveInt.max(60_000).default(5000),
    // Job event streams (GET /api/generate/{job_id}/events, oracle/src/domain/job-events-hub.ts).
    /** Streams one process serves at once; more are refused with 503 and Retry-After. */
    JOB_EVENTS_MAX_STREAMS: positiveInt.max(100_000).default(1000),
    /** Seconds between heartbeat comments on an idle stream. */
    JOB_EVENTS_HEARTBEAT_SECONDS: positiveInt.max(300).default(15),
    /** A stream ends after this long (the 300 s job limit plus queueing margin); clients resume with Last-Event-ID. */
    JOB_EVENTS_MAX_STREAM_SECONDS: positiveInt.max(86_400).default(600),
    // Webhooks (docs/api.md "Webhooks (extension)").
    /** Comma list of host or host:port that webhooks may reach over http and on private addresses; development only. */
    WEBHOOK_ALLOWED_HOSTS: z
      .string()
      .default('')
      .transform((value, ctx): AllowList => {
        const parsed = parseAllowList(value);
        if (parsed.ok) return parsed.value;
        ctx.addIssue({ code: 'custom', message: parsed.error.message });
        return z.NEVER;
      }),
    WEBHOOK_TIMEOUT_MS: positiveInt.max(60_000).default(WEBHOOK_ATTEMPT_TIMEOUT_MS),
    WEBHOOK_RETRY_LIMIT: z.coerce.number({ error: 'must be a whole number' }).int().min(0).max(20).default(WEBHOOK_RETRY_LIMIT),
    WEBHOOK_RETRY_DELAY_SECONDS: positiveInt.max(3600).default(WEBHOOK_RETRY_DELAY_SECONDS),
    WEBHOOK_CONCURRENCY: positiveInt.max(200).default(WEBHOOK_CONCURRENCY),
  })
  .superRefine((env, ctx) => {
    if (env.NODE_ENV !== 'production') return;
    const required: ReadonlyArray<[keyof typeof env, string]> = [
      ['JWT_SECRET', 'required in production (a development secret is generated otherwise)'],
      [
        'PLATFORM_SIGNER_KEY',
        'required in production unless PLATFORM_SIGNER names the key in an HSM or KMS (a development key is generated otherwise)',
      ],
      ['DATABASE_URL', 'required in production (the embedded PostgreSQL is for development)'],
      ['SIWE_DOMAIN', 'required in production (the host name users sign in to)'],
    ];
    for (const [key, message] of required) {
      if (key === 'PLATFORM_SIGNER_KEY' && env.PLATFORM_SIGNER !== undefined) continue;
      if (env[key] === undefined) ctx.addIssue({ code: 'custom', path: [key], message });
    }
    if (env.WEBHOOK_ALLOWED_HOSTS.length > 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['WEBHOOK_ALLOWED_HOSTS'],
        message: 'must be empty in production (it lets webhooks reach private and loopback addresses)',
      });
    }
  })
  .superRefine((env, ctx) => {
    refineObjectStoreEnv(env, ctx);
    if (env.IPFS_PINNING_URL !== undefined && env.IPFS_PINNING_TOKEN === undefined) {
      ctx.addIssue({ code: 'custom', path: ['IPFS_PINNING_TOKEN'], message: 'IPFS_PINNING_URL needs IPFS_PINNING_TOKEN' });
    }
    if (env.PLATFORM_SIGNER !== undefined && env.PLATFORM_SIGNER_KEY !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['PLATFORM_SIGNER_KEY'],
        message: 'set PLATFORM_SIGNER (a key in an HSM or KMS) or PLATFORM_SIGNER_KEY (development), not both',
      });
    }
    if ((env.CHAIN_RPC_URL === undefined) !== (env.SONG_NFT_ADDRESS === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['SONG_NFT_ADDRESS'], message: 'CHAIN_RPC_URL and SONG_NFT_ADDRESS go together' });
    }
    if ((env.ACOUSTID_LOOKUP_URL === undefined) !== (env.ACOUSTID_CLIENT_KEY === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['ACOUSTID_CLIENT_KEY'], message: 'ACOUSTID_LOOKUP_URL and ACOUSTID_CLIENT_KEY go together' });
    }
    if (env.FARCASTER_HUB_API_KEY !== undefined && env.FARCASTER_HUB_URL === undefined) {
      ctx.addIssue({ code: 'custom', path: ['FARCASTER_HUB_API_KEY'], message: 'FARCASTER_HUB_API_KEY needs FARCASTER_HUB_URL' });
    }
    if (env.SONG_VAULT_ADDRESS !== undefined && env.CHAIN_RPC_URL === undefined) {
      ctx.addIssue({ code: 'custom', path: ['SONG_VAULT_ADDRESS'], message: 'SONG_VAULT_ADDRESS needs CHAIN_RPC_URL' });
    }
    if (env.FARCASTER_ACCOUNT_ASSOCIATION !== undefined) {
      const manifest = miniAppManifestOf(env);
      if (manifest === undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['MINIAPP_HOME_URL'],
          message: 'FARCASTER_ACCOUNT_ASSOCIATION needs MINIAPP_ICON_URL and MINIAPP_HOME_URL',
        });
      } else if (!manifest.ok) {
        ctx.addIssue({ code: 'custom', path: ['FARCASTER_ACCOUNT_ASSOCIATION'], message: manifest.error.message });
      }
    }
    if (env.ETH_USD_FEED_ADDRESS !== undefined && env.SONG_VAULT_ADDRESS === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['ETH_USD_FEED_ADDRESS'],
        message: 'ETH_USD_FEED_ADDRESS needs CHAIN_RPC_URL and SONG_VAULT_ADDRESS',
      });
    }
  });

export type OracleEnv = z.infer<typeof envSchema>;

export type ConfigResult = EnvResult<OracleEnv>;

/** The API's own origin from HOST and PORT (an IPv6 host in brackets): `http://127.0.0.1:3000` by default. */
export function apiOrigin(config: Pick<OracleEnv, 'HOST' | 'PORT'>): string {
  return `http://${config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST}:${config.PORT}`;
}

/**
 * The Mini App manifest the environment describes: undefined without an account association or
 * without the icon and home URLs; otherwise built and checked for the domain users sign in to.
 */
export function miniAppManifestOf(
  config: Pick<
    OracleEnv,
    | 'FARCASTER_ACCOUNT_ASSOCIATION'
    | 'MINIAPP_NAME'
    | 'MINIAPP_ICON_URL'
    | 'MINIAPP_HOME_URL'
    | 'MINIAPP_SPLASH_IMAGE_URL'
    | 'MINIAPP_SPLASH_BACKGROUND_COLOR'
    | 'MINIAPP_DESCRIPTION'
    | 'SIWE_DOMAIN'
    | 'HOST'
    | 'PORT'
  >,
): ReturnType<typeof buildMiniAppManifest> | undefined {
  const association = config.FARCASTER_ACCOUNT_ASSOCIATION;
  if (association === undefined || config.MINIAPP_ICON_URL === undefined || config.MINIAPP_HOME_URL === undefined) return undefined;
  return buildMiniAppManifest(
    {
      accountAssociation: association,
      name: config.MINIAPP_NAME,
      iconUrl: config.MINIAPP_ICON_URL,
      homeUrl: config.MINIAPP_HOME_URL,
      ...(config.MINIAPP_SPLASH_IMAGE_URL === undefined ? {} : { splashImageUrl: config.MINIAPP_SPLASH_IMAGE_URL }),
      ...(config.MINIAPP_SPLASH_BACKGROUND_COLOR === undefined ? {} : { splashBackgroundColor: config.MINIAPP_SPLASH_BACKGROUND_COLOR }),
      ...(config.MINIAPP_DESCRIPTION === undefined ? {} : { description: config.MINIAPP_DESCRIPTION }),
    },
    config.SIWE_DOMAIN ?? new URL(apiOrigin(config)).host,
  );
}

/** The webhook delivery settings the environment chose. */
export function webhookSettings(
  config: Pick<
    OracleEnv,
    'WEBHOOK_ALLOWED_HOSTS' | 'WEBHOOK_TIMEOUT_MS' | 'WEBHOOK_RETRY_LIMIT' | 'WEBHOOK_RETRY_DELAY_SECONDS' | 'WEBHOOK_CONCURRENCY'
  >,
): WebhookSettings {
  return {
    ...DEFAULT_WEBHOOK_SETTINGS,
    allowList: config.WEBHOOK_ALLOWED_HOSTS,
    attemptTimeoutMs: config.WEBHOOK_TIMEOUT_MS,
    retryLimit: config.WEBHOOK_RETRY_LIMIT,
    retryDelaySeconds: config.WEBHOOK_RETRY_DELAY_SECONDS,
    concurrency: config.WEBHOOK_CONCURRENCY,
  };
}

/** Validates `env` (normally `process.env`); empty strings count as unset, secrets are not echoed. */
export function loadConfig(env: Readonly<Record<string, string | undefined>>): ConfigResult {
  return parseEnv(envSchema, env);
}
