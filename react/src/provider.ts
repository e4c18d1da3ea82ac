import { createContext, createElement, useContext, useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import type { ReactNode } from 'react';
import { QueryClientProvider, useQueryClient } from '@tanstack/react-query';
import type { QueryClient } from '@tanstack/react-query';
import { getAccount, watchAccount } from '@wagmi/core';
import type { Config } from '@wagmi/core';
import type { Address } from 'viem';
import { asSongmintError, createSongmintApi, signIn, SongmintApiError, songmintAddresses, withSession } from '@songmint/sdk';
import type { SongmintApi, SongmintContracts, SongmintError } from '@songmint/sdk';
import { chainOf } from './chain.ts';
import { songmintKeys } from './query-keys.ts';
import { createSessionStore } from './session-store.ts';
import type { SessionStore, SongmintSession } from './session-store.ts';

export interface SongmintProviderProps {
  /** The oracle's origin, e.g. `http://127.0.0.1:3000` (what `npm start` prints as API). */
  apiUrl: string;
  /** The app's wagmi config: its connected wallet signs in, mints, launches and trades. */
  config: Config;
  /** The deployment's contracts; `songmintAddresses.local` (the chain of `npm start`) when left out. */
  contracts?: SongmintContracts;
  /** A QueryClient to provide; leave it out inside an existing QueryClientProvider (as wagmi apps have). */
  queryClient?: QueryClient;
  /**
   * Sign in again through the connected wallet this many milliseconds before the session expires
   * (the wallet asks its owner to sign); `false` never does, and an expired session just ends.
   * Default: 5 minutes.
   */
  refreshBeforeExpiryMs?: number | false;
  /** Keep the session in localStorage across reloads (default true). */
  persistSession?: boolean;
  children?: ReactNode;
}

/** What the hooks share: the API, the wagmi config, the contracts and the session store. */
export interface SongmintContextValue {
  api: SongmintApi;
  config: Config;
  contracts: SongmintContracts;
  sessions: SessionStore;
  /** Every failure through here: the SDK's typed error, and an expired session forgotten. */
  run<T>(work: () => Promise<T>): Promise<T>;
}

const SongmintContext = createContext<SongmintContextValue | undefined>(undefined);

const DEFAULT_REFRESH_MS = 5 * 60_000;
/** setTimeout's longest delay; a session refresh further away is scheduled again when it fires. */
const MAX_TIMER_MS = 2_147_483_647;

/**
 * Provides the Songmint API and the session to the hooks below it. Renders nothing itself and
 * touches no browser API while rendering, so it renders on a server too (the kept session is read
 * in an effect, after hydration).
 */
export function SongmintProvider({
  apiUrl,
  config,
  contracts = songmintAddresses.local,
  queryClient,
  refreshBeforeExpiryMs = DEFAULT_REFRESH_MS,
  persistSession = true,
  children,
}: SongmintProviderProps) {
  const api = useMemo(() => createSongmintApi({ baseUrl: apiUrl }), [apiUrl]);
  const [sessions] = useState(() => createSessionStore(`songmint.session:${api.baseUrl}`, persistSession));
  useEffect(() => sessions.load(), [sessions]);
  const value = useMemo<SongmintContextValue>(
    () => ({
      api,
      config,
      contracts,
      sessions,
      async run(work) {
        try {
          return await work();
        } catch (error) {
          const typed: SongmintError = asSongmintError(error);
          // The API no longer takes the token (expired, revoked): the session is over.
          if (typed instanceof SongmintApiError && typed.status === 401) sessions.clear();
          throw typed;
        }
      },
    }),
    [api, config, contracts, sessions],
  );
  // createElement, not JSX: the package needs no JSX setting from the tools that compile it.
  const content = createElement(SongmintContext.Provider, { value }, createElement(SessionRefresher, { refreshBeforeExpiryMs }), children);
  return queryClient === undefined ? content : createElement(QueryClientProvider, { client: queryClient }, content);
}

/** The provider's context; throws outside a SongmintProvider. */
export function useSongmintContext(): SongmintContextValue {
  const value = useContext(SongmintContext);
  if (value === undefined) throw new Error('Songmint hooks need a <SongmintProvider> above them');
  return value;
}

/** The connected wallet's address (undefined while none is connected), kept current from wagmi. */
export function useConnectedAddress(): Address | undefined {
  const { config } = useSongmintContext();
  return useSyncExternalStore(
    (onChange) => watchAccount(config, { onChange }),
    () => getAccount(config).address,
    () => undefined,
  );
}

export interface SessionState {
  /** The session of the connected wallet, while it is valid. */
  session: SongmintSession | undefined;
  /** The API signed in as that session, for SDK calls the hooks do not cover. */
  api: SongmintApi | undefined;
  /** The connected wallet's address. */
  address: Address | undefined;
  status: 'signed-in' | 'signed-out' | 'disconnected';
}

/**
 * The session of the wallet wagmi has connected: one kept for another address (the user switched
 * accounts in the wallet) or past its expiry counts as none.
 */
export function useSession(): SessionState {
  const { api, sessions } = useSongmintContext();
  const address = useConnectedAddress();
  const stored = useSyncExternalStore(sessions.subscribe, sessions.get, () => undefined);
  const session =
    stored !== undefined && address !== undefined && stored.address.toLowerCase() === address.toLowerCase() && stored.expiresAt > new Date()
      ? stored
      : undefined;
  const signedIn = useMemo(() => (session === undefined ? undefined : withSession(api, session)), [api, session]);
  return {
    session,
    api: signedIn,
    address,
    status: address === undefined ? 'disconnected' : session === undefined ? 'signed-out' : 'signed-in',
  };
}

/** Signs in with Ethereum through the connected wallet and keeps the session; the account's queries start afresh. */
export async function signInThroughWallet(context: SongmintContextValue, queryClient: QueryClient): Promise<SongmintSession> {
  return context.run(async () => {
    const { walletClient } = await chainOf(context.config, context.contracts);
    const signed = await signIn(context.api, { walletClient });
    const session: SongmintSession = {
      token: signed.token,
      expiresAt: signed.expiresAt,
      address: signed.user.walletAddress,
      userId: signed.user.id,
      tier: signed.user.tier,
    };
    context.sessions.set(session);
    await queryClient.invalidateQueries({ queryKey: songmintKeys.account(session.address) });
    return session;
  });
}

/** Signs in again before the session ends, while the same wallet is connected. */
function SessionRefresher({ refreshBeforeExpiryMs }: { refreshBeforeExpiryMs: number | false }) {
  const context = useSongmintContext();
  const queryClient = useQueryClient();
  const { session } = useSession();
  useEffect(() => {
    if (session === undefined || refreshBeforeExpiryMs === false) return;
    const due = session.expiresAt.getTime() - refreshBeforeExpiryMs - Date.now();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let cancelled = false;
    const refresh = () => {
      if (cancelled) return;
      const wait = session.expiresAt.getTime() - refreshBeforeExpiryMs - Date.now();
      if (wait > 0) {
        timer = setTimeout(refresh, Math.min(wait, MAX_TIMER_MS));
        return;
      }
      // A refused or failed refresh leaves the session to expire: the app then offers sign-in.
      signInThroughWallet(context, queryClient).catch(() => undefined);
    };
    timer = setTimeout(refresh, Math.min(Math.max(due, 0), MAX_TIMER_MS));
    return () => {
      cancelled = true;
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [context, queryClient, session, refreshBeforeExpiryMs]);
  return null;
}
