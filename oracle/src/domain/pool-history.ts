/**
 * A song pool's swap history, read from the pool indexer's rows (oracle/src/chain/pool-indexer.ts):
 * the pool's launch point (its Initialize) and its swaps, newest first, paged by the position
 * (block, log index) of the last swap a page held. Nothing is cached, so a reorg that deleted rows
 * is gone from the next page; a cursor names a position, not a row, so it stays valid even when
 * the swap it came from was rewound.
 */
import type { Queryable } from '../../../core/src/db/database.ts';
import { ok } from './errors.ts';
import type { Result } from './errors.ts';
import { positionCursorCodec } from './position-cursor.ts';

export interface SwapPosition {
  blockNumber: bigint;
  logIndex: number;
}

export interface PoolLaunchRow {
  song_id: string;
  pool_id: string;
  launch_block: string;
  launched_at: Date;
  init_sqrt_price_x96: string | null;
  init_tick: number | null;
}

export interface SwapRow {
  block_number: string;
  log_index: number;
  tx_hash: string;
  /** From the swapper's side: negative = paid into the pool (ETH is currency0). */
  amount0: string;
  amount1: string;
  sqrt_price_x96: string;
  liquidity: string;
  tick: number;
  fee_pips: number;
  block_time: Date;
}

export async function findPoolLaunch(db: Queryable, songId: bigint): Promise<PoolLaunchRow | null> {
  return db.oneOrNone<PoolLaunchRow>(
    `SELECT song_id::text AS song_id, pool_id, launch_block::text AS launch_block, launched_at,
            init_sqrt_price_x96::text AS init_sqrt_price_x96, init_tick
       FROM song_pools WHERE song_id = $(songId)`,
    { songId: songId.toString() },
  );
}

/** The pool's swaps newest first, older than `before` (exclusive) when given: at most `limit`. */
export async function listPoolSwaps(
  db: Queryable,
  { poolId, before, limit }: { poolId: string; before?: SwapPosition; limit: number },
): Promise<SwapRow[]> {
  const where = before === undefined ? '' : 'AND (block_number, log_index) < ($(block), $(index))';
  return db.manyOrNone<SwapRow>(
    `SELECT block_number::text AS block_number, log_index, tx_hash, amount0::text AS amount0, amount1::text AS amount1,
            sqrt_price_x96::text AS sqrt_price_x96, liquidity::text AS liquidity, tick, fee_pips, block_time
       FROM pool_swaps WHERE pool_id = $(poolId) ${where}
      ORDER BY block_number DESC, log_index DESC LIMIT $(limit)`,
    { poolId, limit, block: before?.blockNumber.toString(), index: before?.logIndex },
  );
}

/** A buy pays ETH in (amount0 < 0) and takes tokens out; a sell the other way. */
export function swapSide(row: Pick<SwapRow, 'amount0'>): 'buy' | 'sell' {
  return BigInt(row.amount0) < 0n ? 'buy' : 'sell';
}

export function absolute(amount: string): string {
  const value = BigInt(amount);
  return (value < 0n ? -value : value).toString();
}

const SWAP_CURSOR = positionCursorCodec('swaps1');

/** The opaque cursor of the page after `position`: its block and log index. */
export function encodeSwapCursor(position: SwapPosition): string {
  return SWAP_CURSOR.encode({ block: position.blockNumber, logIndex: position.logIndex });
}

export function decodeSwapCursor(cursor: string): Result<SwapPosition> {
  const decoded = SWAP_CURSOR.decode(cursor);
  return decoded.ok ? ok({ blockNumber: decoded.value.block, logIndex: decoded.value.logIndex }) : decoded;
}
