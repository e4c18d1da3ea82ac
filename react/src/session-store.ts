import type { Address } from 'viem';

/** A Sign-In with Ethereum session as the provider keeps it (and the browser's localStorage across visits). */
export interface SongmintSession {
  token: string;
  expiresAt: Date;
  address: Address;
  userId: string;
  tier: 'free' | 'pro' | 'enterprise';
}

/** Where a session is kept: one store per provider, never a module global (two providers, two APIs). */
export interface SessionStore {
  get(): SongmintSession | undefined;
  set(session: SongmintSession): void;
  clear(): void;
  subscribe(listener: () => void): () => void;
  /** Reads the kept session from localStorage: called in an effect, never while rendering (SSR). */
  load(): void;
}

interface KeptSession {
  token: string;
  expiresAt: string;
  address: Address;
  userId: string;
  tier: SongmintSession['tier'];
}

/** The part of the browser's Storage the store uses (typed here: the package compiles without the DOM, so a server render cannot reach for it). */
interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** localStorage where the runtime has one (a browser), else nothing: the session then lives in memory. */
function browserStorage(): KeyValueStorage | undefined {
  try {
    return (globalThis as { localStorage?: KeyValueStorage }).localStorage;
  } catch {
    // A browser that blocks storage for this origin throws on access.
    return undefined;
  }
}

function parseKept(text: string): SongmintSession | undefined {
  try {
    const kept = JSON.parse(text) as Partial<KeptSession>;
    if (typeof kept.token !== 'string' || typeof kept.address !== 'string' || typeof kept.expiresAt !== 'string') return undefined;
    const expiresAt = new Date(kept.expiresAt);
    if (!(expiresAt.getTime() > Date.now())) return undefined;
    return { token: kept.token, expiresAt, address: kept.address, userId: kept.userId ?? '', tier: kept.tier ?? 'free' };
  } catch {
    return undefined;
  }
}

/** A store whose session survives reloads under `storageKey` (per API origin), when `persist`. */
export function createSessionStore(storageKey: string, persist: boolean): SessionStore {
  let current: SongmintSession | undefined;
  const listeners = new Set<() => void>();
  const emit = () => listeners.forEach((listener) => listener());
  const storage = () => (persist ? browserStorage() : undefined);
  return {
    get: () => current,
    set(session) {
      current = session;
      const kept: KeptSession = { ...session, expiresAt: session.expiresAt.toISOString() };
      storage()?.setItem(storageKey, JSON.stringify(kept));
      emit();
    },
    clear() {
      if (current === undefined && storage()?.getItem(storageKey) === null) return;
      current = undefined;
      storage()?.removeItem(storageKey);
      emit();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    load() {
      const text = storage()?.getItem(storageKey);
      if (text === undefined || text === null) return;
      const kept = parseKept(text);
      if (kept === undefined) storage()?.removeItem(storageKey);
      else if (current === undefined) {
        current = kept;
        emit();
      }
    },
  };
}
