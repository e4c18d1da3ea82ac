import type { Account, Address, WalletClient } from 'viem';
import { createSiweMessage, parseSiweMessage } from 'viem/siwe';
import { SongmintApiError, SongmintClientError } from '../errors.ts';
import type { components } from '../generated/api.ts';
import type { SongmintApi } from './client.ts';
import { unwrap, withSession } from './client.ts';

export interface SignInParameters {
  /** The wallet that signs the EIP-4361 message (an injected wallet, or a local account). */
  walletClient: WalletClient;
  /** Defaults to the wallet client's account. */
  account?: Account | Address;
  /** The message's statement. */
  statement?: string;
}

export interface Session {
  token: string;
  expiresAt: Date;
  user: { id: string; walletAddress: Address; tier: 'free' | 'pro' | 'enterprise'; socialFid: string | null };
  /** The same API client, signed in. */
  api: SongmintApi;
}

/**
 * Sign-In with Ethereum: fetches a nonce, builds the EIP-4361 message for the domain, URI and
 * chain the API names, has the wallet sign it and exchanges it for a session token.
 */
export async function signIn(
  api: SongmintApi,
  { walletClient, account = walletClient.account, statement = 'Sign in to Songmint' }: SignInParameters,
): Promise<Session> {
  const challenge = await unwrap(api.http.GET('/api/auth/nonce'));
  const proof = await walletProof(walletClient, account, statement, challenge);
  return sessionOf(api, await unwrap(api.http.POST('/api/auth/verify', { body: proof })));
}

type SessionToken = components['schemas']['SessionToken'];
type AuthNonce = components['schemas']['AuthNonce'];
interface SignedMessage {
  message: string;
  signature: string;
}

function sessionOf(api: SongmintApi, verified: SessionToken): Session {
  return {
    token: verified.token,
    expiresAt: new Date(verified.expires_at),
    user: {
      id: verified.user.id,
      walletAddress: verified.user.wallet_address as Address,
      tier: verified.user.tier,
      socialFid: verified.user.social_fid,
    },
    api: withSession(api, verified),
  };
}

/** The wallet's EIP-4361 message for the domain, URI, chain and nonce of `challenge`, signed. */
async function walletProof(
  walletClient: WalletClient,
  account: Account | Address | undefined,
  statement: string,
  challenge: Pick<AuthNonce, 'nonce' | 'domain' | 'uri' | 'chain_id'>,
): Promise<SignedMessage> {
  if (account === undefined) throw new SongmintClientError('NO_ACCOUNT', 'the wallet client has no account: pass `account`');
  const address = typeof account === 'string' ? account : account.address;
  const message = createSiweMessage({
    address,
    chainId: challenge.chain_id,
    domain: challenge.domain,
    uri: challenge.uri,
    nonce: challenge.nonce,
    version: '1',
    statement,
    issuedAt: new Date(),
  });
  const signature = await walletClient.signMessage({ account, message });
  return { message, signature };
}

export interface SignInWithFarcasterParameters {
  /** The Sign In With Farcaster (FIP-11) message the Farcaster client returned (AuthKit's relay, or a Mini App's `signIn`). */
  message: string;
  /** Its signature by the fid's custody or auth address. */
  signature: string;
  /**
   * The wallet the account acts for, proved by a SIWE signature with the SIWF message's nonce.
   * Without it, a fid not linked yet is linked to the address that signed the Farcaster message.
   */
  walletClient?: WalletClient;
  /** Defaults to the wallet client's account. */
  account?: Account | Address;
  /** The wallet message's statement. */
  statement?: string;
}

/**
 * Sign In With Farcaster: exchanges a SIWF message (whose nonce came from `GET /api/auth/nonce`)
 * for a session naming its fid. With `walletClient`, the wallet signs a SIWE message carrying the
 * same nonce, so a fid not linked yet is linked to that wallet.
 */
export async function signInWithFarcaster(
  api: SongmintApi,
  { message, signature, walletClient, account = walletClient?.account, statement = 'Sign in to Songmint' }: SignInWithFarcasterParameters,
): Promise<Session> {
  let wallet: SignedMessage | undefined;
  if (walletClient !== undefined) {
    const nonce = parseSiweMessage(message).nonce;
    if (nonce === undefined) throw new SongmintClientError('INVALID_ARGUMENT', 'the Farcaster message carries no nonce');
    // The nonce answer names the domain, URI and chain the wallet message must carry; its own nonce stays unused.
    const challenge = await unwrap(api.http.GET('/api/auth/nonce'));
    wallet = await walletProof(walletClient, account, statement, { ...challenge, nonce });
  }
  const body = wallet === undefined ? { message, signature } : { message, signature, wallet };
  return sessionOf(api, await unwrap(api.http.POST('/api/auth/farcaster', { body })));
}

export interface SignInWithQuickAuthParameters {
  /** The Quick Auth JWT a Farcaster client issued for this domain (`sdk.quickAuth.getToken()`). */
  token: string;
  /** The wallet to link the fid to, asked to sign only when the fid has no account yet. */
  walletClient?: WalletClient;
  /** Defaults to the wallet client's account. */
  account?: Account | Address;
  /** The wallet message's statement. */
  statement?: string;
}

/** The oracle's refusal of a Quick Auth token whose fid has no account yet (it asks for a wallet proof). */
function needsWalletProof(error: unknown): boolean {
  return (
    error instanceof SongmintApiError &&
    error.code === 'AUTH_ERROR' &&
    typeof error.details === 'string' &&
    error.details.includes('wallet proof')
  );
}

/**
 * Quick Auth: exchanges a Mini App's token for a session naming its fid. The token alone signs in
 * a fid already linked (no prompt); when the oracle answers that the fid has no account yet, the
 * wallet signs a SIWE message once and the token is sent again with that proof.
 */
export async function signInWithQuickAuth(
  api: SongmintApi,
  { token, walletClient, account = walletClient?.account, statement = 'Sign in to Songmint' }: SignInWithQuickAuthParameters,
): Promise<Session> {
  try {
    return sessionOf(api, await unwrap(api.http.POST('/api/auth/quick-auth', { body: { token } })));
  } catch (error) {
    if (walletClient === undefined || !needsWalletProof(error)) throw error;
  }
  const challenge = await unwrap(api.http.GET('/api/auth/nonce'));
  const wallet = await walletProof(walletClient, account, statement, challenge);
  return sessionOf(api, await unwrap(api.http.POST('/api/auth/quick-auth', { body: { token, wallet } })));
}
