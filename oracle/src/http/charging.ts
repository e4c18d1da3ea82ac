/**
 * The HTTP side of request charging (oracle/src/domain/request-charge.ts): middleware that
 * charges a route's category, the `X-RateLimit-*` headers, and the answers to a charge that does
 * not admit the request (401 for a token naming no user, 429 when a limit refused it).
 */
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { chargeRequest, hourWindowStart, refundHourly } from '../domain/request-charge.ts';
import type { GenerationRefusal } from '../domain/generation.ts';
import type { ChargeOutcome, LimitState, RateCategory } from '../domain/request-charge.ts';
import { authenticatedUser, bearerClaims, unauthorizedUser } from './auth.ts';
import type { AppDeps } from './deps.ts';
import { sendError } from './error-response.ts';
import { isIdempotentReplay } from './idempotency.ts';

declare module 'express-serve-static-core' {
  interface Request {
    /** Set by `requireBearerFor`: the category a self-charging route charges. */
    songmintCategory?: RateCategory;
  }
}

export function setRateLimitHeaders(res: Response, state: LimitState): void {
  res.setHeader('X-RateLimit-Limit', String(state.limit));
  res.setHeader('X-RateLimit-Remaining', String(state.remaining));
  res.setHeader('X-RateLimit-Reset', String(Math.ceil(state.resetAt.getTime() / 1000)));
}

/**
 * Answers a charge that does not admit the request (401 for no user, 429 when refused) and
 * returns false; otherwise records the caller on `req`, sets the limit headers and returns true.
 */
export function admitCharged<Row extends object>(
  deps: Pick<AppDeps, 'metrics'>,
  req: Request,
  res: Response,
  charge: ChargeOutcome<Row>,
  category: RateCategory,
): charge is Extract<ChargeOutcome<Row>, { kind: 'charged' }> {
  if (charge.kind === 'no_user') {
    unauthorizedUser(req, res);
    return false;
  }
  setRateLimitHeaders(res, charge.state);
  if (charge.kind === 'refused') {
    deps.metrics.limitRejections.inc({ limit: charge.limit, category });
    sendError(req, res, charge.error);
    return false;
  }
  if (charge.user !== null) req.songmintUser = charge.user;
  return true;
}

/**
 * Answers a refused queue admission (`admitToQueue`: GEN_001, GEN_002, a limit), with the limit
 * headers and the rejection metric when a limit refused it.
 */
export function answerRefusal(deps: Pick<AppDeps, 'metrics'>, req: Request, res: Response, refusal: GenerationRefusal, category: RateCategory): void {
  if (refusal.limitState !== undefined) setRateLimitHeaders(res, refusal.limitState);
  if (refusal.refusedBy !== undefined) deps.metrics.limitRejections.inc({ limit: refusal.refusedBy, category });
  sendError(req, res, refusal);
}

type ChargeDeps = Pick<AppDeps, 'db' | 'session' | 'now' | 'metrics' | 'logger'>;

/**
 * Bearer token, user and the hourly limit of `category` in one database statement: 401 as in
 * `bearerClaims` and for a token whose user no longer exists, then 429 `RATE_002`; `X-RateLimit-*`
 * headers on every charged or refused request.
 */
export function authenticateAndCharge(deps: ChargeDeps, category: RateCategory): RequestHandler {
  const claimsOf = bearerClaims(deps);
  return async (req: Request, res: Response, next: NextFunction) => {
    const claims = await claimsOf(req, res);
    if (claims === null) return;
    const now = deps.now();
    const charge = await chargeRequest({ db: deps.db, chargee: { session: claims }, category, now });
    if (!admitCharged(deps, req, res, charge, category)) return;
    // The body is parsed and validated after the charge: bad input is taken back, so it never
    // uses up the caller's limit (other answers, 404 and 409 included, count as requests). A 503
    // (the database or a service unavailable) did nothing for the caller and is taken back too:
    // a client retrying it meets the same limit (test/faults/long/multi-replica.test.ts). Neither
    // does an Idempotency-Key replay count, which runs nothing (./idempotency.ts).
    refundBeforeAnswer(res, charge.state, () => refundHourly(deps.db, claims.userId, category, hourWindowStart(now)), (error) =>
      deps.logger.warn({ err: error, category }, 'hourly limit refund failed'),
    );
    next();
  };
}

function isRefunded(res: Response): boolean {
  return isBadInput(res.statusCode) || res.statusCode === 503 || isIdempotentReplay(res);
}

/**
 * Holds the end of a refunded answer until the refund has committed (the way express-session
 * saves a session before `res.end`): a client that retries at once, on any replica, must find its
 * charge already given back, not race the refund. The `X-RateLimit-Remaining` header then counts
 * the request given back. A failed refund is logged and the answer still goes out.
 */
function refundBeforeAnswer(res: Response, state: LimitState, refund: () => Promise<void>, onError: (error: unknown) => void): void {
  const end = res.end;
  res.end = function endAfterRefund(this: Response, ...args: unknown[]) {
    res.end = end;
    if (!isRefunded(res)) return Reflect.apply(end, this, args) as Response;
    refund()
      .then(() => {
        if (!res.headersSent) res.setHeader('X-RateLimit-Remaining', String(Math.min(state.limit, state.remaining + 1)));
      }, onError)
      .finally(() => Reflect.apply(end, this, args));
    return this;
  } as Response['end'];
}

/** 400 (validation, malformed JSON), 413 (body too large), 415 (not JSON). */
function isBadInput(status: number): boolean {
  return status === 400 || status === 413 || status === 415;
}

type LimitDeps = Pick<AppDeps, 'db' | 'metrics' | 'now'>;

/** Hourly limit of `category` for the user `authenticate` read (mount after it). */
export function chargeAuthenticated(deps: LimitDeps, category: RateCategory): RequestHandler {
  return async (req, res, next) => {
    const charge = await chargeRequest({ db: deps.db, chargee: { user: authenticatedUser(req) }, category, now: deps.now() });
    if (admitCharged(deps, req, res, charge, category)) next();
  };
}

/** Hourly limit per client IP address, for endpoints that precede sign-in. */
export function chargeAnonymous(deps: LimitDeps, category: RateCategory): RequestHandler {
  return async (req, res, next) => {
    const charge = await chargeRequest({ db: deps.db, chargee: { ip: req.ip ?? 'unknown' }, category, now: deps.now() });
    if (admitCharged(deps, req, res, charge, category)) next();
  };
}

/**
 * The bearer token check alone, for a route that charges `category` itself in one statement
 * with its own lookup (after validating the body); it reads them with `verifiedClaims` and
 * `chargedCategory`.
 */
export function requireBearerFor(deps: Pick<AppDeps, 'session' | 'now'>, category: RateCategory): RequestHandler {
  const claimsOf = bearerClaims(deps);
  return async (req: Request, res: Response, next: NextFunction) => {
    const claims = await claimsOf(req, res);
    if (claims === null) return;
    req.songmintClaims = claims;
    req.songmintCategory = category;
    next();
  };
}

/** The category of a route mounted behind `requireBearerFor`. */
export function chargedCategory(req: Request): RateCategory {
  const category = req.songmintCategory;
  if (category === undefined) throw new Error('chargedCategory() called on a route without requireBearerFor()');
  return category;
}
