/**
 * A linked fid's Farcaster user data (issue 53 item 5): its display name, username and profile
 * picture, read from the Farcaster hub the operator configures (`FARCASTER_HUB_URL`, a Snapchain
 * or Hubble node's HTTP API, or a hosted one such as Neynar's with `FARCASTER_HUB_API_KEY`), and
 * shown on a profile only where the creator set none of their own (./creator-profile.ts).
 *
 * The request is the hub HTTP API's `GET /v1/userDataByFid?fid=N` without `user_data_type`, which
 * answers every UserDataAdd message of the fid in one page (a fid has at most one of each of the
 * eight types, far under the hub's page size), pinned from the hub's documentation
 * (farcasterxyz/hub-monorepo apps/hubble/www/docs/docs/httpapi/userdata.md and casts.md for the
 * list form; Neynar's Hub API reference, "Fetch UserData for a FID", answers the same):
 *
 *     { "messages": [ { "data": { "type": "MESSAGE_TYPE_USER_DATA_ADD", "fid": 6833,
 *                                 "timestamp": 83433831, "network": "FARCASTER_NETWORK_MAINNET",
 *                                 "userDataBody": { "type": "USER_DATA_TYPE_PFP", "value": "https://…" } },
 *                       "hash": "0x…", "hashScheme": "HASH_SCHEME_BLAKE3", "signature": "…",
 *                       "signatureScheme": "SIGNATURE_SCHEME_ED25519", "signer": "0x…" }, … ],
 *       "nextPageToken": "" }
 *
 * Read: USER_DATA_TYPE_DISPLAY (the display name), USER_DATA_TYPE_USERNAME (the fname or ENS
 * name) and USER_DATA_TYPE_PFP (an image URL). Those JSON names are the hub's own code's, not
 * only its documentation's: `userDataTypeToJSON` in hub-monorepo's
 * packages/core/src/protobufs/generated/message.ts (commit 07a7ff52591b4edaef1687151ad3192de473d0f8)
 * writes 1 as USER_DATA_TYPE_PFP, 2 as USER_DATA_TYPE_DISPLAY and 6 as USER_DATA_TYPE_USERNAME
 * (older builds named 6 USER_DATA_TYPE_FNAME, which is then not read). The hub is outside this platform: it is asked under
 * a timeout, its answer read under a byte budget while it streams and through a schema; a value
 * our own rules would refuse (./profile-text.ts; a picture URL that is not https) is left out;
 * anything else wrong is logged and the profile answers without the hub's data, never an error.
 * Answers are cached per fid (failures for a shorter while, so a hub that is down costs one
 * timeout a fid per minute, not one a page view), in a map of bounded size owned by the reader;
 * at most `maxInFlight` requests are open at once, and a read past them answers without the hub
 * rather than wait in a queue.
 * tests: test/oracle/creator-profiles.test.ts against test/support/farcaster-hub.ts.
 */
import { z } from 'zod';
import { outsideDisplayName } from './profile-text.ts';

export interface FarcasterUserData {
  fid: string;
  username: string | null;
  display_name: string | null;
  pfp_url: string | null;
}

/** The fid's user data, or null when the hub did not answer usably (never rejects). */
export type FarcasterUserDataReader = (fid: string) => Promise<FarcasterUserData | null>;

export interface HubUserDataConfig {
  /** The hub's HTTP API origin, e.g. https://snapchain-api.neynar.com or http://127.0.0.1:3381. */
  hubUrl: string;
  /** Sent as `x-api-key` (hosted hubs such as Neynar's ask for one). */
  apiKey?: string | undefined;
  timeoutMs: number;
  /** How long an answer is used before the hub is asked again. */
  cacheTtlMs?: number;
  /** How long a failed read is remembered. */
  failureTtlMs?: number;
  /** Fids remembered at most (the oldest is dropped first). */
  cacheEntries?: number;
  /** Hub requests open at once; a profile read past them answers without the hub's data (nothing waits in a queue). */
  maxInFlight?: number;
  now?: () => number;
}

export interface HubUserDataLogger {
  warn(fields: Record<string, unknown>, message: string): void;
}

/** The largest answer read: one fid's eight messages are about 4 kB. */
export const HUB_ANSWER_MAX_BYTES = 64 * 1024;
export const HUB_CACHE_TTL_MS = 10 * 60_000;
export const HUB_FAILURE_TTL_MS = 60_000;
export const HUB_CACHE_ENTRIES = 10_000;
export const HUB_MAX_IN_FLIGHT = 16;
/** A picture URL longer than this is not shown (the hub allows 256 bytes). */
const PFP_URL_MAX = 2048;
/** fnames (`^[a-z0-9][a-z0-9-]{0,15}$`) and ENS names (`name.eth`, subdomains). */
const USERNAME = /^[a-z0-9][a-z0-9-]{0,15}$|^(?:[a-z0-9-]+\.)+eth$/;

const userDataMessage = z.object({
  data: z.object({
    type: z.string(),
    fid: z.number().int().nonnegative(),
    userDataBody: z.object({ type: z.string(), value: z.string() }).optional(),
  }),
});
const answerSchema = z.object({ messages: z.array(z.unknown()).max(100) });

/** Reads the body of `response` as text, refusing past `maxBytes` while it arrives. */
async function boundedText(response: Response, maxBytes: number): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > maxBytes) throw new Error(`an answer of ${declared} bytes (budget ${maxBytes})`);
  if (response.body === null) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new Error(`an answer over ${maxBytes} bytes`);
    }
    chunks.push(value);
  }
  return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
}

function pfpUrl(value: string): string | null {
  if (value.length > PFP_URL_MAX) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

/** The user data of `fid` in a hub answer: each type's value from the fid's own messages. */
export function userDataOfAnswer(fid: string, answer: unknown): FarcasterUserData {
  const parsed = answerSchema.parse(answer);
  const values = new Map<string, string>();
  for (const raw of parsed.messages) {
    const message = userDataMessage.safeParse(raw);
    if (!message.success || message.data.data.type !== 'MESSAGE_TYPE_USER_DATA_ADD') continue;
    if (String(message.data.data.fid) !== fid || message.data.data.userDataBody === undefined) continue;
    values.set(message.data.data.userDataBody.type, message.data.data.userDataBody.value);
  }
  const username = values.get('USER_DATA_TYPE_USERNAME');
  const display = values.get('USER_DATA_TYPE_DISPLAY');
  const pfp = values.get('USER_DATA_TYPE_PFP');
  return {
    fid,
    username: username !== undefined && USERNAME.test(username) ? username : null,
    display_name: display === undefined ? null : outsideDisplayName(display),
    pfp_url: pfp === undefined ? null : pfpUrl(pfp),
  };
}

export function createHubUserDataReader(config: HubUserDataConfig, logger: HubUserDataLogger): FarcasterUserDataReader {
  const now = config.now ?? Date.now;
  const ttl = config.cacheTtlMs ?? HUB_CACHE_TTL_MS;
  const failureTtl = config.failureTtlMs ?? HUB_FAILURE_TTL_MS;
  const capacity = config.cacheEntries ?? HUB_CACHE_ENTRIES;
  const maxInFlight = config.maxInFlight ?? HUB_MAX_IN_FLIGHT;
  const hub = new URL(config.hubUrl);
  const cache = new Map<string, { value: FarcasterUserData | null; until: number }>();
  const inFlight = new Map<string, Promise<FarcasterUserData | null>>();

  function remember(fid: string, value: FarcasterUserData | null): void {
    cache.delete(fid);
    cache.set(fid, { value, until: now() + (value === null ? failureTtl : ttl) });
    while (cache.size > capacity) {
      const oldest = cache.keys().next().value;
      if (oldest === undefined) break;
      cache.delete(oldest);
    }
  }

  async function ask(fid: string): Promise<FarcasterUserData | null> {
    const url = new URL('/v1/userDataByFid', hub);
    url.searchParams.set('fid', fid);
    try {
      const response = await fetch(url, {
        headers: { accept: 'application/json', ...(config.apiKey === undefined ? {} : { 'x-api-key': config.apiKey }) },
        signal: AbortSignal.timeout(config.timeoutMs),
        redirect: 'error',
      });
      const text = await boundedText(response, HUB_ANSWER_MAX_BYTES);
      if (!response.ok) throw new Error(`status ${response.status}: ${text.slice(0, 200)}`);
      return userDataOfAnswer(fid, JSON.parse(text));
    } catch (error) {
      logger.warn({ err: error, hub: hub.host, fid }, 'Farcaster hub user data not read; the profile answers without it');
      return null;
    }
  }

  return (fid) => {
    const cached = cache.get(fid);
    if (cached !== undefined && cached.until > now()) return Promise.resolve(cached.value);
    const pending = inFlight.get(fid);
    if (pending !== undefined) return pending;
    if (inFlight.size >= maxInFlight) {
      // Not remembered: the next read asks again once the hub has answered the others.
      logger.warn({ hub: hub.host, fid, inFlight: inFlight.size }, 'Farcaster hub busy; the profile answers without its user data');
      return Promise.resolve(null);
    }
    const read = ask(fid).then((value) => {
      remember(fid, value);
      inFlight.delete(fid);
      return value;
    });
    inFlight.set(fid, read);
    return read;
  };
}
