import type { components, operations } from '../generated/api.ts';
import type { SongmintApi } from './client.ts';
import { requireSession, unwrap } from './client.ts';

export type UserProfile = components['schemas']['UserProfile'];
export type PublicProfile = components['schemas']['PublicProfile'];
export type ProfileChange = components['schemas']['ProfileChange'];
export type TradingPools = components['schemas']['TradingPools'];
export type TradingPool = components['schemas']['TradingPool'];
export type IndexedNft = components['schemas']['Nft'];
export type PoolHistory = components['schemas']['PoolHistory'];
export type PoolSwap = components['schemas']['PoolSwap'];

/** The signed-in user's profile and statistics (GET /v1/user/profile). */
export async function getProfile(api: SongmintApi, { signal }: { signal?: AbortSignal } = {}): Promise<UserProfile> {
  requireSession(api);
  return unwrap(api.http.GET('/v1/user/profile', signal === undefined ? {} : { signal }), signal);
}

export interface ChangeProfileParameters extends ProfileChange {
  signal?: AbortSignal;
}

/**
 * Sets the signed-in user's display name, bio or avatar (PATCH /v1/user/profile); a field left
 * out stays, null clears it. `avatar` is a base64 data URI of a PNG, JPEG, WebP or GIF image of at
 * most 5 MB, checked as covers are. Resolves to the profile as everyone reads it; rejects with
 * VALIDATION_ERROR (a name with control or bidi characters, too long; an avatar that is not an
 * image of its declared type), PAYLOAD_TOO_LARGE or STORAGE_001, having changed nothing.
 */
export async function changeProfile(api: SongmintApi, { signal, ...change }: ChangeProfileParameters): Promise<PublicProfile> {
  requireSession(api);
  return unwrap(api.http.PATCH('/v1/user/profile', { body: change, ...(signal === undefined ? {} : { signal }) }), signal);
}

export interface GetPoolsParameters {
  /** `next_cursor` of the previous page. */
  cursor?: string;
  /** Pools per page, 1 to 100 (the API's default: 20). */
  limit?: number;
  signal?: AbortSignal;
}

/**
 * A page of the song pools the oracle indexed, newest launch first (GET /v1/trading/pools): price,
 * liquidity, fees per party, 24 h volume. Pass `next_cursor` back as `cursor` for the next page.
 */
export async function getPools(api: SongmintApi, { cursor, limit, signal }: GetPoolsParameters = {}): Promise<TradingPools> {
  requireSession(api);
  const query = { ...(cursor === undefined ? {} : { cursor }), ...(limit === undefined ? {} : { limit: String(limit) }) };
  return unwrap(api.http.GET('/v1/trading/pools', { params: { query }, ...(signal === undefined ? {} : { signal }) }), signal);
}

/** The indexed pool of one song (GET /v1/trading/pools/{songId}); a `NOT_FOUND` error until its launch is indexed. */
export async function getPool(api: SongmintApi, { songId, signal }: { songId: bigint; signal?: AbortSignal }): Promise<TradingPool> {
  requireSession(api);
  return unwrap(
    api.http.GET('/v1/trading/pools/{songId}', {
      params: { path: { songId: songId.toString() } },
      ...(signal === undefined ? {} : { signal }),
    }),
    signal,
  );
}

/** A minted token as the oracle indexed it from SongMinted (GET /v1/nft/{id}). */
export async function getNft(api: SongmintApi, { tokenId, signal }: { tokenId: bigint; signal?: AbortSignal }): Promise<IndexedNft> {
  requireSession(api);
  return unwrap(
    api.http.GET('/v1/nft/{id}', { params: { path: { id: tokenId.toString() } }, ...(signal === undefined ? {} : { signal }) }),
    signal,
  );
}

export interface GetPoolHistoryParameters {
  songId: bigint;
  /** `next_cursor` of the previous page (older swaps). */
  cursor?: string;
  /** Swaps per page, 1 to 500 (the API's default: 100). */
  limit?: number;
  signal?: AbortSignal;
}

/**
 * A song pool's swap history, newest first, with its launch price (GET
 * /v1/trading/pools/{songId}/history): public market data, so it needs no session. Pass
 * `next_cursor` back as `cursor` for older swaps; a `NOT_FOUND` error until the launch is indexed.
 */
export async function getPoolHistory(api: SongmintApi, { songId, cursor, limit, signal }: GetPoolHistoryParameters): Promise<PoolHistory> {
  const query = { ...(cursor === undefined ? {} : { cursor }), ...(limit === undefined ? {} : { limit: String(limit) }) };
  return unwrap(
    api.http.GET('/v1/trading/pools/{songId}/history', {
      params: { path: { songId: songId.toString() }, query },
      ...(signal === undefined ? {} : { signal }),
    }),
    signal,
  );
}

export type PublicSongs = components['schemas']['PublicSongs'];
export type PublicLaunchedSong = components['schemas']['PublicLaunchedSong'];
export type PublicSong = components['schemas']['PublicSong'];

export type PublicSongsSort = NonNullable<NonNullable<operations['listPublicSongs']['parameters']['query']>['sort']>;

export interface ListPublicSongsParameters extends GetPoolsParameters {
  /** `newest` launch first (the default), `market_cap` or `volume_24h` (largest first). A cursor belongs to its order. */
  sort?: PublicSongsSort;
  /** Keeps the songs whose title, genre or creator address contains it (any case), 1 to 80 characters. */
  q?: string;
}

/**
 * Launched songs as a visitor sees them (GET /v1/public/songs, an extension beside the
 * bearer-token pool list): title, cover, audio, price per 1M tokens, its 24 h change, market cap
 * and 24 h volume; newest launch first, or by market cap or 24 h volume, optionally searched.
 * Needs no session.
 */
export async function listPublicSongs(
  api: SongmintApi,
  { cursor, limit, sort, q, signal }: ListPublicSongsParameters = {},
): Promise<PublicSongs> {
  const query = {
    ...(cursor === undefined ? {} : { cursor }),
    ...(limit === undefined ? {} : { limit: String(limit) }),
    ...(sort === undefined ? {} : { sort }),
    ...(q === undefined ? {} : { q }),
  };
  return unwrap(api.http.GET('/v1/public/songs', { params: { query }, ...(signal === undefined ? {} : { signal }) }), signal);
}

/** One minted song as a visitor sees it (GET /v1/public/songs/{songId}): title, cover, audio, lyrics. Needs no session. */
export async function getPublicSong(api: SongmintApi, { songId, signal }: { songId: bigint; signal?: AbortSignal }): Promise<PublicSong> {
  return unwrap(
    api.http.GET('/v1/public/songs/{songId}', {
      params: { path: { songId: songId.toString() } },
      ...(signal === undefined ? {} : { signal }),
    }),
    signal,
  );
}
