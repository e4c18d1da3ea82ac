import { createSecretKey } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';

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

export type TokenCheck = { ok: true; claims: SessionClaims } | { ok: false; reason: string };

/**
 * The session token check for the request path: signature, algorithm (HS256 only: `none` and
 * others are refused), issuer, audience and expiry. The HMAC key is imported once here, not on
 * every call (that import was about a third of the verification's cost).
 */
export function createSessionTokenVerifier(keys: SessionTokenKeys): (token: string, now: Date) => Promise<TokenCheck> {
  const key = createSecretKey(keys.secret);
  return (token, now) => verifyWithKey(key, token, now);
}

async function verifyWithKey(key: KeyObject, token: string, now: Date): Promise<TokenCheck> {
  try {
    const { payload } = await jwtVerify(token, key, {
      algorithms: [ALGORITHM],
      issuer: SESSION_TOKEN_ISSUER,
      audience: SESSION_TOKEN_AUDIENCE,
      currentDate: now,
      requiredClaims: ['sub', 'exp', 'iat'],
    });
    const wallet = payload.wallet;
    if (typeof payload.sub !== 'string' || typeof wallet !== 'string') {
      return { ok: false, reason: 'token lacks the subject or wallet claim' };
    }
    return { ok: true, claims: { userId: payload.sub, walletAddress: wallet } };
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired) return { ok: false, reason: 'token expired' };
    if (error instanceof joseErrors.JOSEError) return { ok: false, reason: `invalid token (${error.code})` };
    throw error;
  }
}
