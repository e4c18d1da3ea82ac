import { expect } from 'chai';
import type { TransactionReceipt } from 'ethers';
import { network } from 'hardhat';
import {
  deploySongmint,
  hookFee,
  LAUNCH_CONFIG,
  mintSong,
  poolKeyOf,
  songPartOfHookFee,
  swap,
  swapLogsOf,
  type PoolKeyTuple,
  type Songmint,
} from './fixtures/songmint.ts';

/**
 * The two ways a creator could take the buyers' ETH that issue 51 replays (docs/launch.md, "The
 * launch fee binds the creator too" and "The allocation vests"):
 *  - the self-snipe: in the launch block the creator launches, buys 10 ETH at the 50% launch fee,
 *    collects the fees and claims them. Before, 80% of the in-window fee came back to it (4.04 of
 *    5 ETH), a third of a sniper's rate; now the surcharge above the steady 1% is burnt, so its
 *    effective launch fee is a sniper's;
 *  - the allocation dump: the creator claimed its allocation 120 s after launch and sold it into the
 *    pool, taking all the ETH buyers had paid in. Now nothing of it exists before its cliff (7 days),
 *    then only the vested share.
 */

const { ethers, networkHelpers } = await network.create('base');
const ETH = 10n ** 18n;
const BPS = 10_000n;
const LAUNCH_FEE_PIPS = 500_000n;

/** Sends `txs` (each a promise of a sent transaction) into one block and returns their receipts. */
async function inOneBlock(send: () => Promise<{ hash: string }[]>): Promise<(TransactionReceipt | null)[]> {
  await ethers.provider.send('evm_setAutomine', [false]);
  let hashes: string[];
  try {
    hashes = (await send()).map((tx) => tx.hash);
    await networkHelpers.mine();
  } finally {
    await ethers.provider.send('evm_setAutomine', [true]);
  }
  return Promise.all(hashes.map((hash) => ethers.provider.getTransactionReceipt(hash)));
}

async function launchTx(s: Songmint, launcher: Songmint['creator'], songId: bigint, allocationBps: number) {
  return s.vault.connect(launcher).launch(songId, { allocationBps, allocationRecipient: launcher.address }, { gasLimit: 3_000_000n });
}

async function buyTx(s: Songmint, buyer: Songmint['creator'], key: PoolKeyTuple, amount: bigint) {
  const data = s.swapRouter.interface.encodeFunctionData('swap', [
    key,
    { zeroForOne: true, amountSpecified: -amount, sqrtPriceLimitX96: 4295128740n },
    { takeClaims: false, settleUsingBurn: false },
    '0x',
  ]);
  return buyer.sendTransaction({ to: await s.swapRouter.getAddress(), data, value: amount, gasLimit: 3_000_000n });
}

function parsedVaultLogs(s: Songmint, receipt: TransactionReceipt | null | undefined, name: string) {
  return (receipt?.logs ?? [])
    .filter((log) => log.address === s.vault.target)
    .map((log) => s.vault.interface.parseLog(log))
    .filter((parsed) => parsed?.name === name);
}

/** Percent with two decimals, for the figures the test prints. */
const percent = (fee: bigint, of: bigint) => `${(Number((fee * 1_000_000n) / of) / 10_000).toFixed(2)}%`;

describe('A creator pays the launch fee like everyone and cannot dump its allocation (issue 51)', function () {
  it("the creator's launch-block self-snipe (launch, buy 10 ETH, collectFees, claim) ends at a sniper's launch fee", async function () {
    const s = await deploySongmint(ethers);
    const [own, other] = [await mintSong(s.nft, s.creator, 'self-snipe'), await mintSong(s.nft, s.stranger, 'sniped')];
    await (await s.nft.connect(s.creator).approve(s.vault.target, own)).wait();
    await (await s.nft.connect(s.stranger).approve(s.vault.target, other)).wait();
    const [ownKey, otherKey] = [await poolKeyOf(s.vault, own), await poolKeyOf(s.vault, other)];
    const amount = 10n * ETH;

    // One block: the creator's bundle on its own song, and beside it another creator's launch
    // sniped by the trader with the same 10 ETH at the same 50% rate.
    const [ownLaunch, ownBuy, collect, claim, otherLaunch, sniperBuy] = await inOneBlock(async () => [
      await launchTx(s, s.creator, own, 1000),
      await buyTx(s, s.creator, ownKey, amount),
      await s.vault.connect(s.creator).collectFees(own, { gasLimit: 3_000_000n }),
      await s.vault.connect(s.creator).claim([own], s.creator.address, { gasLimit: 3_000_000n }),
      await launchTx(s, s.stranger, other, 1000),
      await buyTx(s, s.trader, otherKey, amount),
    ]);
    for (const receipt of [ownLaunch, ownBuy, collect, claim, otherLaunch, sniperBuy]) expect(receipt?.status).to.equal(1);
    expect(new Set([ownLaunch, sniperBuy, claim].map((receipt) => receipt?.blockNumber)).size).to.equal(1);
    const ownSwap = await swapLogsOf(s, ownBuy!);
    const sniperSwap = await swapLogsOf(s, sniperBuy!);

    // The same trade at the same rate: the same fee, the same ETH into the pool, the same tokens.
    const fee = hookFee(amount, LAUNCH_FEE_PIPS);
    expect(fee).to.equal(5n * ETH);
    for (const trade of [ownSwap, sniperSwap]) {
      expect(trade.fee).to.equal(fee);
      expect(trade.poolEth).to.equal(-(amount - fee));
    }
    const bought = async (key: PoolKeyTuple, who: string) =>
      (await ethers.getContractAt('SongToken', key.currency1)).balanceOf(who) as Promise<bigint>;
    expect(await bought(ownKey, s.creator.address)).to.equal(await bought(otherKey, s.trader.address));

    // The song is credited the steady part only (1% of the ETH paid); the rest, 49% of it, is burnt.
    const steady = songPartOfHookFee(fee, LAUNCH_FEE_PIPS);
    expect(steady).to.equal(amount / 100n);
    expect(ownSwap.burnt).to.equal(fee - steady);
    expect(sniperSwap.burnt).to.equal(fee - steady);
    const [collected] = parsedVaultLogs(s, collect, 'FeesCollected');
    const lpFeesEth = collected!.args.getValue('lpFeesEth') as bigint;
    expect(collected!.args.getValue('swapFeesEth')).to.equal(steady);
    // The LP fee (1% of the ETH into the pool, less v4's fee-growth flooring) is the same for both and stays an ordinary fee.
    const lpFee = ((amount - fee) * BigInt(LAUNCH_CONFIG.lpFee)) / 1_000_000n;
    expect(lpFeesEth).to.be.within(lpFee - 2n, lpFee);

    // What the creator got back: its share of the steady fees of its own trade, what a payout
    // recipient gets on every trade of its coin, in the window or not; nothing of the surcharge.
    const [claimed] = parsedVaultLogs(s, claim, 'FeesClaimed');
    const refund = claimed!.args.getValue('eth') as bigint;
    const steadyFees = steady + lpFeesEth;
    const platformShare = (steadyFees * BigInt(LAUNCH_CONFIG.platformShareBps)) / BPS;
    expect(refund).to.equal(steadyFees - platformShare);
    expect(claimed!.args.getValue('token')).to.equal(0n);

    // Effective fees: what each paid in fees, less what came back to it.
    const sniperFee = fee + lpFeesEth;
    const creatorFee = fee + lpFeesEth - refund;
    // Above the steady-state cost of the same trade (for the sniper the steady fees; for the
    // creator the steady fees less its share of them), both pay the same launch fee to the wei.
    const sniperSteadyCost = steadyFees;
    const creatorSteadyCost = steadyFees - refund;
    expect(creatorFee - creatorSteadyCost).to.equal(sniperFee - sniperSteadyCost);
    expect(sniperFee - sniperSteadyCost).to.equal(fee - steady);
    // Before issue 51 the creator got 80% of the whole in-window fee back: 4 ETH of the 5 plus its LP share.
    const before = fee + lpFeesEth - ((fee + lpFeesEth) * BigInt(LAUNCH_CONFIG.platformShareBps)) / BPS;
    expect(refund).to.be.lessThan(before / 30n);
    console.log(
      `      self-snipe of 10 ETH at 50%: sniper's effective fee ${percent(sniperFee, amount)}, the creator's ${percent(creatorFee, amount)} ` +
        `(refund ${percent(refund, amount)}, its share of the steady fees; before issue 51 ${percent(fee + lpFeesEth - before, amount)}); ` +
        `launch surcharge burnt: ${percent(fee - steady, amount)} for both`,
    );
  });

  it('the allocation dump: nothing of the allocation before its cliff, then only the vested share, all of it at the end', async function () {
    const s = await deploySongmint(ethers);
    const songId = await mintSong(s.nft, s.creator, 'dump');
    await (await s.nft.connect(s.creator).approve(s.vault.target, songId)).wait();
    const key = await poolKeyOf(s.vault, songId);
    const token = await ethers.getContractAt('SongToken', key.currency1);
    const sellTokens = async (seller: Songmint['creator'], amount: bigint) => {
      await (await token.connect(seller).approve(s.swapRouter.target, amount)).wait();
      return swap(s.swapRouter, seller, key, 'sellExactIn', amount);
    };

    // Launch block: the allocation cannot be claimed, whoever asks.
    const [launched, claimInLaunchBlock] = await inOneBlock(async () => [
      await launchTx(s, s.creator, songId, 1000),
      await s.vault.connect(s.creator).claimAllocation(songId, { gasLimit: 3_000_000n }),
    ]);
    expect([launched?.status, claimInLaunchBlock?.status]).to.deep.equal([1, 0]);
    const { launchedAt } = await s.vault.songOf(songId);
    const [, total, , , cliffEnd, vestingEnd] = await s.vault.allocationOf(songId);
    expect(cliffEnd).to.equal(launchedAt + 7n * 86_400n);

    // A collector buys 1 ETH after the launch window.
    await networkHelpers.time.setNextBlockTimestamp(launchedAt + 110n);
    await (await swap(s.swapRouter, s.trader, key, 'buyExactIn', ETH, ETH)).wait();
    const collectorTokens = await token.balanceOf(s.trader.address);

    // The review's dump at 120 s, and any time up to the cliff's end: no allocation to claim or to sell.
    for (const at of [launchedAt + 120n, launchedAt + 86_400n, cliffEnd]) {
      await networkHelpers.time.setNextBlockTimestamp(at);
      await expect(s.vault.connect(s.creator).claimAllocation(songId))
        .to.be.revertedWithCustomError(s.vault, 'AllocationLocked')
        .withArgs(songId, cliffEnd);
      expect(await token.balanceOf(s.creator.address)).to.equal(0n);
    }
    await expect(sellTokens(s.creator, 1n)).to.be.revert(ethers);
    // So the pool's ETH stays the buyers': the collector sells half its tokens for ETH before the cliff.
    const halfSale = await (await sellTokens(s.trader, collectorTokens / 2n)).wait();
    expect((await swapLogsOf(s, halfSale!)).poolEth).to.be.greaterThan(ETH / 5n);

    // A quarter of the vesting period after the cliff: exactly a quarter is the creator's, no more.
    const period = BigInt(LAUNCH_CONFIG.allocationVestingPeriod);
    await networkHelpers.time.setNextBlockTimestamp(cliffEnd + period / 4n);
    const claimed = await (await s.vault.connect(s.creator).claimAllocation(songId)).wait();
    expect(claimed?.gasUsed, 'a claim costs at most 80,000 gas').to.be.lessThanOrEqual(80_000n);
    expect(await token.balanceOf(s.creator.address)).to.equal(total / 4n);
    await expect(sellTokens(s.creator, total / 4n + 1n)).to.be.revert(ethers);
    await (await sellTokens(s.creator, total / 4n)).wait();
    expect(await token.balanceOf(s.creator.address)).to.equal(0n);

    // At the end of the vesting: all of it.
    await networkHelpers.time.setNextBlockTimestamp(vestingEnd);
    await (await s.vault.connect(s.creator).claimAllocation(songId)).wait();
    expect(await token.balanceOf(s.creator.address)).to.equal(total - total / 4n);
    expect(await token.totalSupply()).to.equal(10n ** 27n);
  });
});
