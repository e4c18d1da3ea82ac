/**
 * Discover's list of launched songs (GET /v1/public/songs, issue 51 item 4): which songs, in what
 * order, a page at a time. Ordered by launch (newest first), by market cap (price times supply,
 * the latest indexed swap's price, else the launch's) or by the ETH swapped in the last 24 hours,
 * optionally narrowed by a search of the title, the genre and the creator's address. Only the
 * order lives here; the figures of each song are read by the coin view (./coins.ts `findCoins`).
 *
 * Pages: newest-first pages go by launch position (a cursor stays valid when a reorg takes rows
 * away, as /v1/trading/pools's); the orders by market cap and volume change with every trade, so
 * they page by offset, bounded, and a cursor names the order it came from.
 */
import type { Queryable } from '../../../core/src/db/database.ts';
import { fail, ok } from './errors.ts';
import type { Result } from './errors.ts';
import { decodePoolCursor, encodePoolCursor } from './pools.ts';
import type { PoolPosition } from './pools.ts';

export const DISCOVER_SORTS = ['newest', 'market_cap', 'volume_24h'] as const;
export type DiscoverSort = (typeof DISCOVER_SORTS)[number];
/** The deepest offset an ordered page may start at: deeper than any person scrolls, shallow for the database. */
export const DISCOVER_MAX_OFFSET = 10_000;

/** Where a page starts: after a launch (newest first), or at an offset of a ranked order. */
export type DiscoverStart = { sort: 'newest'; after: PoolPosition | undefined } | { sort: 'market_cap' | 'volume_24h'; offset: number };

const DAY_MS = 86_400_000;
/** 2^192: market cap = supply * 2^192 / sqrtPriceX96^2 (both currencies have 18 decimals). */
const Q192 = (2n ** 192n).toString();

/** `text` as a case-insensitive substring pattern for LIKE: its own %, _ and \ match themselves. */
export function substringPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

const ORDER: Record<DiscoverSort, string> = {
  newest: 'launch_block DESC, launch_log_index DESC',
  market_cap: 'market_cap DESC NULLS LAST, launch_block DESC, launch_log_index DESC',
  volume_24h: 'volume_eth_24h DESC, launch_block DESC, launch_log_index DESC',
};

/**
 * Song ids of launched songs in `start.sort`'s order from `start`, at most `limit`; `query`
 * (already trimmed, non-empty) keeps the songs whose title or genre (the metadata this oracle
 * published) or creator address contains it, in any case.
 */
export async function discoverSongIds(
  db: Queryable,
  { start, query, limit, now }: { start: DiscoverStart; query: string | undefined; limit: number; now: Date },
): Promise<Array<{ songId: string; position: PoolPosition }>> {
  const keyset =
    start.sort === 'newest' && start.after !== undefined ? 'WHERE (launch_block, launch_log_index) < ($(block), $(index))' : '';
  const rows = await db.manyOrNone<{ song_id: string; launch_block: string; launch_log_index: number }>(
    `WITH listed AS (
       SELECT p.song_id, p.launch_block, p.launch_log_index,
              (p.pool_supply + p.allocation) * $(q192)::numeric
                / NULLIF(COALESCE(ls.sqrt_price_x96, p.init_sqrt_price_x96) ^ 2, 0) AS market_cap,
              (SELECT COALESCE(sum(abs(s.amount0)), 0) FROM pool_swaps s WHERE s.pool_id = p.pool_id AND s.block_time > $(since)) AS volume_eth_24h
         FROM song_pools p
         LEFT JOIN LATERAL (
           SELECT s.sqrt_price_x96 FROM pool_swaps s WHERE s.pool_id = p.pool_id ORDER BY s.block_number DESC, s.log_index DESC LIMIT 1) ls ON true
        WHERE $(pattern) IS NULL OR lower(p.creator) LIKE $(pattern) OR EXISTS (
          SELECT 1 FROM mint_signatures m JOIN song_metadata d ON d.metadata_uri = m.metadata_uri
           WHERE m.token_id = p.song_id
             AND (d.document->>'name' ILIKE $(pattern) OR EXISTS (
                   SELECT 1 FROM jsonb_array_elements(CASE WHEN jsonb_typeof(d.document->'attributes') = 'array'
                                                           THEN d.document->'attributes' ELSE '[]'::jsonb END) a
                    WHERE lower(a->>'trait_type') = 'genre' AND a->>'value' ILIKE $(pattern)))))
     SELECT song_id::text AS song_id, launch_block::text AS launch_block, launch_log_index FROM listed ${keyset}
      ORDER BY ${ORDER[start.sort]} OFFSET $(offset) LIMIT $(limit)`,
    {
      q192: Q192,
      since: new Date(now.getTime() - DAY_MS),
      pattern: query === undefined ? null : substringPattern(query),
      block: start.sort === 'newest' ? start.after?.launchBlock.toString() : undefined,
      index: start.sort === 'newest' ? start.after?.launchLogIndex : undefined,
      offset: start.sort === 'newest' ? 0 : start.offset,
      limit,
    },
  );
  return rows.map((row) => ({
    songId: row.song_id,
    position: { launchBlock: BigInt(row.launch_block), launchLogIndex: row.launch_log_index },
  }));
}

const RANKED_CURSOR = /^(market_cap|volume_24h):([0-9]{1,5})$/;

/** The cursor of the page after one that started at `start` and ended at `last` (`taken` songs in it). */
export function encodeDiscoverCursor(start: DiscoverStart, last: PoolPosition, taken: number): string {
  return start.sort === 'newest' ? encodePoolCursor(last) : Buffer.from(`${start.sort}:${start.offset + taken}`).toString('base64url');
}

/** Where the page a `cursor` names starts, in `sort`'s order: a cursor of another order is refused. */
export function decodeDiscoverCursor(sort: DiscoverSort, cursor: string | undefined): Result<DiscoverStart> {
  if (sort === 'newest') {
    if (cursor === undefined) return ok({ sort, after: undefined });
    const position = decodePoolCursor(cursor);
    return position.ok ? ok({ sort, after: position.value }) : position;
  }
  if (cursor === undefined) return ok({ sort, offset: 0 });
  const match = RANKED_CURSOR.exec(/^[A-Za-z0-9_-]{1,64}$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '');
  const offset = Number(match?.[2]);
  if (match === null || match[1] !== sort || offset > DISCOVER_MAX_OFFSET) {
    return fail({
      code: 'VALIDATION_ERROR',
      message: 'Invalid cursor',
      details: `cursor must be a next_cursor value this route returned for sort=${sort}`,
      fields: { cursor },
    });
  }
  return ok({ sort, offset });
}
