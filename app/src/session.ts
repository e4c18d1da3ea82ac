import { connectSongmint, createSongmintApi, developmentAccount, signIn, withSession } from '@songmint/sdk';
import type { SongmintApi, SongmintChain } from '@songmint/sdk';
import type { Address, EIP1193Provider } from 'viem';
import type { AppConfig } from './config.ts';

export type WalletKind = 'development' | 'injected';

/** What survives a reload: the API session token until it expires, and which wallet made it. */
interface StoredSession {
  token: string;
  expiresAt: string;
  address: Address;
  wallet: WalletKind;
  tier: string;
}

export interface SignedIn {
  api: SongmintApi;
  address: Address;
  expiresAt: Date;
  tier: string;
  wallet: WalletKind;
  /** The wallet to send with; absent after a reload until the browser wallet shares the account again. */
  chain?: SongmintChain;
}

const STORAGE_KEY = 'songmint.session';

const injectedProvider = () => (window as Window & { ethereum?: EIP1193Provider }).ethereum;

function connectWallet(config: AppConfig, wallet: WalletKind, account: Address): SongmintChain {
  if (wallet === 'development')
    return connectSongmint({ rpcUrl: config.rpcUrl, contracts: config.contracts, wallet: { account: developmentAccount() } });
  const provider = injectedProvider();
  if (provider === undefined) throw new Error('No browser wallet found: install one, or use the development wallet on the local chain');
  return connectSongmint({ rpcUrl: config.rpcUrl, contracts: config.contracts, wallet: { provider, account } });
}

/** Connects the wallet and signs in with Ethereum; the session is kept for the next visit. */
export async function signInWith(config: AppConfig, wallet: WalletKind): Promise<SignedIn> {
  let address: Address;
  if (wallet === 'development') address = developmentAccount().address;
  else {
    const provider = injectedProvider();
    if (provider === undefined) throw new Error('No browser wallet found: install one, or use the development wallet on the local chain');
    const [account] = await provider.request({ method: 'eth_requestAccounts' });
    if (account === undefined) throw new Error('The wallet shared no account');
    address = account;
  }
  const chain = connectWallet(config, wallet, address);
  const session = await signIn(createSongmintApi({ baseUrl: config.apiUrl }), { walletClient: chain.walletClient });
  const stored: StoredSession = {
    token: session.token,
    expiresAt: session.expiresAt.toISOString(),
    address,
    wallet,
    tier: session.user.tier,
  };
  localStorage.setItem(STORAGE_KEY, JSON.stringify(stored));
  return { api: session.api, address, expiresAt: session.expiresAt, tier: session.user.tier, wallet, chain };
}

/** The kept session while its token is valid (reconnecting the wallet without a prompt), else nothing. */
export async function restoreSession(config: AppConfig): Promise<SignedIn | undefined> {
  const text = localStorage.getItem(STORAGE_KEY);
  if (text === null) return undefined;
  let stored: StoredSession;
  try {
    stored = JSON.parse(text) as StoredSession;
  } catch {
    forgetSession();
    return undefined;
  }
  const expiresAt = new Date(stored.expiresAt);
  if (!(expiresAt.getTime() > Date.now()) || typeof stored.token !== 'string') {
    forgetSession();
    return undefined;
  }
  const signedIn: SignedIn = {
    api: withSession(createSongmintApi({ baseUrl: config.apiUrl }), { token: stored.token }),
    address: stored.address,
    expiresAt,
    tier: stored.tier,
    wallet: stored.wallet,
  };
  if (stored.wallet === 'development') return { ...signedIn, chain: connectWallet(config, 'development', stored.address) };
  // A browser wallet shares its accounts without a prompt only if it still trusts this site.
  const accounts = await injectedProvider()
    ?.request({ method: 'eth_accounts' })
    .catch(() => []);
  const trusted = accounts?.some((account) => account.toLowerCase() === stored.address.toLowerCase()) === true;
  return trusted ? { ...signedIn, chain: connectWallet(config, 'injected', stored.address) } : signedIn;
}

export function forgetSession(): void {
  localStorage.removeItem(STORAGE_KEY);
}
