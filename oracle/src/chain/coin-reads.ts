/**
 * What the coin pages and portfolios read from the chain at answer time rather than index: the
 * platform's share of every fee (immutable, read once), the launch allocations with their vesting
 * (`allocationOf`: total, claimed, vested now, cliff and vesting end), the ETH the pool's locked position holds now, and what selling an amount of a
 * song's token would pay now (Uniswap's V4Quoter on the real pool: the LP fee and the hook's
 * launch fee included). All reads of one answer are pinned to one block.
 */
import { BaseError, ContractFunctionRevertedError, encodeAbiParameters, hexToBigInt, keccak256, parseAbi, toHex, zeroAddress } from 'viem';
import type { Address, PublicClient } from 'viem';

const SONG_VAULT_COIN_ABI = parseAbi([
  'struct PoolKey { address currency0; address currency1; uint24 fee; int24 tickSpacing; address hooks; }',
  'function platformShareBps() view returns (uint16)',
  'function tickUpper() view returns (int24)',
  'function poolKeyOf(uint256 songId) view returns (PoolKey)',
  'function allocationOf(uint256 songId) view returns (address recipient, uint256 total, uint256 claimed, uint256 vested, uint64 cliffEnd, uint64 vestingEnd)',
]);
const POOL_MANAGER_ABI = parseAbi(['function extsload(bytes32 slot) view returns (bytes32)']);
const V4_QUOTER_ABI = parseAbi([
  'struct PoolKey { address currency0; address currency1; uint24 fee; int24 tickSpacing; address hooks; }',
  'struct QuoteExactSingleParams { PoolKey poolKey; bool zeroForOne; uint128 exactAmount; bytes hookData; }',
  'function quoteExactInputSingle(QuoteExactSingleParams params) returns (uint256 amountOut, uint256 gasEstimate)',
]);

/** v4-core's StateLibrary: pools live in the PoolManager's slot 6; liquidity three slots after slot0. */
const POOLS_SLOT = 6n;
const LIQUIDITY_OFFSET = 3n;
const Q96 = 2n ** 96n;
const MAX_UINT128 = 2n ** 128n;

/** A launch allocation at one block; amounts in token base units, all zero when the song took none. */
export interface HeldAllocation {
  songId: bigint;
  /** Null when the song took no allocation. */
  recipient: Address | null;
  /** Tokens the recipient gets in all. */
  total: bigint;
  /** Tokens minted to it so far. */
  claimed: bigint;
  /** Tokens vested at the block, the claimed ones included. */
  vested: bigint;
  /** Tokens the vault has not released yet (vested or not): `total - claimed`; 0 once all is claimed. */
  amount: bigint;
  /** Unix seconds until which nothing vests. */
  cliffEnd: bigint;
  /** Unix seconds from which everything has vested. */
  vestingEnd: bigint;
  /** Unix seconds from which `claimAllocation` can pay anything: the second after `cliffEnd`. */
  claimableAt: bigint;
}

/** A song pool as a seller meets it now. */
export interface PoolNow {
  songId: bigint;
  /** Wei the locked position holds at the pool's price: the most every seller together can take out, before fees. */
  eth: bigint;
}

export interface SaleQuote {
  songId: bigint;
  tokens: bigint;
  /** Wei selling `tokens` pays now, fees included (the V4Quoter's exact-input quote); null: the pool cannot buy that many back. */
  eth: bigint | null;
}

export interface CoinChainReads {
  /** SongVault.platformShareBps (immutable): read once. */
  platformShareBps(): Promise<number>;
  /** SongVault.allocationOf for each song, in one block; the block with them. */
  allocations(songIds: ReadonlyArray<bigint>): Promise<{ blockNumber: bigint; allocations: HeldAllocation[] }>;
  /** The ETH each song's pool holds now and what selling each amount would pay, in one block. */
  market(
    songIds: ReadonlyArray<bigint>,
    sales: ReadonlyArray<{ songId: bigint; tokens: bigint }>,
  ): Promise<{ blockNumber: bigint; pools: PoolNow[]; sales: SaleQuote[] }>;
}

export interface CoinChainAddresses {
  vault: Address;
  poolManager: Address;
  quoter: Address;
}

type PoolKey = { currency0: Address; currency1: Address; fee: number; tickSpacing: number; hooks: Address };

function poolIdOf(key: PoolKey): `0x${string}` {
  return keccak256(
    encodeAbiParameters(
      [{ type: 'address' }, { type: 'address' }, { type: 'uint24' }, { type: 'int24' }, { type: 'address' }],
      [key.currency0, key.currency1, key.fee, key.tickSpacing, key.hooks],
    ),
  );
}

/**
 * ETH (wei) of a position of `liquidity` between the price and `tickUpper` (the launch price, its
 * top): L * 2^96 / sqrtP - L * 2^96 / sqrtP_upper, as Uniswap's SqrtPriceMath counts amount0.
 * The upper bound's square root from its tick in floating point (a display figure, 1e-15 close).
 */
export function ethInRange(liquidity: bigint, sqrtPriceX96: bigint, tickUpper: number): bigint {
  const sqrtUpperX96 = BigInt(Math.floor(Math.pow(1.0001, tickUpper / 2) * 2 ** 96));
  if (liquidity === 0n || sqrtPriceX96 === 0n || sqrtPriceX96 >= sqrtUpperX96) return 0n;
  return (liquidity * Q96) / sqrtPriceX96 - (liquidity * Q96) / sqrtUpperX96;
}

export function createCoinChainReads(
  client: Pick<PublicClient, 'getBlockNumber' | 'readContract' | 'simulateContract'>,
  { vault, poolManager, quoter }: CoinChainAddresses,
): CoinChainReads {
  let share: Promise<number> | undefined;
  let upper: Promise<number> | undefined;
  const once = <T>(read: () => Promise<T>, reset: () => void) =>
    read().catch((error: unknown) => {
      reset();
      throw error;
    });
  const tickUpper = () =>
    (upper ??= once(
      () => client.readContract({ address: vault, abi: SONG_VAULT_COIN_ABI, functionName: 'tickUpper' }),
      () => (upper = undefined),
    ));
  const poolKey = async (songId: bigint, blockNumber: bigint): Promise<PoolKey> => {
    const key = await client.readContract({
      address: vault,
      abi: SONG_VAULT_COIN_ABI,
      functionName: 'poolKeyOf',
      args: [songId],
      blockNumber,
    });
    return { currency0: key.currency0, currency1: key.currency1, fee: key.fee, tickSpacing: key.tickSpacing, hooks: key.hooks };
  };
  const poolWord = async (key: PoolKey, offset: bigint, blockNumber: bigint) => {
    const slot = hexToBigInt(keccak256(encodeAbiParameters([{ type: 'bytes32' }, { type: 'uint256' }], [poolIdOf(key), POOLS_SLOT])));
    return hexToBigInt(
      await client.readContract({
        address: poolManager,
        abi: POOL_MANAGER_ABI,
        functionName: 'extsload',
        args: [toHex(slot + offset, { size: 32 })],
        blockNumber,
      }),
    );
  };
  const saleQuote = async (key: PoolKey, tokens: bigint, blockNumber: bigint): Promise<bigint | null> => {
    if (tokens <= 0n || tokens >= MAX_UINT128) return tokens <= 0n ? 0n : null;
    try {
      const { result } = await client.simulateContract({
        address: quoter,
        abi: V4_QUOTER_ABI,
        functionName: 'quoteExactInputSingle',
        args: [{ poolKey: key, zeroForOne: false, exactAmount: tokens, hookData: '0x' }],
        blockNumber,
      });
      return result[0];
    } catch (error) {
      // The quoter reverts when the pool cannot fill the sale (its buyers' ETH runs out first).
      if (error instanceof BaseError && error.walk((cause) => cause instanceof ContractFunctionRevertedError) !== null) return null;
      throw error;
    }
  };
  return {
    platformShareBps() {
      share ??= once(
        () => client.readContract({ address: vault, abi: SONG_VAULT_COIN_ABI, functionName: 'platformShareBps' }),
        () => (share = undefined),
      );
      return share;
    },
    async allocations(songIds) {
      const blockNumber = await client.getBlockNumber();
      const allocations = await Promise.all(
        songIds.map(async (songId) => {
          const [recipient, total, claimed, vested, cliffEnd, vestingEnd] = await client.readContract({
            address: vault,
            abi: SONG_VAULT_COIN_ABI,
            functionName: 'allocationOf',
            args: [songId],
            blockNumber,
          });
          return {
            songId,
            recipient: recipient === zeroAddress ? null : recipient,
            total,
            claimed,
            vested,
            amount: total - claimed,
            cliffEnd,
            vestingEnd,
            claimableAt: recipient === zeroAddress ? 0n : cliffEnd + 1n,
          };
        }),
      );
      return { blockNumber, allocations };
    },
    async market(songIds, sales) {
      const blockNumber = await client.getBlockNumber();
      const keys = new Map<bigint, Promise<PoolKey>>();
      const keyOf = (songId: bigint) => {
        let key = keys.get(songId);
        if (key === undefined) keys.set(songId, (key = poolKey(songId, blockNumber)));
        return key;
      };
      const [pools, quotes] = await Promise.all([
        Promise.all(
          songIds.map(async (songId) => {
            const key = await keyOf(songId);
            const [slot0, liquidity, top] = await Promise.all([
              poolWord(key, 0n, blockNumber),
              poolWord(key, LIQUIDITY_OFFSET, blockNumber),
              tickUpper(),
            ]);
            return { songId, eth: ethInRange(liquidity & (MAX_UINT128 - 1n), slot0 & ((1n << 160n) - 1n), top) };
          }),
        ),
        Promise.all(
          sales.map(async ({ songId, tokens }) => ({ songId, tokens, eth: await saleQuote(await keyOf(songId), tokens, blockNumber) })),
        ),
      ]);
      return { blockNumber, pools, sales: quotes };
    },
  };
}
