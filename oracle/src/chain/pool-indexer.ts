/**
 * Pool indexer: follows SongVault's launches and, for Songmint pools only, the Uniswap v4
 * PoolManager's `Initialize`, `Swap` and `ModifyLiquidity` events, the PoolManager's ERC-6909
 * `Transfer` mints of SongPoolHook's swap fees and SongVault's `FeesCollected`, into the tables of
 * migration 0010; and, for the coin pages (migration 0019), every song token's ERC-20 `Transfer`
 * (holders, and the wallet behind each swap) and SongVault's `PayoutRecipientUpdated`. The hook logs nothing per swap: each swap's fee is the PoolManager's
 * `Transfer(caller = hook, from = 0, to = song token, id = 0 (ETH), amount)`, in the swap's
 * transaction next to its `Swap` log, and the song token names the pool. Inside the launch fee
 * window the fee's part above the steady 1% is burnt: a second mint, to the hook itself, which
 * names no pool; it sits on the other side of the song's mint (beforeSwap: burn, song fee, Swap;
 * afterSwap: Swap, song fee, burn), so it is paired with its swap here (`swapOfBurn`, table
 * `pool_burnt_fees`) and counts in what the trader paid, never in the song's earnings. The pool
 * view (../domain/pools.ts) is derived from these rows when it is asked for, so undoing a reorg
 * is deleting the rows above the last block still on the chain: the shared log follower
 * (./log-follower.ts) does that, with the confirmations and the stored cursor of the mint watcher.
 * Each range of blocks is read whole from the chain first and then written in one transaction, so
 * no reader sees a launch without its first trades, and a range that fails leaves nothing.
 */
import { parseAbi, parseAbiItem } from 'viem';
import type { Address, Hex, PublicClient } from 'viem';
import type { Logger } from 'pino';
import type { Database, DatabaseTask } from '../../../core/src/db/database.ts';
import { createLogFollower, createPollLoop } from './log-follower.ts';
import type { BlockRange, PollLoop } from './log-follower.ts';

export const SONG_LAUNCHED_EVENT = parseAbiItem(
  'event SongLaunched(uint256 indexed songId, address indexed token, bytes32 indexed poolId, address creator, address launcher, address allocationRecipient, uint256 allocation, uint256 poolSupply, uint128 liquidity)',
);
export const FEES_COLLECTED_EVENT = parseAbiItem(
  'event FeesCollected(uint256 indexed songId, uint256 lpFeesEth, uint256 lpFeesToken, uint256 swapFeesEth, uint256 creatorEth, uint256 creatorToken, uint256 platformEth, uint256 platformToken)',
);
/** The PoolManager's ERC-6909 transfer log; a mint has `from` 0, and the hook's fee mints have `id` 0 (ETH). */
export const PAYOUT_RECIPIENT_UPDATED_EVENT = parseAbiItem(
  'event PayoutRecipientUpdated(uint256 indexed songId, address indexed previousRecipient, address indexed newRecipient)',
);
/** A song token's ERC-20 transfer (its mints come from the zero address). */
export const ERC20_TRANSFER_EVENT = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');
export const ERC6909_TRANSFER_EVENT = parseAbiItem(
  'event Transfer(address caller, address indexed from, address indexed to, uint256 indexed id, uint256 amount)',
);
export const INITIALIZE_EVENT = parseAbiItem(
  'event Initialize(bytes32 indexed id, address indexed currency0, address indexed currency1, uint24 fee, int24 tickSpacing, address hooks, uint160 sqrtPriceX96, int24 tick)',
);
export const SWAP_EVENT = parseAbiItem(
  'event Swap(bytes32 indexed id, address indexed sender, int128 amount0, int128 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick, uint24 fee)',
);
export const MODIFY_LIQUIDITY_EVENT = parseAbiItem(
  'event ModifyLiquidity(bytes32 indexed id, address indexed sender, int24 tickLower, int24 tickUpper, int256 liquidityDelta, bytes32 salt)',
);
const VAULT_HOOK_ABI = parseAbi(['function hook() view returns (address)']);

/** Pool ids per eth_getLogs topic filter (providers cap the size of an OR list). */
const POOL_IDS_PER_REQUEST = 200;

/** ERC-6909 id of native ETH claims in the PoolManager (the currency's address). */
const ETH_CLAIM_ID = 0n;
const ZERO_ADDRESS: Address = '0x0000000000000000000000000000000000000000';

/** Uniswap v4's PoolManager on Base (and on the local chain of `npm start`). */
export const BASE_POOL_MANAGER: Address = '0x498581fF718922c3f8e6A244956aF099B2652b2b';

export interface PoolIndexerOptions {
  db: Database;
  client: Pick<PublicClient, 'getBlockNumber' | 'getBlock' | 'getLogs' | 'readContract'>;
  songVaultAddress: Address;
  poolManagerAddress: Address;
  /** Blocks a log must be buried under before it is read. */
  confirmations: number;
  /** First block to read when no cursor is stored (the vault's deployment block). */
  startBlock: bigint;
  batchSize?: bigint;
  pollIntervalMs?: number;
  logger: Pick<Logger, 'info' | 'warn' | 'error'>;
}

export interface PoolIndexResult {
  throughBlock: bigint | null;
  rewoundTo: bigint | null;
  launches: number;
  swaps: number;
}

export interface PoolIndexer extends PollLoop {
  /** Indexes every confirmed block not indexed yet. */
  poll(signal?: AbortSignal): Promise<PoolIndexResult>;
}

interface LoggedAt {
  transactionHash: Hex | null;
  logIndex: number | null;
}

/**
 * The swap whose launch fee `burn` (the hook's ETH claim mint to itself) burnt, among `swaps` and the
 * song fee mints `songFees` of the same block: the hook logs the burn on the far side of the song's
 * mint from the Swap (beforeSwap: burn, song fee, Swap; afterSwap: Swap, song fee, burn), or right
 * next to the Swap when the song's part rounded down to nothing. Null when no swap of a Songmint
 * pool sits there (the hook serves no other pools, so that is a batch that does not hold it).
 */
export function swapOfBurn<S extends LoggedAt>(burn: LoggedAt, swaps: ReadonlyArray<S>, songFees: ReadonlyArray<LoggedAt>): S | null {
  if (burn.logIndex === null || burn.transactionHash === null) return null;
  const inTx = (log: LoggedAt) => log.transactionHash === burn.transactionHash;
  const swapAt = (index: number) => swaps.find((swap) => inTx(swap) && swap.logIndex === index) ?? null;
  const feeAt = (index: number) => songFees.some((fee) => inTx(fee) && fee.logIndex === index);
  const i = burn.logIndex;
  if (feeAt(i + 1) && swapAt(i + 2) !== null) return swapAt(i + 2);
  if (feeAt(i - 1) && swapAt(i - 2) !== null) return swapAt(i - 2);
  return swapAt(i + 1) ?? swapAt(i - 1);
}

/** Deletes every indexed row of blocks above `block` (a reorg took them away). */
async function deleteAbove(t: DatabaseTask, block: bigint): Promise<void> {
  const above = block.toString();
  for (const table of [
    'pool_swaps',
    'pool_liquidity_changes',
    'pool_swap_fees',
    'pool_burnt_fees',
    'pool_fee_collections',
    'token_transfers',
    'payout_recipient_changes',
  ]) {
    await t.none(`DELETE FROM ${table} WHERE block_number > $1`, [above]);
  }
  await t.none('DELETE FROM song_pools WHERE launch_block > $1', [above]);
}

interface LogPosition {
  blockNumber: bigint | null;
  logIndex: number | null;
  transactionHash: Hex | null;
}

/** Block number and log index of a mined log (getLogs never returns pending ones). */
function positionOf(log: LogPosition): { block: string; index: number; tx: Hex } {
  if (log.blockNumber === null || log.logIndex === null || log.transactionHash === null)
    throw new Error('eth_getLogs returned a pending log');
  return { block: log.blockNumber.toString(), index: log.logIndex, tx: log.transactionHash };
}

/** The pool indexer's `chain_cursors` row for `vault` (the pool routes show how far it read). */
export function poolCursorName(vault: Address): string {
  return `SongPools:${vault.toLowerCase()}`;
}

export function createPoolIndexer(options: PoolIndexerOptions): PoolIndexer {
  const { db, client } = options;
  const vault = options.songVaultAddress;
  let hook: Address | undefined;
  const follower = createLogFollower({
    db,
    client,
    cursorName: poolCursorName(vault),
    confirmations: options.confirmations,
    startBlock: options.startBlock,
    ...(options.batchSize === undefined ? {} : { batchSize: options.batchSize }),
    rewind: deleteAbove,
    logger: options.logger,
  });

  async function blockTimes(blockNumbers: ReadonlyArray<bigint>): Promise<Map<bigint, Date>> {
    const times = new Map<bigint, Date>();
    for (const blockNumber of new Set(blockNumbers)) {
      const block = await client.getBlock({ blockNumber });
      times.set(blockNumber, new Date(Number(block.timestamp) * 1000));
    }
    return times;
  }

  /**
   * Everything a range of blocks holds for the pools, read from the chain before any row is
   * written: the vault's logs, and the PoolManager's and song tokens' logs of every Songmint pool
   * launched up to the range's end (those indexed before, and those launched in it).
   */
  async function readRange({ fromBlock, toBlock }: BlockRange) {
    // The hook is immutable in the vault: one read for the life of the indexer.
    hook ??= await client.readContract({ address: vault, abi: VAULT_HOOK_ABI, functionName: 'hook' });
    const feeMinter = hook.toLowerCase();
    const songmintLogs = await client.getLogs({
      address: vault,
      events: [SONG_LAUNCHED_EVENT, FEES_COLLECTED_EVENT, PAYOUT_RECIPIENT_UPDATED_EVENT],
      fromBlock,
      toBlock,
      strict: true,
    });
    const launches = songmintLogs.flatMap((log) => (log.eventName === 'SongLaunched' ? [log] : []));
    const launchTimes = await blockTimes(launches.map((log) => log.blockNumber).filter((n): n is bigint => n !== null));
    // Songmint pools only: the PoolManager serves every pool on the chain.
    const indexed = await db.map(
      'SELECT pool_id, token FROM song_pools WHERE launch_block <= $1',
      [toBlock.toString()],
      (row: { pool_id: Hex; token: Address }) => [row.pool_id.toLowerCase(), row.token.toLowerCase()] as const,
    );
    const launched = launches.map((log) => [log.args.poolId.toLowerCase(), log.args.token.toLowerCase()] as const);
    const tokenOfPool = new Map<string, string>([...indexed, ...launched]);
    const pools = [...tokenOfPool].map(([poolId, token]) => ({ poolId: poolId as Hex, token: token as Address }));
    const poolOfToken = new Map(pools.map((pool) => [pool.token, pool.poolId]));
    // Burnt launch fees: the hook's ETH claim mint to itself (they name no pool; paired per batch below).
    const burns =
      pools.length === 0
        ? []
        : (
            await client.getLogs({
              address: options.poolManagerAddress,
              event: ERC6909_TRANSFER_EVENT,
              args: { from: ZERO_ADDRESS, to: hook, id: ETH_CLAIM_ID },
              fromBlock,
              toBlock,
              strict: true,
            })
          ).filter((log) => log.args.caller.toLowerCase() === feeMinter);
    const batches = [];
    for (let i = 0; i < pools.length; i += POOL_IDS_PER_REQUEST) {
      const batch = pools.slice(i, i + POOL_IDS_PER_REQUEST);
      const range = { address: options.poolManagerAddress, fromBlock, toBlock, strict: true } as const;
      const byPool = { ...range, args: { id: batch.map((pool) => pool.poolId) } } as const;
      const [initialized, swaps, modified, minted, transfers] = await Promise.all([
        client.getLogs({ ...byPool, event: INITIALIZE_EVENT }),
        client.getLogs({ ...byPool, event: SWAP_EVENT }),
        client.getLogs({ ...byPool, event: MODIFY_LIQUIDITY_EVENT }),
        client.getLogs({
          ...range,
          event: ERC6909_TRANSFER_EVENT,
          args: { from: ZERO_ADDRESS, to: batch.map((pool) => pool.token), id: ETH_CLAIM_ID },
        }),
        // Each song token's own transfers: who holds it, and the wallet on the other side of each swap.
        client.getLogs({ ...range, address: batch.map((pool) => pool.token), event: ERC20_TRANSFER_EVENT }),
      ]);
      // The hook's fee of a swap: its ETH claim mint to the pool's token (only the hook mints
      // claims in a song token's name; `caller` is not indexed, so it is checked here).
      const songFees = minted.filter((log) => log.args.caller.toLowerCase() === feeMinter);
      const swapTimes = await blockTimes(swaps.map((log) => log.blockNumber).filter((n): n is bigint => n !== null));
      batches.push({ initialized, swaps, modified, songFees, transfers, swapTimes });
    }
    return { songmintLogs, launchTimes, poolOfToken, burns, batches };
  }

  /**
   * Writes a range's rows in one transaction: a launch is never seen without its pool's first
   * trades and transfers, nor a swap without its fee, and a range that fails to write leaves
   * nothing of itself (it is read again from the same cursor).
   */
  async function writeRange(t: DatabaseTask, read: Awaited<ReturnType<typeof readRange>>, result: PoolIndexResult): Promise<void> {
    for (const log of read.songmintLogs) {
      const at = positionOf(log);
      if (log.eventName === 'SongLaunched') {
        const { args } = log;
        // A launch read again after migration 0019 gains its allocation recipient; it counts once.
        const written = await t.manyOrNone<{ inserted: boolean }>(
          `INSERT INTO song_pools (song_id, pool_id, token, creator, launcher, allocation, pool_supply, launch_liquidity,
                                   launch_block, launch_log_index, launch_tx_hash, launched_at, allocation_recipient)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
           ON CONFLICT (song_id) DO UPDATE SET allocation_recipient = EXCLUDED.allocation_recipient
            WHERE song_pools.allocation_recipient IS NULL
           RETURNING (xmax = 0) AS inserted`,
          [
            args.songId.toString(),
            args.poolId.toLowerCase(),
            args.token,
            args.creator,
            args.launcher,
            args.allocation.toString(),
            args.poolSupply.toString(),
            args.liquidity.toString(),
            at.block,
            at.index,
            at.tx,
            read.launchTimes.get(BigInt(at.block)),
            args.allocationRecipient.toLowerCase(),
          ],
        );
        result.launches += written.filter((row) => row.inserted).length;
      } else if (log.eventName === 'PayoutRecipientUpdated') {
        await t.none(
          'INSERT INTO payout_recipient_changes (block_number, log_index, song_id, recipient) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING',
          [at.block, at.index, log.args.songId.toString(), log.args.newRecipient.toLowerCase()],
        );
      } else {
        const { args } = log;
        await t.none(
          `INSERT INTO pool_fee_collections (block_number, log_index, song_id, lp_fees_eth, lp_fees_token, swap_fees_eth,
                                             creator_eth, creator_token, platform_eth, platform_token)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT DO NOTHING`,
          [
            at.block,
            at.index,
            args.songId.toString(),
            args.lpFeesEth.toString(),
            args.lpFeesToken.toString(),
            args.swapFeesEth.toString(),
            args.creatorEth.toString(),
            args.creatorToken.toString(),
            args.platformEth.toString(),
            args.platformToken.toString(),
          ],
        );
      }
    }
    for (const { initialized, swaps, modified, songFees, transfers, swapTimes } of read.batches) {
      for (const log of initialized) {
        await t.none('UPDATE song_pools SET init_sqrt_price_x96 = $2, init_tick = $3 WHERE pool_id = $1', [
          log.args.id.toLowerCase(),
          log.args.sqrtPriceX96.toString(),
          log.args.tick,
        ]);
      }
      for (const log of swaps) {
        const at = positionOf(log);
        const { args } = log;
        const inserted = await t.result(
          `INSERT INTO pool_swaps (block_number, log_index, pool_id, tx_hash, sender, amount0, amount1, sqrt_price_x96, liquidity, tick, fee_pips, block_time)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) ON CONFLICT DO NOTHING`,
          [
            at.block,
            at.index,
            args.id.toLowerCase(),
            at.tx,
            args.sender,
            args.amount0.toString(),
            args.amount1.toString(),
            args.sqrtPriceX96.toString(),
            args.liquidity.toString(),
            args.tick,
            args.fee,
            swapTimes.get(BigInt(at.block)),
          ],
        );
        result.swaps += inserted.rowCount;
      }
      for (const log of songFees) {
        const poolId = read.poolOfToken.get(log.args.to.toLowerCase() as Address);
        if (poolId === undefined) continue;
        const at = positionOf(log);
        await t.none('INSERT INTO pool_swap_fees (block_number, log_index, pool_id, fee) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING', [
          at.block,
          at.index,
          poolId,
          log.args.amount.toString(),
        ]);
      }
      for (const log of read.burns) {
        const swap = swapOfBurn(log, swaps, songFees);
        if (swap === null) continue;
        const at = positionOf(log);
        await t.none(
          `INSERT INTO pool_burnt_fees (block_number, log_index, pool_id, swap_log_index, amount)
           VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`,
          [at.block, at.index, swap.args.id.toLowerCase(), positionOf(swap).index, log.args.amount.toString()],
        );
      }
      for (const log of transfers) {
        const at = positionOf(log);
        await t.none(
          `INSERT INTO token_transfers (block_number, log_index, token, tx_hash, from_address, to_address, amount)
           VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING`,
          [
            at.block,
            at.index,
            log.address.toLowerCase(),
            at.tx,
            log.args.from.toLowerCase(),
            log.args.to.toLowerCase(),
            log.args.value.toString(),
          ],
        );
      }
      for (const log of modified) {
        const at = positionOf(log);
        await t.none(
          `INSERT INTO pool_liquidity_changes (block_number, log_index, pool_id, tick_lower, tick_upper, liquidity_delta)
           VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING`,
          [at.block, at.index, log.args.id.toLowerCase(), log.args.tickLower, log.args.tickUpper, log.args.liquidityDelta.toString()],
        );
      }
    }
  }

  async function indexRange(range: BlockRange, result: PoolIndexResult): Promise<void> {
    const read = await readRange(range);
    await db.tx((t) => writeRange(t, read, result));
  }

  async function poll(signal?: AbortSignal): Promise<PoolIndexResult> {
    const result: PoolIndexResult = { throughBlock: null, rewoundTo: null, launches: 0, swaps: 0 };
    const followed = await follower.poll((range) => indexRange(range, result), signal);
    result.throughBlock = followed.throughBlock;
    result.rewoundTo = followed.rewoundTo;
    return result;
  }

  const loop = createPollLoop({
    poll,
    intervalMs: options.pollIntervalMs ?? 4000,
    onResult: (result) => {
      if (result.launches > 0 || result.swaps > 0 || result.rewoundTo !== null) {
        options.logger.info(
          { ...result, throughBlock: result.throughBlock?.toString(), rewoundTo: result.rewoundTo?.toString() },
          'pools indexed',
        );
      }
    },
    logger: options.logger,
    failureMessage: 'pool indexer poll failed; retrying',
  });
  return { poll, start: loop.start, stop: loop.stop };
}
