import {
  connectSongmint,
  createSongmintApi,
  developmentAccount,
  signIn,
  signInWithFarcaster,
  signInWithQuickAuth,
  withSession,
} from '@songmint/sdk';
import type { Session, SongmintApi, SongmintChain } from '@songmint/sdk';
import { getAddress } from 'viem';
import type { Address, EIP1193Provider } from 'viem';
import type { AppConfig } from './config.ts';

/**
 * Who sends the transactions: the development key, the browser's wallet, or (inside a Farcaster
 * client) the host's wallet; `farcaster`: signed in with Farcaster and no wallet shared yet.
 */
export type WalletKind = 'development' | 'injected' | 'miniapp' | 'farcaster';

/** What survives a reload: the API session token until it expires, and which wallet made it. */
interface StoredSession {
  token: string;
  expiresAt: string;
  address: Address;
  wallet: WalletKind;
  tier: string;
  socialFid?: string | null;
}

export interface SignedIn {
  api: SongmintApi;
  address: Address;
  expiresAt: Date;
  tier: string;
  wallet: WalletKind;
  /** The Farcaster fid linked to the account, if any. */
  socialFid: string | null;
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
export async function signInWith(config: AppConfig, wallet: 'development' | 'injected'): Promise<SignedIn> {
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
  return keep(session, wallet, chain);
}

/** Keeps the session for the next visit (the token, never a key) and says who is signed in. */
function keep(session: Session, wallet: WalletKind, chain: SongmintChain | undefined): SignedIn {
  // The account's wallet, checksummed as wallets write it.
  const address = getAddress(session.user.walletAddress);
  const stored: StoredSession = {
    token: session.token,
    expiresAt: session.expiresAt.toISOString(),
    address,
    wallet,
    tier: session.user.tier,
    socialFid: session.user.socialFid,
  };
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(stored));
  } catch {
    // Storage refused (a Farcaster client's cross-site frame, private mode): signed in until the page closes.
  }
  const signedIn: SignedIn = {
    api: session.api,
    address,
    expiresAt: session.expiresAt,
    tier: session.user.tier,
    wallet,
    socialFid: session.user.socialFid,
  };
  return chain === undefined ? signedIn : { ...signedIn, chain };
}

/**
 * Sign In With Farcaster with the message and signature the user's Farcaster client returned
 * through the relay. A browser wallet that already shares an account with this site (no prompt)
 * proves the wallet the account acts for; without one, the fid's signing address is linked and
 * the browser wallet can be connected afterwards.
 */
export async function signInWithFarcasterClient(config: AppConfig, signed: { message: string; signature: string }): Promise<SignedIn> {
  const accounts = await injectedProvider()
    ?.request({ method: 'eth_accounts' })
    .catch(() => []);
  const shared = accounts?.[0];
  const api = createSongmintApi({ baseUrl: config.apiUrl });
  if (shared === undefined) return keep(await signInWithFarcaster(api, signed), 'farcaster', undefined);
  const chain = connectWallet(config, 'injected', shared);
  return keep(await signInWithFarcaster(api, { ...signed, walletClient: chain.walletClient }), 'injected', chain);
}

/**
 * Inside a Farcaster client: the Quick Auth token signs in; the host's wallet signs the one-time
 * wallet proof (a fid not linked yet) and sends every transaction.
 */
export async function signInWithMiniApp(
  config: AppConfig,
  host: { provider: EIP1193Provider; quickAuthToken(): Promise<string> },
): Promise<SignedIn> {
  const [account] = await host.provider.request({ method: 'eth_requestAccounts' });
  if (account === undefined) throw new Error("The Farcaster client's wallet shared no account");
  const chain = connectSongmint({ rpcUrl: config.rpcUrl, contracts: config.contracts, wallet: { provider: host.provider, account } });
  const session = await signInWithQuickAuth(createSongmintApi({ baseUrl: config.apiUrl }), {
    token: await host.quickAuthToken(),
    walletClient: chain.walletClient,
  });
  // The account acts for the wallet it was linked to: only that wallet can send for it.
  const linked = session.user.walletAddress.toLowerCase() === account.toLowerCase();
  return keep(session, 'miniapp', linked ? chain : undefined);
}

/** The kept session while its token is valid (reconnecting the wallet without a prompt), else nothing. */
export async function restoreSession(config: AppConfig): Promise<SignedIn | undefined> {
  let text: string | null;
  try {
    text = localStorage.getItem(STORAGE_KEY);
  } catch {
    return undefined;
  }
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
    socialFid: stored.socialFid ?? null,
  };
  if (stored.wallet === 'development') return { ...signedIn, chain: connectWallet(config, 'development', stored.address) };
  // The host's wallet is asked again by the Mini App's own sign-in (no prompt for a linked fid).
  if (stored.wallet === 'miniapp') return undefined;
  // A browser wallet shares its accounts without a prompt only if it still trusts this site.
  const accounts = await injectedProvider()
    ?.request({ method: 'eth_accounts' })
    .catch(() => []);
  const trusted = accounts?.some((account) => account.toLowerCase() === stored.address.toLowerCase()) === true;
  return trusted ? { ...signedIn, chain: connectWallet(config, 'injected', stored.address) } : signedIn;
}

export function forgetSession(): void {
  try {
    localStorage.removeItem(STORAGE_KEY);
  } catch {
    // Nothing was kept.
  }
}
