import type { Hex } from 'viem';
import { parseSiweMessage } from 'viem/siwe';
import type { Database } from '../../../core/src/db/database.ts';
import { appError, fail, ok } from './errors.ts';
import type { AppError, Result } from './errors.ts';
import type { FarcasterRefusal, FarcasterSignInVerifier, QuickAuthVerifier } from './farcaster.ts';
import { NONCE_REFUSED, checkWalletMessage, consumeNonce, refused } from './sign-in.ts';
import type { SignInDeps, SignedIn } from './sign-in.ts';
import { issueSessionToken } from './session-token.ts';
import { findUserByFid, upsertUserByWallet } from './users.ts';
import type { User } from './users.ts';

/** A wallet's SIWE message and signature: proof that the user holds the wallet they name. */
export interface WalletProof {
  message: string;
  signature: Hex;
}

export interface FarcasterSignInInput {
  /** The SIWF message (EIP-4361 with a `farcaster://fid/<fid>` resource) and its signature. */
  message: string;
  signature: Hex;
  /** The wallet the session acts for; absent: the address that signed the SIWF message. */
  wallet?: WalletProof;
}

export interface QuickAuthSignInInput {
  token: string;
  /** Needed once, the first time the fid signs in: the wallet its account acts for. */
  wallet?: WalletProof;
}

export type FarcasterSignInDeps = Pick<SignInDeps, 'db' | 'session' | 'siwe' | 'walletSignatures' | 'now'>;

/** Seconds to suggest before retrying while OP Mainnet or the Quick Auth issuer cannot be read. */
const FARCASTER_RETRY_SECONDS = 30;

function farcasterRefused(refusal: FarcasterRefusal): { ok: false; error: AppError } {
  return refusal.code === 'unavailable'
    ? fail(appError('SERVICE_UNAVAILABLE', 'Farcaster unreachable', { details: refusal.message, retryAfter: FARCASTER_RETRY_SECONDS }))
    : refused(refusal.message);
}

function conflict(details: string): { ok: false; error: AppError } {
  return fail(appError('CONFLICT', 'Sign-in refused', { details }));
}

/**
 * Sign In With Farcaster (FIP-11). The message must carry one of our nonces, name our domain, be
 * within its time window and be signed by the fid's custody address or one of its auth addresses
 * (`FarcasterSignInVerifier`). The session is the account the fid is linked to; a fid not linked
 * yet is linked to the wallet the user proves (`wallet`, a SIWE message with the same nonce) or,
 * without one, to the address that signed. The nonce is consumed once, after every check.
 */
export async function signInWithFarcaster(
  deps: FarcasterSignInDeps,
  verifier: FarcasterSignInVerifier,
  input: FarcasterSignInInput,
): Promise<Result<SignedIn>> {
  let nonce: string | undefined;
  try {
    nonce = parseSiweMessage(input.message).nonce;
  } catch {
    nonce = undefined;
  }
  if (nonce === undefined) return refused('not a Sign In With Farcaster message (EIP-4361 with a nonce)');
  const verified = await verifier.verify({ message: input.message, signature: input.signature, nonce, domain: deps.siwe.domain });
  if (!verified.ok) return farcasterRefused(verified.error);
  let wallet = verified.value.signer;
  if (input.wallet !== undefined) {
    const proof = await checkWalletMessage(deps, input.wallet.message, input.wallet.signature);
    if (!proof.ok) return proof;
    if (proof.value.nonce !== nonce) return refused('the wallet message must carry the same nonce as the Farcaster message');
    wallet = proof.value.wallet;
  }
  if (!(await consumeNonce(deps.db, nonce))) return refused(NONCE_REFUSED);
  return sessionForFid(deps, verified.value.fid, wallet, input.wallet !== undefined);
}

/**
 * Quick Auth: a Mini App host's token for our domain, verified against its issuer
 * (`QuickAuthVerifier`); its subject is the fid. A linked fid signs in without a prompt; the
 * first time, a wallet proof (a SIWE message with one of our nonces) names the account's wallet.
 */
export async function signInWithQuickAuth(
  deps: FarcasterSignInDeps,
  verifier: QuickAuthVerifier,
  input: QuickAuthSignInInput,
): Promise<Result<SignedIn>> {
  const verified = await verifier.verify(input.token, deps.siwe.domain);
  if (!verified.ok) return farcasterRefused(verified.error);
  let wallet: string | undefined;
  if (input.wallet !== undefined) {
    const proof = await checkWalletMessage(deps, input.wallet.message, input.wallet.signature);
    if (!proof.ok) return proof;
    if (!(await consumeNonce(deps.db, proof.value.nonce))) return refused(NONCE_REFUSED);
    wallet = proof.value.wallet;
  }
  return sessionForFid(deps, verified.value.fid, wallet, wallet !== undefined);
}

/**
 * The session of the account `fid` is linked to, linking it first to `wallet`'s account when it
 * is not linked yet. `walletProven`: the wallet was proved by its own signature, so naming
 * another wallet than the fid's account is a conflict rather than something to ignore.
 */
async function sessionForFid(
  deps: FarcasterSignInDeps,
  fid: bigint,
  wallet: string | undefined,
  walletProven: boolean,
): Promise<Result<SignedIn>> {
  const resolved = await resolveFidUser(deps.db, fid, wallet, walletProven);
  if (!resolved.ok) return resolved;
  const user = resolved.value;
  const token = await issueSessionToken(deps.session, { userId: user.id, walletAddress: user.walletAddress }, deps.now());
  return ok({ token, user });
}

async function resolveFidUser(db: Database, fid: bigint, wallet: string | undefined, walletProven: boolean): Promise<Result<User>> {
  const linked = await findUserByFid(db, fid);
  if (linked !== null) {
    if (walletProven && wallet !== undefined && wallet !== linked.walletAddress) {
      return conflict(
        `fid ${fid} is linked to the account of ${linked.walletAddress}; sign in without a wallet proof, or with that wallet`,
      );
    }
    return ok(linked);
  }
  if (wallet === undefined) {
    return refused(`fid ${fid} has no Songmint account yet: send a wallet proof (wallet.message, wallet.signature) once to link it`);
  }
  try {
    return await db.tx(async (t) => {
      const user = await upsertUserByWallet(t, wallet);
      if (user.socialFid !== null && user.socialFid !== fid.toString()) {
        return conflict(`the account of ${wallet} is linked to another fid`);
      }
      await t.none('UPDATE users SET social_fid = $1, updated_at = now() WHERE id = $2', [fid.toString(), user.id]);
      return ok({ ...user, socialFid: fid.toString() });
    });
  } catch (error) {
    // Two first sign-ins of one fid at once: the unique index on social_fid lets one link it.
    if (typeof error === 'object' && error !== null && 'code' in error && error.code === '23505') {
      return conflict(`fid ${fid} was just linked to another account`);
    }
    throw error;
  }
}
