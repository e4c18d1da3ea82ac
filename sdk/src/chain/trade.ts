import type { Address, Hash, Hex, TransactionReceipt } from 'viem';
import { concatHex, encodeAbiParameters, maxUint256, parseEventLogs, toHex } from 'viem';
import { SongmintClientError } from '../errors.ts';
import { poolManagerAbi, songPoolHookAbi, songTokenAbi, v4QuoterAbi, v4RouterAbi } from '../generated/abis.ts';
import type { SongmintChain } from './context.ts';
import { accountOf } from './context.ts';
import { poolIdOf, readPoolKey } from './pool.ts';
import type { PoolKey } from './pool.ts';
import { confirmed } from './receipt.ts';

/** v4-periphery Actions used here. */
const SWAP_EXACT_IN_SINGLE = 0x06;
const SETTLE_ALL = 0x0c;
const TAKE_ALL = 0x0f;
const BPS = 10_000n;
/** Default slippage: 1%. */
export const DEFAULT_SLIPPAGE_BPS = 100;

const POOL_KEY_COMPONENTS = [
  { name: 'currency0', type: 'address' },
  { name: 'currency1', type: 'address' },
  { name: 'fee', type: 'uint24' },
  { name: 'tickSpacing', type: 'int24' },
  { name: 'hooks', type: 'address' },
] as const;

export interface SwapParameters {
  songId: bigint;
  /** `buy`: wei of ETH to spend; `sell`: token units (18 decimals) to sell. */
  amountIn: bigint;
  /** The most the result may fall short of the quote, in basis points (default 100 = 1%). */
  slippageBps?: number;
}

export interface SwapResult {
  songId: bigint;
  amountIn: bigint;
  /** What arrived: tokens for a buy, ETH (wei) for a sell. */
  amountOut: bigint;
  /** The V4Quoter's quote before the swap, fees included. */
  quotedAmountOut: bigint;
  /** The floor the router enforced: the quote less the slippage. */
  minAmountOut: bigint;
  /** The hook's swap fee, in wei. */
  hookFee: bigint;
  /** The token approval for the router, when a sell needed one. */
  approveHash?: Hash;
  hash: Hash;
  receipt: TransactionReceipt;
}

/** Buys the song's token with exact ETH in, through v4-periphery's V4Router. */
export function buy(chain: SongmintChain, parameters: SwapParameters): Promise<SwapResult> {
  return swapExactIn(chain, parameters, true);
}

/** Sells exact tokens for ETH through v4-periphery's V4Router (approving the router first when needed). */
export function sell(chain: SongmintChain, parameters: SwapParameters): Promise<SwapResult> {
  return swapExactIn(chain, parameters, false);
}

/** What `amountIn` buys (`isBuy`) or sells for now, fees included, from the V4Quoter. */
export async function quoteExactIn(
  chain: Pick<SongmintChain, 'publicClient' | 'contracts'>,
  { poolKey, amountIn, isBuy }: { poolKey: PoolKey; amountIn: bigint; isBuy: boolean },
): Promise<bigint> {
  const { result } = await chain.publicClient.simulateContract({
    address: chain.contracts.V4Quoter,
    abi: v4QuoterAbi,
    functionName: 'quoteExactInputSingle',
    args: [{ poolKey, zeroForOne: isBuy, exactAmount: amountIn, hookData: '0x' }],
  });
  return result[0];
}

async function swapExactIn(
  chain: SongmintChain,
  { songId, amountIn, slippageBps = DEFAULT_SLIPPAGE_BPS }: SwapParameters,
  isBuy: boolean,
): Promise<SwapResult> {
  if (amountIn <= 0n || amountIn >= 2n ** 128n)
    throw new SongmintClientError('INVALID_ARGUMENT', 'amountIn must be positive and below 2^128');
  if (!Number.isInteger(slippageBps) || slippageBps < 0 || slippageBps > 10_000)
    throw new SongmintClientError('INVALID_ARGUMENT', 'slippageBps must be an integer from 0 to 10,000');
  const account = accountOf(chain);
  const router = chain.contracts.V4Router;
  const poolKey = await readPoolKey(chain, songId);
  const [input, output] = isBuy ? [poolKey.currency0, poolKey.currency1] : [poolKey.currency1, poolKey.currency0];

  let approveHash: Hash | undefined;
  if (!isBuy) {
    const allowance = await chain.publicClient.readContract({
      address: input,
      abi: songTokenAbi,
      functionName: 'allowance',
      args: [account.address, router],
    });
    if (allowance < amountIn) {
      const { request } = await chain.publicClient.simulateContract({
        account,
        address: input,
        abi: songTokenAbi,
        functionName: 'approve',
        args: [router, maxUint256],
      });
      approveHash = await chain.walletClient.writeContract({ ...request, chain: chain.walletClient.chain });
      await confirmed(chain, approveHash, 'SongToken.approve');
    }
  }

  const quotedAmountOut = await quoteExactIn(chain, { poolKey, amountIn, isBuy });
  const minAmountOut = (quotedAmountOut * (BPS - BigInt(slippageBps))) / BPS;
  const { request } = await chain.publicClient.simulateContract({
    account,
    address: router,
    abi: v4RouterAbi,
    functionName: 'executeActionsAndSweepExcessETH',
    args: [encodeExactInSingle({ poolKey, isBuy, amountIn, minAmountOut, input, output })],
    value: isBuy ? amountIn : 0n,
  });
  const hash = await chain.walletClient.writeContract({ ...request, chain: chain.walletClient.chain });
  const receipt = await confirmed(chain, hash, isBuy ? 'buy' : 'sell');
  const { amountOut, hookFee } = swapOutcome(receipt, {
    poolKey,
    isBuy,
    trader: account.address,
    hookAddress: chain.contracts.SongPoolHook,
    poolManager: chain.contracts.PoolManager,
  });
  return {
    songId,
    amountIn,
    amountOut,
    quotedAmountOut,
    minAmountOut,
    hookFee,
    ...(approveHash === undefined ? {} : { approveHash }),
    hash,
    receipt,
  };
}

/** V4Router's `executeActions` payload: one exact-input single-pool swap, SETTLE_ALL the input, TAKE_ALL the output. */
export function encodeExactInSingle({
  poolKey,
  isBuy,
  amountIn,
  minAmountOut,
  input,
  output,
}: {
  poolKey: PoolKey;
  isBuy: boolean;
  amountIn: bigint;
  minAmountOut: bigint;
  input: Address;
  output: Address;
}): Hex {
  const actions = concatHex([toHex(SWAP_EXACT_IN_SINGLE, { size: 1 }), toHex(SETTLE_ALL, { size: 1 }), toHex(TAKE_ALL, { size: 1 })]);
  const swap = encodeAbiParameters(
    [
      {
        type: 'tuple',
        components: [
          { name: 'poolKey', type: 'tuple', components: POOL_KEY_COMPONENTS },
          { name: 'zeroForOne', type: 'bool' },
          { name: 'amountIn', type: 'uint128' },
          { name: 'amountOutMinimum', type: 'uint128' },
          { name: 'hookData', type: 'bytes' },
        ],
      },
    ],
    [{ poolKey, zeroForOne: isBuy, amountIn, amountOutMinimum: minAmountOut, hookData: '0x' }],
  );
  const settle = encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [input, amountIn]);
  const take = encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [output, minAmountOut]);
  return encodeAbiParameters([{ type: 'bytes' }, { type: 'bytes[]' }], [actions, [swap, settle, take]]);
}

/**
 * What the trader received, from the receipt: a buy's tokens from the token's Transfer out of the
 * PoolManager; a sell's ETH from the pool's Swap (ETH the pool paid) less the hook's fee, which the
 * hook takes from that ETH (no event carries a native ETH transfer).
 */
function swapOutcome(
  receipt: TransactionReceipt,
  {
    poolKey,
    isBuy,
    trader,
    hookAddress,
    poolManager,
  }: { poolKey: PoolKey; isBuy: boolean; trader: Address; hookAddress: Address; poolManager: Address },
): { amountOut: bigint; hookFee: bigint } {
  const poolId = poolIdOf(poolKey);
  const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
  const charged = parseEventLogs({ abi: songPoolHookAbi, eventName: 'SwapFeeCharged', logs: receipt.logs }).find(
    (log) => same(log.address, hookAddress) && log.args.poolId === poolId,
  );
  const hookFee = charged?.args.fee ?? 0n;
  if (isBuy) {
    const transfers = parseEventLogs({ abi: songTokenAbi, eventName: 'Transfer', logs: receipt.logs });
    const received = transfers
      .filter((log) => same(log.address, poolKey.currency1) && same(log.args.to, trader))
      .reduce((sum, log) => sum + log.args.value, 0n);
    return { amountOut: received, hookFee };
  }
  const swap = parseEventLogs({ abi: poolManagerAbi, eventName: 'Swap', logs: receipt.logs }).find(
    (log) => same(log.address, poolManager) && log.args.id === poolId,
  );
  const poolPaid = swap === undefined ? 0n : swap.args.amount0;
  return { amountOut: poolPaid - hookFee, hookFee };
}
