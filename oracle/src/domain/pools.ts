/**
 * The pool view, derived from the pool indexer's rows (oracle/src/chain/pool-indexer.ts) when it
 * is asked for: price and tick of the latest indexed Swap (the pool's Initialize before any swap),
 * active liquidity (that swap's, plus later in-range ModifyLiquidity deltas, as the PoolManager
 * counts it), the hook's swap fees, the fees collected into the parties' balances, and the last
 * 24 hours of swaps. Nothing is cached, so a reorg that deleted rows changes the next answer.
 */
import type { Queryable } from '../../../core/src/db/database.ts';
import { ok } from './errors.ts';
import type { Result } from './errors.ts';
import { positionCursorCodec } from './position-cursor.ts';

export interface PoolPosition {
  launchBlock: bigint;
  launchLogIndex: number;
}

export interface PoolRow {
  song_id: string;
  pool_id: string;
  token: string;
  creator: string;
  launch_block: string;
  launch_log_index: number;
  launch_tx_hash: string;
  launched_at: Date;
  /** Null only before the launch's Initialize log was indexed (never after a whole batch). */
  sqrt_price_x96: string | null;
  tick: number | null;
  price_source: 'swap' | 'launch';
  price_block: string;
  liquidity: string;
  volume_eth_24h: string;
  volume_token_24h: string;
  trades_24h: number;
  trades_total: number;
  swap_fees_eth: string;
  collected_lp_fees_eth: string;
  collected_lp_fees_token: string;
  collected_swap_fees_eth: string;
  creator_eth: string;
  creator_token: string;
  platform_eth: string;
  platform_token: string;
}

const POOL_VIEW = `
SELECT b.song_id::text AS song_id, b.pool_id, b.token, b.creator, b.launch_block::text AS launch_block, b.launch_log_index,
       b.launch_tx_hash, b.launched_at,
       COALESCE(ls.sqrt_price_x96, b.init_sqrt_price_x96)::text AS sqrt_price_x96,
       COALESCE(ls.tick, b.init_tick) AS tick,
       CASE WHEN ls.block_number IS NULL THEN 'launch' ELSE 'swap' END AS price_source,
       COALESCE(ls.block_number, b.launch_block)::text AS price_block,
       (COALESCE(ls.liquidity, 0) + (
          SELECT COALESCE(sum(m.liquidity_delta), 0) FROM pool_liquidity_changes m
           WHERE m.pool_id = b.pool_id
             AND (ls.block_number IS NULL OR (m.block_number, m.log_index) > (ls.block_number, ls.log_index))
             AND m.tick_lower <= COALESCE(ls.tick, b.init_tick) AND COALESCE(ls.tick, b.init_tick) < m.tick_upper))::text AS liquidity,
       v.volume_eth_24h, v.volume_token_24h, v.trades_24h,
       (SELECT count(*)::int FROM pool_swaps s WHERE s.pool_id = b.pool_id) AS trades_total,
       (SELECT COALESCE(sum(f.fee), 0)::text FROM pool_swap_fees f WHERE f.pool_id = b.pool_id) AS swap_fees_eth,
       c.collected_lp_fees_eth, c.collected_lp_fees_token, c.collected_swap_fees_eth,
       c.creator_eth, c.creator_token, c.platform_eth, c.platform_token
  FROM base b
  LEFT JOIN LATERAL (
    SELECT s.block_number, s.log_index, s.sqrt_price_x96, s.tick, s.liquidity FROM pool_swaps s
     WHERE s.pool_id = b.pool_id ORDER BY s.block_number DESC, s.log_index DESC LIMIT 1) ls ON true
  CROSS JOIN LATERAL (
    SELECT COALESCE(sum(abs(s.amount0)), 0)::text AS volume_eth_24h, COALESCE(sum(abs(s.amount1)), 0)::text AS volume_token_24h,
           count(*)::int AS trades_24h
      FROM pool_swaps s WHERE s.pool_id = b.pool_id AND s.block_time > $(since)) v
  CROSS JOIN LATERAL (
    SELECT COALESCE(sum(c.lp_fees_eth), 0)::text AS collected_lp_fees_eth, COALESCE(sum(c.lp_fees_token), 0)::text AS collected_lp_fees_token,
           COALESCE(sum(c.swap_fees_eth), 0)::text AS collected_swap_fees_eth,
           COALESCE(sum(c.creator_eth), 0)::text AS creator_eth, COALESCE(sum(c.creator_token), 0)::text AS creator_token,
           COALESCE(sum(c.platform_eth), 0)::text AS platform_eth, COALESCE(sum(c.platform_token), 0)::text AS platform_token
      FROM pool_fee_collections c WHERE c.song_id = b.song_id) c
 ORDER BY b.launch_block DESC, b.launch_log_index DESC`;

const DAY_MS = 86_400_000;

/** Pools newest launch first, after `after` (exclusive) when given: at most `limit`. */
export async function listPools(
  db: Queryable,
  { after, limit, now }: { after?: PoolPosition; limit: number; now: Date },
): Promise<PoolRow[]> {
  const where = after === undefined ? '' : 'WHERE (p.launch_block, p.launch_log_index) < ($(block), $(index))';
  return db.manyOrNone<PoolRow>(
    `WITH base AS (SELECT p.* FROM song_pools p ${where} ORDER BY p.launch_block DESC, p.launch_log_index DESC LIMIT $(limit)) ${POOL_VIEW}`,
    { limit, since: new Date(now.getTime() - DAY_MS), block: after?.launchBlock.toString(), index: after?.launchLogIndex },
  );
}

export async function findPool(db: Queryable, { songId, now }: { songId: bigint; now: Date }): Promise<PoolRow | null> {
  return db.oneOrNone<PoolRow>(`WITH base AS (SELECT p.* FROM song_pools p WHERE p.song_id = $(songId)) ${POOL_VIEW}`, {
    songId: songId.toString(),
    since: new Date(now.getTime() - DAY_MS),
  });
}

/** Last block the pool indexer of `cursorName` finished, or null before its first batch. */
export async function indexedThrough(db: Queryable, cursorName: string): Promise<string | null> {
  const row = await db.oneOrNone<{ block_number: string }>('SELECT block_number::text AS block_number FROM chain_cursors WHERE name = $1', [
    cursorName,
  ]);
  return row?.block_number ?? null;
}

const POOL_CURSOR = positionCursorCodec('pools1');

/** The opaque cursor of the page after `row`: its launch block and log index. */
export function encodePoolCursor(position: PoolPosition): string {
  return POOL_CURSOR.encode({ block: position.launchBlock, logIndex: position.launchLogIndex });
}

export function decodePoolCursor(cursor: string): Result<PoolPosition> {
  const decoded = POOL_CURSOR.decode(cursor);
  return decoded.ok ? ok({ launchBlock: decoded.value.block, launchLogIndex: decoded.value.logIndex }) : decoded;
}

const Q96 = 2n ** 96n;
const PRICE_DECIMALS = 18;
const ONE = 10n ** BigInt(PRICE_DECIMALS);

function decimal(scaled: bigint): string {
  const whole = scaled / ONE;
  const fraction = (scaled % ONE).toString().padStart(PRICE_DECIMALS, '0').replace(/0+$/, '');
  return fraction === '' ? whole.toString() : `${whole}.${fraction}`;
}

/**
 * Prices of a native-ETH (currency0) / song-token (currency1) pool at `sqrtPriceX96`: Uniswap's
 * price is currency1 per currency0, (sqrtPriceX96 / 2^96)^2; both have 18 decimals, so base units
 * and whole units give the same ratio. Decimal strings, rounded down to 18 fractional digits.
 */
export function poolPrices(sqrtPriceX96: bigint): { tokensPerEth: string; ethPerToken: string } {
  const squared = sqrtPriceX96 * sqrtPriceX96;
  return {
    tokensPerEth: decimal((squared * ONE) / (Q96 * Q96)),
    ethPerToken: squared === 0n ? '0' : decimal((Q96 * Q96 * ONE) / squared),
  };
}
