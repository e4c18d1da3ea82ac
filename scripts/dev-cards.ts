/**
 * The card data of the web app's shared pages (scripts/dev-app.ts: a song's and a creator's Open
 * Graph tags), read from the oracle's database by the app server itself, through the same reads
 * as GET /v1/public/songs/{songId} and GET /v1/public/creators/{address}. Not through the API:
 * the app server's own calls were charged to 127.0.0.1's per-IP bucket, so about 500 anonymous
 * page views in an hour used it up, and every page lost its card (and an unknown song answered
 * 200) for everyone until the hour turned (issue 49). A page view charges no one's bucket.
 */
import { getAddress } from 'viem';
import type { Queryable } from '../core/src/db/database.ts';
import { findCoin, findCoins, songsOfCreator } from '../oracle/src/domain/coins.ts';
import { ownProfileOfAddress } from '../oracle/src/domain/creator-profile.ts';
import { PROFILE_SONGS_LIMIT, marketCapWei } from '../oracle/src/http/routes/coins.ts';
import { formatEthShort } from './embed-card.ts';
import { fieldsOf, findPublicSong, songRows } from '../oracle/src/http/routes/public-songs.ts';
import type { CreatorCard, DevAppOptions, SongCard } from './dev-app.ts';

export interface DatabaseCardsOptions {
  /** Whether a song the database does not know yet was minted (a block ago): its page is the plain one, not a 404. */
  mintedOnChain?: (songId: bigint) => Promise<boolean>;
  now?: () => Date;
}

/** `songCard` and `creatorCard` for `devAppRouter`, read from `db`. */
export function databaseCards(
  db: Queryable,
  options: DatabaseCardsOptions = {},
): Required<Pick<DevAppOptions, 'songCard' | 'creatorCard' | 'coinValue'>> {
  const now = options.now ?? (() => new Date());
  return {
    async songCard(songId) {
      const song = await findPublicSong(db, songId);
      if (song !== null)
        return { title: song.title, description: song.description, image: song.image, audio: song.audio } satisfies SongCard;
      const minted = (await options.mintedOnChain?.(songId)) ?? false;
      return minted ? { title: null, description: null, image: null, audio: null } : null;
    },
    // The embed picture's value line: the market cap the coin page shows.
    async coinValue(songId) {
      const coin = await findCoin(db, { songId, now: now() });
      const cap = coin === null ? null : marketCapWei(coin);
      return cap === null ? null : `Market cap ${formatEthShort(cap)} ETH`;
    },
    // The name, bio and picture the creator set (their Farcaster data is the API's, not the card's).
    async creatorCard(address) {
      const creator = address.toLowerCase();
      const [{ songIds, total }, profile] = await Promise.all([
        songsOfCreator(db, { creator, limit: PROFILE_SONGS_LIMIT }),
        ownProfileOfAddress(db, creator),
      ]);
      const named = profile !== null && (profile.displayName !== null || profile.avatarIpfs !== null);
      if (total === 0 && !named) return null;
      const [rows, coins] = await Promise.all([songRows(db, songIds), findCoins(db, { songIds, now: now() })]);
      const cover = songIds.map((songId) => fieldsOf(songId, rows.get(songId), creator).image).find((image) => image !== null) ?? null;
      return {
        address: getAddress(address),
        name: profile?.displayName ?? null,
        bio: profile?.bio ?? null,
        songs: total,
        coins: coins.size,
        image: profile?.avatarIpfs ?? cover,
      } satisfies CreatorCard;
    },
  };
}
