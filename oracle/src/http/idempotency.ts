/**
 * `Idempotency-Key` for POST routes that create or charge: a route of the table
 * (./route-table.ts) opts in with `idempotency: {}`, and its pipeline (./route.ts) calls
 * `decideIdempotency` after authentication and input validation, before the charge: a request
 * answered here (a replay, a mismatch, a key still in flight) runs nothing and is charged nothing.
 * Without the header the route runs as before. The rules (24 hours, same request → the first answer again, other request → 422 IDEM_001, first
 * still running → 409 IDEM_002, only 2xx answers kept) are oracle/src/domain/idempotency.ts.
 */
import type { Request, Response } from 'express';
import { appError } from '../domain/errors.ts';
import {
  IDEMPOTENCY_IN_FLIGHT_RETRY_SECONDS,
  checkIdempotencyKey,
  claimKey,
  completeKey,
  releaseKey,
  requestFingerprint,
} from '../domain/idempotency.ts';
import type { KeyScope, StoredResponse } from '../domain/idempotency.ts';
import type { AppDeps } from './deps.ts';
import { sendError } from './error-response.ts';

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
/** Set on an answer that repeats the first one (Stripe's and the IETF draft's practice). */
export const IDEMPOTENT_REPLAY_HEADER = 'Idempotent-Replayed';
/** Response headers that belong to the answer and are repeated with it. */
const KEPT_HEADERS = ['location', 'preference-applied', 'cache-control'] as const;

export interface IdempotencyOptions {
  /** Request headers that change what the route does (POST /api/generate: `prefer`). */
  varyOn?: readonly string[];
}

/**
 * What became of a request's key: `none` (no header) and `held` (this request runs and its
 * answer is kept) go on to the charge and the handler; `answered` was answered here.
 */
export type IdempotencyDecision = { kind: 'none' } | { kind: 'held' } | { kind: 'answered' };

function replay(res: Response, stored: StoredResponse): void {
  for (const [name, value] of Object.entries(stored.headers)) res.setHeader(name, value);
  res.setHeader(IDEMPOTENT_REPLAY_HEADER, 'true');
  res.status(stored.status).type('application/json').send(stored.body);
}

/**
 * Holds the key for this request and keeps its answer: a 2xx JSON answer is recorded before it is
 * sent (so a retry that follows it always finds it), anything else releases the key, and so does
 * a client that leaves before any answer.
 */
function holdKey(deps: Pick<AppDeps, 'db' | 'logger'>, res: Response, scope: KeyScope, leaseId: string): void {
  let settled = false;
  const json = res.json.bind(res);
  const release = (): Promise<void> =>
    releaseKey(deps.db, scope, leaseId).catch((error: unknown) =>
      deps.logger.warn({ err: error, route: scope.route }, 'idempotency key release failed'),
    );
  res.json = (body: unknown) => {
    if (settled) return json(body);
    settled = true;
    const status = res.statusCode;
    if (status < 200 || status >= 300) {
      void release().then(() => json(body));
      return res;
    }
    const headers: Record<string, string> = {};
    for (const name of KEPT_HEADERS) {
      const value = res.getHeader(name);
      if (value !== undefined) headers[name] = String(value);
    }
    completeKey(deps.db, scope, leaseId, { status, headers, body: JSON.stringify(body) }).then(
      (kept) => {
        if (!kept) deps.logger.warn({ route: scope.route }, 'idempotency key lost its lease before the answer');
        json(body);
      },
      (error: unknown) => {
        deps.logger.error({ err: error, route: scope.route }, 'idempotency key not recorded');
        json(body);
      },
    );
    return res;
  };
  res.once('close', () => {
    if (settled) return;
    settled = true;
    void release();
  });
}

/**
 * The key of a request to `route` (`POST /api/generate`: the route's template, never the raw URL)
 * by the user `userId`, decided as the module comment says.
 */
export async function decideIdempotency(
  deps: Pick<AppDeps, 'db' | 'logger' | 'now'>,
  req: Request,
  res: Response,
  target: { route: string; userId: string },
  options: IdempotencyOptions = {},
): Promise<IdempotencyDecision> {
  const raw = req.get(IDEMPOTENCY_KEY_HEADER);
  if (raw === undefined) return { kind: 'none' };
  const checked = checkIdempotencyKey(raw);
  if (!checked.ok) {
    sendError(
      req,
      res,
      appError('VALIDATION_ERROR', 'Invalid Idempotency-Key header', {
        details: checked.reason,
        fields: { header: IDEMPOTENCY_KEY_HEADER },
      }),
    );
    return { kind: 'answered' };
  }
  const scope: KeyScope = { userId: target.userId, route: target.route, key: checked.key };
  const vary = Object.fromEntries((options.varyOn ?? []).map((name) => [name.toLowerCase(), req.get(name) ?? null]));
  const fingerprint = requestFingerprint(req.body, vary);
  const claim = await claimKey(deps.db, scope, fingerprint, deps.now());
  switch (claim.kind) {
    case 'replay':
      replay(res, claim.response);
      return { kind: 'answered' };
    case 'mismatch':
      sendError(
        req,
        res,
        appError('IDEM_001', 'Idempotency-Key reused with a different request', {
          details: 'this key was used in the last 24 hours with another body; send a new key for a new request',
          fields: { header: IDEMPOTENCY_KEY_HEADER },
        }),
      );
      return { kind: 'answered' };
    case 'in_flight':
      sendError(
        req,
        res,
        appError('IDEM_002', 'A request with this Idempotency-Key is still running', {
          details: 'retry shortly with the same key to receive its answer',
          retryAfter: IDEMPOTENCY_IN_FLIGHT_RETRY_SECONDS,
          fields: { header: IDEMPOTENCY_KEY_HEADER },
        }),
      );
      return { kind: 'answered' };
    case 'acquired':
      holdKey(deps, res, scope, claim.leaseId);
      return { kind: 'held' };
  }
}
