import { expect } from 'chai';
import type { TransactionReceipt } from 'ethers';
import { Contract, Interface, ZeroAddress } from 'ethers';
import { network } from 'hardhat';
import { anyValue } from '@nomicfoundation/hardhat-ethers-chai-matchers/withArgs';
import type { Hex } from 'viem';
import {
  BASE_POOL_MANAGER,
  CREATE2_DEPLOYER,
  create2DeployData,
  mineHookSalt,
  SONG_POOL_HOOK_FLAGS,
  songPoolHookInitCode,
} from '../../ignition/songmint-hook.ts';
import {
  claimWholeAllocation,
  deploySongmint,
  feePipsAfter,
  hookFee,
  mintAndLaunch,
  mintSong,
  poolKeyOf,
  slot0,
  swap,
  swapLogsOf,
  swapParams,
  V4_LIBRARY_ERRORS,
  type PoolKeyTuple,
  type Songmint,
  type SwapKind,
} from './fixtures/songmint.ts';
import { deployV4Artifact } from '../../scripts/uniswap-v4.ts';

/** The swap callbacks of v4's IHooks, which SongPoolHook serves from its fallback (no ABI entries). */
const swapCallbacks = new Interface([
  'function beforeSwap(address sender, (address currency0, address currency1, uint24 fee, int24 tickSpacing, address hooks) key, (bool zeroForOne, int256 amountSpecified, uint160 sqrtPriceLimitX96) params, bytes hookData) returns (bytes4, int256, uint24)',
  'function afterSwap(address sender, (address currency0, address currency1, uint24 fee, int24 tickSpacing, address hooks) key, (bool zeroForOne, int256 amountSpecified, uint160 sqrtPriceLimitX96) params, int256 delta, bytes hookData) returns (bytes4, int128)',
]);

const { ethers, networkHelpers } = await network.create('base');
const v4Errors = new Contract(ZeroAddress, V4_LIBRARY_ERRORS);
const ETH = 10n ** 18n;

async function launchedSong(): Promise<Songmint & { songId: bigint; poolKey: PoolKeyTuple; launchedAt: bigint }> {
  const s = await deploySongmint(ethers);
  const { songId, poolKey } = await mintAndLaunch(s, 'hook');
  const launchedAt = BigInt((await s.vault.songOf(songId)).launchedAt);
  return { ...s, songId, poolKey, launchedAt };
}

interface SwapOutcome {
  receipt: TransactionReceipt;
  poolEth: bigint;
  fee: bigint;
  burnt: bigint;
  traderEthChange: bigint;
  sender: string;
}

/** Runs one swap and reads the pool's own ETH amount (PoolManager Swap event) and the hook fee. */
async function runSwap(
  s: Songmint & { poolKey: PoolKeyTuple },
  kind: SwapKind,
  amount: bigint,
  value = 0n,
  limit?: bigint,
): Promise<SwapOutcome> {
  const before = await ethers.provider.getBalance(s.trader.address);
  const tx = await swap(s.swapRouter, s.trader, s.poolKey, kind, amount, value, limit);
  const receipt = (await tx.wait()) as TransactionReceipt;
  const after = await ethers.provider.getBalance(s.trader.address);
  return { receipt, ...(await swapLogsOf(s, receipt)), traderEthChange: after - before + receipt.fee };
}

/**
 * A song launched at T (its 10% allocation held by the vault through the launch window); at T + 1
 * the trader buys 1 ETH of tokens, paying the launch fee, so the pool holds ETH for sells and the
 * trader tokens to sell; at T + 2 it approves the router. Every swap kind can run from T + 3 on.
 */
async function tradedSong() {
  const s = await deploySongmint(ethers);
  const songId = await mintSong(s.nft, s.creator, 'parity');
  await (await s.nft.connect(s.creator).approve(await s.vault.getAddress(), songId)).wait();
  await (await s.vault.connect(s.creator).launch(songId, { allocationBps: 1000, allocationRecipient: s.trader.address })).wait();
  const launchedAt = BigInt((await s.vault.songOf(songId)).launchedAt);
  const poolKey = await poolKeyOf(s.vault, songId);
  const token = await ethers.getContractAt('SongToken', poolKey.currency1);
  await networkHelpers.time.setNextBlockTimestamp(launchedAt + 1n);
  await (await swap(s.swapRouter, s.trader, poolKey, 'buyExactIn', ETH, ETH)).wait();
  await networkHelpers.time.setNextBlockTimestamp(launchedAt + 2n);
  await (await token.connect(s.trader).approve(await s.swapRouter.getAddress(), 2n ** 255n)).wait();
  return { ...s, songId, poolKey, launchedAt };
}

describe('SongPoolHook', function () {
  /** The launched song, with the launch fee fully decayed unless `fresh`. */
  async function ready(fresh: 'fresh' | 'decayed') {
    const s = await networkHelpers.loadFixture(launchedSong);
    if (fresh === 'fresh') return s;
    // The trader holds tokens and has approved the router, so every kind of swap can run.
    const token = await ethers.getContractAt('SongToken', s.poolKey.currency1);
    await networkHelpers.time.increase(300);
    await claimWholeAllocation(s, networkHelpers.time, s.songId);
    await (await token.connect(s.creator).transfer(s.trader.address, 10_000_000n * ETH)).wait();
    await (await token.connect(s.trader).approve(await s.swapRouter.getAddress(), 2n ** 255n)).wait();
    return s;
  }

  describe('fees on the ETH side, to the wei', function () {
    it('buy with exact ETH in: the fee comes off the input before the swap', async function () {
      const s = await ready('decayed');
      const amount = ETH / 10n;
      const out = await runSwap(s, 'buyExactIn', amount, amount);
      const fee = hookFee(amount, 10_000n);
      expect(out.fee).to.equal(fee);
      expect(out.poolEth).to.equal(-(amount - fee));
      expect(out.traderEthChange).to.equal(-amount);
      expect(await s.vault.accruedSwapFees(s.songId)).to.equal(fee);
      expect(await s.poolManager.getFunction('balanceOf')(s.poolKey.currency1, 0n)).to.equal(fee);
    });

    it('buy exact tokens out: the fee is added to the ETH the pool takes, p of what the trader pays', async function () {
      const s = await ready('decayed');
      const out = await runSwap(s, 'buyExactOut', 1_000_000n * ETH, ETH);
      const poolIn = -out.poolEth;
      expect(poolIn).to.be.greaterThan(0n);
      expect(out.fee).to.equal(hookFee(poolIn, 10_000n, true));
      expect(out.fee).to.equal((poolIn * 10_000n + 989_999n) / 990_000n);
      expect(out.traderEthChange).to.equal(-(poolIn + out.fee));
    });

    it('sell exact tokens in: the fee comes off the ETH paid out', async function () {
      const s = await ready('decayed');
      await runSwap(s, 'buyExactIn', ETH, ETH);
      const out = await runSwap(s, 'sellExactIn', 1_000_000n * ETH);
      expect(out.poolEth).to.be.greaterThan(0n);
      expect(out.fee).to.equal(hookFee(out.poolEth, 10_000n));
      expect(out.traderEthChange).to.equal(out.poolEth - out.fee);
    });

    it('sell for exact ETH out: the pool pays the fee on top and the trader gets the exact amount', async function () {
      const s = await ready('decayed');
      await runSwap(s, 'buyExactIn', ETH, ETH);
      const wanted = ETH / 100n;
      const out = await runSwap(s, 'sellExactOut', wanted);
      const fee = hookFee(wanted, 10_000n, true);
      expect(out.fee).to.equal(fee);
      expect(out.poolEth).to.equal(wanted + fee);
      expect(out.traderEthChange).to.equal(wanted);
    });

    it('accrues every fee of a pool in one running total that matches the hook ERC-6909 claims', async function () {
      const s = await ready('decayed');
      let total = 0n;
      for (const [kind, amount, value] of [
        ['buyExactIn', ETH / 3n, ETH / 3n],
        ['sellExactIn', 123_456n * ETH, 0n],
        ['buyExactOut', 777n * ETH, ETH],
        ['sellExactOut', ETH / 1000n, 0n],
      ] as const) {
        total += (await runSwap(s, kind, amount, value)).fee;
      }
      expect(await s.vault.accruedSwapFees(s.songId)).to.equal(total);
      expect(await s.poolManager.getFunction('balanceOf')(s.poolKey.currency1, 0n)).to.equal(total);
    });
  });

  describe('every swap kind pays the same share of the ETH that changes hands', function () {
    const kinds: { kind: SwapKind; amount: bigint; value: bigint }[] = [
      { kind: 'buyExactIn', amount: ETH / 20n, value: ETH / 20n },
      { kind: 'buyExactOut', amount: 2_000_000n * ETH, value: ETH },
      { kind: 'sellExactIn', amount: 2_000_000n * ETH, value: 0n },
      { kind: 'sellExactOut', amount: ETH / 50n, value: 0n },
    ];
    // 3 s: the first blocks after launch (fee ~48.8%); 60 s: halfway down; 300 s: the steady 1%.
    for (const elapsed of [3n, 60n, 300n]) {
      it(`${elapsed} s after launch: fee / ETH paid (buys) or paid out (sells) is the current rate within 1 bp`, async function () {
        const pips = feePipsAfter(elapsed);
        const shares: bigint[] = [];
        for (const { kind, amount, value } of kinds) {
          const s = await networkHelpers.loadFixture(tradedSong);
          await networkHelpers.time.setNextBlockTimestamp(s.launchedAt + elapsed);
          const out = await runSwap(s, kind, amount, value);
          // The ETH that changed hands: what the buyer paid, or what the pool paid out of which the
          // seller got all but the fee.
          const gross = kind.startsWith('buy') ? -out.traderEthChange : out.traderEthChange + out.fee;
          if (kind.startsWith('sell')) expect(gross, kind).to.equal(out.poolEth);
          expect(gross, kind).to.be.greaterThan(10n ** 15n);
          // |fee / gross - pips / 1e6| <= 1 bp = 100 pips.
          const deviation = out.fee * 1_000_000n - pips * gross;
          expect(deviation < 0n ? -deviation : deviation, kind).to.be.lessThanOrEqual(100n * gross);
          // Rounding is up, by at most one wei of fee.
          expect(deviation, kind).to.be.greaterThanOrEqual(0n);
          expect(deviation, kind).to.be.lessThan(1_000_000n);
          shares.push((out.fee * 10n ** 12n) / gross);
        }
        const spread = shares.reduce((a, b) => (a > b ? a : b)) - shares.reduce((a, b) => (a < b ? a : b));
        expect(spread).to.be.lessThanOrEqual(10n ** 8n); // 1 bp of 1e12
      });
    }

    it("an indexer gets each swap's fee and router from the PoolManager's logs alone, to the wei", async function () {
      const s = await networkHelpers.loadFixture(tradedSong);
      const hook = await s.hook.getAddress();
      const claims = (holder: string) => s.poolManager.getFunction('balanceOf')(holder, 0n) as Promise<bigint>;
      for (const { kind, amount, value } of kinds) {
        const [songBefore, burntBefore] = [await claims(s.poolKey.currency1), await s.hook.burntLaunchFees()];
        const out = await runSwap(s, kind, amount, value);
        // The fee from balances, not logs: what the song's token gained in ETH claims plus what the
        // hook burnt (inside the launch fee window), and what the trader paid beyond the pool's input
        // (buys) or got short of the pool's output (sells).
        const credited = (await claims(s.poolKey.currency1)) - songBefore;
        const burnt = (await s.hook.burntLaunchFees()) - burntBefore;
        const paidBeyondPool = out.poolEth - out.traderEthChange;
        expect(credited, kind).to.be.greaterThan(0n);
        expect(burnt, kind).to.be.greaterThan(0n);
        expect([out.fee, out.burnt], kind).to.deep.equal([credited + burnt, burnt]);
        expect(out.fee, kind).to.equal(paidBeyondPool);
        expect(out.sender, kind).to.equal(await s.swapRouter.getAddress());
        // The song's mint sits next to the Swap log (before it when charged in beforeSwap, after it
        // otherwise), as the oracle's indexer pairs them; the burn is the other side.
        const managerLogs = out.receipt.logs
          .filter((log) => log.address === BASE_POOL_MANAGER)
          .map((log) => s.poolManager.interface.parseLog(log));
        const swapAt = managerLogs.findIndex((log) => log?.name === 'Swap');
        const songMintAt = managerLogs.findIndex((log) => log?.name === 'Transfer' && log.args.getValue('to') === s.poolKey.currency1);
        const burnAt = managerLogs.findIndex((log) => log?.name === 'Transfer' && log.args.getValue('to') === hook);
        expect(Math.abs(songMintAt - swapAt), kind).to.equal(1);
        expect(Math.abs(burnAt - swapAt), kind).to.equal(2);
        // The hook logs nothing of its own: the PoolManager's Swap and fee mint are the swap's only record.
        expect(
          out.receipt.logs.filter((log) => log.address === hook),
          kind,
        ).to.deep.equal([]);
      }
    });
  });

  describe('launch-fee decay', function () {
    it('starts at 50% and falls linearly to 1% over 120 s, then stays', async function () {
      const s = await ready('fresh');
      for (const elapsed of [0n, 1n, 2n, 30n, 60n, 119n, 120n, 121n, 1000n]) {
        const now = BigInt(await networkHelpers.time.latest());
        expect(await s.hook.swapFeePips(now - elapsed)).to.equal(feePipsAfter(elapsed));
      }
    });

    it('charges the decayed fee of the block a swap lands in', async function () {
      const s = await ready('fresh');
      for (const elapsed of [2n, 45n, 90n, 119n, 120n, 400n]) {
        await networkHelpers.time.setNextBlockTimestamp(s.launchedAt + elapsed);
        const amount = ETH / 50n;
        const out = await runSwap(s, 'buyExactIn', amount, amount);
        expect(out.fee).to.equal(hookFee(amount, feePipsAfter(elapsed)));
      }
    });

    it('charges the launch fee on sells too: a sniper who dumps at once pays it twice', async function () {
      const s = await ready('fresh');
      await networkHelpers.time.setNextBlockTimestamp(s.launchedAt + 1n);
      const bought = await runSwap(s, 'buyExactIn', ETH, ETH);
      const token = await ethers.getContractAt('SongToken', s.poolKey.currency1);
      const tokens = await token.balanceOf(s.trader.address);
      await networkHelpers.time.setNextBlockTimestamp(s.launchedAt + 2n);
      await (await token.connect(s.trader).approve(await s.swapRouter.getAddress(), tokens)).wait();
      await networkHelpers.time.setNextBlockTimestamp(s.launchedAt + 3n);
      const sold = await runSwap(s, 'sellExactIn', tokens);
      expect(sold.fee).to.equal(hookFee(sold.poolEth, feePipsAfter(3n)));
      expect(sold.traderEthChange).to.be.lessThan((ETH * 3n) / 10n);
      expect(bought.fee + sold.fee).to.be.greaterThan((ETH * 7n) / 10n);
    });

    it('makes a sniper in the first blocks pay about half the ETH in', async function () {
      const s = await ready('fresh');
      await networkHelpers.time.setNextBlockTimestamp(s.launchedAt + 1n);
      const out = await runSwap(s, 'buyExactIn', ETH, ETH);
      expect(out.fee).to.equal(hookFee(ETH, 495_917n));
      expect(out.poolEth).to.equal(-(ETH - out.fee));
    });

    it('burns the part of an in-window fee above the steady 1%: the song is credited only the steady part', async function () {
      const s = await ready('fresh');
      const hook = await s.hook.getAddress();
      const balanceOf = s.poolManager.getFunction('balanceOf');
      await networkHelpers.time.setNextBlockTimestamp(s.launchedAt + 1n);
      const out = await runSwap(s, 'buyExactIn', ETH, ETH);
      const fee = hookFee(ETH, 495_917n);
      const steady = (fee * 10_000n) / 495_917n;
      expect(out.fee).to.equal(fee);
      expect(out.burnt).to.equal(fee - steady);
      // The steady part is 1% of the ETH paid (to rounding); the song's claims and running total hold
      // only it, the rest is held by the hook.
      expect(steady - ETH / 100n)
        .to.be.greaterThanOrEqual(-1n)
        .and.lessThanOrEqual(1n);
      expect(await balanceOf(s.poolKey.currency1, 0n)).to.equal(steady);
      expect(await s.vault.accruedSwapFees(s.songId)).to.equal(steady);
      expect(await balanceOf(hook, 0n)).to.equal(fee - steady);
      expect(await s.hook.burntLaunchFees()).to.equal(fee - steady);
      // Burnt for good: the hook has no function that moves, burns or redeems claims (its only
      // PoolManager call is mint), it names no operator and no allowance, so nobody can take them.
      const writers = s.hook.interface.fragments
        .filter((f) => f.type === 'function' && 'stateMutability' in f && f.stateMutability !== 'view' && f.stateMutability !== 'pure')
        .map((f) => ('name' in f ? String(f.name) : ''))
        .sort();
      expect(writers).to.deep.equal(['beforeInitialize']);
      expect(await s.poolManager.getFunction('isOperator')(hook, s.stranger.address)).to.equal(false);
      await expect(s.poolManager.connect(s.stranger).getFunction('transferFrom')(hook, s.stranger.address, 0n, 1n)).to.be.revert(ethers);
      // At the floor nothing more is burnt.
      await networkHelpers.time.setNextBlockTimestamp(s.launchedAt + 120n);
      const steadyOut = await runSwap(s, 'buyExactIn', ETH / 10n, ETH / 10n);
      expect(steadyOut.burnt).to.equal(0n);
      expect(await s.hook.burntLaunchFees()).to.equal(fee - steady);
    });
  });

  describe('price limits', function () {
    /** The hook's ExactEthSwapNotFilled, as v4 wraps a hook's revert. */
    async function expectNotFilled(
      s: Songmint & { poolKey: PoolKeyTuple; songId: bigint },
      kind: SwapKind,
      amount: bigint,
      value: bigint,
      limit: bigint,
    ) {
      const hookAddress = await s.hook.getAddress();
      await expect(swap(s.swapRouter, s.trader, s.poolKey, kind, amount, value, limit))
        .to.be.revertedWithCustomError(v4Errors, 'WrappedError')
        .withArgs(hookAddress, swapCallbacks.getFunction('afterSwap')?.selector, anyValue, anyValue);
      const reason = await s.swapRouter
        .connect(s.trader)
        .getFunction('swap')
        .staticCall(s.poolKey, swapParams(kind, amount, limit), { takeClaims: false, settleUsingBurn: false }, '0x', { value })
        .then(
          () => '0x',
          (error: { data?: string }) => v4Errors.interface.parseError(error.data ?? '0x')?.args.getValue('reason') as string,
        );
      expect(s.hook.interface.parseError(reason)?.name).to.equal('ExactEthSwapNotFilled');
      expect(await s.vault.accruedSwapFees(s.songId)).to.equal(0n);
    }

    it('a buy with exact ETH in stopped early by its price limit reverts instead of charging the unfilled ETH', async function () {
      const s = await ready('decayed');
      const { sqrtPriceX96 } = await slot0(s.poolManager, s.poolKey);
      const requested = 10n * ETH;
      await expectNotFilled(s, 'buyExactIn', requested, requested, (sqrtPriceX96 * 999n) / 1000n);
      // The same buy within its limit fills and pays p of its ETH.
      const out = await runSwap(s, 'buyExactIn', ETH / 1000n, ETH / 1000n, (sqrtPriceX96 * 999n) / 1000n);
      expect(out.fee).to.equal(hookFee(ETH / 1000n, 10_000n));
      expect(out.poolEth).to.equal(-(ETH / 1000n - out.fee));
    });

    it('a sell for exact ETH out stopped early by its price limit reverts instead of costing the seller ETH', async function () {
      const s = await ready('decayed');
      await runSwap(s, 'buyExactIn', ETH / 10n, ETH / 10n);
      const fees = await s.vault.accruedSwapFees(s.songId);
      const { sqrtPriceX96 } = await slot0(s.poolManager, s.poolKey);
      const limit = (sqrtPriceX96 * 1001n) / 1000n;
      const hookAddress = await s.hook.getAddress();
      await expect(swap(s.swapRouter, s.trader, s.poolKey, 'sellExactOut', 10n * ETH, ETH, limit))
        .to.be.revertedWithCustomError(v4Errors, 'WrappedError')
        .withArgs(hookAddress, swapCallbacks.getFunction('afterSwap')?.selector, anyValue, anyValue);
      expect(await s.vault.accruedSwapFees(s.songId)).to.equal(fees);
      const out = await runSwap(s, 'sellExactOut', ETH / 1000n, 0n, limit);
      expect(out.traderEthChange).to.equal(ETH / 1000n);
      expect(out.fee).to.equal(hookFee(ETH / 1000n, 10_000n, true));
    });

    it('swaps for exact tokens stopped by their limit are charged only on the ETH filled, both ways', async function () {
      const s = await ready('decayed');
      await runSwap(s, 'buyExactIn', ETH / 10n, ETH / 10n);
      const { sqrtPriceX96 } = await slot0(s.poolManager, s.poolKey);
      const buy = await runSwap(s, 'buyExactOut', 500_000_000n * ETH, 10n * ETH, (sqrtPriceX96 * 999n) / 1000n);
      expect(-buy.poolEth).to.be.greaterThan(0n);
      expect(buy.fee).to.equal(hookFee(-buy.poolEth, 10_000n, true));
      expect(buy.traderEthChange).to.equal(buy.poolEth - buy.fee);
      const sell = await runSwap(s, 'sellExactIn', 500_000_000n * ETH, 0n, sqrtPriceX96);
      expect(sell.poolEth).to.be.greaterThan(0n);
      expect(sell.fee).to.equal(hookFee(sell.poolEth, 10_000n));
      expect(sell.traderEthChange).to.equal(sell.poolEth - sell.fee);
    });
  });

  describe('rounding', function () {
    it('rounds fees up: a 1-wei buy pays a 1-wei fee and swaps nothing', async function () {
      const s = await ready('decayed');
      const out = await runSwap(s, 'buyExactIn', 1n, 1n);
      expect(out.fee).to.equal(1n);
      expect(out.poolEth).to.equal(0n);
    });

    it('splitting a trade into small ones never pays less fee than the whole', async function () {
      const s = await ready('decayed');
      const pieces = 7n;
      const piece = 1_234_567n;
      let split = 0n;
      for (let i = 0n; i < pieces; i++) split += (await runSwap(s, 'buyExactIn', piece, piece)).fee;
      expect(split).to.be.greaterThanOrEqual(hookFee(piece * pieces, 10_000n));
    });

    it('a sell whose ETH output rounds to zero charges nothing', async function () {
      const s = await ready('decayed');
      await runSwap(s, 'buyExactIn', ETH, ETH);
      const out = await runSwap(s, 'sellExactIn', 1n);
      expect(out.poolEth).to.equal(0n);
      expect(out.fee).to.equal(0n);
    });
  });

  describe('routers: the sender is not the trader', function () {
    it("credits the song whoever routes the swap; the PoolManager's Swap log names the router", async function () {
      const s = await ready('decayed');
      const otherRouter = await deployV4Artifact('PoolSwapTest', s.stranger, [BASE_POOL_MANAGER]);
      const amount = ETH / 20n;
      const viaFirst = await runSwap(s, 'buyExactIn', amount, amount);
      expect(viaFirst.sender).to.equal(await s.swapRouter.getAddress());
      const viaOther = (await (await swap(otherRouter, s.stranger, s.poolKey, 'buyExactIn', amount, amount)).wait()) as TransactionReceipt;
      expect(await swapLogsOf(s, viaOther)).to.deep.equal({
        poolEth: -(amount - hookFee(amount, 10_000n)),
        fee: hookFee(amount, 10_000n),
        burnt: 0n,
        sender: await otherRouter.getAddress(),
      });
      expect(await s.vault.accruedSwapFees(s.songId)).to.equal(2n * hookFee(amount, 10_000n));
    });
  });

  describe('the hook fee claims', function () {
    it("are held in the song token's name, and only the vault can have the token hand them over", async function () {
      const s = await ready('decayed');
      const out = await runSwap(s, 'buyExactIn', ETH, ETH);
      const balanceOf = s.poolManager.getFunction('balanceOf');
      expect(await balanceOf(s.poolKey.currency1, 0n)).to.equal(out.fee);
      expect(await balanceOf(await s.hook.getAddress(), 0n)).to.equal(0n);
      // A stranger cannot move them: it has no allowance and is no operator of the token...
      await expect(
        s.poolManager.connect(s.stranger).getFunction('transferFrom')(s.poolKey.currency1, s.stranger.address, 0n, 1n),
      ).to.be.revert(ethers);
      // ...and the token hands them to its deploying vault only.
      const token = await ethers.getContractAt('SongToken', s.poolKey.currency1);
      await expect(token.connect(s.stranger).releaseFeeClaims(BASE_POOL_MANAGER, 1n))
        .to.be.revertedWithCustomError(token, 'NotDeployer')
        .withArgs(s.stranger.address);
      expect(await balanceOf(s.poolKey.currency1, 0n)).to.equal(out.fee);
    });
  });

  describe('who may initialize pools with the hook', function () {
    it('rejects a stranger initializing a pool with the hook (even for a real song token)', async function () {
      const s = await ready('decayed');
      const key = { ...s.poolKey, fee: 3000n, tickSpacing: 60n };
      const only = s.hook.interface.encodeErrorResult('OnlyVault', [s.stranger.address]);
      await expect(s.poolManager.connect(s.stranger).getFunction('initialize')(key, 2n ** 96n))
        .to.be.revertedWithCustomError(v4Errors, 'WrappedError')
        .withArgs(await s.hook.getAddress(), s.hook.interface.getFunction('beforeInitialize').selector, only, anyValue);
    });

    it('is bound to the vault that deployed it, for good: there is nothing to bind or rebind', async function () {
      const s = await ready('decayed');
      expect(await s.hook.vault()).to.equal(await s.vault.getAddress());
      expect(s.hook.interface.fragments.some((f) => f.type === 'function' && 'name' in f && f.name === 'bindVault')).to.equal(false);
      // The old bindVault() selector finds no function.
      await expect(s.stranger.sendTransaction({ to: await s.hook.getAddress(), data: '0xa1622fe9' })).to.be.revert(ethers);
    });

    it('a hook only initializes pools whose currency0 is native ETH', async function () {
      const s = await ready('decayed');
      // A second hook, deployed (and so bound) by a probe contract acting as its vault.
      const probe = await ethers.deployContract('HookDeployerProbe', [BASE_POOL_MANAGER], s.stranger);
      const factory = await ethers.getContractFactory('SongPoolHook');
      const initCode = songPoolHookInitCode(factory.bytecode as Hex, BASE_POOL_MANAGER);
      const mined = mineHookSalt({ initCode, deployer: (await probe.getAddress()) as Hex });
      if (!mined.ok) throw new Error(mined.message);
      await (await probe.deploy(mined.value.salt)).wait();
      const otherHook = await ethers.getContractAt('SongPoolHook', mined.value.address);
      expect(await otherHook.vault()).to.equal(await probe.getAddress());
      const tokenA = await s.tokenImplementation.getAddress();
      const tokenB = s.poolKey.currency1;
      const [currency0, currency1] = BigInt(tokenA) < BigInt(tokenB) ? [tokenA, tokenB] : [tokenB, tokenA];
      const key = { currency0, currency1, fee: 3000n, tickSpacing: 60n, hooks: mined.value.address };
      const notNative = otherHook.interface.encodeErrorResult('NotNativeEthPool', []);
      await expect(probe.initialize(key, 2n ** 96n))
        .to.be.revertedWithCustomError(v4Errors, 'WrappedError')
        .withArgs(mined.value.address, otherHook.interface.getFunction('beforeInitialize').selector, notNative, anyValue);
    });

    it('hook callbacks called directly (not by the PoolManager) revert', async function () {
      const s = await ready('decayed');
      const params = { zeroForOne: true, amountSpecified: -1n, sqrtPriceLimitX96: 4295128740n };
      const hook = s.hook.connect(s.stranger);
      await expect(hook.beforeInitialize(s.stranger.address, s.poolKey, 2n ** 96n)).to.be.revertedWithCustomError(s.hook, 'NotPoolManager');
      const callbacks = new Contract(await s.hook.getAddress(), swapCallbacks, s.stranger);
      await expect(callbacks.getFunction('beforeSwap')(s.stranger.address, s.poolKey, params, '0x')).to.be.revertedWithCustomError(
        s.hook,
        'NotPoolManager',
      );
      await expect(callbacks.getFunction('afterSwap')(s.stranger.address, s.poolKey, params, 5n, '0x')).to.be.revertedWithCustomError(
        s.hook,
        'NotPoolManager',
      );
      // A callback the hook does not implement (its flag is off) is no function of it at all.
      const afterInitialize = ethers.id('afterInitialize(address,(address,address,uint24,int24,address),uint160,int24)').slice(0, 10);
      await expect(s.stranger.sendTransaction({ to: await s.hook.getAddress(), data: afterInitialize })).to.be.revertedWithCustomError(
        s.hook,
        'NotPoolManager',
      );
    });
  });

  describe('hook address flags', function () {
    it('cannot be deployed at an address without its flag bits', async function () {
      const factory = await ethers.getContractFactory('SongPoolHook');
      await expect(factory.deploy(BASE_POOL_MANAGER)).to.be.revertedWithCustomError(v4Errors, 'HookAddressNotValid');
    });

    it('cannot be deployed at an address mined for other flags (afterSwap missing)', async function () {
      await ready('decayed');
      const factory = await ethers.getContractFactory('SongPoolHook');
      const initCode = songPoolHookInitCode(factory.bytecode as Hex, BASE_POOL_MANAGER);
      const wrongFlags = (1n << 13n) | (1n << 7n) | (1n << 3n) | (1n << 2n);
      const mined = mineHookSalt({ initCode, deployer: CREATE2_DEPLOYER, flags: wrongFlags });
      if (!mined.ok) throw new Error(mined.message);
      const [deployer] = await ethers.getSigners();
      await expect(deployer!.sendTransaction({ to: CREATE2_DEPLOYER, data: create2DeployData(mined.value.salt, initCode) })).to.be.revert(
        ethers,
      );
      expect(await ethers.provider.getCode(mined.value.address)).to.equal('0x');
    });

    it('cannot be deployed at an address mined for the old flags 0x20cc (before beforeAddLiquidity), by the vault or anyone', async function () {
      await ready('decayed');
      const oldFlags = 0x20ccn;
      expect(SONG_POOL_HOOK_FLAGS & ~oldFlags).to.equal(1n << 11n, 'the old flags lack only beforeAddLiquidity');
      const factory = await ethers.getContractFactory('SongPoolHook');
      const initCode = songPoolHookInitCode(factory.bytecode as Hex, BASE_POOL_MANAGER);
      // Through the public CREATE2 proxy, and through a deployer contract of one's own (as a vault would).
      const viaProxy = mineHookSalt({ initCode, deployer: CREATE2_DEPLOYER, flags: oldFlags });
      if (!viaProxy.ok) throw new Error(viaProxy.message);
      expect(BigInt(viaProxy.value.address) & 0x3fffn).to.equal(oldFlags);
      const [deployer] = await ethers.getSigners();
      await expect(
        deployer!.sendTransaction({ to: CREATE2_DEPLOYER, data: create2DeployData(viaProxy.value.salt, initCode) }),
      ).to.be.revert(ethers);
      expect(await ethers.provider.getCode(viaProxy.value.address)).to.equal('0x');
      const probe = await ethers.deployContract('HookDeployerProbe', [BASE_POOL_MANAGER]);
      const viaProbe = mineHookSalt({ initCode, deployer: (await probe.getAddress()) as Hex, flags: oldFlags });
      if (!viaProbe.ok) throw new Error(viaProbe.message);
      await expect(probe.deploy(viaProbe.value.salt))
        .to.be.revertedWithCustomError(v4Errors, 'HookAddressNotValid')
        .withArgs(viaProbe.value.address);
      expect(await ethers.provider.getCode(viaProbe.value.address)).to.equal('0x');
    });

    it('the PoolManager refuses a hook address whose flags are inconsistent (a return delta without its callback)', async function () {
      const s = await ready('decayed');
      // beforeSwapReturnDelta (bit 3) without beforeSwap (bit 7).
      const notAHook = '0x0000000000000000000000000000000000000008';
      const key = { ...s.poolKey, currency1: await s.tokenImplementation.getAddress(), hooks: notAHook };
      await expect(s.poolManager.connect(s.stranger).getFunction('initialize')(key, 2n ** 96n))
        .to.be.revertedWithCustomError(v4Errors, 'HookAddressNotValid')
        .withArgs(notAHook);
    });

    it('carries exactly the flags of its permissions in its address', async function () {
      const s = await ready('decayed');
      expect(BigInt(await s.hook.getAddress()) & 0x3fffn).to.equal(0x28ccn);
    });
  });
});
