import { randomBytes } from 'node:crypto';
import { getAddress } from 'viem';
import type { Hex } from 'viem';
import { parseSiweMessage, validateSiweMessage } from 'viem/siwe';
import type { Database } from '../../../core/src/db/database.ts';
import { createWalletSignatureVerifier } from '../chain/wallet-signature.ts';
import type { WalletSignatureCheck, WalletSignatureVerifier } from '../chain/wallet-signature.ts';
import { appError, fail, ok } from './errors.ts';
import type { AppError, Result } from './errors.ts';
import type { FidVerifier } from './farcaster.ts';
import { issueSessionToken } from './session-token.ts';
import type { IssuedToken, SessionTokenKeys } from './session-token.ts';
import { linkSocialFid, upsertUserByWallet } from './users.ts';
import type { User } from './users.ts';

/** Songmint runs on Base; a sign-in message for another chain is refused. */
export const SIWE_CHAIN_ID = 8453;

export interface SignInSettings {
  domain: string;
  uri: string;
  nonceTtlSeconds: number;
}

export interface IssuedNonce {
  nonce: string;
  expiresAt: Date;
}

/**
 * A single-use nonce, stored so that any replica can consume it. Its lifetime is shared state, so
 * it runs on the database's clock (docs/operations.md, "Clocks"): a replica whose clock is
 * minutes off neither shortens nor stretches it.
 */
export async function issueNonce(db: Database, settings: SignInSettings): Promise<IssuedNonce> {
  const nonce = randomBytes(16).toString('hex');
  const { expires_at: expiresAt } = await db.one<{ expires_at: Date }>(
    'INSERT INTO auth_nonces (nonce, created_at, expires_at) VALUES ($1, now(), now() + make_interval(secs => $2)) RETURNING expires_at',
    [nonce, settings.nonceTtlSeconds],
  );
  // Housekeeping on the write path keeps the table small without a scheduler.
  await db.none(`DELETE FROM auth_nonces WHERE expires_at < now() - interval '24 hours'`);
  return { nonce, expiresAt };
}

export interface SignInInput {
  message: string;
  signature: Hex;
  socialFid?: bigint;
}

export interface SignedIn {
  token: IssuedToken;
  user: User;
}

export interface SignInDeps {
  db: Database;
  session: SessionTokenKeys;
  siwe: SignInSettings;
  fidVerifier?: FidVerifier;
  /** Checks the wallet's signature; absent: EOAs only, checked locally. */
  walletSignatures?: WalletSignatureVerifier;
  now: () => Date;
}

/** Seconds to suggest before retrying while the chain cannot be read. */
const CHAIN_RETRY_SECONDS = 30;

const EOA_ONLY = createWalletSignatureVerifier();

/** The refusal for a signature that did not verify, saying what a smart wallet needs. */
function signatureRefused(check: Exclude<WalletSignatureCheck, { valid: true }>, smartWallets: boolean): { ok: false; error: AppError } {
  switch (check.reason) {
    case 'chain_unreachable':
      return fail(
        appError('SERVICE_UNAVAILABLE', 'Chain unreachable', {
          details:
            'a smart-wallet signature (ERC-1271/ERC-6492) is checked on chain, which cannot be read now; retry with the same message',
          retryAfter: CHAIN_RETRY_SECONDS,
        }),
      );
    case 'needs_chain':
      return refused(
        'smart-wallet signatures (ERC-1271/ERC-6492) cannot be checked: this server has no chain RPC (CHAIN_RPC_URL); sign in with an EOA',
      );
    case 'mismatch':
      return refused(
        smartWallets
          ? 'signature does not match the message address (checked as an EOA, ERC-1271 and ERC-6492 signature)'
          : 'signature does not match the message address (this server checks EOA signatures only: no chain RPC for smart wallets)',
      );
  }
}

function originOf(uri: string): string | null {
  try {
    return new URL(uri).origin;
  } catch {
    return null;
  }
}

export function refused(details: string): { ok: false; error: AppError } {
  return fail(appError('AUTH_ERROR', 'Sign-in refused', { details }));
}

/** A wallet's EIP-4361 message whose fields and signature checked out; its nonce not yet consumed. */
export interface CheckedWalletMessage {
  wallet: string;
  nonce: string;
}

/**
 * Checks an EIP-4361 message and its signature: it must name our domain, URI origin and chain, be
 * within its validity window, and be signed by its address (an EOA, or a smart-contract wallet
 * through ERC-1271 or ERC-6492 when a chain is configured). The nonce is left for the caller to
 * consume once everything else has checked out, so a refused or unverifiable request leaves it
 * usable.
 */
export async function checkWalletMessage(
  deps: Pick<SignInDeps, 'siwe' | 'walletSignatures' | 'now'>,
  text: string,
  signature: Hex,
): Promise<Result<CheckedWalletMessage>> {
  const message = parseSiweMessage(text);
  if (message.address === undefined || message.domain === undefined || message.uri === undefined || message.nonce === undefined) {
    return refused('not an EIP-4361 message (address, domain, uri and nonce are required)');
  }
  if (message.domain !== deps.siwe.domain) return refused(`message domain must be ${deps.siwe.domain}`);
  const expectedOrigin = originOf(deps.siwe.uri);
  if (expectedOrigin === null || originOf(message.uri) !== expectedOrigin) return refused(`message uri must be on ${deps.siwe.uri}`);
  if (message.chainId !== SIWE_CHAIN_ID) return refused(`message chain id must be ${SIWE_CHAIN_ID}`);
  if (!validateSiweMessage({ message, time: deps.now() })) return refused('message is malformed, expired or not yet valid');
  const verifier = deps.walletSignatures ?? EOA_ONLY;
  const check = await verifier.verify({ address: message.address, message: text, signature });
  if (!check.valid) return signatureRefused(check, verifier.smartWallets);
  return ok({ wallet: getAddress(message.address).toLowerCase(), nonce: message.nonce });
}

/** Consumes a nonce issued by `issueNonce`: false when it is unknown, expired or used already. */
export async function consumeNonce(db: Database, nonce: string): Promise<boolean> {
  const consumed = await db.oneOrNone(
    'UPDATE auth_nonces SET consumed_at = now() WHERE nonce = $1 AND consumed_at IS NULL AND expires_at > now() RETURNING nonce',
    [nonce],
  );
  return consumed !== null;
}

export const NONCE_REFUSED = 'unknown, expired or already used nonce; request a new one from GET /api/auth/nonce';

/**
 * EIP-4361 sign-in (`checkWalletMessage`), then the nonce is consumed, once. The wallet's user is
 * created on first sign-in. A Farcaster fid is linked only when the IdRegistry says the wallet
 * owns it; without a verifier the claim is ignored.
 */
export async function signIn(deps: SignInDeps, input: SignInInput): Promise<Result<SignedIn>> {
  const now = deps.now();
  const checked = await checkWalletMessage(deps, input.message, input.signature);
  if (!checked.ok) return checked;
  if (!(await consumeNonce(deps.db, checked.value.nonce))) return refused(NONCE_REFUSED);

  const wallet = checked.value.wallet;
  let user = await upsertUserByWallet(deps.db, wallet);
  if (input.socialFid !== undefined && deps.fidVerifier !== undefined) {
    let registered: bigint;
    try {
      registered = await deps.fidVerifier(getAddress(wallet));
    } catch {
      return fail(
        appError('SERVICE_UNAVAILABLE', 'Farcaster IdRegistry unreachable', {
          details: 'retry, or sign in without social_fid',
          retryAfter: 30,
        }),
      );
    }
    if (registered !== input.socialFid) {
      return refused(`fid ${input.socialFid} is not registered to ${wallet} in the Farcaster IdRegistry`);
    }
    if ((await linkSocialFid(deps.db, user.id, input.socialFid)) === 'taken') {
      return fail(appError('CONFLICT', 'Sign-in refused', { details: 'this fid is linked to another user' }));
    }
    user = { ...user, socialFid: input.socialFid.toString() };
  }
  const token = await issueSessionToken(deps.session, { userId: user.id, walletAddress: user.walletAddress }, now);
  return ok({ token, user });
}
