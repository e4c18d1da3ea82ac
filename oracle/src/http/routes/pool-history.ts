import type { Request } from 'express';
import { z } from 'zod';
import { appError, fail, ok } from '../../domain/errors.ts';
import type { Result } from '../../domain/errors.ts';
import { absolute, decodeSwapCursor, encodeSwapCursor, findPoolLaunch, listPoolSwaps, swapSide } from '../../domain/pool-history.ts';
import type { SwapPosition } from '../../domain/pool-history.ts';
import { indexedThrough, poolPrices } from '../../domain/pools.ts';
import type { AppDeps, TradingServices } from '../deps.ts';
import type { PublicCall, RouteDocs } from '../route.ts';
import { sendError } from '../error-response.ts';
import { pageQuerySchema, poolNotFound, songIdInput } from './trading.ts';
import { describeIssues, variantCErrorSchema } from '../schemas.ts';

/**
 * GET /v1/trading/pools/{songId}/history. Public market data: a song pool's swap history is on
 * the chain for anyone, so a song page is readable without a wallet or a session; the route
 * table charges it per client address (`ip`, trading).
 */
export type PoolHistoryDeps = Pick<AppDeps, 'db'> & TradingServices;

export const HISTORY_DEFAULT_LIMIT = 100;
export const HISTORY_MAX_LIMIT = 500;

const uint = (description: string) =>
  z
    .string()
    .regex(/^[0-9]+$/)
    .meta({ description });

const pricePoint = {
  sqrt_price_x96: uint('sqrtPriceX96 after the event.'),
  tick: z.number().int(),
  tokens_per_eth: z.string().meta({ description: 'Song tokens per ETH, (sqrtPriceX96 / 2^96)^2, decimal, rounded down to 18 places.' }),
  eth_per_token: z.string().meta({ description: 'ETH per song token, decimal, rounded down to 18 places.' }),
  block_number: z.string(),
  time: z.iso.datetime().meta({ description: 'Block time.' }),
};

export const poolSwapSchema = z
  .strictObject({
    ...pricePoint,
    log_index: z.number().int(),
    tx_hash: z.string(),
    side: z.enum(['buy', 'sell']).meta({ description: '`buy`: ETH in, song tokens out; `sell`: the other way.' }),
    eth: uint('Wei of ETH through the pool (|amount0|, before the hook fee).'),
    token: uint('Song token units through the pool (|amount1|).'),
    liquidity: uint('Active liquidity after the swap.'),
    fee_pips: z.number().int().meta({ description: "The swap's LP fee in pips (hundredths of a basis point)." }),
  })
  .meta({ id: 'PoolSwap' });

export const poolHistorySchema = z
  .strictObject({
    song_id: z.string(),
    pool_id: z.string(),
    launch: z
      .strictObject(pricePoint)
      .nullable()
      .meta({ description: "The pool's starting price (PoolManager.Initialize); null only in the instant before that log is indexed." }),
    swaps: z.array(poolSwapSchema).meta({ description: 'Newest first.' }),
    next_cursor: z.string().nullable().meta({ description: 'Pass as `cursor` for older swaps; null on the last page.' }),
    indexed_through_block: z
      .string()
      .nullable()
      .meta({ description: 'Last block the indexer has read (confirmed); null before its first batch or without a chain.' }),
  })
  .meta({ id: 'PoolHistory' });

export const poolHistoryQuerySchema = pageQuerySchema('Swaps', HISTORY_MAX_LIMIT, HISTORY_DEFAULT_LIMIT);

type PoolHistory = z.infer<typeof poolHistorySchema>;

function pricesAt(sqrtPriceX96: string) {
  const prices = poolPrices(BigInt(sqrtPriceX96));
  return { sqrt_price_x96: sqrtPriceX96, tokens_per_eth: prices.tokensPerEth, eth_per_token: prices.ethPerToken };
}

interface HistoryRequest {
  songId: bigint;
  before?: SwapPosition;
  limit: number;
}

/** The song id, cursor and limit: bad input is 400 before the charge, so it costs the caller nothing. */
export function poolHistoryInput(req: Request): Result<HistoryRequest> {
  const songId = songIdInput(req);
  if (!songId.ok) return songId;
  const query = poolHistoryQuerySchema.safeParse(req.query);
  if (!query.success) return fail(appError('VALIDATION_ERROR', 'Invalid query', { details: describeIssues(query.error) }));
  const limit = query.data.limit ?? HISTORY_DEFAULT_LIMIT;
  if (query.data.cursor === undefined) return ok({ songId: songId.value, limit });
  const before = decodeSwapCursor(query.data.cursor);
  return before.ok ? ok({ songId: songId.value, limit, before: before.value }) : before;
}

export function poolHistoryHandler(deps: PoolHistoryDeps): (call: PublicCall<HistoryRequest>) => Promise<void> {
  return async ({ req, res, input: { songId, before, limit } }) => {
    const pool = await findPoolLaunch(deps.db, songId);
    if (pool === null) {
      sendError(req, res, poolNotFound(songId));
      return;
    }
    // One more than the page tells whether a next page exists.
    const rows = await listPoolSwaps(deps.db, { poolId: pool.pool_id, limit: limit + 1, ...(before === undefined ? {} : { before }) });
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    res.json({
      song_id: pool.song_id,
      pool_id: pool.pool_id,
      launch:
        pool.init_sqrt_price_x96 === null || pool.init_tick === null
          ? null
          : {
              ...pricesAt(pool.init_sqrt_price_x96),
              tick: pool.init_tick,
              block_number: pool.launch_block,
              time: pool.launched_at.toISOString(),
            },
      swaps: page.map((row) => ({
        ...pricesAt(row.sqrt_price_x96),
        tick: row.tick,
        block_number: row.block_number,
        time: row.block_time.toISOString(),
        log_index: row.log_index,
        tx_hash: row.tx_hash,
        side: swapSide(row),
        eth: absolute(row.amount0),
        token: absolute(row.amount1),
        liquidity: row.liquidity,
        fee_pips: row.fee_pips,
      })),
      next_cursor:
        rows.length > limit && last !== undefined
          ? encodeSwapCursor({ blockNumber: BigInt(last.block_number), logIndex: last.log_index })
          : null,
      indexed_through_block: deps.vault === undefined ? null : await indexedThrough(deps.db, deps.vault.cursorName),
    } satisfies PoolHistory);
  };
}

const error = (description: string) => ({ description, content: { 'application/json': { schema: variantCErrorSchema } } });
export const poolHistoryDocs: RouteDocs = {
  tags: ['v1'],
  summary: 'Variant C: the swap history of one song pool (price after each swap, newest first), public',
  description:
    "Public market data: no token needed; charged per client address in the trading category. Indexed from the Uniswap v4 PoolManager's Swap events, confirmed CHAIN_CONFIRMATIONS deep; a reorg deeper than that removes the rewound swaps from the next answer.",
  request: {
    params: z.object({ songId: z.string().meta({ description: 'SongNFT token id.', example: '1' }) }),
    query: poolHistoryQuerySchema,
  },
  responses: {
    200: { description: 'A page of swaps and the launch price.', content: { 'application/json': { schema: poolHistorySchema } } },
    400: error('VALIDATION_ERROR: a bad song id, cursor or limit, or an unknown parameter'),
    404: error('NOT_FOUND: not launched, or the launch is not indexed yet'),
    429: error('RATE_002: the hourly trading limit of this client address'),
  },
};
