import type { SongmintApi, SongmintChain } from '@songmint/sdk';
import type { AppConfig } from './config.ts';
import type { SignedIn } from './session.ts';

/** What every view gets: the stack, a read-only chain and anonymous API, and the session if any. */
export interface AppContext {
  config: AppConfig;
  /** Reads the chain without a wallet (song pages, pools). */
  read: Pick<SongmintChain, 'publicClient' | 'contracts'>;
  /** The API without a session (public routes). */
  publicApi: SongmintApi;
  session: SignedIn | undefined;
  /** Signs in or out and renders the page again. */
  setSession(session: SignedIn | undefined): void;
  navigate(path: string): void;
  /** Stops when the view is left (event streams, timers). */
  signal: AbortSignal;
}

/** The wallet to send with, or an error a person can act on. */
export function walletOf(context: AppContext): SongmintChain {
  const chain = context.session?.chain;
  if (chain === undefined) throw new Error('Connect your wallet first');
  return chain;
}

export function apiOf(context: AppContext): SongmintApi {
  const api = context.session?.api;
  if (api === undefined) throw new Error('Connect your wallet and sign in first');
  return api;
}
