import type { Account, Address, WalletClient } from 'viem';
import { createSiweMessage } from 'viem/siwe';
import { SongmintClientError } from '../errors.ts';
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
  if (account === undefined) throw new SongmintClientError('NO_ACCOUNT', 'the wallet client has no account: pass `account`');
  const address = typeof account === 'string' ? account : account.address;
  const challenge = await unwrap(api.http.GET('/api/auth/nonce'));
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
  const verified = await unwrap(api.http.POST('/api/auth/verify', { body: { message, signature } }));
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
