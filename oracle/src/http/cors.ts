import type { RequestHandler } from 'express';

// Last-Event-ID: a browser resuming a job's event stream with fetch sends it; Songmint-Rights-Confirmed: an upload;
// Idempotency-Key: the SDK sends it with every generation, preview, metadata and signature request.
const ALLOWED_HEADERS = 'Authorization, Content-Type, Prefer, Last-Event-ID, Songmint-Rights-Confirmed, Idempotency-Key';
const EXPOSED_HEADERS = 'X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, Location, Preference-Applied';

/**
 * CORS for dApp frontends on other origins. Sessions are bearer tokens, never cookies, so no
 * credentials are allowed and a wildcard origin exposes nothing a page could not send anyway.
 * `origins` limits the allowed origins when the operator wants to (CORS_ORIGINS).
 */
export function cors(origins: ReadonlyArray<string> | '*'): RequestHandler {
  return (req, res, next) => {
    const origin = req.get('origin');
    if (origin !== undefined) {
      if (origins === '*') res.setHeader('Access-Control-Allow-Origin', '*');
      else if (origins.includes(origin)) {
        res.setHeader('Access-Control-Allow-Origin', origin);
        res.append('Vary', 'Origin');
      }
      res.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS);
    }
    if (req.method === 'OPTIONS' && req.get('access-control-request-method') !== undefined) {
      res.setHeader('Access-Control-Allow-Methods', 'GET, POST, PATCH, DELETE, OPTIONS');
      res.setHeader('Access-Control-Allow-Headers', ALLOWED_HEADERS);
      res.setHeader('Access-Control-Max-Age', '600');
      res.status(204).end();
      return;
    }
    next();
  };
}
