import type { Request, Response } from 'express';
import type { Hex } from 'viem';
import type { z } from 'zod';
import { appError, fail, ok } from '../../domain/errors.ts';
import type { Result } from '../../domain/errors.ts';
import { SIWE_CHAIN_ID, issueNonce, signIn } from '../../domain/sign-in.ts';
import type { SignedIn } from '../../domain/sign-in.ts';
import type { AppDeps } from '../deps.ts';
import { sendError } from '../error-response.ts';
import type { PublicCall } from '../route.ts';
import { describeIssues, verifyRequestSchema } from '../schemas.ts';
import type { nonceResponseSchema, sessionTokenSchema } from '../schemas.ts';

/** GET /api/auth/nonce: a single-use Sign-In with Ethereum nonce. */
export function signInNonceHandler(deps: Pick<AppDeps, 'db' | 'siwe'>): (call: PublicCall<undefined>) => Promise<void> {
  return async ({ res }) => {
    const issued = await issueNonce(deps.db, deps.siwe);
    res.setHeader('Cache-Control', 'no-store');
    res.json({
      nonce: issued.nonce,
      expires_at: issued.expiresAt.toISOString(),
      domain: deps.siwe.domain,
      uri: deps.siwe.uri,
      chain_id: SIWE_CHAIN_ID,
    } satisfies z.infer<typeof nonceResponseSchema>);
  };
}

export type SignInInput = z.infer<typeof verifyRequestSchema>;

export function signInInput(req: Request): Result<SignInInput> {
  const parsed = verifyRequestSchema.safeParse(req.body);
  return parsed.success
    ? ok(parsed.data)
    : fail(appError('VALIDATION_ERROR', 'Invalid sign-in request', { details: describeIssues(parsed.error) }));
}

/** POST /api/auth/verify: a signed EIP-4361 message for a session JWT. */
export function signInVerifyHandler(deps: AppDeps): (call: PublicCall<SignInInput>) => Promise<void> {
  return async ({ req, res, input }) => {
    const fid = input.social_fid;
    const result = await signIn(deps, {
      message: input.message,
      signature: input.signature as Hex,
      ...(fid === undefined ? {} : { socialFid: BigInt(fid) }),
    });
    if (!result.ok) {
      sendError(req, res, result.error);
      return;
    }
    sendSession(res, result.value);
  };
}

/** The session answer of every sign-in route. */
export function sendSession(res: Response, { token, user }: SignedIn): void {
  res.setHeader('Cache-Control', 'no-store');
  res.json({
    token: token.token,
    expires_at: token.expiresAt.toISOString(),
    user: { id: user.id, wallet_address: user.walletAddress, tier: user.tier, social_fid: user.socialFid },
  } satisfies z.infer<typeof sessionTokenSchema>);
}
