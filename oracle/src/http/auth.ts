import type { Request, Response } from 'express';
import { appError } from '../domain/errors.ts';
import type { SessionUser } from '../domain/request-charge.ts';
import { createSessionTokenVerifier } from '../domain/session-token.ts';
import type { SessionClaims } from '../domain/session-token.ts';
import { findUserById } from '../domain/users.ts';
import type { AppDeps } from './deps.ts';
import { sendError } from './error-response.ts';

/** The caller of an authenticated request. The tier is read from the database on every request. */
export type AuthenticatedUser = SessionUser;

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
      unauthorized(
        req,
        res,
        'missing Authorization header; send "Authorization: Bearer <session_token>" (POST /api/auth/verify issues one)',
      );
      return null;
    }
    const match = BEARER.exec(header.trim());
    if (match === null || match[1] === undefined) {
      unauthorized(req, res, 'malformed Authorization header; expected "Bearer <jwt>"');
      return null;
    }
    const check = await verify(match[1], deps.now());
    if (!check.ok) {
      unauthorized(req, res, check.error.message);
      return null;
    }
    if (!UUID.test(check.value.userId)) {
      unauthorizedUser(req, res);
      return null;
    }
    return check.value;
  };
}

/** The user verified claims name, or null when it no longer exists or holds another wallet (401). */
export async function currentUser(db: AppDeps['db'], claims: SessionClaims): Promise<AuthenticatedUser | null> {
  const user = await findUserById(db, claims.userId);
  if (user === null || user.walletAddress !== claims.walletAddress) return null;
  return { id: user.id, walletAddress: user.walletAddress, tier: user.tier };
}

export function unauthorizedUser(req: Request, res: Response): void {
  unauthorized(req, res, 'the token names no current user');
}

function unauthorized(req: Request, res: Response, details: string): void {
  res.setHeader('WWW-Authenticate', 'Bearer realm="songmint"');
  sendError(req, res, appError('AUTH_ERROR', 'Missing or invalid authentication', { details }));
}
