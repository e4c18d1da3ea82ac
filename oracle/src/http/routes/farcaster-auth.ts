import type { Request } from 'express';
import type { Hex } from 'viem';
import type { z } from 'zod';
import { appError, fail, ok } from '../../domain/errors.ts';
import type { Result } from '../../domain/errors.ts';
import { signInWithFarcaster, signInWithQuickAuth } from '../../domain/farcaster-sign-in.ts';
import type { WalletProof } from '../../domain/farcaster-sign-in.ts';
import type { SignedIn } from '../../domain/sign-in.ts';
import type { AppDeps } from '../deps.ts';
import { sendError } from '../error-response.ts';
import type { PublicCall, RouteDocs } from '../route.ts';
import {
  describeIssues,
  farcasterSignInRequestSchema,
  quickAuthSignInRequestSchema,
  sessionTokenSchema,
  variantAErrorSchema,
} from '../schemas.ts';
import { json } from '../core-docs.ts';
import { sendSession } from './auth.ts';

export type FarcasterSignInBody = z.infer<typeof farcasterSignInRequestSchema>;
export type QuickAuthSignInBody = z.infer<typeof quickAuthSignInRequestSchema>;

function parsed<T>(schema: z.ZodType<T>, req: Request): Result<T> {
  const result = schema.safeParse(req.body);
  return result.success
    ? ok(result.data)
    : fail(appError('VALIDATION_ERROR', 'Invalid sign-in request', { details: describeIssues(result.error) }));
}

export const farcasterSignInInput = (req: Request): Result<FarcasterSignInBody> => parsed(farcasterSignInRequestSchema, req);
export const quickAuthSignInInput = (req: Request): Result<QuickAuthSignInBody> => parsed(quickAuthSignInRequestSchema, req);

function walletProof(wallet: FarcasterSignInBody['wallet']): { wallet?: WalletProof } {
  return wallet === undefined ? {} : { wallet: { message: wallet.message, signature: wallet.signature as Hex } };
}

function answer(req: Request, res: PublicCall<unknown>['res'], result: Result<SignedIn>): void {
  if (!result.ok) {
    sendError(req, res, result.error);
    return;
  }
  sendSession(res, result.value);
}

/** POST /api/auth/farcaster: mounted when FARCASTER_RPC_URL names OP Mainnet's RPC. */
export function farcasterSignInHandler(deps: AppDeps): ((call: PublicCall<FarcasterSignInBody>) => Promise<void>) | undefined {
  const verifier = deps.farcasterSignIn;
  if (verifier === undefined) return undefined;
  return async ({ req, res, input }) => {
    const result = await signInWithFarcaster(deps, verifier, {
      message: input.message,
      signature: input.signature as Hex,
      ...walletProof(input.wallet),
    });
    answer(req, res, result);
  };
}

/** POST /api/auth/quick-auth: a Mini App host's Quick Auth token for a session. */
export function quickAuthSignInHandler(deps: AppDeps): ((call: PublicCall<QuickAuthSignInBody>) => Promise<void>) | undefined {
  const verifier = deps.quickAuth;
  if (verifier === undefined) return undefined;
  return async ({ req, res, input }) => {
    const result = await signInWithQuickAuth(deps, verifier, { token: input.token, ...walletProof(input.wallet) });
    answer(req, res, result);
  };
}

const sharedResponses = {
  200: json(sessionTokenSchema, 'Session token; `user.social_fid` names the fid.'),
  400: json(variantAErrorSchema, 'Invalid request body (VALIDATION_ERROR).'),
  409: json(variantAErrorSchema, 'CONFLICT: the fid is linked to another account, or the wallet to another fid.'),
  429: json(variantAErrorSchema, 'Hourly limit of the client IP address (RATE_002).'),
};

export const farcasterSignInDocs: RouteDocs = {
  tags: ['auth'],
  summary: 'Sign In With Farcaster (FIP-11) for a session JWT',
  description:
    "The message is checked as @farcaster/auth-client defines it (statement, chain 10, one fid resource, time window, our domain and a nonce from GET /api/auth/nonce, consumed once), and its signer must be the fid's custody address (IdRegistry) or one of its auth addresses (KeyRegistry) on OP Mainnet, read through FARCASTER_RPC_URL. The session is the account the fid is linked to; a fid not linked yet is linked to the wallet proved by `wallet` (same nonce) or, without it, to the signing address. Not mounted (404) without FARCASTER_RPC_URL.",
  request: { body: json(farcasterSignInRequestSchema, 'The SIWF message and signature the Farcaster client returned.') },
  responses: {
    ...sharedResponses,
    401: json(
      variantAErrorSchema,
      'Sign-in refused (AUTH_ERROR): forged or replayed message, wrong domain, expired, or a signer that does not hold the fid.',
    ),
    503: json(variantAErrorSchema, 'SERVICE_UNAVAILABLE: OP Mainnet cannot be read now; the nonce stays usable.'),
  },
};

export const quickAuthSignInDocs: RouteDocs = {
  tags: ['auth'],
  summary: "Exchange a Farcaster Mini App's Quick Auth token for a session JWT",
  description:
    "The token is verified with @farcaster/quick-auth against its issuer's key set (FARCASTER_QUICK_AUTH_ORIGIN, Farcaster's by default): signature, issuer, audience (our domain) and expiry; its subject is the fid. A fid linked to an account signs in without a prompt; the first time, `wallet` (a SIWE message with a nonce from GET /api/auth/nonce) names the account's wallet.",
  request: { body: json(quickAuthSignInRequestSchema, 'The Quick Auth token, and a wallet proof on first sign-in.') },
  responses: {
    ...sharedResponses,
    401: json(
      variantAErrorSchema,
      'Sign-in refused (AUTH_ERROR): invalid or expired token, another audience, or a fid with no account and no wallet proof.',
    ),
    503: json(variantAErrorSchema, "SERVICE_UNAVAILABLE: the issuer's key set cannot be fetched now."),
  },
};
