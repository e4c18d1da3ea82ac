import { Router } from 'express';
import type { Hex } from 'viem';
import { appError } from '../../domain/errors.ts';
import { SIWE_CHAIN_ID, issueNonce, signIn } from '../../domain/sign-in.ts';
import type { AppDeps } from '../deps.ts';
import { sendError } from '../error-response.ts';
import { describeIssues, verifyRequestSchema } from '../schemas.ts';
import type { nonceResponseSchema, sessionTokenSchema } from '../schemas.ts';
import type { z } from 'zod';

/** `GET /nonce` and `POST /verify` (mounted at /api/auth): Sign-In with Ethereum to a session JWT. */
export function authRouter(deps: AppDeps): Router {
  const router = Router();
  router.get('/nonce', async (_req, res) => {
    const issued = await issueNonce(deps.db, deps.siwe);
    res.setHeader('Cache-Control', 'no-store');
    res.json({
      nonce: issued.nonce,
      expires_at: issued.expiresAt.toISOString(),
      domain: deps.siwe.domain,
      uri: deps.siwe.uri,
      chain_id: SIWE_CHAIN_ID,
    } satisfies z.infer<typeof nonceResponseSchema>);
  });
  router.post('/verify', async (req, res) => {
    const parsed = verifyRequestSchema.safeParse(req.body);
    if (!parsed.success) {
      sendError(req, res, appError('VALIDATION_ERROR', 'Invalid sign-in request', { details: describeIssues(parsed.error) }));
      return;
    }
    const fid = parsed.data.social_fid;
    const result = await signIn(deps, {
      message: parsed.data.message,
      signature: parsed.data.signature as Hex,
      ...(fid === undefined ? {} : { socialFid: BigInt(fid) }),
    });
    if (!result.ok) {
      sendError(req, res, result.error);
      return;
    }
    const { token, user } = result.value;
    res.setHeader('Cache-Control', 'no-store');
    res.json({
      token: token.token,
      expires_at: token.expiresAt.toISOString(),
      user: { id: user.id, wallet_address: user.walletAddress, tier: user.tier, social_fid: user.socialFid },
    } satisfies z.infer<typeof sessionTokenSchema>);
  });
  return router;
}
