import express from 'express';
import type { Express, Request, RequestHandler } from 'express';
import type { RateCategory } from '../domain/request-charge.ts';
import { authenticate } from './auth.ts';
import { authenticateAndCharge, chargeAnonymous, requireBearerFor } from './charging.ts';
import { cors } from './cors.ts';
import type { AppDeps } from './deps.ts';
import { errorHandler, notFound } from './error-handler.ts';
import { buildOpenApiDocument } from './openapi.ts';
import { authRouter } from './routes/auth.ts';
import { docsRouter } from './routes/docs.ts';
import { generateRouter, jobStatusHandler } from './routes/generate.ts';
import { healthRouter } from './routes/health.ts';
import { jobEventsHandler } from './routes/job-events.ts';
import { v1CoreRouter } from './routes/v1.ts';
import { webhooksRouter } from './routes/webhooks.ts';

export type { AppDeps, MountedRouter } from './deps.ts';

/**
 * Which hourly category each route charges (oracle/src/domain/request-charge.ts), and where.
 * Health, metrics, OpenAPI, docs and the development IPFS gateway charge nothing.
 */
export const ROUTE_CHARGES = {
  // Per client IP address, before sign-in (`chargeAnonymous`).
  '/api/auth': 'general',
  // The daily tier counter, then the hourly limit, in the submit transaction (domain/generation.ts).
  'POST /api/generate': 'generation',
  'POST /v1/music/generate': 'generation',
  // Token, user, charge and the caller's job in one statement (`jobStatusHandler`).
  'GET /api/generate/:job_id': 'general',
  // Once per connection, however long the stream runs (`jobEventsHandler`, as the status route).
  'GET /api/generate/:job_id/events': 'general',
  // After `authenticate` (`chargeAuthenticated` in the generate router).
  'GET /api/generate': 'general',
  'POST /api/generate/:job_id/cancel': 'general',
  'GET /v1/user/profile': 'general',
  // Webhook signing secret (after `authenticate`, `chargeAuthenticated` in the webhooks router).
  'GET /api/webhooks/secret': 'general',
  'POST /api/webhooks/secret/rotate': 'general',
  // Mounted routers, behind `authenticateAndCharge` unless they charge themselves.
  '/api/metadata': 'metadata_nft',
  // Charges itself after validating the body, with its job lookup in the same statement.
  '/api/signature': 'metadata_nft',
  '/v1/nft': 'metadata_nft',
  '/v1/trading': 'trading',
  // Public market data, per client IP address (routes/pool-history.ts charges itself).
  'GET /v1/trading/pools/:songId/history': 'trading',
  // Previews (docs/api.md "Previews (extension)"): the router charges itself, submit in its
  // admission transaction (domain/previews.ts), status with its owner-only lookup.
  '/api/previews': 'preview',
  'POST /api/previews': 'preview',
  'GET /api/previews/:session_id': 'general',
} as const satisfies Readonly<Record<string, RateCategory>>;

function mountedCategory(mounted: { path: string; category?: RateCategory }): RateCategory {
  const listed = (ROUTE_CHARGES as Readonly<Record<string, RateCategory>>)[mounted.path];
  const category = listed ?? mounted.category;
  if (category === undefined) throw new Error(`no charge category for ${mounted.path}: add it to ROUTE_CHARGES`);
  return category;
}

/** Bodies of the core endpoints are small; contributed routers choose their own limit. */
const CORE_BODY_LIMIT = '64kb';

/** Route template for metrics labels (never the raw path: ids would explode the label set). */
function routeLabel(req: Request): string {
  const route = (req as Request & { route?: { path?: unknown } }).route;
  if (route !== undefined && typeof route.path === 'string') return `${req.baseUrl}${route.path}`;
  // Answered by middleware before a route (401, 429, 413): label by the mount path.
  return req.baseUrl !== '' ? req.baseUrl : 'unmatched';
}

function observeLatency(deps: AppDeps): RequestHandler {
  return (req, res, next) => {
    const end = deps.metrics.httpDuration.startTimer();
    res.on('finish', () => {
      // A job event stream lasts as long as its job: it would fill the slowest buckets and say
      // nothing of latency. Streams are counted by `job_event_streams_open` instead.
      if (String(res.getHeader('content-type') ?? '').startsWith('text/event-stream')) return;
      end({ method: req.method, route: routeLabel(req), status: String(res.statusCode) });
    });
    next();
  };
}

/**
 * The oracle's HTTP app. Public: health, metrics, OpenAPI and docs, sign-in. Everything else
 * takes a bearer session token and counts against an hourly category limit. Contributed routers
 * (`deps.routers`) are mounted the same way.
 */
export function createApp(deps: AppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback');
  app.use(observeLatency(deps));
  app.use(cors(deps.corsOrigins ?? '*'));
  // The route clients poll, first so that no other layer is matched against it; it answers with
  // one database round trip (token, user, hourly limit, owned job) and takes no body.
  app.get('/api/generate/:job_id', jobStatusHandler(deps, ROUTE_CHARGES['GET /api/generate/:job_id']));
  // The job's Server-Sent Events: like the status route, before `authenticate` and body parsing.
  app.get('/api/generate/:job_id/events', jobEventsHandler(deps, ROUTE_CHARGES['GET /api/generate/:job_id/events']));

  app.use('/health', healthRouter(deps));
  app.get('/metrics', async (_req, res) => {
    res.type(deps.metrics.registry.contentType).send(await deps.metrics.registry.metrics());
  });
  const document = buildOpenApiDocument([...(deps.routers ?? []), ...(deps.publicRouters ?? [])].flatMap((mounted) => (mounted.openapi === undefined ? [] : [mounted.openapi])));
  app.get('/openapi.json', (_req, res) => {
    res.json(document);
  });
  app.use('/docs', docsRouter());
  for (const mounted of deps.publicRouters ?? []) app.use(mounted.path, mounted.router);

  const coreJson = express.json({ limit: CORE_BODY_LIMIT });
  const requireToken = authenticate(deps);
  app.use('/api/auth', chargeAnonymous(deps, ROUTE_CHARGES['/api/auth']), coreJson, authRouter(deps));
  app.use(
    '/api/generate',
    requireToken,
    coreJson,
    generateRouter(deps, { list: ROUTE_CHARGES['GET /api/generate'], cancel: ROUTE_CHARGES['POST /api/generate/:job_id/cancel'] }),
  );
  app.use('/v1', v1CoreRouter(deps, [requireToken, coreJson], ROUTE_CHARGES['GET /v1/user/profile']));
  app.use(
    '/api/webhooks',
    requireToken,
    webhooksRouter(deps, { read: ROUTE_CHARGES['GET /api/webhooks/secret'], rotate: ROUTE_CHARGES['POST /api/webhooks/secret/rotate'] }),
  );
  for (const mounted of deps.routers ?? []) {
    const category = mountedCategory(mounted);
    app.use(
      mounted.path,
      mounted.chargesItself === true ? requireBearerFor(deps, category) : authenticateAndCharge(deps, category),
      express.json({ limit: mounted.bodyLimit ?? CORE_BODY_LIMIT }),
      mounted.router,
    );
  }

  app.use(notFound());
  app.use(errorHandler(deps.logger));
  return app;
}
