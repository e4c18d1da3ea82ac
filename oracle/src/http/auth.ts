import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Tier } from '../../../core/src/generation-queue.ts';
import { appError } from '../domain/errors.ts';
import { hourWindowStart, refundHourly } from '../domain/limits.ts';
import type { RateCategory } from '../domain/limits.ts';
import { chargeSession } from '../domain/session-charge.ts';
import type { SessionCharge } from '../domain/session-charge.ts';
import { createSessionTokenVerifier } from '../domain/session-token.ts';
import type { SessionClaims } from '../domain/session-token.ts';
import { findUserById } from '../domain/users.ts';
import type { AppDeps } from './deps.ts';
import { sendError } from './error-response.ts';
import { hourlyLimitError, setRateLimitHeaders } from './rate-limit.ts';

/** The caller of an authenticated request. The tier is read from the database on every request. */
export interface AuthenticatedUser {
  id: string;
  walletAddress: string;
  tier: Tier;
}

declare module 'express-serve-static-core' {
  interface Request {
    /** Set by `authenticate`; read it with `authenticatedUser(req)`. */
    songmintUser?: AuthenticatedUser;
    /** Set by `requireBearer`; read it with `verifiedClaims(req)`. */
    songmintClaims?: SessionClaims;
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const BEARER = /^Bearer ([A-Za-z0-9_-]+\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*)$/;

type SessionDeps = Pick<AppDeps, 'session' | 'now'>;

/**
 * The bearer token's claims, or null after answering 401 for a missing, malformed, expired or
 * wrongly signed token, one with another algorithm (`none` included), issuer or audience, and
 * one whose subject is no user id. Whether the user still exists is the caller's database check.
 */
export function bearerClaims(deps: SessionDeps): (req: Request, res: Response) => Promise<SessionClaims | null> {
  const verify = createSessionTokenVerifier(deps.session);
  return async (req, res) => {
    const header = req.get('authorization');
    if (header === undefined) {
      unauthorized(req, res, 'missing Authorization header; send "Authorization: Bearer <session_token>" (POST /api/auth/verify issues one)');
      return null;
    }
    const match = BEARER.exec(header.trim());
    if (match === null || match[1] === undefined) {
      unauthorized(req, res, 'malformed Authorization header; expected "Bearer <jwt>"');
      return null;
    }
    const check = await verify(match[1], deps.now());
    if (!check.ok) {
      unauthorized(req, res, check.reason);
      return null;
    }
    if (!UUID.test(check.claims.userId)) {
      unauthorizedUser(req, res);
      return null;
    }
    return check.claims;
  };
}

/**
 * Bearer JWT check for every endpoint except health and metrics: 401 for a bad token (see
 * `bearerClaims`) and for one whose user no longer exists.
 */
export function authenticate(deps: Pick<AppDeps, 'db' | 'session' | 'now'>): RequestHandler {
  const claimsOf = bearerClaims(deps);
  return async (req: Request, res: Response, next: NextFunction) => {
    const claims = await claimsOf(req, res);
    if (claims === null) return;
    const user = await findUserById(deps.db, claims.userId);
    if (user === null || user.walletAddress !== claims.walletAddress) {
      unauthorizedUser(req, res);
      return;
    }
    req.songmintUser = { id: user.id, walletAddress: user.walletAddress, tier: user.tier };
    next();
  };
}

/**
 * `authenticate` followed by the hourly limit of `category`, in one database statement: 401 as
 * there, then 429 `RATE_002` when the tier's hourly limit is reached; `X-RateLimit-*` headers on
 * every charged or refused request.
 */
export function authenticateAndCharge(
  deps: Pick<AppDeps, 'db' | 'session' | 'now' | 'metrics' | 'logger'>,
  category: RateCategory,
): RequestHandler {
  const claimsOf = bearerClaims(deps);
  return async (req: Request, res: Response, next: NextFunction) => {
    const claims = await claimsOf(req, res);
    if (claims === null) return;
    const now = deps.now();
    const charge = await chargeSession(deps.db, claims, category, now);
    if (!admitCharged(deps, req, res, charge, category, now)) return;
    // The body is parsed and validated after the charge: bad input is taken back, so it never
    // uses up the caller's limit (other answers, 404 and 409 included, count as requests).
    const windowStart = hourWindowStart(now);
    res.once('finish', () => {
      if (!isBadInput(res.statusCode)) return;
      refundHourly(deps.db, `user:${claims.userId}`, category, windowStart).catch((error: unknown) =>
        deps.logger.warn({ err: error, category }, 'hourly limit refund failed'),
      );
    });
    next();
  };
}

/** 400 (validation, malformed JSON), 413 (body too large), 415 (not JSON). */
function isBadInput(status: number): boolean {
  return status === 400 || status === 413 || status === 415;
}

/**
 * Answers a session charge that does not admit the request (401 for no user, 429 when refused)
 * and returns false; otherwise records the caller on `req`, sets the limit headers and returns true.
 */
export function admitCharged(
  deps: Pick<AppDeps, 'metrics'>,
  req: Request,
  res: Response,
  charge: SessionCharge,
  category: RateCategory,
  now: Date,
): boolean {
  if (charge.kind === 'no_user') {
    unauthorizedUser(req, res);
    return false;
  }
  setRateLimitHeaders(res, charge.state);
  if (charge.kind === 'refused') {
    deps.metrics.limitRejections.inc({ limit: 'hourly', category });
    sendError(req, res, hourlyLimitError(category, charge.state, now));
    return false;
  }
  req.songmintUser = charge.user;
  return true;
}

function unauthorizedUser(req: Request, res: Response): void {
  unauthorized(req, res, 'the token names no current user');
}

function unauthorized(req: Request, res: Response, details: string): void {
  res.setHeader('WWW-Authenticate', 'Bearer realm="songmint"');
  sendError(req, res, appError('AUTH_ERROR', 'Missing or invalid authentication', { details }));
}

/**
 * The bearer token check alone (401 as in `bearerClaims`), for routes that read the user and
 * charge their limit in a statement of their own; they read the claims with `verifiedClaims`.
 */
export function requireBearer(deps: SessionDeps): RequestHandler {
  const claimsOf = bearerClaims(deps);
  return async (req: Request, res: Response, next: NextFunction) => {
    const claims = await claimsOf(req, res);
    if (claims === null) return;
    req.songmintClaims = claims;
    next();
  };
}

/** The token claims of a request that passed `requireBearer`. */
export function verifiedClaims(req: Request): SessionClaims {
  const claims = req.songmintClaims;
  if (claims === undefined) throw new Error('verifiedClaims() called on a route without requireBearer()');
  return claims;
}

/** The caller of a request that passed `authenticate`. */
export function authenticatedUser(req: Request): AuthenticatedUser {
  const user = req.songmintUser;
  if (user === undefined) throw new Error('authenticatedUser() called on a route without authenticate()');
  return user;
}
