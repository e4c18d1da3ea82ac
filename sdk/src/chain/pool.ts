import type { Address, Hex } from 'viem';
import { encodeAbiParameters, hexToBigInt, keccak256, toHex } from 'viem';
import { poolManagerAbi, songPoolHookAbi, songVaultAbi } from '../generated/abis.ts';
import type { SongmintChain } from './context.ts';

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
  /** In-range liquidity. */
  liquidity: bigint;
  /** Tokens one ETH buys at the pool's current price, before fees (a float: for display). */
  tokensPerEth: number;
  /** The hook's swap fee now, in pips (1,000,000 = 100%). */
  swapFeePips: bigint;
  /** Every hook swap fee the pool has charged (wei). */
  totalSwapFees: bigint;
  /** Of those, the ones the vault has not collected yet (`collectFees` credits them). */
  uncollectedSwapFees: bigint;
  /** Fees credited by the vault and not yet claimed, per party (wei and token units). */
  fees: { creator: { eth: bigint; token: bigint }; platform: { eth: bigint; token: bigint } };
  payoutRecipient: Address;
}

/** v4-core's StateLibrary: pools live in the PoolManager's slot 6; liquidity three slots after slot0. */
const POOLS_SLOT = 6n;
const LIQUIDITY_OFFSET = 3n;

/** Everything about `songId`'s pool, read from the chain (the vault, the hook and the PoolManager). */
export async function readPool(
  chain: Pick<SongmintChain, 'publicClient' | 'contracts'>,
  { songId }: { songId: bigint },
): Promise<SongPool> {
  const { publicClient, contracts } = chain;
  const poolKey = await readPoolKey(chain, songId);
  const poolId = poolIdOf(poolKey);
  const stateSlot = hexToBigInt(keccak256(encodeAbiParameters([{ type: 'bytes32' }, { type: 'uint256' }], [poolId, POOLS_SLOT])));
  const read = (slot: bigint) =>
    publicClient.readContract({
      address: contracts.PoolManager,
      abi: poolManagerAbi,
      functionName: 'extsload',
      args: [toHex(slot, { size: 32 })],
    });
  const [slot0Word, liquidityWord, song, [creator, platform], totalSwapFees, collectedSwapFees] = await Promise.all([
    read(stateSlot),
    read(stateSlot + LIQUIDITY_OFFSET),
    publicClient.readContract({ address: contracts.SongVault, abi: songVaultAbi, functionName: 'songOf', args: [songId] }),
    publicClient.readContract({ address: contracts.SongVault, abi: songVaultAbi, functionName: 'feesOf', args: [songId] }),
    publicClient.readContract({ address: contracts.SongVault, abi: songVaultAbi, functionName: 'accruedSwapFees', args: [songId] }),
    publicClient.readContract({ address: contracts.SongVault, abi: songVaultAbi, functionName: 'swapFeesCollected', args: [songId] }),
  ]);
  const word = hexToBigInt(slot0Word);
  const sqrtPriceX96 = word & ((1n << 160n) - 1n);
  const rawTick = Number((word >> 160n) & 0xffffffn);
  const launchedAt = BigInt(song.launchedAt);
  const swapFeePips =
    launchedAt === 0n
      ? 0n
      : await publicClient.readContract({
          address: contracts.SongPoolHook,
          abi: songPoolHookAbi,
          functionName: 'swapFeePips',
          args: [launchedAt],
        });
  const sqrtPrice = Number(sqrtPriceX96) / 2 ** 96;
  return {
    songId,
    token: poolKey.currency1,
    poolId,
    poolKey,
    launchedAt,
    sqrtPriceX96,
    tick: rawTick >= 0x800000 ? rawTick - 0x1000000 : rawTick,
    liquidity: hexToBigInt(liquidityWord) & ((1n << 128n) - 1n),
    tokensPerEth: sqrtPrice * sqrtPrice,
    swapFeePips,
    totalSwapFees,
    uncollectedSwapFees: totalSwapFees - collectedSwapFees,
    fees: { creator: { eth: creator.eth, token: creator.token }, platform: { eth: platform.eth, token: platform.token } },
    payoutRecipient: song.payoutRecipient,
  };
}
