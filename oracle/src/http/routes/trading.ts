import type { Request } from 'express';
import { z } from 'zod';
import type { ClaimableFees } from '../../chain/pool-fees.ts';
import { appError, fail, ok } from '../../domain/errors.ts';
import type { AppError, Result } from '../../domain/errors.ts';
import { decodePoolCursor, encodePoolCursor, findPool, indexedThrough, listPools, poolPrices } from '../../domain/pools.ts';
import type { PoolPosition, PoolRow } from '../../domain/pools.ts';
import type { AppDeps, TradingServices } from '../deps.ts';
import type { RouteDocs, SignedInCall } from '../route.ts';
import { sendError } from '../error-response.ts';
import { describeIssues, variantCErrorSchema } from '../schemas.ts';
import { parseTokenId } from './nft.ts';

/** Pools of the SongVault this oracle indexes (oracle/src/chain/pool-indexer.ts). */
export type TradingRouterDeps = Pick<AppDeps, 'db' | 'logger' | 'now'> & TradingServices;

export const POOLS_DEFAULT_LIMIT = 20;
export const POOLS_MAX_LIMIT = 100;

const uint = (description: string) =>
  z
    .string()
    .regex(/^[0-9]+$/)
    .meta({ description });
const amounts = z.strictObject({ eth: uint('Wei.'), token: uint('Song token base units (18 decimals).') });
const party = z.strictObject({
  account: z.string().meta({ description: 'The party that `SongVault.claim` pays.' }),
  eth: uint('Wei.'),
  token: uint('Song token base units.'),
});

export const poolSchema = z
  .strictObject({
    song_id: z.string().meta({ description: 'SongNFT token id.', example: '1' }),
    chain_id: z.number().int(),
    pool_id: z.string().meta({ description: 'Uniswap v4 PoolId (keccak256 of the pool key).' }),
    token: z.string().meta({ description: "The song's SongToken (currency1; currency0 is native ETH)." }),
    creator: z.string().meta({ description: "The song's creator, as SongLaunched names it." }),
    launched_at: z.iso.datetime(),
    launch_tx_hash: z.string(),
    price: z
      .strictObject({
        sqrt_price_x96: uint('sqrtPriceX96 of the latest indexed Swap (of Initialize before any swap).'),
        tick: z.number().int(),
        tokens_per_eth: z.string().meta({
          description: 'Song tokens per ETH, (sqrtPriceX96 / 2^96)^2, decimal, rounded down to 18 places.',
          example: '1234567.891',
        }),
        eth_per_token: z.string().meta({ description: 'ETH per song token, the inverse, decimal, rounded down to 18 places.' }),
        source: z
          .enum(['swap', 'launch'])
          .meta({ description: "`swap`: the latest indexed Swap; `launch`: the pool's Initialize (no swap yet)." }),
        block_number: z.string().meta({ description: 'Block of that event.' }),
      })
      .nullable()
      .meta({ description: 'Null only in the instant between the launch and its Initialize log being indexed.' }),
    liquidity: uint('Active liquidity at the current tick (Uniswap v4 L), from the indexed Swap and ModifyLiquidity events.'),
    fees: z.strictObject({
      swap_fees_eth: uint("Wei of ETH the hook charged on swaps, all time (the PoolManager's ERC-6909 mints of the fees)."),
      uncollected_swap_fees_eth: uint("Of those, wei not yet moved into the parties' balances by `collectFees`."),
      collected: z.strictObject({
        lp_fees_eth: uint(
          'LP fees collected, wei (Uniswap v4 computes LP fees only when a position is touched, so uncollected LP fees are not shown).',
        ),
        lp_fees_token: uint('LP fees collected, song token units.'),
        swap_fees_eth: uint('Hook swap fees collected, wei.'),
      }),
      credited: z
        .strictObject({ creator: amounts, platform: amounts })
        .meta({ description: 'Fees credited to each party by `collectFees` so far, all time (FeesCollected).' }),
      claimable: z.strictObject({ block_number: z.string(), creator: party, platform: party }).nullable().meta({
        description:
          'What `SongVault.claim` would pay each party now, read from `claimableFeesOf` at answer time (token credits count from the end of the launch fee window); null when the chain could not be read.',
      }),
    }),
    volume_24h: z.strictObject({
      eth: uint('Wei of ETH swapped through the pool in the last 24 hours (|amount0| of each Swap, before the hook fee).'),
      token: uint('Song token units swapped in the last 24 hours.'),
      trades: z.number().int().meta({ description: 'Swaps in the last 24 hours.' }),
    }),
    trades_total: z.number().int().meta({ description: 'Swaps since the launch.' }),
    url: z.string().meta({ description: "This pool's route.", example: '/v1/trading/pools/1' }),
    nft_url: z.string().meta({ description: "The song's NFT route.", example: '/v1/nft/1' }),
  })
  .meta({ id: 'TradingPool' });

export const poolsResponseSchema = z
  .strictObject({
    pools: z.array(poolSchema),
    next_cursor: z.string().nullable().meta({ description: 'Pass as `cursor` for the next page; null on the last page.' }),
    indexed_through_block: z
      .string()
      .nullable()
      .meta({ description: 'Last block the indexer has read (confirmed); null before its first batch or without a chain.' }),
  })
  .meta({ id: 'TradingPools' });

/** `cursor` and `limit` of a cursor-paged list of `noun`: the pool list and a pool's swap history. */
export function pageQuerySchema(noun: string, max: number, defaultLimit: number) {
  return z.strictObject({
    cursor: z.string().min(1).max(200).optional().meta({ description: 'Opaque: a `next_cursor` of this route.' }),
    limit: z
      .string()
      .regex(/^[0-9]{1,3}$/, 'must be a whole number')
      .transform(Number)
      .pipe(z.number().int().min(1).max(max))
      .optional()
      .meta({ description: `${noun} per page, 1 to ${max} (default ${defaultLimit}).` }),
  });
}

export const poolsQuerySchema = pageQuerySchema('Pools', POOLS_MAX_LIMIT, POOLS_DEFAULT_LIMIT);

type Pool = z.infer<typeof poolSchema>;

function poolView(row: PoolRow, chainId: number, claimable: ClaimableFees | undefined): Pool {
  const prices = row.sqrt_price_x96 === null ? null : poolPrices(BigInt(row.sqrt_price_x96));
  const balance = (p: ClaimableFees['creator']) => ({ account: p.account, eth: p.eth.toString(), token: p.token.toString() });
  return {
    song_id: row.song_id,
    chain_id: chainId,
    pool_id: row.pool_id,
    token: row.token,
    creator: row.creator,
    launched_at: row.launched_at.toISOString(),
    launch_tx_hash: row.launch_tx_hash,
    price:
      prices === null || row.sqrt_price_x96 === null || row.tick === null
        ? null
        : {
            sqrt_price_x96: row.sqrt_price_x96,
            tick: row.tick,
            tokens_per_eth: prices.tokensPerEth,
            eth_per_token: prices.ethPerToken,
            source: row.price_source,
            block_number: row.price_block,
          },
    liquidity: row.liquidity,
    fees: {
      swap_fees_eth: row.swap_fees_eth,
      uncollected_swap_fees_eth: (BigInt(row.swap_fees_eth) - BigInt(row.collected_swap_fees_eth)).toString(),
      collected: {
        lp_fees_eth: row.collected_lp_fees_eth,
        lp_fees_token: row.collected_lp_fees_token,
        swap_fees_eth: row.collected_swap_fees_eth,
      },
      credited: {
        creator: { eth: row.creator_eth, token: row.creator_token },
        platform: { eth: row.platform_eth, token: row.platform_token },
      },
      claimable:
        claimable === undefined
          ? null
          : { block_number: claimable.blockNumber.toString(), creator: balance(claimable.creator), platform: balance(claimable.platform) },
    },
    volume_24h: { eth: row.volume_eth_24h, token: row.volume_token_24h, trades: row.trades_24h },
    trades_total: row.trades_total,
    url: `/v1/trading/pools/${row.song_id}`,
    nft_url: `/v1/nft/${row.song_id}`,
  };
}

async function claimableOf(deps: TradingRouterDeps, rows: ReadonlyArray<PoolRow>): Promise<Map<bigint, ClaimableFees>> {
  if (deps.vault === undefined || rows.length === 0) return new Map();
  try {
    return await deps.vault.readClaimable(rows.map((row) => BigInt(row.song_id)));
  } catch (error) {
    deps.logger.warn({ err: error }, 'reading claimable fees from SongVault failed; answering claimable: null');
    return new Map();
  }
}

export interface PoolsInput {
  after: PoolPosition | undefined;
  limit: number;
}

/** GET /v1/trading/pools's query: a bad cursor or limit is 400 before the charge. */
export function poolsInput(req: Request): Result<PoolsInput> {
  const query = poolsQuerySchema.safeParse(req.query);
  if (!query.success) return fail(appError('VALIDATION_ERROR', 'Invalid query', { details: describeIssues(query.error) }));
  let after: PoolPosition | undefined;
  if (query.data.cursor !== undefined) {
    const decoded = decodePoolCursor(query.data.cursor);
    if (!decoded.ok) return fail(decoded.error);
    after = decoded.value;
  }
  return ok({ after, limit: query.data.limit ?? POOLS_DEFAULT_LIMIT });
}

/** Variant C: GET /v1/trading/pools (cursor-paginated, newest launch first). */
export function poolsHandler(deps: TradingRouterDeps): (call: SignedInCall<PoolsInput, never>) => Promise<void> {
  return async ({ res, input: { after, limit } }) => {
    // One more than the page tells whether a next page exists.
    const rows = await listPools(deps.db, { limit: limit + 1, now: deps.now(), ...(after === undefined ? {} : { after }) });
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    const claimable = await claimableOf(deps, page);
    res.json({
      pools: page.map((row) => poolView(row, deps.chainId, claimable.get(BigInt(row.song_id)))),
      next_cursor:
        rows.length > limit && last !== undefined
          ? encodePoolCursor({ launchBlock: BigInt(last.launch_block), launchLogIndex: last.launch_log_index })
          : null,
      indexed_through_block: deps.vault === undefined ? null : await indexedThrough(deps.db, deps.vault.cursorName),
    } satisfies z.infer<typeof poolsResponseSchema>);
  };
}

/** The `{songId}` of GET /v1/trading/pools/{songId} and its history: a SongNFT token id, 400 otherwise. */
export function songIdInput(req: Request): Result<bigint> {
  const songId = parseTokenId(String(req.params.songId));
  if (songId === null) {
    return fail(
      appError('VALIDATION_ERROR', 'Invalid song id', {
        details: 'the song id is a SongNFT token id, a positive integer',
        fields: { songId: String(req.params.songId) },
      }),
    );
  }
  return ok(songId);
}

/** NOT_FOUND for a song whose pool is not indexed: the pool view and its swap history answer alike. */
export function poolNotFound(songId: bigint): AppError {
  return appError('NOT_FOUND', 'Pool not found', {
    details: 'no pool of this song has been indexed (not launched, or not confirmed yet)',
    fields: { songId: songId.toString() },
  });
}

/** Variant C: GET /v1/trading/pools/{songId}. */
export function poolHandler(deps: TradingRouterDeps): (call: SignedInCall<bigint, never>) => Promise<void> {
  return async ({ req, res, input: songId }) => {
    const row = await findPool(deps.db, { songId, now: deps.now() });
    if (row === null) {
      sendError(req, res, poolNotFound(songId));
      return;
    }
    const claimable = await claimableOf(deps, [row]);
    res.json(poolView(row, deps.chainId, claimable.get(songId)) satisfies z.infer<typeof poolSchema>);
  };
}

const error = (description: string) => ({ description, content: { 'application/json': { schema: variantCErrorSchema } } });
export const poolsDocs: RouteDocs = {
  tags: ['v1'],
  summary: 'Variant C: song pools with price, liquidity, fees per party, 24 h volume (newest launch first)',
  description:
    'Indexed from SongVault launches and the Uniswap v4 PoolManager events of Songmint pools, confirmed CHAIN_CONFIRMATIONS deep; claimable fees are read from SongVault at answer time.',
  request: { query: poolsQuerySchema },
  responses: {
    200: { description: 'A page of pools.', content: { 'application/json': { schema: poolsResponseSchema } } },
    400: error('VALIDATION_ERROR: a bad cursor or limit'),
    401: error('AUTH_ERROR'),
    429: error('RATE_002: the hourly trading limit'),
  },
};

export const poolDocs: RouteDocs = {
  tags: ['v1'],
  summary: 'Variant C: the pool of one song',
  request: { params: z.object({ songId: z.string().meta({ description: 'SongNFT token id.', example: '1' }) }) },
  responses: {
    200: { description: 'The pool.', content: { 'application/json': { schema: poolSchema } } },
    400: error('VALIDATION_ERROR'),
    401: error('AUTH_ERROR'),
    404: error('NOT_FOUND: not launched, or the launch is not indexed yet'),
    429: error('RATE_002: the hourly trading limit'),
  },
};
