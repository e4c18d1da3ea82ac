import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Tier } from '../../../core/src/generation-queue.ts';
import { appError } from '../domain/errors.ts';
import { verifySessionToken } from '../domain/session-token.ts';
import { findUserById } from '../domain/users.ts';
import type { AppDeps } from './deps.ts';
import { sendError } from './error-response.ts';

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
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const BEARER = /^Bearer ([A-Za-z0-9_-]+\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*)$/;

/**
 * Bearer JWT check for every endpoint except health and metrics: 401 for a missing, malformed,
 * expired or wrongly signed token, one with another algorithm (`none` included), issuer or
 * audience, and one whose user no longer exists.
 */
export function authenticate(deps: Pick<AppDeps, 'db' | 'session' | 'now'>): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    const header = req.get('authorization');
    if (header === undefined) {
      unauthorized(req, res, 'missing Authorization header; send "Authorization: Bearer <session_token>" (POST /api/auth/verify issues one)');
      return;
    }
    const match = BEARER.exec(header.trim());
    if (match === null || match[1] === undefined) {
      unauthorized(req, res, 'malformed Authorization header; expected "Bearer <jwt>"');
      return;
    }
    const check = await verifySessionToken(deps.session, match[1], deps.now());
    if (!check.ok) {
      unauthorized(req, res, check.reason);
      return;
    }
    const user = UUID.test(check.claims.userId) ? await findUserById(deps.db, check.claims.userId) : null;
    if (user === null || user.walletAddress !== check.claims.walletAddress) {
      unauthorized(req, res, 'the token names no current user');
      return;
    }
    req.songmintUser = { id: user.id, walletAddress: user.walletAddress, tier: user.tier };
    next();
  };
}

function unauthorized(req: Request, res: Response, details: string): void {
  res.setHeader('WWW-Authenticate', 'Bearer realm="songmint"');
  sendError(req, res, appError('AUTH_ERROR', 'Missing or invalid authentication', { details }));
}

/** The caller of a request that passed `authenticate`. */
export function authenticatedUser(req: Request): AuthenticatedUser {
  const user = req.songmintUser;
  if (user === undefined) throw new Error('authenticatedUser() called on a route without authenticate()');
  return user;
}
