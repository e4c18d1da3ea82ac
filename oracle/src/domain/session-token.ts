import { createSecretKey } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import { fail, ok } from '../../../core/src/result.ts';
import type { DomainError, Result } from '../../../core/src/result.ts';

/** Pinned so that a token signed for another service, or with another algorithm, is refused. */
export const SESSION_TOKEN_ISSUER = 'songmint-oracle';
export const SESSION_TOKEN_AUDIENCE = 'songmint-api';
const ALGORITHM = 'HS256';

export interface SessionTokenKeys {
  secret: Uint8Array;
  ttlSeconds: number;
}

export interface SessionClaims {
  userId: string;
  walletAddress: string;
}

export interface IssuedToken {
  token: string;
  expiresAt: Date;
}

export async function issueSessionToken(keys: SessionTokenKeys, claims: SessionClaims, now: Date): Promise<IssuedToken> {
  const issuedAt = Math.floor(now.getTime() / 1000);
  const expiresAt = issuedAt + keys.ttlSeconds;
  const token = await new SignJWT({ wallet: claims.walletAddress })
    .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
    .setSubject(claims.userId)
    .setIssuer(SESSION_TOKEN_ISSUER)
    .setAudience(SESSION_TOKEN_AUDIENCE)
    .setIssuedAt(issuedAt)
    .setExpirationTime(expiresAt)
    .sign(keys.secret);
  return { token, expiresAt: new Date(expiresAt * 1000) };
}

/** Why a token was refused (the 401's details). */
export type TokenCheck = Result<SessionClaims, DomainError<'invalid_token'>>;

/** Verified tokens remembered per verifier; the oldest is forgotten first beyond this. */
const VERIFIED_TOKENS_KEPT = 10_000;

/**
 * The session token check for the request path: signature, algorithm (HS256 only: `none` and
 * others are refused), issuer, audience and expiry.
 *
 * A polling client sends the same token many times a minute, so a token that verified once is
 * remembered with its expiry (bounded, oldest forgotten first): whether it is valid depends only
 * on its bytes, the secret and the time, so later requests need only the expiry check. The user
 * it names is still looked up in the database on every request. The HMAC key is imported once.
 */
export function createSessionTokenVerifier(keys: SessionTokenKeys): (token: string, now: Date) => Promise<TokenCheck> {
  const key = createSecretKey(keys.secret);
  const verified = new Map<string, { claims: SessionClaims; expiresAtMs: number }>();
  return async (token, now) => {
    const known = verified.get(token);
    if (known !== undefined) {
      // jose's rule: expired once the current time reaches `exp`.
      if (now.getTime() < known.expiresAtMs) return ok(known.claims);
      verified.delete(token);
    }
    const check = await verifyWithKey(key, token, now);
    if (check.ok) {
      if (verified.size >= VERIFIED_TOKENS_KEPT) {
        const oldest = verified.keys().next();
        if (oldest.done !== true) verified.delete(oldest.value);
      }
      verified.set(token, { claims: check.value.claims, expiresAtMs: check.value.expiresAtSeconds * 1000 });
    }
    return check.ok ? ok(check.value.claims) : check;
  };
}

async function verifyWithKey(
  key: KeyObject,
  token: string,
  now: Date,
): Promise<Result<{ claims: SessionClaims; expiresAtSeconds: number }, DomainError<'invalid_token'>>> {
  try {
    const { payload } = await jwtVerify(token, key, {
      algorithms: [ALGORITHM],
      issuer: SESSION_TOKEN_ISSUER,
      audience: SESSION_TOKEN_AUDIENCE,
      currentDate: now,
      requiredClaims: ['sub', 'exp', 'iat'],
    });
    const wallet = payload.wallet;
    if (typeof payload.sub !== 'string' || typeof wallet !== 'string' || typeof payload.exp !== 'number') {
      return invalidToken('token lacks the subject or wallet claim');
    }
    return ok({ claims: { userId: payload.sub, walletAddress: wallet }, expiresAtSeconds: payload.exp });
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired) return invalidToken('token expired');
    if (error instanceof joseErrors.JOSEError) return invalidToken(`invalid token (${error.code})`);
    throw error;
  }
}

function invalidToken(message: string): { ok: false; error: DomainError<'invalid_token'> } {
  return fail({ code: 'invalid_token', message });
}
