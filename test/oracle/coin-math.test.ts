/**
 * The coin pages' arithmetic (oracle/src/domain/coins.ts, oracle/src/chain/eth-usd-feed.ts): the
 * pairing of each swap with its hook fee when several swaps share a block, and the integer figures
 * (percent change, shares, USD) against values worked out by hand. The figures against the chain
 * are in test/oracle/pools.test.ts.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { usdOf } from '../../oracle/src/chain/eth-usd-feed.ts';
import { swapOfBurn } from '../../oracle/src/chain/pool-indexer.ts';
import {
  creatorShare,
  hookFeesOfSwaps,
  percentChange,
  sharePercent,
  tokensValueWei,
  weiPerMillionTokens,
} from '../../oracle/src/domain/coins.ts';

const at = (block: string, log_index: number) => ({ block_number: block, log_index });
const fee = (block: string, log_index: number, amount: bigint) => ({ ...at(block, log_index), fee: amount.toString() });

describe('coin page arithmetic', () => {
  it("pairs each swap with the fee minted right before it (beforeSwap) or right after it (afterSwap), never another swap's", () => {
    // Block 7, one transaction: a sale of exact tokens (fee after its Swap at 3, so at 4), then a buy
    // with exact ETH (fee before its Swap at 6, so at 5). Block 8: a buy whose fee is before it.
    const paired = hookFeesOfSwaps(
      [at('7', 3), at('7', 6), at('8', 1)],
      [fee('7', 4, 40n), fee('7', 5, 50n), fee('8', 0, 80n), fee('9', 1, 99n)],
    );
    assert.deepEqual([...paired.entries()].sort(), [
      ['7:3', 40n],
      ['7:6', 50n],
      ['8:1', 80n],
    ]);
    // Both after their swaps: each takes its own, in log order.
    assert.deepEqual([...hookFeesOfSwaps([at('5', 6), at('5', 2)], [fee('5', 3, 1n), fee('5', 7, 2n)]).entries()].sort(), [
      ['5:2', 1n],
      ['5:6', 2n],
    ]);
    // A swap with no fee next to it gets none (it is not handed a neighbour's).
    assert.deepEqual([...hookFeesOfSwaps([at('5', 2), at('5', 9)], [fee('5', 1, 1n)]).entries()], [['5:2', 1n]]);
  });

  it('adds the launch fee burnt in the window to the swap the indexer paired it with (what the trader paid), a swap whose song part rounded to nothing included', () => {
    const burnt = (block: string, swap_log_index: number, amount: bigint) => ({
      block_number: block,
      swap_log_index,
      amount: amount.toString(),
    });
    const paired = hookFeesOfSwaps(
      [at('7', 2), at('7', 3), at('8', 1)],
      [fee('7', 1, 40n), fee('7', 4, 50n)],
      [burnt('7', 2, 1_960n), burnt('7', 3, 2_450n), burnt('8', 1, 7n)],
    );
    assert.deepEqual([...paired.entries()].sort(), [
      ['7:2', 2_000n],
      ['7:3', 2_500n],
      ['8:1', 7n],
    ]);
  });

  it('pairs a burn with its swap across the song fee: burn, fee, Swap (beforeSwap); Swap, fee, burn (afterSwap); next to the Swap when the song got nothing', () => {
    const tx = '0xaa' as const;
    const log = (logIndex: number, transactionHash: `0x${string}` = tx) => ({ logIndex, transactionHash });
    // One transaction: a buy charged before its Swap (burn 0, fee 1, Swap 2), a sale charged after (Swap 3, fee 4, burn 5).
    const swaps = [log(2), log(3)];
    const songFees = [log(1), log(4)];
    assert.equal(swapOfBurn(log(0), swaps, songFees), swaps[0]);
    assert.equal(swapOfBurn(log(5), swaps, songFees), swaps[1]);
    // The song's part rounded to nothing: the burn sits right before (or after) its Swap.
    assert.deepEqual(swapOfBurn(log(6), [log(7)], []), log(7));
    assert.deepEqual(swapOfBurn(log(8), [log(7)], []), log(7));
    // Another transaction's swap, or none of this batch's pools, is never taken.
    assert.equal(swapOfBurn(log(0), [log(2, '0xbb')], [log(1, '0xbb')]), null);
    assert.equal(swapOfBurn(log(0), [log(4)], [log(1)]), null);
  });

  it('prices, values, changes and shares in integers', () => {
    const sqrtAtOneToOne = 2n ** 96n;
    assert.equal(weiPerMillionTokens(sqrtAtOneToOne), 10n ** 24n, 'one token per ETH: a million tokens cost a million ETH');
    // 100 tokens per ETH (sqrt = 10 * 2^96): 1e6 tokens = 10,000 ETH.
    assert.equal(weiPerMillionTokens(10n * 2n ** 96n), 10n ** 22n);
    assert.equal(tokensValueWei(250n * 10n ** 18n, 10n * 2n ** 96n), 25n * 10n ** 17n);
    assert.equal(percentChange(200n, 250n), '25.00');
    assert.equal(percentChange(200n, 199n), '-0.50');
    assert.equal(percentChange(3n, 2n), '-33.33');
    assert.equal(percentChange(null, 2n), null);
    assert.equal(sharePercent(5n, 100n), '5.0000');
    assert.equal(sharePercent(1n, 3n), '33.3333');
    assert.equal(creatorShare(10_001n, 2_000), 8_001n, 'the platform part rounds down, the creator keeps the wei');
    // 3,000.12345678 USD per ETH at 8 decimals.
    const price = { answer: 300_012_345_678n, decimals: 8 };
    assert.equal(usdOf(10n ** 18n, price), '3000.12');
    assert.equal(usdOf(5n * 10n ** 15n, price), '15.00');
    assert.equal(usdOf(1n, price), '0.00');
  });
});
