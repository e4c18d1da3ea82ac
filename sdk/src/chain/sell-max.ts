import { BaseError, ContractFunctionRevertedError } from 'viem';
import { songVaultAbi, v4QuoterAbi } from '../generated/abis.ts';
import type { SongmintChain } from './context.ts';
import { poolLiquidity, poolSlot0, readPoolKey } from './pool.ts';
import { quoteTrade } from './quote.ts';
import type { TradeQuote } from './quote.ts';

type Reader = Pick<SongmintChain, 'publicClient' | 'contracts'>;

const PIPS = 1_000_000;
const Q96 = 2 ** 96;
/** Below the computed bound by this fraction, so float rounding never asks the quoter for a wei too many. */
const MARGIN = 1e-9;
/** Halvings of the search when the computed bound does not fill (a pool shaped unlike the launch's). */
const SEARCH_STEPS = 24;

/** The most of a song's token its pool can buy back now. */
export interface SellableMax {
  songId: bigint;
  /**
   * The largest exact-input sale the pool fills in the next block (token units, 18 decimals): a
   * song pool starts with tokens only and pays out only the ETH buyers paid in, so selling more
   * than this cannot fill (the V4Quoter and the router refuse it). 0 when it holds no buyers' ETH.
   */
  maxTokens: bigint;
  /** The V4Quoter's quote of that sale (the ETH it pays, fees included); undefined when `maxTokens` is 0. */
  quote?: TradeQuote;
}

/**
 * Quotes the most tokens of `songId` that can be sold now. The launch position is one range of
 * liquidity `L` up to the vault's `tickUpper`, the launch price: a sale moves the price back up
 * toward it, and the pool's buyers' ETH is gone when it gets there. The tokens that take it there,
 * `L (√P_upper - √P) / 2^96` plus the LP fee, are the bound; the V4Quoter then confirms that sale
 * in the pending block (searching below the bound if it does not fill), and its quote is returned.
 */
export async function quoteSellMax(chain: Reader, { songId, slippageBps }: { songId: bigint; slippageBps?: number }): Promise<SellableMax> {
  const { publicClient, contracts } = chain;
  const poolKey = await readPoolKey(chain, songId);
  const [{ sqrtPriceX96 }, liquidity, tickUpper] = await Promise.all([
    poolSlot0(chain, poolKey, 'pending'),
    poolLiquidity(chain, poolKey, 'pending'),
    publicClient.readContract({ address: contracts.SongVault, abi: songVaultAbi, functionName: 'tickUpper' }),
  ]);
  const sqrtUpper = Math.pow(1.0001, tickUpper / 2);
  const sqrtPrice = Number(sqrtPriceX96) / Q96;
  if (liquidity === 0n || sqrtPrice >= sqrtUpper) return { songId, maxTokens: 0n };
  const toTop = Number(liquidity) * (sqrtUpper - sqrtPrice);
  let bound = BigInt(Math.floor(((toTop * PIPS) / (PIPS - poolKey.fee)) * (1 - MARGIN)));

  const fills = async (amount: bigint): Promise<boolean> =>
    publicClient
      .simulateContract({
        address: contracts.V4Quoter,
        abi: v4QuoterAbi,
        functionName: 'quoteExactInputSingle',
        args: [{ poolKey, zeroForOne: false, exactAmount: amount, hookData: '0x' }],
        blockTag: 'pending',
      })
      .then(
        () => true,
        (error: unknown) => {
          if (error instanceof BaseError && error.walk((cause) => cause instanceof ContractFunctionRevertedError) !== null) return false;
          throw error;
        },
      );
  if (bound > 0n && !(await fills(bound))) {
    let low = 0n;
    let high = bound;
    for (let step = 0; step < SEARCH_STEPS && high - low > 1n; step++) {
      const middle = (low + high) / 2n;
      if (await fills(middle)) low = middle;
      else high = middle;
    }
    bound = low;
  }
  if (bound <= 0n) return { songId, maxTokens: 0n };
  const quote = await quoteTrade(chain, { songId, side: 'sell', amountIn: bound, ...(slippageBps === undefined ? {} : { slippageBps }) });
  return { songId, maxTokens: bound, quote };
}
