import { songmintAddresses } from '@songmint/sdk';
import type { SongmintContracts } from '@songmint/sdk';

/** What the page needs to know about the stack that serves it (GET ./config.json). */
export interface AppConfig {
  apiUrl: string;
  rpcUrl: string;
  contracts: SongmintContracts;
  /** Offer the built-in development wallet (local chain only). */
  developmentWallet: boolean;
  /** AuthKit's relay for "Sign in with Farcaster", only when the API verifies it. */
  farcasterRelayUrl: string | undefined;
  /** The Quick Auth server a Farcaster Mini App host is asked for a token (Farcaster's by default). */
  quickAuthOrigin: string;
}

const FARCASTER_QUICK_AUTH_ORIGIN = 'https://auth.farcaster.xyz';

const isAddress = (value: unknown): value is `0x${string}` => typeof value === 'string' && /^0x[0-9a-fA-F]{40}$/.test(value);

/** Reads and checks the app's config.json; the API defaults to this page's origin, the contracts to the local deployment. */
export async function loadAppConfig(): Promise<AppConfig> {
  // From the app's base, not the page: /app/song/7 reads /app/config.json too.
  const response = await fetch(new URL(`${import.meta.env.BASE_URL}config.json`, window.location.origin));
  if (!response.ok) throw new Error(`config.json: HTTP ${response.status}`);
  const raw = (await response.json()) as Partial<Record<keyof AppConfig | 'farcaster', unknown>>;
  if (typeof raw.rpcUrl !== 'string') throw new Error('config.json has no rpcUrl');
  const contracts: SongmintContracts = { ...songmintAddresses.local };
  if (typeof raw.contracts === 'object' && raw.contracts !== null) {
    for (const [name, address] of Object.entries(raw.contracts)) {
      if (name in contracts && isAddress(address)) contracts[name as keyof SongmintContracts] = address;
    }
  }
  return {
    apiUrl: typeof raw.apiUrl === 'string' ? raw.apiUrl : window.location.origin,
    rpcUrl: raw.rpcUrl,
    contracts,
    developmentWallet: raw.developmentWallet === true,
    ...farcasterOf(raw.farcaster),
  };
}

const isHttpUrl = (value: unknown): value is string => typeof value === 'string' && /^https?:\/\/[^\s]+$/.test(value);

function farcasterOf(raw: unknown): Pick<AppConfig, 'farcasterRelayUrl' | 'quickAuthOrigin'> {
  const farcaster = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
  return {
    farcasterRelayUrl: isHttpUrl(farcaster.relayUrl) ? farcaster.relayUrl : undefined,
    quickAuthOrigin: isHttpUrl(farcaster.quickAuthOrigin) ? farcaster.quickAuthOrigin : FARCASTER_QUICK_AUTH_ORIGIN,
  };
}
