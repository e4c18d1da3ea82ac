import type { components } from '../generated/api.ts';
import type { SongmintApi } from './client.ts';
import { requireSession, unwrap } from './client.ts';

export type UserProfile = components['schemas']['UserProfile'];
export type TradingPools = components['schemas']['TradingPools'];
export type IndexedNft = components['schemas']['Nft'];

/** The signed-in user's profile and statistics (GET /v1/user/profile). */
export async function getProfile(api: SongmintApi, { signal }: { signal?: AbortSignal } = {}): Promise<UserProfile> {
  requireSession(api);
  return unwrap(api.http.GET('/v1/user/profile', signal === undefined ? {} : { signal }), signal);
}

/** Song pools the oracle indexed (GET /v1/trading/pools); `indexed: false` while it indexes none. */
export async function getPools(api: SongmintApi, { signal }: { signal?: AbortSignal } = {}): Promise<TradingPools> {
  requireSession(api);
  return unwrap(api.http.GET('/v1/trading/pools', signal === undefined ? {} : { signal }), signal);
}

/** A minted token as the oracle indexed it from SongMinted (GET /v1/nft/{id}). */
export async function getNft(api: SongmintApi, { tokenId, signal }: { tokenId: bigint; signal?: AbortSignal }): Promise<IndexedNft> {
  requireSession(api);
  return unwrap(api.http.GET('/v1/nft/{id}', { params: { path: { id: tokenId.toString() } }, ...(signal === undefined ? {} : { signal }) }), signal);
}
