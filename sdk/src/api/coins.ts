import type { Address } from 'viem';
import type { components } from '../generated/api.ts';
import type { SongmintApi } from './client.ts';
import { unwrap } from './client.ts';

export type Coin = components['schemas']['Coin'];
export type CoinPrice = NonNullable<Coin['price']>;
export type CoinTrade = components['schemas']['CoinTrade'];
export type CoinTrades = components['schemas']['CoinTrades'];
export type CreatorProfile = components['schemas']['CreatorProfile'];
export type Portfolio = components['schemas']['Portfolio'];

const withSignal = (signal: AbortSignal | undefined) => (signal === undefined ? {} : { signal });

/**
 * The coin page of a launched song (GET /v1/public/coins/{songId}): its price per 1,000,000 tokens
 * and 24 h change, market cap, 24 h volume, top holders and the creator's earnings; USD figures
 * where the API has an ETH/USD feed. Public: needs no session. A `NOT_FOUND` error until the
 * launch is indexed.
 */
export async function getCoin(api: SongmintApi, { songId, signal }: { songId: bigint; signal?: AbortSignal }): Promise<Coin> {
  return unwrap(
    api.http.GET('/v1/public/coins/{songId}', { params: { path: { songId: songId.toString() } }, ...withSignal(signal) }),
    signal,
  );
}

export interface GetCoinTradesParameters {
  songId: bigint;
  /** `next_cursor` of the previous page (older trades). */
  cursor?: string;
  /** Trades per page, 1 to 200 (the API's default: 50). */
  limit?: number;
  signal?: AbortSignal;
}

/**
 * A coin's activity feed, newest first (GET /v1/public/coins/{songId}/trades): each trade's side,
 * wallet, token and ETH amounts, launch fee, time and transaction. Public: needs no session.
 */
export async function getCoinTrades(api: SongmintApi, { songId, cursor, limit, signal }: GetCoinTradesParameters): Promise<CoinTrades> {
  const query = { ...(cursor === undefined ? {} : { cursor }), ...(limit === undefined ? {} : { limit: String(limit) }) };
  return unwrap(
    api.http.GET('/v1/public/coins/{songId}/trades', { params: { path: { songId: songId.toString() }, query }, ...withSignal(signal) }),
    signal,
  );
}

/** A creator's profile (GET /v1/public/creators/{address}): minted songs, launched coins with market caps, total earnings. Public. */
export async function getCreator(
  api: SongmintApi,
  { address, signal }: { address: Address; signal?: AbortSignal },
): Promise<CreatorProfile> {
  return unwrap(api.http.GET('/v1/public/creators/{address}', { params: { path: { address } }, ...withSignal(signal) }), signal);
}

/**
 * A wallet's portfolio (GET /v1/public/portfolios/{address}): the song tokens it holds and their
 * value at the pool price, the fees the vault would pay it and the allocations held for it. Public
 * (all of it is on the chain); the web app asks for the signed-in wallet's.
 */
export async function getPortfolio(api: SongmintApi, { address, signal }: { address: Address; signal?: AbortSignal }): Promise<Portfolio> {
  return unwrap(api.http.GET('/v1/public/portfolios/{address}', { params: { path: { address } }, ...withSignal(signal) }), signal);
}
