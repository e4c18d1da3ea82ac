import express from 'express';
import type { Express, Request, RequestHandler } from 'express';
import { cors } from './cors.ts';
import type { AppDeps } from './deps.ts';
import { errorHandler, notFound } from './error-handler.ts';
import { buildOpenApiDocument } from './openapi.ts';
import { expressPath } from './route.ts';
import type { Route } from './route.ts';
import { API_ROUTES } from './route-table.ts';
import { docsRouter } from './routes/docs.ts';
import { DEFAULT_TRUST_PROXY } from './trust-proxy.ts';

export type { AppDeps } from './deps.ts';

/** Route template for metrics labels (never the raw path: ids would explode the label set). */
function routeLabel(req: Request): string {
  const route = (req as Request & { route?: { path?: unknown } }).route;
  if (route !== undefined && typeof route.path === 'string') return `${req.baseUrl}${route.path}`;
  // Matched by no route of the table (404, /docs): label by the mount path.
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
 * The oracle's HTTP app: the routes of the route table (./route-table.ts), each behind its
 * pipeline (./route.ts), then /openapi.json built from the same table, the Swagger UI at /docs and
 * `deps.publicRouters` (no API operations: the development IPFS gateway, the web app). `routes`
 * is the table; a test may pass it with an entry of its own.
 */
export function createApp(deps: AppDeps, routes: ReadonlyArray<Route> = API_ROUTES): Express {
  const app = express();
  app.disable('x-powered-by');
  // Who may name the client through X-Forwarded-For (req.ip, the per-IP buckets' key): ./trust-proxy.ts.
  const trust = deps.trustProxy ?? [DEFAULT_TRUST_PROXY];
  app.set('trust proxy', Array.isArray(trust) ? [...trust] : trust);
  app.use(observeLatency(deps));
  app.use(cors(deps.corsOrigins ?? '*'));
  for (const route of routes) {
    const handler = route.mount(deps);
    if (handler !== undefined) app[route.method](expressPath(route.path), handler);
  }
  const document = buildOpenApiDocument(routes);
  app.get('/openapi.json', (_req, res) => {
    res.json(document);
  });
  app.use('/docs', docsRouter());
  for (const mounted of deps.publicRouters ?? []) app.use(mounted.path, mounted.router);
  app.use(notFound());
  app.use(errorHandler(deps.logger));
  return app;
}
