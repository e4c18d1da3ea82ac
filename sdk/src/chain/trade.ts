import type { Address, Hash, TransactionReceipt } from 'viem';
import { encodeFunctionData, parseEventLogs } from 'viem';
import { SongmintClientError } from '../errors.ts';
import { poolManagerAbi, songPoolHookAbi, universalRouterAbi } from '../generated/abis.ts';
import type { SongmintChain } from './context.ts';
import { accountOf } from './context.ts';
import { approvePermit2, preparePermitSingle, signPermitSingle } from './permit2.ts';
import { poolIdOf } from './pool.ts';
import type { PoolKey } from './pool.ts';
import { checkAffordable, checkedSlippage, checkPaysSomething, quoteTrade, readBalances } from './quote.ts';
import type { TradeQuote } from './quote.ts';
import { nextBlock } from './next-block.ts';
import { confirmed } from './receipt.ts';
import { planSingleSwap } from './universal-router.ts';

const MAX_UINT128 = 2n ** 128n;
/** Default slippage: 1%. */
export const DEFAULT_SLIPPAGE_BPS = 100;
/** Default deadline: 30 minutes after the latest block, as the Uniswap app sets it. */
export const DEFAULT_DEADLINE_SECONDS = 1_800;

/** Exact input (`amountIn`) or exact output (`amountOut`): ETH (wei) for a buy's input or a sell's output, else token units. */
export type SwapAmount = { amountIn: bigint; amountOut?: undefined } | { amountOut: bigint; amountIn?: undefined };

export type SwapParameters = SwapAmount & {
  songId: bigint;
  /** How far the result may stray from the quote, in basis points (default 100 = 1%). */
  slippageBps?: number;
  /** Seconds after the latest block until the router refuses the swap (and the Permit2 signature lapses). */
  deadlineSeconds?: number;
};

export interface SwapResult {
  songId: bigint;
  exactInput: boolean;
  /** What left the wallet: ETH (wei) for a buy, tokens for a sell. */
  amountIn: bigint;
  /** What arrived: tokens for a buy, ETH (wei) for a sell. */
  amountOut: bigint;
  /** The V4Quoter's quote before the swap, fees included: the output of an exact input, the input of an exact output. */
  quote: bigint;
  /** The bound the router enforced: the least out (exact input) or the most in (exact output). */
  limit: bigint;
  /** The unix time after which the router would have refused the swap. */
  deadline: bigint;
  /** The hook's swap fee, in wei: inside the launch fee window the part above the steady 1% is burnt (`launchFeeBurnt`), the rest goes to the song. */
  hookFee: bigint;
  /** The part of `hookFee` burnt (inside the launch fee window, the fee above the steady 1%; else 0): it goes to nobody. */
  launchFeeBurnt: bigint;
  /** The hook's fee rate the swap paid, in pips: the hook's `swapFeePips` in the block it was mined in (0 when it charged none). */
  hookFeePips: bigint;
  /**
   * The full quote the swap was sent with, for the block it expected to join (`quoted.block`): the
   * hook's fee depends only on the block's time, so a swap mined at `quoted.block.timestamp` paid
   * `quoted.hookFeePips`; one mined later paid the same or less.
   */
  quoted: TradeQuote;
  /**
   * The first quote, when a new block began before the swap was sent and `quoted` is the quote
   * for the block it then joined (the slippage bound stays this first quote's).
   */
  requotedFrom?: TradeQuote;
  /** Unix time of the block the swap was mined in. */
  blockTimestamp: bigint;
  /** The one-time token approval to Permit2, when a sell needed it. */
  permit2ApprovalHash?: Hash;
  hash: Hash;
  receipt: TransactionReceipt;
}

/** Buys the song's token with ETH through the Universal Router (exact ETH in, or exact tokens out with the change swept back). */
export function buy(chain: SongmintChain, parameters: SwapParameters): Promise<SwapResult> {
  return swap(chain, parameters, true);
}

/** Sells the song's token for ETH through the Universal Router, the tokens moved by a Permit2 signature for this sale only. */
export function sell(chain: SongmintChain, parameters: SwapParameters): Promise<SwapResult> {
  return swap(chain, parameters, false);
}

function checked({ amountIn, amountOut, slippageBps = DEFAULT_SLIPPAGE_BPS, deadlineSeconds = DEFAULT_DEADLINE_SECONDS }: SwapParameters) {
  const amount = amountIn ?? amountOut;
  if ((amountIn === undefined) === (amountOut === undefined) || amount === undefined)
    throw new SongmintClientError('INVALID_ARGUMENT', 'give exactly one of amountIn and amountOut');
  if (amount <= 0n || amount >= MAX_UINT128)
    throw new SongmintClientError('INVALID_ARGUMENT', 'the amount must be positive and below 2^128');
  checkedSlippage(slippageBps);
  if (!Number.isInteger(deadlineSeconds) || deadlineSeconds <= 0 || deadlineSeconds > 86_400)
    throw new SongmintClientError('INVALID_ARGUMENT', 'deadlineSeconds must be an integer from 1 to 86,400');
  return { amount, exactInput: amountIn !== undefined, slippageBps, deadlineSeconds };
}

async function swap(chain: SongmintChain, parameters: SwapParameters, isBuy: boolean): Promise<SwapResult> {
  const { amount, exactInput, slippageBps, deadlineSeconds } = checked(parameters);
  const { songId } = parameters;
  const account = accountOf(chain);
  const router = chain.contracts.UniversalRouter;
  const side = isBuy ? 'buy' : 'sell';
  const quoteParameters = { songId, side, slippageBps, ...(exactInput ? { amountIn: amount } : { amountOut: amount }) } as const;
  const [firstQuote, balances] = await Promise.all([
    quoteTrade(chain, quoteParameters),
    readBalances(chain, { songId, account: account.address }),
  ]);
  let quoted = firstQuote;
  checkAffordable(quoted, balances);
  checkPaysSomething(quoted);
  const { poolKey, limit } = quoted;
  const quote = exactInput ? quoted.amountOut : quoted.amountIn;
  if (!exactInput && limit >= MAX_UINT128) throw new SongmintClientError('INVALID_ARGUMENT', 'the quoted input is too large');
  const maxIn = exactInput ? amount : limit;
  const { timestamp } = await chain.publicClient.getBlock({ blockTag: 'latest' });
  const deadline = timestamp + BigInt(deadlineSeconds);

  let permit2ApprovalHash: Hash | undefined;
  let permit: Parameters<typeof planSingleSwap>[1];
  if (!isBuy) {
    permit2ApprovalHash = await approvePermit2(chain, poolKey.currency1, maxIn);
    const permitSingle = await preparePermitSingle(chain, { token: poolKey.currency1, spender: router, amount: maxIn, deadline });
    permit = { permit: permitSingle, signature: await signPermitSingle(chain, permitSingle) };
  }
  const { commands, inputs } = planSingleSwap({ poolKey, zeroForOne: isBuy, exactInput, amount, limit }, permit);
  const { request } = await chain.publicClient.simulateContract({
    account,
    address: router,
    abi: universalRouterAbi,
    functionName: 'execute',
    args: [commands, inputs, deadline],
    value: isBuy ? maxIn : 0n,
    // In the block the transaction joins, as the quote: the launch fee of the latest block is stale.
    blockTag: 'pending',
  });
  // Everything the wallet needs is fetched first, so the transaction leaves right after the check
  // that its quote is still for the block it joins; a block begun since (a sale's Permit2 steps, a
  // slow node) is quoted again, and the swap reports both. The slippage bound stays the one agreed.
  const transaction = {
    account,
    chain: chain.walletClient.chain,
    to: router,
    data: encodeFunctionData({ abi: universalRouterAbi, functionName: 'execute', args: request.args }),
    value: request.value,
  };
  const { nonce, gas, maxFeePerGas, maxPriorityFeePerGas } = await chain.walletClient.prepareTransactionRequest({
    ...transaction,
    type: 'eip1559',
  });
  let requotedFrom: TradeQuote | undefined;
  if ((await nextBlock(chain.publicClient)).timestamp !== quoted.block.timestamp) {
    requotedFrom = quoted;
    quoted = await quoteTrade(chain, quoteParameters);
  }
  const hash = await chain.walletClient.sendTransaction({ ...transaction, nonce, gas, maxFeePerGas, maxPriorityFeePerGas });
  const receipt = await confirmed(chain, hash, isBuy ? 'buy' : 'sell');
  // The rate charged is the hook's rate in the block the swap was mined in (the hook logs no rate of its own).
  const [{ timestamp: blockTimestamp }, hookFeePips] = await Promise.all([
    chain.publicClient.getBlock({ blockNumber: receipt.blockNumber }),
    chain.publicClient.readContract({
      address: chain.contracts.SongPoolHook,
      abi: songPoolHookAbi,
      functionName: 'swapFeePips',
      args: [quoted.launchedAt],
      blockNumber: receipt.blockNumber,
    }),
  ]);
  const outcome = swapOutcome(receipt, {
    poolKey,
    isBuy,
    hookAddress: chain.contracts.SongPoolHook,
    poolManager: chain.contracts.PoolManager,
  });
  return {
    songId,
    exactInput,
    ...outcome,
    hookFeePips,
    quote,
    quoted,
    ...(requotedFrom === undefined ? {} : { requotedFrom }),
    blockTimestamp,
    limit,
    deadline,
    ...(permit2ApprovalHash === undefined ? {} : { permit2ApprovalHash }),
    hash,
    receipt,
  };
}

/**
 * What the trader paid and received, from the PoolManager's logs of the swap: its Swap event (the
 * pool's own deltas, the hook's not included) and the ERC-6909 mint of the hook's fee (the hook
 * logs nothing of its own). The hook takes its fee in ETH on top of what a buy puts into the pool,
 * and out of what a sell's pool pays.
 */
function swapOutcome(
  receipt: TransactionReceipt,
  { poolKey, isBuy, hookAddress, poolManager }: { poolKey: PoolKey; isBuy: boolean; hookAddress: Address; poolManager: Address },
): { amountIn: bigint; amountOut: bigint; hookFee: bigint; launchFeeBurnt: bigint } {
  const poolId = poolIdOf(poolKey);
  const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
  const { hookFee, launchFeeBurnt } = hookFeeOf(receipt, { token: poolKey.currency1, hookAddress, poolManager });
  const swapped = parseEventLogs({ abi: poolManagerAbi, eventName: 'Swap', logs: receipt.logs }).find(
    (log) => same(log.address, poolManager) && log.args.id === poolId,
  );
  if (swapped === undefined) throw new SongmintClientError('EVENT_NOT_FOUND', `transaction ${receipt.transactionHash} emitted no Swap`);
  const { amount0, amount1 } = swapped.args;
  return isBuy
    ? { amountIn: -amount0 + hookFee, amountOut: amount1, hookFee, launchFeeBurnt }
    : { amountIn: -amount1, amountOut: amount0 - hookFee, hookFee, launchFeeBurnt };
}

/** ERC-6909 id of native ETH claims in the PoolManager (the currency's address). */
const ETH_CLAIM_ID = 0n;
const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';

/**
 * The hook's fee of the swap in `receipt`: the PoolManager's ERC-6909 Transfers of the ETH claims
 * the hook (`caller`) minted (`from` 0, `id` 0) to the pool's song token (the song's part) and,
 * inside the launch fee window, to the hook itself (the part above the steady rate, burnt); 0 when
 * the fee rounded to nothing and nothing was minted.
 */
function hookFeeOf(
  receipt: TransactionReceipt,
  { token, hookAddress, poolManager }: { token: Address; hookAddress: Address; poolManager: Address },
): { hookFee: bigint; launchFeeBurnt: bigint } {
  const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
  const mints = parseEventLogs({ abi: poolManagerAbi, eventName: 'Transfer', logs: receipt.logs }).filter(
    (log) =>
      same(log.address, poolManager) &&
      same(log.args.caller, hookAddress) &&
      same(log.args.from, ZERO_ADDRESS) &&
      (same(log.args.to, token) || same(log.args.to, hookAddress)) &&
      log.args.id === ETH_CLAIM_ID,
  );
  const sum = (logs: typeof mints) => logs.reduce((total, log) => total + log.args.amount, 0n);
  return { hookFee: sum(mints), launchFeeBurnt: sum(mints.filter((log) => same(log.args.to, hookAddress))) };
}
