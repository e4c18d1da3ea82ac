/**
 * Coin pages, creator profiles and portfolios (issue 45), derived from the pool indexer's rows
 * (oracle/src/chain/pool-indexer.ts: migrations 0010 and 0019) when asked for: nothing is cached,
 * so a reorg that deleted rows changes the next answer.
 *
 * - Holders: each song token's balances summed from its ERC-20 Transfer logs (mints included).
 * - Trades: the pool's Swap logs, each with the hook's fee (the PoolManager's ERC-6909 mint right
 *   before or right after it, plus the launch fee's burnt part, `hookFeesOfSwaps`) and the wallet on the other side of the token's
 *   transfer with the PoolManager in the same transaction (the router is only the Swap's sender).
 * - Prices: the pool's price is tokens per ETH, (sqrtPriceX96 / 2^96)^2; both currencies have 18
 *   decimals, so ETH per token (whole or base units alike) is 2^192 / sqrtPriceX96^2, computed here
 *   in integers: wei per million tokens, a market cap, a holding's value.
 */
import type { Queryable } from '../../../core/src/db/database.ts';

const Q192 = 2n ** 192n;
const WEI_PER_ETH = 10n ** 18n;
/** Wei per million whole tokens = this * 2^192 / sqrtPriceX96^2. */
const MILLION_TOKENS = 10n ** 6n * WEI_PER_ETH;
const BPS = 10_000n;
/** How many holders a coin page lists. */
export const TOP_HOLDERS = 20;

/** Wei of ETH that `tokens` (base units) are worth at `sqrtPriceX96`, rounded down. */
export function tokensValueWei(tokens: bigint, sqrtPriceX96: bigint): bigint {
  return sqrtPriceX96 === 0n ? 0n : (tokens * Q192) / (sqrtPriceX96 * sqrtPriceX96);
}

/** The price as wei per million whole tokens (the coin page's unit: readable, never e-notation). */
export function weiPerMillionTokens(sqrtPriceX96: bigint): bigint {
  return tokensValueWei(MILLION_TOKENS, sqrtPriceX96);
}

/**
 * The change from `before` to `now` in percent, as a decimal string with two places ("12.34",
 * "-0.50", "0.00"), rounded toward zero; null when there is no earlier price.
 */
export function percentChange(before: bigint | null, now: bigint): string | null {
  if (before === null || before === 0n) return null;
  const hundredths = ((now - before) * 100n * 100n) / before;
  const sign = hundredths < 0n ? '-' : '';
  const magnitude = hundredths < 0n ? -hundredths : hundredths;
  return `${sign}${magnitude / 100n}.${(magnitude % 100n).toString().padStart(2, '0')}`;
}

/** `part` of `whole` in percent, four places ("5.0000"), rounded down. */
export function sharePercent(part: bigint, whole: bigint): string {
  if (whole === 0n) return '0.0000';
  const tenThousandths = (part * 100n * 10_000n) / whole;
  return `${tenThousandths / 10_000n}.${(tenThousandths % 10_000n).toString().padStart(4, '0')}`;
}

/** The creator's part of `amount` when the platform takes `platformShareBps` (SongLaunchFeeSplit: the platform's part rounds down). */
export function creatorShare(amount: bigint, platformShareBps: number): bigint {
  return amount - (amount * BigInt(platformShareBps)) / BPS;
}

export interface CoinRow {
  song_id: string;
  pool_id: string;
  token: string;
  creator: string;
  launched_at: Date;
  launch_block: string;
  supply: string;
  init_sqrt_price_x96: string | null;
  /** The latest swap's price, else the launch's; null only before the Initialize log is indexed. */
  sqrt_price_x96: string | null;
  price_block: string;
  /** The last price at or before 24 hours ago, else the launch's (nothing traded before then, or launched since). */
  sqrt_price_x96_24h_ago: string | null;
  volume_eth_24h: string;
  trades_24h: number;
  trades_total: number;
  swap_fees_eth: string;
  collected_swap_fees_eth: string;
  creator_eth: string;
  creator_token: string;
  payout_recipient: string;
}

const COIN_VIEW = `
SELECT p.song_id::text AS song_id, p.pool_id, p.token, p.creator, p.launched_at, p.launch_block::text AS launch_block,
       (p.pool_supply + p.allocation)::text AS supply, p.init_sqrt_price_x96::text AS init_sqrt_price_x96,
       COALESCE(ls.sqrt_price_x96, p.init_sqrt_price_x96)::text AS sqrt_price_x96,
       COALESCE(ls.block_number, p.launch_block)::text AS price_block,
       COALESCE((SELECT s.sqrt_price_x96 FROM pool_swaps s WHERE s.pool_id = p.pool_id AND s.block_time <= $(since)
                  ORDER BY s.block_number DESC, s.log_index DESC LIMIT 1), p.init_sqrt_price_x96)::text AS sqrt_price_x96_24h_ago,
       v.volume_eth_24h, v.trades_24h,
       (SELECT count(*)::int FROM pool_swaps s WHERE s.pool_id = p.pool_id) AS trades_total,
       (SELECT COALESCE(sum(f.fee), 0)::text FROM pool_swap_fees f WHERE f.pool_id = p.pool_id) AS swap_fees_eth,
       c.collected_swap_fees_eth, c.creator_eth, c.creator_token,
       COALESCE((SELECT r.recipient FROM payout_recipient_changes r WHERE r.song_id = p.song_id
                  ORDER BY r.block_number DESC, r.log_index DESC LIMIT 1), lower(p.creator)) AS payout_recipient
  FROM song_pools p
  LEFT JOIN LATERAL (
    SELECT s.block_number, s.sqrt_price_x96 FROM pool_swaps s
     WHERE s.pool_id = p.pool_id ORDER BY s.block_number DESC, s.log_index DESC LIMIT 1) ls ON true
  CROSS JOIN LATERAL (
    SELECT COALESCE(sum(abs(s.amount0)), 0)::text AS volume_eth_24h, count(*)::int AS trades_24h
      FROM pool_swaps s WHERE s.pool_id = p.pool_id AND s.block_time > $(since)) v
  CROSS JOIN LATERAL (
    SELECT COALESCE(sum(c.swap_fees_eth), 0)::text AS collected_swap_fees_eth,
           COALESCE(sum(c.creator_eth), 0)::text AS creator_eth, COALESCE(sum(c.creator_token), 0)::text AS creator_token
      FROM pool_fee_collections c WHERE c.song_id = p.song_id) c`;

const DAY_MS = 86_400_000;

/** The coins of `songIds` (launched and indexed ones only), keyed by song id. */
export async function findCoins(db: Queryable, { songIds, now }: { songIds: readonly string[]; now: Date }): Promise<Map<string, CoinRow>> {
  if (songIds.length === 0) return new Map();
  const rows = await db.manyOrNone<CoinRow>(`${COIN_VIEW} WHERE p.song_id = ANY($(songIds)::numeric[])`, {
    songIds,
    since: new Date(now.getTime() - DAY_MS),
  });
  return new Map(rows.map((row) => [row.song_id, row]));
}

export async function findCoin(db: Queryable, { songId, now }: { songId: bigint; now: Date }): Promise<CoinRow | null> {
  return (await findCoins(db, { songIds: [songId.toString()], now })).get(songId.toString()) ?? null;
}

/** Hook fees not yet collected into the parties' balances, wei. */
export function uncollectedSwapFees(row: Pick<CoinRow, 'swap_fees_eth' | 'collected_swap_fees_eth'>): bigint {
  return BigInt(row.swap_fees_eth) - BigInt(row.collected_swap_fees_eth);
}

export interface Holder {
  address: string;
  balance: bigint;
}

/**
 * The `limit` largest balances of `token` (lowercase) and how many addresses hold any, leaving out
 * `excluded` (lowercase): the PoolManager (the pool's own tokens) and the vault (collected LP fees
 * waiting for a claim) hold tokens nobody bought, so they are no holders a buyer counts.
 */
export async function tokenHolders(
  db: Queryable,
  { token, limit, excluded }: { token: string; limit: number; excluded: readonly string[] },
): Promise<{ top: Holder[]; count: number }> {
  const rows = await db.manyOrNone<{ holder: string; balance: string; holders: number }>(
    `WITH moves AS (
       SELECT to_address AS holder, amount FROM token_transfers WHERE token = $(token)
       UNION ALL
       SELECT from_address, -amount FROM token_transfers WHERE token = $(token) AND from_address <> '0x0000000000000000000000000000000000000000'),
     balances AS (SELECT holder, sum(amount) AS balance FROM moves WHERE holder <> ALL($(excluded)::text[])
                   GROUP BY holder HAVING sum(amount) > 0)
     SELECT b.holder, b.balance::text AS balance, (SELECT count(*)::int FROM balances) AS holders
       FROM balances b ORDER BY b.balance DESC, b.holder LIMIT $(limit)`,
    { token, limit, excluded },
  );
  return { top: rows.map((row) => ({ address: row.holder, balance: BigInt(row.balance) })), count: rows[0]?.holders ?? 0 };
}

/** Every song token `holder` (lowercase) holds a positive balance of: token (lowercase) -> balance. */
export async function holdingsOf(db: Queryable, holder: string): Promise<Map<string, bigint>> {
  const rows = await db.manyOrNone<{ token: string; balance: string }>(
    `SELECT token, sum(delta)::text AS balance FROM (
       SELECT token, amount AS delta FROM token_transfers WHERE to_address = $1
       UNION ALL
       SELECT token, -amount FROM token_transfers WHERE from_address = $1) m
      GROUP BY token HAVING sum(delta) > 0`,
    [holder],
  );
  return new Map(rows.map((row) => [row.token, BigInt(row.balance)]));
}

/** Song ids of the indexed launches whose token is one of `tokens` (lowercase): token -> song id. */
export async function songsOfTokens(db: Queryable, tokens: readonly string[]): Promise<Map<string, string>> {
  if (tokens.length === 0) return new Map();
  const rows = await db.manyOrNone<{ token: string; song_id: string }>(
    'SELECT lower(token) AS token, song_id::text AS song_id FROM song_pools WHERE lower(token) = ANY($1::text[])',
    [tokens],
  );
  return new Map(rows.map((row) => [row.token, row.song_id]));
}

/** Songs `creator` (lowercase) minted (SongMinted, through this oracle's signatures) or launched as creator, newest first. */
export async function songsOfCreator(
  db: Queryable,
  { creator, limit }: { creator: string; limit: number },
): Promise<{ songIds: string[]; total: number }> {
  const rows = await db.manyOrNone<{ song_id: string; total: number }>(
    `WITH songs AS (
       SELECT token_id::numeric AS song_id FROM mint_signatures WHERE minter = $(creator) AND token_id IS NOT NULL
       UNION
       SELECT song_id FROM song_pools WHERE lower(creator) = $(creator))
     SELECT song_id::text AS song_id, (SELECT count(*)::int FROM songs) AS total FROM songs ORDER BY song_id DESC LIMIT $(limit)`,
    { creator, limit },
  );
  return { songIds: rows.map((row) => row.song_id), total: rows[0]?.total ?? 0 };
}

/** Songs whose creator share goes to `account` (lowercase) now: the newest payout hand-over, else the creator. */
export async function songsPayingTo(db: Queryable, account: string): Promise<string[]> {
  return db.map(
    `SELECT p.song_id::text AS song_id FROM song_pools p
      WHERE COALESCE((SELECT r.recipient FROM payout_recipient_changes r WHERE r.song_id = p.song_id
                       ORDER BY r.block_number DESC, r.log_index DESC LIMIT 1), lower(p.creator)) = $1
      ORDER BY p.song_id DESC LIMIT 100`,
    [account],
    (row: { song_id: string }) => row.song_id,
  );
}

/** Songs whose launch named `account` (lowercase) the allocation's recipient and took one. */
export async function allocationsFor(db: Queryable, account: string): Promise<string[]> {
  return db.map(
    'SELECT song_id::text AS song_id FROM song_pools WHERE allocation_recipient = $1 AND allocation > 0 ORDER BY song_id DESC LIMIT 100',
    [account],
    (row: { song_id: string }) => row.song_id,
  );
}

export interface SwapPosition {
  blockNumber: bigint;
  logIndex: number;
}

export interface TradeRow {
  block_number: string;
  log_index: number;
  tx_hash: string;
  sender: string;
  amount0: string;
  amount1: string;
  sqrt_price_x96: string;
  block_time: Date;
}

export interface Trade extends TradeRow {
  side: 'buy' | 'sell';
  /** Wei the wallet paid (a buy, the hook fee included) or received (a sell, after it). */
  walletEth: bigint;
  /** Wei through the pool, |amount0| (before the hook fee). */
  poolEth: bigint;
  tokens: bigint;
  /** The hook's fee of this swap (its ERC-6909 mint); null when none was indexed next to it. */
  hookFee: bigint | null;
  /** The wallet on the other side of the token's transfer with the PoolManager; else the Swap's sender. */
  wallet: string;
}

interface Adjacent {
  block_number: string;
  log_index: number;
}

/** A burnt launch fee (`pool_burnt_fees`), paired with its swap by the indexer. */
export interface BurntFeeRow {
  block_number: string;
  swap_log_index: number;
  amount: string;
}

/**
 * Pairs each swap with its hook fee, all the trader paid or went without: the song's part and,
 * inside the launch fee window, the burnt part. The hook mints the song's part in beforeSwap
 * (right before the PoolManager's Swap log) or in afterSwap (right after it), so it is at the
 * swap's log index minus or plus one. Read in log order, a swap takes the fee just before it unless
 * an earlier swap took that one (its fee after it), else the fee just after it: two swaps in one
 * block, even in one transaction, never share or swap fees. The burnt part arrives already paired
 * (`swap_log_index`). Keys are `block:logIndex` of the swap.
 */
export function hookFeesOfSwaps(
  swaps: ReadonlyArray<Adjacent>,
  fees: ReadonlyArray<Adjacent & { fee: string }>,
  burnt: ReadonlyArray<BurntFeeRow> = [],
): Map<string, bigint> {
  const key = (block: string, index: number) => `${block}:${index}`;
  const unclaimed = new Map(fees.map((fee) => [key(fee.block_number, fee.log_index), BigInt(fee.fee)]));
  const ordered = [...swaps].sort((a, b) =>
    a.block_number === b.block_number ? a.log_index - b.log_index : BigInt(a.block_number) < BigInt(b.block_number) ? -1 : 1,
  );
  const paired = new Map<string, bigint>();
  for (const swap of ordered) {
    for (const candidate of [key(swap.block_number, swap.log_index - 1), key(swap.block_number, swap.log_index + 1)]) {
      const fee = unclaimed.get(candidate);
      if (fee === undefined) continue;
      unclaimed.delete(candidate);
      paired.set(key(swap.block_number, swap.log_index), fee);
      break;
    }
  }
  for (const burn of burnt) {
    const swap = key(burn.block_number, burn.swap_log_index);
    paired.set(swap, (paired.get(swap) ?? 0n) + BigInt(burn.amount));
  }
  return paired;
}

/** The pool's trades newest first, older than `before` when given: at most `limit`, each with its fee and wallet. */
export async function listTrades(
  db: Queryable,
  {
    poolId,
    token,
    poolManager,
    before,
    limit,
  }: { poolId: string; token: string; poolManager: string; before?: SwapPosition; limit: number },
): Promise<Trade[]> {
  const where = before === undefined ? '' : 'AND (block_number, log_index) < ($(block), $(index))';
  const rows = await db.manyOrNone<TradeRow>(
    `SELECT block_number::text AS block_number, log_index, tx_hash, sender, amount0::text AS amount0, amount1::text AS amount1,
            sqrt_price_x96::text AS sqrt_price_x96, block_time
       FROM pool_swaps WHERE pool_id = $(poolId) ${where}
      ORDER BY block_number DESC, log_index DESC LIMIT $(limit)`,
    { poolId, limit, block: before?.blockNumber.toString(), index: before?.logIndex },
  );
  if (rows.length === 0) return [];
  const blocks = rows.map((row) => BigInt(row.block_number));
  const span = {
    poolId,
    from: blocks.reduce((a, b) => (a < b ? a : b)).toString(),
    to: blocks.reduce((a, b) => (a > b ? a : b)).toString(),
  };
  // Every swap and fee of those blocks (a page may begin or end inside a block).
  const [swapsInBlocks, feesInBlocks, burntInBlocks, transfers] = await Promise.all([
    db.manyOrNone<Adjacent>(
      'SELECT block_number::text AS block_number, log_index FROM pool_swaps WHERE pool_id = $(poolId) AND block_number BETWEEN $(from) AND $(to)',
      span,
    ),
    db.manyOrNone<Adjacent & { fee: string }>(
      'SELECT block_number::text AS block_number, log_index, fee::text AS fee FROM pool_swap_fees WHERE pool_id = $(poolId) AND block_number BETWEEN $(from) AND $(to)',
      span,
    ),
    db.manyOrNone<BurntFeeRow>(
      `SELECT block_number::text AS block_number, swap_log_index, amount::text AS amount FROM pool_burnt_fees
        WHERE pool_id = $(poolId) AND block_number BETWEEN $(from) AND $(to)`,
      span,
    ),
    db.manyOrNone<{ tx_hash: string; log_index: number; from_address: string; to_address: string; amount: string }>(
      `SELECT tx_hash, log_index, from_address, to_address, amount::text AS amount FROM token_transfers
        WHERE token = $(token) AND tx_hash = ANY($(hashes)::text[]) AND (from_address = $(poolManager) OR to_address = $(poolManager))`,
      { token, poolManager, hashes: [...new Set(rows.map((row) => row.tx_hash))] },
    ),
  ]);
  const fees = hookFeesOfSwaps(swapsInBlocks, feesInBlocks, burntInBlocks);
  return rows.map((row) => {
    const amount0 = BigInt(row.amount0);
    const amount1 = BigInt(row.amount1);
    const side = amount0 < 0n ? 'buy' : 'sell';
    const poolEth = amount0 < 0n ? -amount0 : amount0;
    const tokens = amount1 < 0n ? -amount1 : amount1;
    const hookFee = fees.get(`${row.block_number}:${row.log_index}`) ?? null;
    // A buy's tokens leave the PoolManager for the wallet; a sale's arrive from it. The nearest such transfer of that amount.
    const counterpart = transfers
      .filter(
        (transfer) =>
          transfer.tx_hash === row.tx_hash &&
          BigInt(transfer.amount) === tokens &&
          (side === 'buy' ? transfer.from_address === poolManager : transfer.to_address === poolManager),
      )
      .sort((a, b) => Math.abs(a.log_index - row.log_index) - Math.abs(b.log_index - row.log_index))[0];
    const wallet =
      counterpart === undefined ? row.sender.toLowerCase() : side === 'buy' ? counterpart.to_address : counterpart.from_address;
    const fee = hookFee ?? 0n;
    return { ...row, side, poolEth, tokens, hookFee, wallet, walletEth: side === 'buy' ? poolEth + fee : poolEth - fee };
  });
}
