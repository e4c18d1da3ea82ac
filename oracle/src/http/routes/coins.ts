/**
 * The coin page of a launched song, its trades, a creator's profile and a wallet's portfolio
 * (extensions, issue 45): public, like the swap history and the public songs, because everything
 * here is public on the chain already; the route table charges them per client address (`ip`,
 * trading). Read from the pool indexer's rows (../../domain/coins.ts) and, for what the vault holds
 * now (claimable fees, held allocations), from SongVault at answer time. USD figures appear only
 * where an ETH/USD feed is configured (../../chain/eth-usd-feed.ts); otherwise they are null.
 */
import type { Request } from 'express';
import { formatEther, getAddress, isAddress } from 'viem';
import { z } from 'zod';
import type { HeldAllocation } from '../../chain/coin-reads.ts';
import type { EthUsdPrice } from '../../chain/eth-usd-feed.ts';
import { usdOf } from '../../chain/eth-usd-feed.ts';
import {
  TOP_HOLDERS,
  allocationsFor,
  creatorShare,
  findCoin,
  findCoins,
  holdingsOf,
  listTrades,
  percentChange,
  sharePercent,
  songsOfCreator,
  songsOfTokens,
  songsPayingTo,
  tokenHolders,
  tokensValueWei,
  uncollectedSwapFees,
  weiPerMillionTokens,
} from '../../domain/coins.ts';
import type { CoinRow, SwapPosition } from '../../domain/coins.ts';
import { decodeSwapCursor, encodeSwapCursor } from '../../domain/pool-history.ts';
import { indexedThrough } from '../../domain/pools.ts';
import { displayNamesOf, profileOfAddress } from '../../domain/creator-profile.ts';
import { appError, fail, ok } from '../../domain/errors.ts';
import type { Result } from '../../domain/errors.ts';
import type { AppDeps, CoinServices, TradingServices } from '../deps.ts';
import { sendError } from '../error-response.ts';
import type { PublicCall, RouteDocs } from '../route.ts';
import { publicProfileSchema } from '../profile-schemas.ts';
import { describeIssues, variantCErrorSchema } from '../schemas.ts';
import { fieldsOf, songRows } from './public-songs.ts';
import type { SongRow } from './public-songs.ts';
import { pageQuerySchema, poolNotFound, songIdInput } from './trading.ts';

export type CoinDeps = Pick<AppDeps, 'db' | 'now' | 'logger' | 'metadata' | 'farcasterUserData'> &
  TradingServices & { coins: CoinServices };

export const TRADES_DEFAULT_LIMIT = 50;
export const TRADES_MAX_LIMIT = 200;
/** Songs a creator profile lists (newest first); `songs_total` says how many there are. */
export const PROFILE_SONGS_LIMIT = 100;

const uint = (description: string) =>
  z
    .string()
    .regex(/^[0-9]+$/)
    .meta({ description });
const usd = (description: string) =>
  z
    .string()
    .nullable()
    .meta({ description: `${description} Null unless an ETH/USD feed is configured.` });
const ethAmount = (description: string) => z.strictObject({ eth: uint(`${description} Wei.`), usd: usd('US dollars, two places.') });

const ethUsdSchema = z
  .strictObject({
    price: z.string().meta({ description: 'US dollars per ETH, as the feed answered.', example: '3012.45' }),
    updated_at: z.iso.datetime().meta({ description: "The feed round's time." }),
    feed: z.string().meta({ description: 'The Chainlink ETH/USD feed read (AggregatorV3Interface).' }),
  })
  .nullable()
  .meta({ description: 'The ETH/USD price behind every USD figure; null when no feed is configured (or it is stale).' });

const priceSchema = z
  .strictObject({
    eth_per_million_tokens: z.string().meta({ description: 'ETH per 1,000,000 tokens at the pool price, decimal.', example: '0.010020' }),
    wei_per_million_tokens: uint('The same in wei, rounded down.'),
    change_24h_percent: z.string().nullable().meta({
      description:
        'Change against the price 24 hours ago (the last swap before then; the launch price when nothing traded before then or the launch was since), percent with two places; null before the launch price is indexed.',
      example: '-3.25',
    }),
    usd_per_million_tokens: usd('The price in US dollars per 1,000,000 tokens.'),
    block_number: z.string().meta({ description: 'Block of the swap (or launch) that set the price.' }),
  })
  .meta({ id: 'CoinPrice' });

const poolNowSchema = z
  .strictObject({
    eth: uint(
      "Wei the pool's locked position holds now: all the ETH every holder together can take out by selling, before fees (a song pool starts with tokens only and pays out only what buyers paid in).",
    ).nullable(),
    usd: usd('US dollars of `eth`.'),
    block_number: z
      .string()
      .nullable()
      .meta({ description: 'Block of the chain read; null (with `eth`) when the chain could not be read.' }),
  })
  .meta({ id: 'CoinPool', description: 'The pool as a seller meets it now, read from the chain at answer time.' });

/** What selling a holding pays now: the V4Quoter's quote against the real pool. */
const saleSchema = z
  .strictObject({
    eth: uint(
      'Wei selling all of it pays now, the LP fee and the launch fee included (Uniswap’s V4Quoter on the pool, in `block_number`).',
    ).nullable(),
    usd: usd('US dollars of `eth`.'),
    fills: z.boolean().meta({
      description:
        'False: the pool cannot buy all of it back now (it pays out only the ETH buyers paid in); `eth` is then null. Also false when the chain could not be read.',
    }),
  })
  .meta({ id: 'SaleQuote' });

/** A launch allocation's vesting, as SongVault.allocationOf answers it (token base units). */
const vestingFields = {
  total: uint('Tokens the allocation gives its recipient in all.'),
  vested: uint('Tokens vested now, the claimed ones included (nothing before the cliff, then linearly).'),
  unvested: uint('Tokens not vested yet: `total - vested`.'),
  claimed: uint('Tokens already minted to the recipient (and free to sell).'),
  claimable: uint('What `claimAllocation` pays now: `vested - claimed`.'),
  cliff_end: z.iso.datetime().meta({ description: 'Until then nothing vests: the creator cannot sell any of it into the pool.' }),
  vesting_end: z.iso.datetime().meta({ description: 'From then everything has vested.' }),
};

const coinAllocationSchema = z
  .strictObject({
    recipient: z.string().meta({ description: 'Who the allocation goes to (EIP-55): the launcher named it.' }),
    ...vestingFields,
    block_number: z.string().meta({ description: 'Block of the vault read.' }),
  })
  .nullable()
  .meta({
    id: 'CoinAllocation',
    description:
      "The creator's launch allocation, read from the vault now: what a buyer must know, since claimed tokens can be sold into the pool. Null when the launch took none, or the chain could not be read.",
  });

export const coinSchema = z
  .strictObject({
    song_id: z.string().meta({ example: '1' }),
    chain_id: z.number().int(),
    token: z.string().meta({ description: "The song's ERC-20 (EIP-55)." }),
    name: z.string().meta({ example: 'Songmint #1' }),
    symbol: z.string().meta({ example: 'SONG1' }),
    title: z.string().nullable().meta({ description: "The song's title from the metadata this oracle published." }),
    image: z.string().nullable(),
    creator: z.string().meta({ description: 'The creator SongLaunched named (EIP-55).' }),
    creator_name: z.string().nullable().meta({ description: 'The display name the minter set (PATCH /v1/user/profile); null: none.' }),
    launched_at: z.iso.datetime(),
    supply: uint('Token supply in base units (18 decimals): the pool share plus the allocation, 1,000,000,000 tokens.'),
    price: priceSchema.nullable().meta({ description: "Null only in the instant before the launch's Initialize is indexed." }),
    market_cap: ethAmount('Price times supply.').nullable(),
    volume_24h: z.strictObject({
      eth: uint('Wei of ETH through the pool in the last 24 hours (|amount0|, before the hook fee).'),
      trades: z.number().int(),
      usd: usd('US dollars.'),
    }),
    trades_total: z.number().int(),
    pool: poolNowSchema,
    allocation: coinAllocationSchema,
    holders: z.strictObject({
      count: z.number().int().meta({
        description:
          "Addresses holding any of the token, leaving out Uniswap's PoolManager (the pool's own tokens) and SongVault (collected LP fees not yet claimed).",
      }),
      top: z
        .array(
          z.strictObject({
            address: z.string(),
            name: z.string().nullable().meta({
              description: 'The display name this address set (PATCH /v1/user/profile), to link to its profile; null: none.',
            }),
            balance: uint('Token base units.'),
            share_percent: z.string().meta({ description: 'Of the supply, percent with four places.', example: '5.0000' }),
          }),
        )
        .meta({
          description: `The ${TOP_HOLDERS} largest balances, from the token's Transfer logs (the PoolManager and the vault left out).`,
        }),
    }),
    creator_earnings: z
      .strictObject({
        recipient: z.string().meta({ description: 'Who the creator share goes to now (the creator until the payout role is handed on).' }),
        credited: z.strictObject({ eth: uint('Wei credited by collectFees.'), token: uint('Token units credited (the LP fee of sales).') }),
        uncollected_swap_fees_eth: uint('The creator share of the hook fees not collected yet (collectFees splits them), wei.'),
        total_eth: uint('Credited plus uncollected, wei: what the song has earned its creator side in ETH so far.'),
        total_usd: usd('The same in US dollars.'),
      })
      .meta({
        description:
          "The creator's earnings so far; LP fees count once collected (Uniswap v4 computes them only when the position is touched).",
      }),
    eth_usd: ethUsdSchema,
    trades_url: z.string().meta({ example: '/v1/public/coins/1/trades' }),
    page_url: z.string().meta({ example: '/app/song/1' }),
    indexed_through_block: z.string().nullable(),
  })
  .meta({ id: 'Coin' });

export const coinTradeSchema = z
  .strictObject({
    tx_hash: z.string(),
    block_number: z.string(),
    log_index: z.number().int(),
    time: z.iso.datetime().meta({ description: 'Block time.' }),
    side: z.enum(['buy', 'sell']),
    wallet: z.string().meta({
      description:
        "The wallet that received the tokens (buy) or sent them (sell): the other side of the token's transfer with the PoolManager; the swap's router when there is none.",
    }),
    wallet_name: z.string().nullable().meta({
      description: 'The display name the wallet set (PATCH /v1/user/profile), to link to its profile; null: none.',
    }),
    token: uint('Tokens bought or sold, base units.'),
    eth: uint('Wei the wallet paid (buy, the launch fee included) or received (sell, after it).'),
    pool_eth: uint('Wei through the pool (|amount0|).'),
    launch_fee: z
      .strictObject({
        eth: uint("The hook's fee, wei (its ERC-6909 mint next to the swap)."),
        percent: z.string().meta({ description: 'Of the ETH that changed hands, percent with two places.', example: '49.18' }),
      })
      .nullable()
      .meta({ description: 'Null when no fee mint was indexed next to the swap.' }),
    price_eth_per_million_tokens: z.string().meta({ description: 'The pool price after the swap.' }),
  })
  .meta({ id: 'CoinTrade' });

export const coinTradesSchema = z
  .strictObject({
    song_id: z.string(),
    trades: z.array(coinTradeSchema).meta({ description: 'Newest first.' }),
    next_cursor: z.string().nullable().meta({ description: 'Pass as `cursor` for older trades; null on the last page.' }),
    indexed_through_block: z.string().nullable(),
  })
  .meta({ id: 'CoinTrades' });

const songLink = {
  song_id: z.string(),
  title: z.string().nullable(),
  image: z.string().nullable(),
  page_url: z.string(),
};

export const creatorProfileSchema = z
  .strictObject({
    address: z.string().meta({ description: 'EIP-55.' }),
    page_url: z.string().meta({ example: '/app/creator/0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC' }),
    profile: publicProfileSchema,
    songs: z
      .array(
        z.strictObject({
          ...songLink,
          minted_at: z.iso.datetime().nullable(),
          coin: z
            .strictObject({
              token: z.string(),
              symbol: z.string(),
              launched_at: z.iso.datetime(),
              price_eth_per_million_tokens: z.string().nullable(),
              market_cap: ethAmount('Price times supply.').nullable(),
              volume_24h: z.strictObject({ eth: uint('Wei.'), trades: z.number().int() }),
            })
            .nullable()
            .meta({ description: 'Null until the song is launched (and its launch indexed).' }),
        }),
      )
      .meta({ description: `Songs the address minted or launched as creator, newest first, at most ${PROFILE_SONGS_LIMIT}.` }),
    songs_total: z.number().int(),
    coins: z.number().int().meta({ description: 'How many of the listed songs are launched.' }),
    earnings: z
      .strictObject({
        eth: uint('Wei.'),
        token: uint('Token units (credited LP fees of sales, all songs).'),
        usd: usd('US dollars of the ETH.'),
      })
      .meta({ description: "The creator side's earnings of the listed songs so far (each coin's `creator_earnings`)." }),
    eth_usd: ethUsdSchema,
  })
  .meta({ id: 'CreatorProfile' });

export const portfolioSchema = z
  .strictObject({
    address: z.string(),
    holdings: z
      .array(
        z.strictObject({
          ...songLink,
          token: z.string(),
          symbol: z.string(),
          balance: uint('Token base units.'),
          share_percent: z.string(),
          price_eth_per_million_tokens: z.string().nullable(),
          value: ethAmount('At the pool price now (spot: a sale of it all fetches less, see `sale`).'),
          sale: saleSchema,
          pool_eth: uint("Wei the coin's pool holds now: the most every holder together can sell for, before fees.").nullable(),
        }),
      )
      .meta({ description: 'Song tokens held, largest value first (indexed Transfer logs).' }),
    total_value: ethAmount('All holdings at their pool prices (spot).'),
    total_sale: z
      .strictObject({
        eth: uint('Wei selling every holding now pays, each against its pool, fees included: the sum of the `sale` quotes that fill.'),
        usd: usd('US dollars.'),
        complete: z.boolean().meta({ description: 'False when some holding’s pool cannot buy all of it back (it is left out of `eth`).' }),
      })
      .meta({ description: 'What the holdings can really be sold for now.' }),
    fees: z
      .array(
        z.strictObject({
          ...songLink,
          claimable: z.strictObject({ eth: uint('Wei.'), token: uint('Token units.') }),
          uncollected_swap_fees_eth: uint('The creator share of hook fees not collected yet; a claim collects them first.'),
        }),
      )
      .meta({
        description: 'Songs whose creator share this address receives now, with what `SongVault.claim` would pay (read from the vault).',
      }),
    allocations: z
      .array(
        z.strictObject({
          ...songLink,
          amount: uint('Tokens the vault has not released to this address yet (vested or not): `total - claimed`.'),
          claimable_at: z.iso.datetime().meta({ description: 'The first second a claim can pay anything: right after the cliff.' }),
          ...vestingFields,
        }),
      )
      .meta({
        description: 'Launch allocations named for this address and not all claimed yet, with their vesting (read from the vault).',
      }),
    block_number: z
      .string()
      .nullable()
      .meta({ description: 'Block of the vault reads; null when the chain could not be read (fees and allocations are then empty).' }),
    indexed_through_block: z.string().nullable(),
    eth_usd: ethUsdSchema,
  })
  .meta({ id: 'Portfolio' });

type Coin = z.infer<typeof coinSchema>;

const decimalEth = (wei: bigint) => formatEther(wei);
const usdFigure = (wei: bigint, price: EthUsdPrice | null) => (price === null ? null : usdOf(wei, price));
const ethUsdOf = (price: EthUsdPrice | null) =>
  price === null ? null : { price: usdOf(10n ** 18n, price), updated_at: price.updatedAt.toISOString(), feed: getAddress(price.feed) };

async function ethUsdPrice(deps: CoinDeps): Promise<EthUsdPrice | null> {
  return deps.coins.ethUsd === undefined ? null : deps.coins.ethUsd();
}

/** The pools' ETH and the sales' quotes now, in one block; null (and a warning) when the chain could not be read. */
async function marketNow(
  deps: CoinDeps,
  songIds: ReadonlyArray<bigint>,
  sales: ReadonlyArray<{ songId: bigint; tokens: bigint }>,
): Promise<Awaited<ReturnType<CoinServices['chain']['market']>> | null> {
  try {
    return await deps.coins.chain.market(songIds, sales);
  } catch (error) {
    deps.logger.warn({ err: error }, 'reading the pools and sale quotes failed: the answer has no sale figures');
    return null;
  }
}

const isoSeconds = (seconds: bigint) => new Date(Number(seconds) * 1000).toISOString();

/** The vesting fields of an allocation as the vault answered them. */
function vestingOf(allocation: HeldAllocation): z.infer<z.ZodObject<typeof vestingFields>> {
  return {
    total: allocation.total.toString(),
    vested: allocation.vested.toString(),
    unvested: (allocation.total - allocation.vested).toString(),
    claimed: allocation.claimed.toString(),
    claimable: (allocation.vested - allocation.claimed).toString(),
    cliff_end: isoSeconds(allocation.cliffEnd),
    vesting_end: isoSeconds(allocation.vestingEnd),
  };
}

/** One song's allocation now; null when it took none or the chain could not be read (logged). */
async function allocationNow(
  deps: CoinDeps,
  songId: bigint,
): Promise<(HeldAllocation & { recipient: NonNullable<HeldAllocation['recipient']>; blockNumber: bigint }) | null> {
  try {
    const { blockNumber, allocations } = await deps.coins.chain.allocations([songId]);
    const [allocation] = allocations;
    if (allocation?.recipient === null || allocation === undefined || allocation.total === 0n) return null;
    return { ...allocation, recipient: allocation.recipient, blockNumber };
  } catch (error) {
    deps.logger.warn({ err: error }, 'reading the allocation from SongVault failed: the coin answers without it');
    return null;
  }
}

async function platformShareBps(deps: CoinDeps): Promise<number | null> {
  try {
    return await deps.coins.chain.platformShareBps();
  } catch (error) {
    deps.logger.warn({ err: error }, 'reading SongVault.platformShareBps failed: uncollected fees are left out of the earnings');
    return null;
  }
}

/** The creator side's earnings of one coin: credited by collections plus its share of hook fees not collected yet. */
function earningsOf(row: CoinRow, shareBps: number | null): { credited: bigint; creditedToken: bigint; uncollected: bigint } {
  return {
    credited: BigInt(row.creator_eth),
    creditedToken: BigInt(row.creator_token),
    uncollected: shareBps === null ? 0n : creatorShare(uncollectedSwapFees(row), shareBps),
  };
}

const symbolOf = (songId: string) => `SONG${songId}`;
const pricePerMillion = (row: Pick<CoinRow, 'sqrt_price_x96'>) =>
  row.sqrt_price_x96 === null ? null : decimalEth(weiPerMillionTokens(BigInt(row.sqrt_price_x96)));
/** Price times supply, wei; null before the launch price is indexed. */
export const marketCapWei = (row: Pick<CoinRow, 'sqrt_price_x96' | 'supply'>) =>
  row.sqrt_price_x96 === null ? null : tokensValueWei(BigInt(row.supply), BigInt(row.sqrt_price_x96));

/** GET /v1/public/coins/{songId}. */
export function coinHandler(deps: CoinDeps): (call: PublicCall<bigint>) => Promise<void> {
  return async ({ req, res, input: songId }) => {
    const row = await findCoin(deps.db, { songId, now: deps.now() });
    if (row === null) {
      sendError(req, res, poolNotFound(songId));
      return;
    }
    const [holders, market, allocation, songs, price, shareBps, through] = await Promise.all([
      tokenHolders(deps.db, {
        token: row.token.toLowerCase(),
        limit: TOP_HOLDERS,
        excluded: [deps.coins.poolManagerAddress.toLowerCase(), deps.coins.vaultAddress.toLowerCase()],
      }),
      marketNow(deps, [songId], []),
      allocationNow(deps, songId),
      songRows(deps.db, [row.song_id]),
      ethUsdPrice(deps),
      platformShareBps(deps),
      deps.vault === undefined ? Promise.resolve(null) : indexedThrough(deps.db, deps.vault.cursorName),
    ]);
    const fields = fieldsOf(row.song_id, songs.get(row.song_id), row.creator);
    const names = await displayNamesOf(
      deps.db,
      holders.top.map((holder) => holder.address),
    );
    const supply = BigInt(row.supply);
    const poolEth = market?.pools[0]?.eth ?? null;
    const earnings = earningsOf(row, shareBps);
    const cap = marketCapWei(row);
    const perMillion = row.sqrt_price_x96 === null ? null : weiPerMillionTokens(BigInt(row.sqrt_price_x96));
    const before = row.sqrt_price_x96_24h_ago === null ? null : weiPerMillionTokens(BigInt(row.sqrt_price_x96_24h_ago));
    res.json({
      song_id: row.song_id,
      chain_id: deps.chainId,
      token: getAddress(row.token),
      name: `Songmint #${row.song_id}`,
      symbol: symbolOf(row.song_id),
      title: fields.title,
      image: fields.image,
      creator: getAddress(row.creator),
      creator_name: fields.creator_name,
      launched_at: row.launched_at.toISOString(),
      supply: row.supply,
      price:
        perMillion === null
          ? null
          : {
              eth_per_million_tokens: decimalEth(perMillion),
              wei_per_million_tokens: perMillion.toString(),
              change_24h_percent: percentChange(before, perMillion),
              usd_per_million_tokens: usdFigure(perMillion, price),
              block_number: row.price_block,
            },
      market_cap: cap === null ? null : { eth: cap.toString(), usd: usdFigure(cap, price) },
      volume_24h: { eth: row.volume_eth_24h, trades: row.trades_24h, usd: usdFigure(BigInt(row.volume_eth_24h), price) },
      trades_total: row.trades_total,
      allocation:
        allocation === null
          ? null
          : { recipient: getAddress(allocation.recipient), ...vestingOf(allocation), block_number: allocation.blockNumber.toString() },
      pool: {
        eth: poolEth?.toString() ?? null,
        usd: poolEth === null ? null : usdFigure(poolEth, price),
        block_number: market?.blockNumber.toString() ?? null,
      },
      holders: {
        count: holders.count,
        top: holders.top.map((holder) => ({
          address: getAddress(holder.address),
          name: names.get(holder.address.toLowerCase()) ?? null,
          balance: holder.balance.toString(),
          share_percent: sharePercent(holder.balance, supply),
        })),
      },
      creator_earnings: {
        recipient: getAddress(row.payout_recipient),
        credited: { eth: earnings.credited.toString(), token: earnings.creditedToken.toString() },
        uncollected_swap_fees_eth: earnings.uncollected.toString(),
        total_eth: (earnings.credited + earnings.uncollected).toString(),
        total_usd: usdFigure(earnings.credited + earnings.uncollected, price),
      },
      eth_usd: ethUsdOf(price),
      trades_url: `/v1/public/coins/${row.song_id}/trades`,
      page_url: `/app/song/${row.song_id}`,
      indexed_through_block: through,
    } satisfies Coin);
  };
}

interface TradesInput {
  songId: bigint;
  before?: SwapPosition;
  limit: number;
}

const tradesQuerySchema = pageQuerySchema('Trades', TRADES_MAX_LIMIT, TRADES_DEFAULT_LIMIT);

/** The song id, cursor and limit of the trades: bad input is 400 before the charge. */
export function coinTradesInput(req: Request): Result<TradesInput> {
  const songId = songIdInput(req);
  if (!songId.ok) return songId;
  const query = tradesQuerySchema.safeParse(req.query);
  if (!query.success) return fail(appError('VALIDATION_ERROR', 'Invalid query', { details: describeIssues(query.error) }));
  const limit = query.data.limit ?? TRADES_DEFAULT_LIMIT;
  if (query.data.cursor === undefined) return ok({ songId: songId.value, limit });
  const before = decodeSwapCursor(query.data.cursor);
  return before.ok ? ok({ songId: songId.value, limit, before: before.value }) : before;
}

/** The hook's fee as a share of the ETH that changed hands: what a buyer paid, what the pool paid a seller. */
function feePercent(fee: bigint, side: 'buy' | 'sell', poolEth: bigint): string {
  const changedHands = side === 'buy' ? poolEth + fee : poolEth;
  if (changedHands === 0n) return '0.00';
  const hundredths = (fee * 10_000n + changedHands / 2n) / changedHands;
  return `${hundredths / 100n}.${(hundredths % 100n).toString().padStart(2, '0')}`;
}

/** GET /v1/public/coins/{songId}/trades: the activity feed. */
export function coinTradesHandler(deps: CoinDeps): (call: PublicCall<TradesInput>) => Promise<void> {
  return async ({ req, res, input: { songId, before, limit } }) => {
    const row = await findCoin(deps.db, { songId, now: deps.now() });
    if (row === null) {
      sendError(req, res, poolNotFound(songId));
      return;
    }
    const trades = await listTrades(deps.db, {
      poolId: row.pool_id,
      token: row.token.toLowerCase(),
      poolManager: deps.coins.poolManagerAddress.toLowerCase(),
      limit: limit + 1,
      ...(before === undefined ? {} : { before }),
    });
    const page = trades.slice(0, limit);
    const last = page.at(-1);
    const names = await displayNamesOf(
      deps.db,
      page.map((trade) => trade.wallet),
    );
    res.json({
      song_id: row.song_id,
      trades: page.map((trade) => ({
        tx_hash: trade.tx_hash,
        block_number: trade.block_number,
        log_index: trade.log_index,
        time: trade.block_time.toISOString(),
        side: trade.side,
        wallet: getAddress(trade.wallet),
        wallet_name: names.get(trade.wallet.toLowerCase()) ?? null,
        token: trade.tokens.toString(),
        eth: trade.walletEth.toString(),
        pool_eth: trade.poolEth.toString(),
        launch_fee:
          trade.hookFee === null ? null : { eth: trade.hookFee.toString(), percent: feePercent(trade.hookFee, trade.side, trade.poolEth) },
        price_eth_per_million_tokens: decimalEth(weiPerMillionTokens(BigInt(trade.sqrt_price_x96))),
      })),
      next_cursor:
        trades.length > limit && last !== undefined
          ? encodeSwapCursor({ blockNumber: BigInt(last.block_number), logIndex: last.log_index })
          : null,
      indexed_through_block: deps.vault === undefined ? null : await indexedThrough(deps.db, deps.vault.cursorName),
    } satisfies z.infer<typeof coinTradesSchema>);
  };
}

/** The `{address}` of the creator and portfolio routes: any 0x address (any case), 400 otherwise. */
export function addressInput(req: Request): Result<string> {
  const address = String(req.params.address);
  if (!isAddress(address, { strict: false })) {
    return fail(
      appError('VALIDATION_ERROR', 'Invalid address', {
        details: 'the address is 0x followed by 40 hexadecimal digits',
        fields: { address },
      }),
    );
  }
  return ok(address.toLowerCase());
}

const songLinkOf = (songId: string, row: SongRow | undefined, creator: string) => {
  const fields = fieldsOf(songId, row, creator);
  return { song_id: songId, title: fields.title, image: fields.image, page_url: fields.page_url };
};

/** GET /v1/public/creators/{address}: a creator's songs, coins and earnings. */
export function creatorHandler(deps: CoinDeps): (call: PublicCall<string>) => Promise<void> {
  return async ({ res, input: address }) => {
    const { songIds, total } = await songsOfCreator(deps.db, { creator: address, limit: PROFILE_SONGS_LIMIT });
    const [rows, coins, price, shareBps, profile] = await Promise.all([
      songRows(deps.db, songIds),
      findCoins(deps.db, { songIds, now: deps.now() }),
      ethUsdPrice(deps),
      platformShareBps(deps),
      profileOfAddress(deps.db, address, { objectStore: deps.metadata?.objectStore, farcaster: deps.farcasterUserData }),
    ]);
    let earnedEth = 0n;
    let earnedToken = 0n;
    const songs = songIds.map((songId) => {
      const row = rows.get(songId);
      const coin = coins.get(songId);
      const fields = fieldsOf(songId, row, coin?.creator ?? address);
      if (coin !== undefined) {
        const earnings = earningsOf(coin, shareBps);
        earnedEth += earnings.credited + earnings.uncollected;
        earnedToken += earnings.creditedToken;
      }
      const cap = coin === undefined ? null : marketCapWei(coin);
      return {
        song_id: songId,
        title: fields.title,
        image: fields.image,
        page_url: fields.page_url,
        minted_at: fields.minted_at,
        coin:
          coin === undefined
            ? null
            : {
                token: getAddress(coin.token),
                symbol: symbolOf(songId),
                launched_at: coin.launched_at.toISOString(),
                price_eth_per_million_tokens: pricePerMillion(coin),
                market_cap: cap === null ? null : { eth: cap.toString(), usd: usdFigure(cap, price) },
                volume_24h: { eth: coin.volume_eth_24h, trades: coin.trades_24h },
              },
      };
    });
    const checksummed = getAddress(address);
    res.json({
      address: checksummed,
      page_url: `/app/creator/${checksummed}`,
      profile,
      songs,
      songs_total: total,
      coins: songs.filter((song) => song.coin !== null).length,
      earnings: { eth: earnedEth.toString(), token: earnedToken.toString(), usd: usdFigure(earnedEth, price) },
      eth_usd: ethUsdOf(price),
    } satisfies z.infer<typeof creatorProfileSchema>);
  };
}

/** GET /v1/public/portfolios/{address}: song tokens held and their value, fees and allocations to claim. */
export function portfolioHandler(deps: CoinDeps): (call: PublicCall<string>) => Promise<void> {
  return async ({ res, input: address }) => {
    const held = await holdingsOf(deps.db, address);
    const songOfToken = await songsOfTokens(deps.db, [...held.keys()]);
    const [paying, allocated] = await Promise.all([songsPayingTo(deps.db, address), allocationsFor(deps.db, address)]);
    const songIds = [...new Set([...songOfToken.values(), ...paying, ...allocated])];
    const [rows, coins, price, shareBps, through] = await Promise.all([
      songRows(deps.db, songIds),
      findCoins(deps.db, { songIds, now: deps.now() }),
      ethUsdPrice(deps),
      platformShareBps(deps),
      deps.vault === undefined ? Promise.resolve(null) : indexedThrough(deps.db, deps.vault.cursorName),
    ]);
    const link = (songId: string) => songLinkOf(songId, rows.get(songId), coins.get(songId)?.creator ?? address);
    const heldCoins = [...held.entries()].flatMap(([token, balance]) => {
      const songId = songOfToken.get(token);
      const coin = songId === undefined ? undefined : coins.get(songId);
      return songId === undefined || coin === undefined ? [] : [{ token, balance, songId, coin }];
    });
    // What each holding sells for now, against its pool (one quote each, one block for all).
    const market = await marketNow(
      deps,
      heldCoins.map(({ songId }) => BigInt(songId)),
      heldCoins.map(({ songId, balance }) => ({ songId: BigInt(songId), tokens: balance })),
    );

    const holdings = heldCoins
      .map(({ token, balance, songId, coin }, index) => {
        const value = coin.sqrt_price_x96 === null ? 0n : tokensValueWei(balance, BigInt(coin.sqrt_price_x96));
        const quoted = market?.sales[index]?.eth ?? null;
        const poolEth = market?.pools[index]?.eth ?? null;
        return {
          ...link(songId),
          token: getAddress(token),
          symbol: symbolOf(songId),
          balance: balance.toString(),
          share_percent: sharePercent(balance, BigInt(coin.supply)),
          price_eth_per_million_tokens: pricePerMillion(coin),
          value: { eth: value.toString(), usd: usdFigure(value, price) },
          sale: { eth: quoted?.toString() ?? null, usd: quoted === null ? null : usdFigure(quoted, price), fills: quoted !== null },
          pool_eth: poolEth?.toString() ?? null,
        };
      })
      .sort((a, b) => (BigInt(b.value.eth) > BigInt(a.value.eth) ? 1 : BigInt(b.value.eth) < BigInt(a.value.eth) ? -1 : 0));
    const total = holdings.reduce((sum, holding) => sum + BigInt(holding.value.eth), 0n);
    const saleTotal = holdings.reduce((sum, holding) => sum + BigInt(holding.sale.eth ?? '0'), 0n);

    // What the vault holds now: one block for all of it; a chain that cannot be read leaves these empty.
    let blockNumber: string | null = null;
    let fees: z.infer<typeof portfolioSchema>['fees'] = [];
    let allocations: z.infer<typeof portfolioSchema>['allocations'] = [];
    try {
      const [claimable, held] = await Promise.all([
        deps.vault === undefined ? Promise.resolve(new Map()) : deps.vault.readClaimable(paying.map(BigInt)),
        deps.coins.chain.allocations(allocated.map(BigInt)),
      ]);
      blockNumber = held.blockNumber.toString();
      fees = paying.flatMap((songId) => {
        const owed = claimable.get(BigInt(songId));
        const coin = coins.get(songId);
        if (owed === undefined || coin === undefined || owed.creator.account.toLowerCase() !== address) return [];
        return [
          {
            ...link(songId),
            claimable: { eth: owed.creator.eth.toString(), token: owed.creator.token.toString() },
            uncollected_swap_fees_eth: earningsOf(coin, shareBps).uncollected.toString(),
          },
        ];
      });
      allocations = held.allocations
        .filter((allocation) => allocation.amount > 0n && allocation.recipient?.toLowerCase() === address)
        .map((allocation) => ({
          ...link(allocation.songId.toString()),
          amount: allocation.amount.toString(),
          claimable_at: isoSeconds(allocation.claimableAt),
          ...vestingOf(allocation),
        }));
    } catch (error) {
      deps.logger.warn({ err: error }, 'reading fees and allocations from SongVault failed; the portfolio lists holdings only');
    }
    res.json({
      address: getAddress(address),
      holdings,
      total_value: { eth: total.toString(), usd: usdFigure(total, price) },
      total_sale: {
        eth: saleTotal.toString(),
        usd: usdFigure(saleTotal, price),
        complete: holdings.every((holding) => holding.sale.fills),
      },
      fees,
      allocations,
      block_number: blockNumber,
      indexed_through_block: through,
      eth_usd: ethUsdOf(price),
    } satisfies z.infer<typeof portfolioSchema>);
  };
}

const error = (description: string) => ({ description, content: { 'application/json': { schema: variantCErrorSchema } } });
const songIdParams = z.object({ songId: z.string().meta({ description: 'SongNFT token id.', example: '1' }) });
const addressParams = z.object({
  address: z.string().meta({ description: 'A 0x address (any case).', example: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC' }),
});
const charged = 'Public: no token; charged per client address at the hourly trading limit.';

export const coinDocs: RouteDocs = {
  tags: ['v1'],
  summary:
    'Extension: the coin page of a launched song (price per 1M tokens and its 24 h change, market cap, volume, holders, creator earnings)',
  description: `${charged} Indexed from the song token's Transfer logs and its pool's events, confirmed CHAIN_CONFIRMATIONS deep (a reorg deeper than that is undone). USD figures only where ETH_USD_FEED_ADDRESS names an ETH/USD feed.`,
  request: { params: songIdParams },
  responses: {
    200: { description: 'The coin.', content: { 'application/json': { schema: coinSchema } } },
    400: error('VALIDATION_ERROR'),
    404: error('NOT_FOUND: not launched, or the launch is not indexed yet'),
    429: error('RATE_002: the hourly trading limit of this client address'),
  },
};

export const coinTradesDocs: RouteDocs = {
  tags: ['v1'],
  summary: "Extension: a coin's activity feed (each trade's side, wallet, amounts, launch fee, time and transaction), newest first",
  description: charged,
  request: { params: songIdParams, query: tradesQuerySchema },
  responses: {
    200: { description: 'A page of trades.', content: { 'application/json': { schema: coinTradesSchema } } },
    400: error('VALIDATION_ERROR: a bad song id, cursor or limit'),
    404: error('NOT_FOUND: not launched, or the launch is not indexed yet'),
    429: error('RATE_002: the hourly trading limit of this client address'),
  },
};

export const creatorDocs: RouteDocs = {
  tags: ['v1'],
  summary: "Extension: a creator's profile (name, bio, avatar; minted songs, launched coins with market caps, total earnings)",
  description: `${charged} An address with nothing minted answers an empty profile. \`profile\` is what the account signed in with this address set (PATCH /v1/user/profile), with its linked Farcaster fid's name and picture where it set none and the operator configures a hub.`,
  request: { params: addressParams },
  responses: {
    200: { description: 'The profile.', content: { 'application/json': { schema: creatorProfileSchema } } },
    400: error('VALIDATION_ERROR: not an address'),
    429: error('RATE_002: the hourly trading limit of this client address'),
  },
};

export const portfolioDocs: RouteDocs = {
  tags: ['v1'],
  summary: "Extension: a wallet's portfolio (song tokens held and their value in ETH, fees and allocations to claim)",
  description: `${charged} Everything here is public on the chain; the web app asks for the signed-in wallet's.`,
  request: { params: addressParams },
  responses: {
    200: { description: 'The portfolio.', content: { 'application/json': { schema: portfolioSchema } } },
    400: error('VALIDATION_ERROR: not an address'),
    429: error('RATE_002: the hourly trading limit of this client address'),
  },
};
