import createClient from 'openapi-fetch';
import type { Client } from 'openapi-fetch';
import { apiErrorFromBody, SongmintClientError } from '../errors.ts';
import type { paths } from '../generated/api.ts';
import { abortedError } from './abort.ts';

/** A client of one Songmint oracle; immutable: `withSession` returns a new one. */
export interface SongmintApi {
  /** Origin of the API, e.g. `http://127.0.0.1:3000`. */
  readonly baseUrl: string;
  /** Session token from `signIn`, sent as `Authorization: Bearer`. */
  readonly token: string | undefined;
  /** Typed openapi-fetch client over the API's OpenAPI document (paths, bodies, responses). */
  readonly http: Client<paths>;
  /** The fetch it uses (for endpoints outside the document, such as job events). */
  readonly fetch: typeof globalThis.fetch;
}

export interface CreateSongmintApiParameters {
  baseUrl: string;
  token?: string;
  /** Defaults to `globalThis.fetch`. */
  fetch?: typeof globalThis.fetch;
}

export function createSongmintApi({ baseUrl, token, fetch = globalThis.fetch.bind(globalThis) }: CreateSongmintApiParameters): SongmintApi {
  const origin = baseUrl.replace(/\/+$/, '');
  const http = createClient<paths>({
    baseUrl: origin,
    fetch: (request: Request) => fetch(request),
    ...(token === undefined ? {} : { headers: { authorization: `Bearer ${token}` } }),
  });
  return { baseUrl: origin, token, http, fetch };
}

/** The same API with a session token (from `signIn`). */
export function withSession(api: SongmintApi, session: { token: string }): SongmintApi {
  return createSongmintApi({ baseUrl: api.baseUrl, token: session.token, fetch: api.fetch });
}

export function requireSession(api: SongmintApi): void {
  if (api.token === undefined)
    throw new SongmintClientError('NOT_SIGNED_IN', 'this call needs a session: call signIn and withSession first');
}

interface FetchResult<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/**
 * The body of a successful answer, or the API's error as a SongmintApiError; a request that got
 * no answer becomes NETWORK_ERROR (ABORTED when `signal` fired).
 */
export async function unwrap<T>(request: Promise<FetchResult<T>>, signal?: AbortSignal): Promise<T> {
  let result: FetchResult<T>;
  try {
    result = await request;
  } catch (error) {
    if (signal?.aborted === true) throw abortedError(error);
    throw new SongmintClientError('NETWORK_ERROR', error instanceof Error ? error.message : String(error), { cause: error });
  }
  if (!result.response.ok || result.data === undefined) {
    throw apiErrorFromBody(result.response.status, result.error, result.response.headers.get('retry-after'));
  }
  return result.data;
}

/** The hourly (or tighter daily) limit an answer reported in its `X-RateLimit-*` headers. */
export interface RateLimitQuota {
  limit: number;
  remaining: number;
  resetAt: Date;
}

/** The quota in `headers`, or undefined when the answer carried none (or a malformed one). */
export function rateLimitOf(headers: Headers): RateLimitQuota | undefined {
  const [limit, remaining, reset] = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'].map((name) =>
    Number(headers.get(name) ?? Number.NaN),
  );
  if (limit === undefined || remaining === undefined || reset === undefined || ![limit, remaining, reset].every(Number.isFinite))
    return undefined;
  return { limit, remaining, resetAt: new Date(reset * 1000) };
}
