import type { Address } from 'viem';
import { BaseError, ContractFunctionRevertedError, formatEther } from 'viem';
import { SongmintClientError } from '../errors.ts';
import { songPoolHookAbi, songTokenAbi, songVaultAbi, v4QuoterAbi } from '../generated/abis.ts';
import type { SongmintChain } from './context.ts';
import { nextBlock } from './next-block.ts';
import type { NextBlock } from './next-block.ts';
import { poolSlot0, readPoolKey } from './pool.ts';
import type { PoolKey } from './pool.ts';

const PIPS = 1_000_000n;
const BPS = 10_000n;
const Q192 = 2n ** 192n;
const MAX_UINT128 = 2n ** 128n;
/** Reads of the pending block tried again when a block begins in between, at most this often. */
const QUOTE_ATTEMPTS = 3;

type Reader = Pick<SongmintChain, 'publicClient' | 'contracts'>;

export type TradeSide = 'buy' | 'sell';

export type QuoteParameters = ({ amountIn: bigint; amountOut?: undefined } | { amountOut: bigint; amountIn?: undefined }) & {
  songId: bigint;
  /** A buy pays ETH for tokens, a sell tokens for ETH. */
  side: TradeSide;
  /** How far the result may stray from the quote, in basis points (default 100 = 1%). */
  slippageBps?: number;
};

/** What a trade would do in the next block, fees included, as the V4Quoter simulates it on the real pool. */
export interface TradeQuote {
  songId: bigint;
  side: TradeSide;
  exactInput: boolean;
  /** What leaves the wallet: ETH (wei) for a buy, tokens for a sell; the quote's figure when it is the unspecified side. */
  amountIn: bigint;
  /** What arrives: tokens for a buy, ETH (wei) for a sell. */
  amountOut: bigint;
  /** The slippage bound the router enforces: the least out (exact input) or the most in (exact output). */
  limit: bigint;
  slippageBps: number;
  /** The hook's launch fee in the block quoted, in pips (1,000,000 = 100%): 50% at launch, falling to 1% over 120 s. */
  hookFeePips: bigint;
  /** The hook's fee in wei (always ETH), as the hook rounds it. */
  hookFee: bigint;
  /** The pool's LP fee in pips, taken on the input side and shared by the creator and the platform. */
  lpFeePips: bigint;
  /**
   * How much worse the pool's fill is than its mid price before the trade, fees aside, in pips:
   * (mid-price amount - quoted amount) / mid-price amount, for what the pool itself swaps.
   */
  priceImpactPips: bigint;
  /** The pool's mid price before the trade: tokens per ETH, as the Q64.96 square root. */
  sqrtPriceX96: bigint;
  /** The block the quote is for (the one a transaction sent now joins). */
  block: NextBlock;
  poolKey: PoolKey;
  /** The song's launch time (unix seconds): the start of its launch fee's decay. */
  launchedAt: bigint;
}

export function checkedSlippage(slippageBps: number): number {
  if (!Number.isInteger(slippageBps) || slippageBps < 0 || slippageBps > 10_000)
    throw new SongmintClientError('INVALID_ARGUMENT', 'slippageBps must be an integer from 0 to 10,000');
  return slippageBps;
}

/** The slippage bound on `quote`: the least out for an exact input, the most in for an exact output. */
export function slippageLimit(quote: bigint, slippageBps: number, exactInput: boolean): bigint {
  return exactInput ? (quote * (BPS - BigInt(slippageBps))) / BPS : (quote * (BPS + BigInt(slippageBps)) + BPS - 1n) / BPS;
}

/** The hook's fee on a swap moving `eth` wei: `onTop` when `eth` is net of the fee (SongPoolHook._chargeFee). */
function hookFeeOn(eth: bigint, feePips: bigint, onTop: boolean): bigint {
  const denominator = onTop ? PIPS - feePips : PIPS;
  return denominator === 0n ? 0n : (eth * feePips + denominator - 1n) / denominator;
}

/**
 * Quotes a buy or a sell for the block a transaction sent now joins: the V4Quoter's simulation on
 * that block (the hook charges the launch fee of its timestamp), the hook's and the LP's fee, the
 * price impact against the pool's mid price and the slippage bound. A pool that cannot fill the
 * amount is a `QUOTE_FAILED` error, not a revert.
 */
export async function quoteTrade(chain: Reader, parameters: QuoteParameters): Promise<TradeQuote> {
  const { songId, side, amountIn, amountOut } = parameters;
  const slippageBps = checkedSlippage(parameters.slippageBps ?? 100);
  const amount = amountIn ?? amountOut;
  if ((amountIn === undefined) === (amountOut === undefined) || amount === undefined)
    throw new SongmintClientError('INVALID_ARGUMENT', 'give exactly one of amountIn and amountOut');
  if (amount <= 0n || amount >= MAX_UINT128)
    throw new SongmintClientError('INVALID_ARGUMENT', 'the amount must be positive and below 2^128');
  const exactInput = amountIn !== undefined;
  const { publicClient, contracts } = chain;
  const [poolKey, song] = await Promise.all([
    readPoolKey(chain, songId),
    publicClient.readContract({ address: contracts.SongVault, abi: songVaultAbi, functionName: 'songOf', args: [songId] }),
  ]);
  if (song.launchedAt === 0) throw new SongmintClientError('QUOTE_FAILED', `song ${songId} is not launched: it has no pool yet`);
  // The pending block's reads, and its time read before and after them: a block that began in
  // between (their fee would be the new block's) is quoted again.
  const terms: QuoteTerms = { songId, side, exactInput, amount, slippageBps, poolKey, launchedAt: BigInt(song.launchedAt) };
  let block = await nextBlock(publicClient);
  for (let attempt = 1; ; attempt++) {
    const reads = await pendingReads(chain, { ...terms, isBuy: side === 'buy' });
    const after = await nextBlock(publicClient);
    if (after.timestamp === block.timestamp || attempt === QUOTE_ATTEMPTS) return quoteOf(terms, reads, after);
    block = after;
  }
}

interface PendingReads {
  quoted: bigint;
  hookFeePips: bigint;
  slot0: bigint;
}

/** The V4Quoter's simulation, the hook's fee rate and the pool's price, all in the pending block. */
async function pendingReads(
  { publicClient, contracts }: Reader,
  {
    poolKey,
    isBuy,
    exactInput,
    amount,
    launchedAt,
  }: { poolKey: PoolKey; isBuy: boolean; exactInput: boolean; amount: bigint; launchedAt: bigint },
): Promise<PendingReads> {
  const [quoted, hookFeePips, slot0] = await Promise.all([
    publicClient
      .simulateContract({
        address: contracts.V4Quoter,
        abi: v4QuoterAbi,
        functionName: exactInput ? 'quoteExactInputSingle' : 'quoteExactOutputSingle',
        args: [{ poolKey, zeroForOne: isBuy, exactAmount: amount, hookData: '0x' }],
        blockTag: 'pending',
      })
      .then(({ result }) => result[0])
      .catch((error: unknown) => {
        throw unfillable(error, amount, isBuy, exactInput);
      }),
    publicClient.readContract({
      address: contracts.SongPoolHook,
      abi: songPoolHookAbi,
      functionName: 'swapFeePips',
      args: [launchedAt],
      blockTag: 'pending',
    }),
    poolSlot0({ publicClient, contracts }, poolKey, 'pending').then(({ sqrtPriceX96 }) => sqrtPriceX96),
  ]);
  return { quoted, hookFeePips, slot0 };
}

interface QuoteTerms {
  songId: bigint;
  side: TradeSide;
  exactInput: boolean;
  amount: bigint;
  slippageBps: number;
  poolKey: PoolKey;
  launchedAt: bigint;
}

/** The quote the pending block's reads make: fees, price impact and the slippage bound. */
function quoteOf(terms: QuoteTerms, { quoted, hookFeePips, slot0 }: PendingReads, quotedBlock: NextBlock): TradeQuote {
  const { songId, side, exactInput, amount, slippageBps, poolKey, launchedAt } = terms;
  const isBuy = side === 'buy';
  const quotedIn = exactInput ? amount : quoted;
  const quotedOut = exactInput ? quoted : amount;
  // The hook charges ETH: out of a buy's ETH in / on top of it, out of a sell's ETH out / on top of it.
  const hookFee = isBuy ? hookFeeOn(quotedIn, hookFeePips, false) : hookFeeOn(quotedOut, hookFeePips, true);
  const lpFeePips = BigInt(poolKey.fee);
  // What the pool itself swapped (the hook's fee aside), against what the mid price gives for it after the LP fee.
  const poolIn = isBuy ? quotedIn - hookFee : quotedIn;
  const poolOut = isBuy ? quotedOut : quotedOut + hookFee;
  const afterLpFee = (poolIn * (PIPS - lpFeePips)) / PIPS;
  const atMid = isBuy ? (afterLpFee * slot0 * slot0) / Q192 : (afterLpFee * Q192) / (slot0 * slot0);
  const priceImpactPips = atMid > poolOut ? ((atMid - poolOut) * PIPS) / atMid : 0n;
  return {
    songId,
    side,
    exactInput,
    amountIn: quotedIn,
    amountOut: quotedOut,
    limit: slippageLimit(quoted, slippageBps, exactInput),
    slippageBps,
    hookFeePips,
    hookFee,
    lpFeePips,
    priceImpactPips,
    sqrtPriceX96: slot0,
    block: quotedBlock,
    poolKey,
    launchedAt,
  };
}

function unfillable(error: unknown, amount: bigint, isBuy: boolean, exactInput: boolean): SongmintClientError {
  const reverted = error instanceof BaseError && error.walk((cause) => cause instanceof ContractFunctionRevertedError) !== null;
  if (!reverted) return new SongmintClientError('UNEXPECTED_RESPONSE', 'the quote could not be read from the chain', { cause: error });
  const what = exactInput === isBuy ? `${formatEther(amount)} ETH` : `${formatEther(amount)} tokens`;
  return new SongmintClientError('QUOTE_FAILED', `the pool cannot fill a trade of ${what}: try a smaller amount`, { cause: error });
}

/** What `account` holds to trade `songId`: ETH (wei) and the song's token (18 decimals). */
export interface TradeBalances {
  eth: bigint;
  token: bigint;
  tokenAddress: Address;
}

export async function readBalances(chain: Reader, { songId, account }: { songId: bigint; account: Address }): Promise<TradeBalances> {
  const tokenAddress = (await readPoolKey(chain, songId)).currency1;
  const [eth, token] = await Promise.all([
    chain.publicClient.getBalance({ address: account }),
    chain.publicClient.readContract({ address: tokenAddress, abi: songTokenAbi, functionName: 'balanceOf', args: [account] }),
  ]);
  return { eth, token, tokenAddress };
}

/**
 * Refuses, before anything is signed, a trade the wallet cannot pay: a sale of more tokens than it
 * holds, a buy of more ETH than it has.
 */
export function checkAffordable(quote: TradeQuote, balances: TradeBalances): void {
  const needs = quote.exactInput ? quote.amountIn : quote.limit;
  const holds = quote.side === 'buy' ? balances.eth : balances.token;
  if (needs <= holds) return;
  const unit = quote.side === 'buy' ? 'ETH' : 'tokens';
  throw new SongmintClientError(
    'INSUFFICIENT_BALANCE',
    `You hold ${formatEther(holds)} ${unit} and this trade needs up to ${formatEther(needs)}; reduce the amount`,
  );
}

/**
 * Refuses, before anything is signed, a trade whose quote pays nothing: a sale the pool would pay
 * 0 ETH for (its buyers' ETH is gone, or the amount is dust) or a buy that gets 0 tokens. Such a
 * trade would spend gas and move tokens for nothing.
 */
export function checkPaysSomething(quote: TradeQuote): void {
  if (quote.amountOut > 0n && quote.amountIn > 0n) return;
  throw new SongmintClientError(
    'ZERO_QUOTE',
    quote.side === 'sell'
      ? `the pool would pay 0 ETH for ${formatEther(quote.amountIn)} tokens now: nothing was sent`
      : `${formatEther(quote.amountIn)} ETH would buy 0 tokens now: nothing was sent`,
  );
}
