import type { Address, BlockTag, Hex } from 'viem';
import { encodeAbiParameters, hexToBigInt, keccak256, toHex } from 'viem';
import { poolManagerAbi, songPoolHookAbi, songTokenAbi, songVaultAbi } from '../generated/abis.ts';
import type { SongmintChain } from './context.ts';
import { nextBlock } from './next-block.ts';
import type { NextBlock } from './next-block.ts';

/** A Uniswap v4 pool key. Song pools pair native ETH (currency0, the zero address) with the song's token. */
export interface PoolKey {
  currency0: Address;
  currency1: Address;
  fee: number;
  tickSpacing: number;
  hooks: Address;
}

/** The v4 PoolId of `key`: keccak256(abi.encode(key)). */
export function poolIdOf(key: PoolKey): Hex {
  return keccak256(
    encodeAbiParameters(
      [{ type: 'address' }, { type: 'address' }, { type: 'uint24' }, { type: 'int24' }, { type: 'address' }],
      [key.currency0, key.currency1, key.fee, key.tickSpacing, key.hooks],
    ),
  );
}

/** The pool key of `songId`'s pool (launched or not yet) from the vault. */
export async function readPoolKey(chain: Pick<SongmintChain, 'publicClient' | 'contracts'>, songId: bigint): Promise<PoolKey> {
  const key = await chain.publicClient.readContract({
    address: chain.contracts.SongVault,
    abi: songVaultAbi,
    functionName: 'poolKeyOf',
    args: [songId],
  });
  return { currency0: key.currency0, currency1: key.currency1, fee: key.fee, tickSpacing: key.tickSpacing, hooks: key.hooks };
}

export interface SongPool {
  songId: bigint;
  token: Address;
  poolId: Hex;
  poolKey: PoolKey;
  /** Unix seconds; 0 when the song is not launched. */
  launchedAt: bigint;
  sqrtPriceX96: bigint;
  tick: number;
  /** In-range liquidity (v4's L, a square-root unit: `reserves` is what it means in ETH and tokens). */
  liquidity: bigint;
  /**
   * What the locked position holds at the current price: ETH (wei, from L between the price and the
   * range's top; float precision) and tokens (the PoolManager's balance of the song's token, which
   * only this pool holds).
   */
  reserves: { eth: bigint; token: bigint };
  /** Tokens one ETH buys at the pool's current price, before fees (a float: for display). */
  tokensPerEth: number;
  /** The hook's swap fee in the block a trade sent now joins (`nextBlock`), in pips (1,000,000 = 100%). */
  swapFeePips: bigint;
  /** The pool's LP fee, in pips. */
  lpFeePips: bigint;
  /** The block `swapFeePips` is for: the pending block. */
  feeBlock: NextBlock;
  /** Every hook swap fee the pool has charged (wei). */
  totalSwapFees: bigint;
  /** Of those, the ones the vault has not collected yet (`collectFees` credits them). */
  uncollectedSwapFees: bigint;
  /** Fees credited by the vault and not yet claimed, per party (wei and token units). */
  fees: { creator: { eth: bigint; token: bigint }; platform: { eth: bigint; token: bigint } };
  /**
   * What `SongVault.claim` pays each party now (`claimableFeesOf`): `fees`, less the token credits
   * while the launch fee window lasts (the vault pays song tokens only after it).
   */
  claimable: { creator: { eth: bigint; token: bigint }; platform: { eth: bigint; token: bigint } };
  payoutRecipient: Address;
}

/** v4-core's StateLibrary: pools live in the PoolManager's slot 6; liquidity three slots after slot0. */
const POOLS_SLOT = 6n;
const LIQUIDITY_OFFSET = 3n;

type Reader = Pick<SongmintChain, 'publicClient' | 'contracts'>;

/** One word of `poolKey`'s state in the PoolManager (`offset` slots after slot0). */
function readPoolWord(chain: Reader, poolKey: PoolKey, offset: bigint, blockTag: BlockTag = 'latest'): Promise<Hex> {
  const stateSlot = hexToBigInt(
    keccak256(encodeAbiParameters([{ type: 'bytes32' }, { type: 'uint256' }], [poolIdOf(poolKey), POOLS_SLOT])),
  );
  return chain.publicClient.readContract({
    address: chain.contracts.PoolManager,
    abi: poolManagerAbi,
    functionName: 'extsload',
    args: [toHex(stateSlot + offset, { size: 32 })],
    blockTag,
  });
}

/** ETH (wei) a position of `liquidity` holds between the price (`sqrtPrice`, real units) and `tickUpper`: L(1/√P - 1/√P_upper). */
function ethInRange(liquidity: bigint, sqrtPrice: number, tickUpper: number): bigint {
  const sqrtUpper = Math.pow(1.0001, tickUpper / 2);
  if (liquidity === 0n || sqrtPrice <= 0 || sqrtPrice >= sqrtUpper) return 0n;
  return BigInt(Math.floor(Number(liquidity) * (1 / sqrtPrice - 1 / sqrtUpper)));
}

/** The pool's slot0: its price (Q64.96 square root of tokens per ETH) and tick. */
export async function poolSlot0(
  chain: Reader,
  poolKey: PoolKey,
  blockTag: BlockTag = 'latest',
): Promise<{ sqrtPriceX96: bigint; tick: number }> {
  const word = hexToBigInt(await readPoolWord(chain, poolKey, 0n, blockTag));
  const rawTick = Number((word >> 160n) & 0xffffffn);
  return { sqrtPriceX96: word & ((1n << 160n) - 1n), tick: rawTick >= 0x800000 ? rawTick - 0x1000000 : rawTick };
}

/** The pool's in-range liquidity (v4's L) at `blockTag`. */
export async function poolLiquidity(chain: Reader, poolKey: PoolKey, blockTag: BlockTag = 'latest'): Promise<bigint> {
  return hexToBigInt(await readPoolWord(chain, poolKey, LIQUIDITY_OFFSET, blockTag)) & ((1n << 128n) - 1n);
}

/** Everything about `songId`'s pool, read from the chain (the vault, the hook and the PoolManager). */
export async function readPool(
  chain: Pick<SongmintChain, 'publicClient' | 'contracts'>,
  { songId }: { songId: bigint },
): Promise<SongPool> {
  const { publicClient, contracts } = chain;
  const poolKey = await readPoolKey(chain, songId);
  const poolId = poolIdOf(poolKey);
  const [
    { sqrtPriceX96, tick },
    liquidityWord,
    song,
    [creator, platform],
    [creatorNow, platformNow],
    totalSwapFees,
    collectedSwapFees,
    next,
    tickUpper,
    tokensHeld,
  ] = await Promise.all([
    poolSlot0(chain, poolKey),
    readPoolWord(chain, poolKey, LIQUIDITY_OFFSET),
    publicClient.readContract({ address: contracts.SongVault, abi: songVaultAbi, functionName: 'songOf', args: [songId] }),
    publicClient.readContract({ address: contracts.SongVault, abi: songVaultAbi, functionName: 'feesOf', args: [songId] }),
    publicClient.readContract({ address: contracts.SongVault, abi: songVaultAbi, functionName: 'claimableFeesOf', args: [songId] }),
    publicClient.readContract({ address: contracts.SongVault, abi: songVaultAbi, functionName: 'accruedSwapFees', args: [songId] }),
    publicClient.readContract({ address: contracts.SongVault, abi: songVaultAbi, functionName: 'swapFeesCollected', args: [songId] }),
    nextBlock(publicClient),
    publicClient.readContract({ address: contracts.SongVault, abi: songVaultAbi, functionName: 'tickUpper' }),
    publicClient
      .readContract({ address: poolKey.currency1, abi: songTokenAbi, functionName: 'balanceOf', args: [contracts.PoolManager] })
      .catch(() => 0n),
  ]);
  const liquidity = hexToBigInt(liquidityWord) & ((1n << 128n) - 1n);
  const launchedAt = BigInt(song.launchedAt);
  // The fee a trade sent now pays: the hook's, in the block it joins (not the latest block's).
  const swapFeePips =
    launchedAt === 0n
      ? 0n
      : await publicClient.readContract({
          address: contracts.SongPoolHook,
          abi: songPoolHookAbi,
          functionName: 'swapFeePips',
          args: [launchedAt],
          blockTag: 'pending',
        });
  const sqrtPrice = Number(sqrtPriceX96) / 2 ** 96;
  return {
    songId,
    token: poolKey.currency1,
    poolId,
    poolKey,
    launchedAt,
    sqrtPriceX96,
    tick,
    liquidity,
    reserves: { eth: ethInRange(liquidity, sqrtPrice, tickUpper), token: tokensHeld },
    tokensPerEth: sqrtPrice * sqrtPrice,
    swapFeePips,
    lpFeePips: BigInt(poolKey.fee),
    feeBlock: next,
    totalSwapFees,
    uncollectedSwapFees: totalSwapFees - collectedSwapFees,
    fees: { creator: { eth: creator.eth, token: creator.token }, platform: { eth: platform.eth, token: platform.token } },
    claimable: {
      creator: { eth: creatorNow.eth, token: creatorNow.token },
      platform: { eth: platformNow.eth, token: platformNow.token },
    },
    payoutRecipient: song.payoutRecipient,
  };
}
