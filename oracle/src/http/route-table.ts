/**
 * The route table: every operation of the API, once. From it `createApp` (./app.ts) mounts the
 * Express app, `buildOpenApiDocument` (./openapi.ts) builds /openapi.json (operationId and
 * security of each operation), and `routeCharges` lists what each route charges. The pipeline an
 * entry runs is ./route.ts; charging is ./charging.ts.
 *
 * Adding a route is one entry: its method and OpenAPI path; a unique operationId; `publicRoute`
 * (no token) or `bearerRoute` (session token); its charge (`session` for the category of
 * docs/api.md, with a `lookup` when the handler reads one row of the caller's that the charge's
 * statement can read with it); `body` when it reads JSON; `input` to validate path, query and
 * body before the charge; `idempotency` for a POST that creates; its handler and its docs (the
 * zod schemas of its request and answers). A handler whose services are optional returns
 * undefined without them: the route is then not mounted (404), yet stays in the document.
 *
 * Order matters only where two templates could match one path: Express tries entries in order.
 */
import type { RateCategory } from '../domain/request-charge.ts';
import { ownJobLookup } from '../domain/jobs.ts';
import { ownPreviewLookup } from '../domain/previews.ts';
import { signableJobLookup } from '../domain/signatures.ts';
import {
  cancelJobDocs,
  createJobDocs,
  createJobV1Docs,
  healthDocs,
  jobEventsDocs,
  jobStatusDocs,
  listJobsDocs,
  livenessDocs,
  metricsDocs,
  profileDocs,
  readinessDocs,
  signInNonceDocs,
  signInVerifyDocs,
} from './core-docs.ts';
import { DEFAULT_BODY_LIMIT, bearerRoute, publicRoute } from './route.ts';
import type { Route } from './route.ts';
import { signInInput, signInNonceHandler, signInVerifyHandler } from './routes/auth.ts';
import {
  farcasterSignInDocs,
  farcasterSignInHandler,
  farcasterSignInInput,
  quickAuthSignInDocs,
  quickAuthSignInHandler,
  quickAuthSignInInput,
} from './routes/farcaster-auth.ts';
import {
  cancelJobHandler,
  createJob,
  generateInput,
  jobIdInput,
  jobListInput,
  jobStatusHandler,
  listJobsHandler,
  variantAInput,
} from './routes/generate.ts';
import { healthHandler, livenessHandler, metricsHandler, readinessHandler } from './routes/health.ts';
import { jobEventsHandler } from './routes/job-events.ts';
import {
  deleteJobDocs,
  deleteJobHandler,
  renameInput,
  renameJobDocs,
  renameJobHandler,
  restoreJobDocs,
  restoreJobHandler,
} from './routes/library.ts';
import { downloadDocs, downloadHandler, downloadInput } from './routes/downloads.ts';
import { METADATA_BODY_LIMIT, metadataDocs, parseMetadataRequest, publishMetadataHandler } from './routes/metadata.ts';
import { nftDocs, nftHandler, nftMintDocs, nftMintHandler, nftMintInput, tokenIdInput } from './routes/nft.ts';
import { createPreviewDocs, createPreviewHandler, previewDocs, previewHandler, previewInput, sessionIdInput } from './routes/previews.ts';
import { signatureDocs, signatureHandler, signatureInput } from './routes/signature.ts';
import { poolHistoryDocs, poolHistoryHandler, poolHistoryInput } from './routes/pool-history.ts';
import { publicSongDocs, publicSongHandler, publicSongsDocs, publicSongsHandler, publicSongsInput } from './routes/public-songs.ts';
import {
  addressInput,
  coinDocs,
  coinHandler,
  coinTradesDocs,
  coinTradesHandler,
  coinTradesInput,
  creatorDocs,
  creatorHandler,
  portfolioDocs,
  portfolioHandler,
} from './routes/coins.ts';
import { poolDocs, poolHandler, poolsDocs, poolsHandler, poolsInput, songIdInput } from './routes/trading.ts';
import { profileHandler } from './routes/v1.ts';
import { PROFILE_BODY_LIMIT, changeProfileDocs, changeProfileHandler, profileChangeInput } from './routes/creator-profile.ts';
import { UPLOAD_BODY_RATE, uploadBeforeBody, uploadDocs, uploadHandler, uploadInput } from './routes/uploads.ts';
import {
  deleteUploadDocs,
  deleteUploadHandler,
  listUploadsDocs,
  listUploadsHandler,
  uploadIdInput,
  uploadListInput,
} from './routes/upload-list.ts';
import { MAX_UPLOAD_BYTES } from '../../../core/src/uploads.ts';
import { rotateWebhookSecretHandler, webhookSecretHandler } from './routes/webhooks.ts';
import { rotateWebhookSecretDocs, webhookSecretDocs } from './webhooks-openapi.ts';

const json = { limit: DEFAULT_BODY_LIMIT };

export const API_ROUTES: ReadonlyArray<Route> = [
  // The route clients poll, first: token, user, hourly charge and the owned job in one statement.
  bearerRoute({
    method: 'get',
    path: '/api/generate/{job_id}',
    operationId: 'getJob',
    charge: { by: 'session', category: 'general' },
    input: jobIdInput,
    lookup: ownJobLookup,
    handle: jobStatusHandler,
    docs: jobStatusDocs,
  }),
  // Charged once per connection, however long the stream runs.
  bearerRoute({
    method: 'get',
    path: '/api/generate/{job_id}/events',
    operationId: 'streamJobEvents',
    charge: { by: 'session', category: 'general' },
    input: jobIdInput,
    lookup: ownJobLookup,
    handle: jobEventsHandler,
    docs: jobEventsDocs,
  }),
  bearerRoute({
    method: 'get',
    path: '/api/generate/{job_id}/download/{format}',
    operationId: 'getLosslessDownload',
    charge: { by: 'session', category: 'general' },
    input: downloadInput,
    lookup: (input) => ownJobLookup(input.jobId),
    // Private objects' presigned URLs come from the store the preview routes use.
    handle: (deps) => deps.previews && downloadHandler({ ...deps, ...deps.previews }),
    docs: downloadDocs,
  }),

  publicRoute({
    method: 'get',
    path: '/health',
    operationId: 'getHealth',
    charge: { by: 'nothing' },
    handle: healthHandler,
    docs: healthDocs,
  }),
  publicRoute({
    method: 'get',
    path: '/health/live',
    operationId: 'getLiveness',
    charge: { by: 'nothing' },
    handle: livenessHandler,
    docs: livenessDocs,
  }),
  publicRoute({
    method: 'get',
    path: '/health/ready',
    operationId: 'getReadiness',
    charge: { by: 'nothing' },
    handle: readinessHandler,
    docs: readinessDocs,
  }),
  publicRoute({
    method: 'get',
    path: '/metrics',
    operationId: 'getMetrics',
    charge: { by: 'nothing' },
    handle: metricsHandler,
    docs: metricsDocs,
  }),

  // Sign-in: per client IP address, before there is a user.
  publicRoute({
    method: 'get',
    path: '/api/auth/nonce',
    operationId: 'getSignInNonce',
    charge: { by: 'ip', category: 'general' },
    handle: signInNonceHandler,
    docs: signInNonceDocs,
  }),
  publicRoute({
    method: 'post',
    path: '/api/auth/verify',
    operationId: 'signIn',
    charge: { by: 'ip', category: 'general' },
    body: json,
    input: signInInput,
    handle: signInVerifyHandler,
    docs: signInVerifyDocs,
  }),
  publicRoute({
    method: 'post',
    path: '/api/auth/farcaster',
    operationId: 'signInWithFarcaster',
    charge: { by: 'ip', category: 'general' },
    body: json,
    input: farcasterSignInInput,
    handle: farcasterSignInHandler,
    docs: farcasterSignInDocs,
  }),
  publicRoute({
    method: 'post',
    path: '/api/auth/quick-auth',
    operationId: 'signInWithQuickAuth',
    charge: { by: 'ip', category: 'general' },
    body: json,
    input: quickAuthSignInInput,
    handle: quickAuthSignInHandler,
    docs: quickAuthSignInDocs,
  }),

  // Songs: the daily tier counter, then the hourly limit, in the admission transaction that writes the job.
  bearerRoute({
    method: 'post',
    path: '/api/generate',
    operationId: 'createJob',
    charge: { by: 'admission', category: 'generation', daily: true },
    body: json,
    input: generateInput,
    idempotency: { varyOn: ['prefer'] },
    handle: createJob,
    docs: createJobDocs,
  }),
  // Audio of the caller's own that an edit starts from: the file is the body, read raw.
  bearerRoute({
    method: 'post',
    path: '/api/uploads',
    operationId: 'uploadAudio',
    charge: { by: 'session', category: 'general' },
    beforeBody: (deps) => deps.uploads && uploadBeforeBody(deps.uploads.inFlight),
    body: { limit: MAX_UPLOAD_BYTES, raw: true, minRate: UPLOAD_BODY_RATE },
    input: uploadInput,
    handle: (deps) => deps.uploads && uploadHandler({ db: deps.db, ...deps.uploads }),
    docs: uploadDocs,
  }),
  bearerRoute({
    method: 'get',
    path: '/api/uploads',
    operationId: 'listUploads',
    charge: { by: 'session', category: 'general' },
    input: uploadListInput,
    handle: (deps) => deps.uploads && listUploadsHandler({ db: deps.db, objectStore: deps.uploads.objectStore }),
    docs: listUploadsDocs,
  }),
  bearerRoute({
    method: 'delete',
    path: '/api/uploads/{upload_id}',
    operationId: 'deleteUpload',
    charge: { by: 'session', category: 'general' },
    input: uploadIdInput,
    handle: (deps) => deps.uploads && deleteUploadHandler({ db: deps.db, objectStore: deps.uploads.objectStore }),
    docs: deleteUploadDocs,
  }),
  bearerRoute({
    method: 'get',
    path: '/api/generate',
    operationId: 'listJobs',
    charge: { by: 'session', category: 'general' },
    input: jobListInput,
    handle: listJobsHandler,
    docs: listJobsDocs,
  }),
  // The library (docs/api.md "Manage your library"): rename, trash, restore.
  bearerRoute({
    method: 'patch',
    path: '/api/generate/{job_id}',
    operationId: 'renameJob',
    charge: { by: 'session', category: 'general' },
    body: json,
    input: renameInput,
    handle: renameJobHandler,
    docs: renameJobDocs,
  }),
  bearerRoute({
    method: 'delete',
    path: '/api/generate/{job_id}',
    operationId: 'deleteJob',
    charge: { by: 'session', category: 'general' },
    input: jobIdInput,
    handle: deleteJobHandler,
    docs: deleteJobDocs,
  }),
  bearerRoute({
    method: 'post',
    path: '/api/generate/{job_id}/restore',
    operationId: 'restoreJob',
    charge: { by: 'session', category: 'general' },
    input: jobIdInput,
    handle: restoreJobHandler,
    docs: restoreJobDocs,
  }),
  bearerRoute({
    method: 'post',
    path: '/api/generate/{job_id}/cancel',
    operationId: 'cancelJob',
    charge: { by: 'session', category: 'general' },
    body: json,
    input: jobIdInput,
    handle: cancelJobHandler,
    docs: cancelJobDocs,
  }),
  bearerRoute({
    method: 'post',
    path: '/v1/music/generate',
    operationId: 'createJobV1',
    charge: { by: 'admission', category: 'generation', daily: true },
    body: json,
    input: variantAInput,
    idempotency: {},
    handle: createJob,
    docs: createJobV1Docs,
  }),
  bearerRoute({
    method: 'get',
    path: '/v1/user/profile',
    operationId: 'getProfile',
    charge: { by: 'session', category: 'general' },
    handle: profileHandler,
    docs: profileDocs,
  }),
  bearerRoute({
    method: 'patch',
    path: '/v1/user/profile',
    operationId: 'changeProfile',
    charge: { by: 'session', category: 'general' },
    body: { limit: PROFILE_BODY_LIMIT },
    input: profileChangeInput,
    handle: (deps) =>
      deps.metadata &&
      changeProfileHandler({
        db: deps.db,
        ...deps.metadata,
        ...(deps.farcasterUserData === undefined ? {} : { farcaster: deps.farcasterUserData }),
      }),
    docs: changeProfileDocs,
  }),

  bearerRoute({
    method: 'get',
    path: '/api/webhooks/secret',
    operationId: 'getWebhookSecret',
    charge: { by: 'session', category: 'general' },
    handle: webhookSecretHandler,
    docs: webhookSecretDocs,
  }),
  bearerRoute({
    method: 'post',
    path: '/api/webhooks/secret/rotate',
    operationId: 'rotateWebhookSecret',
    charge: { by: 'session', category: 'general' },
    handle: rotateWebhookSecretHandler,
    docs: rotateWebhookSecretDocs,
  }),

  // Minting: metadata and signatures share the metadata_nft category.
  bearerRoute({
    method: 'post',
    path: '/api/metadata',
    operationId: 'publishMetadata',
    charge: { by: 'session', category: 'metadata_nft' },
    body: { limit: METADATA_BODY_LIMIT },
    input: (req) => parseMetadataRequest(req.body),
    idempotency: {},
    handle: (deps) => deps.metadata && publishMetadataHandler({ ...deps.metadata, db: deps.db, now: deps.now, logger: deps.logger }),
    docs: metadataDocs,
  }),
  bearerRoute({
    method: 'post',
    path: '/api/signature',
    operationId: 'issueSignature',
    charge: { by: 'session', category: 'metadata_nft' },
    body: json,
    input: signatureInput,
    lookup: (input) => signableJobLookup(input.subject),
    idempotency: {},
    handle: (deps) => deps.mint && signatureHandler({ ...deps, ...deps.mint }),
    docs: signatureDocs,
  }),
  bearerRoute({
    method: 'post',
    path: '/v1/nft/mint',
    operationId: 'mintAuthorization',
    charge: { by: 'session', category: 'metadata_nft' },
    body: json,
    input: nftMintInput,
    lookup: (input) => signableJobLookup(input.subject),
    idempotency: {},
    handle: (deps) => deps.mint && nftMintHandler({ ...deps, ...deps.mint }),
    docs: nftMintDocs,
  }),
  bearerRoute({
    method: 'get',
    path: '/v1/nft/{id}',
    operationId: 'getNft',
    charge: { by: 'session', category: 'metadata_nft' },
    input: tokenIdInput,
    handle: (deps) => deps.mint && nftHandler({ db: deps.db, chain: deps.mint.chain }),
    docs: nftDocs,
  }),

  bearerRoute({
    method: 'get',
    path: '/v1/trading/pools',
    operationId: 'listPools',
    charge: { by: 'session', category: 'trading' },
    input: poolsInput,
    handle: (deps) => deps.trading && poolsHandler({ ...deps, ...deps.trading }),
    docs: poolsDocs,
  }),
  bearerRoute({
    method: 'get',
    path: '/v1/trading/pools/{songId}',
    operationId: 'getPool',
    charge: { by: 'session', category: 'trading' },
    input: songIdInput,
    handle: (deps) => deps.trading && poolHandler({ ...deps, ...deps.trading }),
    docs: poolDocs,
  }),
  // Public market data for song pages opened from a link: per client address, before any session.
  publicRoute({
    method: 'get',
    path: '/v1/trading/pools/{songId}/history',
    operationId: 'getPoolHistory',
    charge: { by: 'ip', category: 'trading' },
    input: poolHistoryInput,
    handle: (deps) => deps.trading && poolHistoryHandler({ ...deps, ...deps.trading }),
    docs: poolHistoryDocs,
  }),
  // What a visitor sees of songs (Discover, a shared song page), beside the bearer routes above
  // that keep their token: per client address, like the swap history.
  publicRoute({
    method: 'get',
    path: '/v1/public/songs',
    operationId: 'listPublicSongs',
    charge: { by: 'ip', category: 'trading' },
    input: publicSongsInput,
    handle: (deps) => deps.trading && publicSongsHandler({ ...deps, ...deps.trading }),
    docs: publicSongsDocs,
  }),
  publicRoute({
    method: 'get',
    path: '/v1/public/songs/{songId}',
    operationId: 'getPublicSong',
    charge: { by: 'ip', category: 'trading' },
    input: songIdInput,
    handle: (deps) => publicSongHandler(deps),
    docs: publicSongDocs,
  }),
  // Coin pages, creator profiles and portfolios (issue 45): public chain data, per client address like the public songs.
  publicRoute({
    method: 'get',
    path: '/v1/public/coins/{songId}',
    operationId: 'getCoin',
    charge: { by: 'ip', category: 'trading' },
    input: songIdInput,
    handle: (deps) => deps.trading?.coins && coinHandler({ ...deps, ...deps.trading, coins: deps.trading.coins }),
    docs: coinDocs,
  }),
  publicRoute({
    method: 'get',
    path: '/v1/public/coins/{songId}/trades',
    operationId: 'getCoinTrades',
    charge: { by: 'ip', category: 'trading' },
    input: coinTradesInput,
    handle: (deps) => deps.trading?.coins && coinTradesHandler({ ...deps, ...deps.trading, coins: deps.trading.coins }),
    docs: coinTradesDocs,
  }),
  publicRoute({
    method: 'get',
    path: '/v1/public/creators/{address}',
    operationId: 'getCreator',
    charge: { by: 'ip', category: 'trading' },
    input: addressInput,
    handle: (deps) => deps.trading?.coins && creatorHandler({ ...deps, ...deps.trading, coins: deps.trading.coins }),
    docs: creatorDocs,
  }),
  publicRoute({
    method: 'get',
    path: '/v1/public/portfolios/{address}',
    operationId: 'getPortfolio',
    charge: { by: 'ip', category: 'trading' },
    input: addressInput,
    handle: (deps) => deps.trading?.coins && portfolioHandler({ ...deps, ...deps.trading, coins: deps.trading.coins }),
    docs: portfolioDocs,
  }),

  // Previews (docs/api.md "Previews (extension)"): their own hourly category, never the daily counter.
  bearerRoute({
    method: 'post',
    path: '/api/previews',
    operationId: 'createPreview',
    charge: { by: 'admission', category: 'preview', daily: false },
    body: json,
    input: previewInput,
    idempotency: {},
    handle: (deps) => deps.previews && createPreviewHandler({ ...deps, ...deps.previews }),
    docs: createPreviewDocs,
  }),
  bearerRoute({
    method: 'get',
    path: '/api/previews/{session_id}',
    operationId: 'getPreview',
    charge: { by: 'session', category: 'general' },
    input: sessionIdInput,
    lookup: ownPreviewLookup,
    handle: (deps) => deps.previews && previewHandler({ ...deps, ...deps.previews }),
    docs: previewDocs,
  }),
];

/** `GET /api/generate/{job_id}` → the hourly category it charges (none for free routes): for docs and tests. */
export function routeCharges(routes: ReadonlyArray<Route> = API_ROUTES): ReadonlyMap<string, RateCategory | null> {
  return new Map(
    routes.map((route) => [`${route.method.toUpperCase()} ${route.path}`, route.charge.by === 'nothing' ? null : route.charge.category]),
  );
}
