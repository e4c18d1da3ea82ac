import { expect } from 'chai';
import type { TransactionReceipt } from 'ethers';
import { Contract, ZeroAddress, keccak256, toUtf8Bytes } from 'ethers';
import fc from 'fast-check';
import { network } from 'hardhat';
import { anyValue } from '@nomicfoundation/hardhat-ethers-chai-matchers/withArgs';
import type { HardhatEthersSigner } from '@nomicfoundation/hardhat-ethers/types';
import {
  claimWholeAllocation,
  collectSongIncome,
  deploySongmint,
  feePipsAfter,
  hookFee,
  LAUNCH_CONFIG,
  mintSong,
  modifyLiquidity,
  poolKeyOf,
  slot0,
  swap,
  swapLogsOf,
  V4_LIBRARY_ERRORS,
  type LiquidityChange,
  type SwapKind,
} from './fixtures/songmint.ts';

/**
 * The launch fee binds every way of trading (issue 28). A position is a limit order: tokens placed
 * in a range just below the price are bought by the next buyers, and removing the position pays
 * out ETH through modifyLiquidity, which no swap fee touches. So the hook refuses every liquidity
 * addition that does not come from the vault (beforeAddLiquidity), in the launch window and after
 * it. These tests attack the way the security review did, with the launch configuration of
 * docs/launch.md: the range-order exit, the parked allocation, a stranger's position beside the
 * locked one, and a fuzzed mix of swaps and liquidity operations by strangers, whose fee income for
 * the song is compared with the same swaps alone.
 *
 * SONGMINT_LIQUIDITY_FUZZ_RUNS (default 40) sets the fuzzed sequences; SONGMINT_LIQUIDITY_FUZZ_SEED
 * replays one.
 */

const { ethers, networkHelpers } = await network.create('base');
const v4Errors = new Contract(ZeroAddress, V4_LIBRARY_ERRORS);
const ETH = 10n ** 18n;
const SPACING = BigInt(LAUNCH_CONFIG.tickSpacing);
const FUZZ_RUNS = Math.max(1, Number(process.env.SONGMINT_LIQUIDITY_FUZZ_RUNS ?? '40'));
const FUZZ_SEED = process.env.SONGMINT_LIQUIDITY_FUZZ_SEED;

/**
 * A song launched with the full 10% allocation for its creator (the launcher; held by the vault
 * through the window), the sniper (trader) and a stranger each holding the tokens of a 1 ETH buy at
 * launch, and everyone's router approvals in place.
 */
async function launchedSong() {
  const s = await deploySongmint(ethers);
  const songId = await mintSong(s.nft, s.creator, 'liquidity');
  await (await s.nft.connect(s.creator).approve(await s.vault.getAddress(), songId)).wait();
  await (await s.vault.connect(s.creator).launch(songId, { allocationBps: 1000, allocationRecipient: s.creator.address })).wait();
  const launchedAt = BigInt((await s.vault.songOf(songId)).launchedAt);
  const poolKey = await poolKeyOf(s.vault, songId);
  const token = await ethers.getContractAt('SongToken', poolKey.currency1);
  // The allocation stays with the vault through the window: the sniper and the stranger buy theirs.
  for (const holder of [s.trader, s.stranger]) await (await swap(s.swapRouter, holder, poolKey, 'buyExactIn', ETH, ETH)).wait();
  for (const holder of [s.creator, s.trader, s.stranger]) {
    for (const router of [s.swapRouter, s.liquidityRouter])
      await (await token.connect(holder).approve(await router.getAddress(), 2n ** 255n)).wait();
  }
  return { ...s, songId, poolKey, token, launchedAt };
}

type Song = Awaited<ReturnType<typeof launchedSong>>;

/** The highest initializable tick at or below `tick`. */
function floorTick(tick: bigint): bigint {
  const q = tick / SPACING;
  return (tick < 0n && tick % SPACING !== 0n ? q - 1n : q) * SPACING;
}

/** A token-only range `width` spacings wide whose top is `offset` spacings below the price: a sell order. */
function rangeBelow(tick: bigint, width = 1n, offset = 0n): { tickLower: bigint; tickUpper: bigint } {
  const tickUpper = floorTick(tick) - offset * SPACING;
  return { tickLower: tickUpper - width * SPACING, tickUpper };
}

/** The hook's refusal of an addition by `sender`, as v4 wraps it. */
function isRefusalOf(s: Song, sender: string): (reason: string) => boolean {
  return (reason) => {
    const parsed = s.hook.interface.parseError(reason);
    return parsed?.name === 'LiquidityOnlyFromVault' && parsed.args.getValue('sender') === sender;
  };
}

async function expectRefused(s: Song, sent: Promise<unknown>): Promise<void> {
  await expect(sent)
    .to.be.revertedWithCustomError(v4Errors, 'WrappedError')
    .withArgs(
      await s.hook.getAddress(),
      s.hook.interface.getFunction('beforeAddLiquidity').selector,
      isRefusalOf(s, await s.liquidityRouter.getAddress()),
      anyValue,
    );
}

/** Runs a swap at `timestamp` and returns the pool's ETH delta and the hook fee it logged. */
async function swapAt(s: Song, who: HardhatEthersSigner, kind: SwapKind, amount: bigint, value: bigint, timestamp: bigint) {
  await networkHelpers.time.setNextBlockTimestamp(timestamp);
  const receipt = (await (await swap(s.swapRouter, who, s.poolKey, kind, amount, value)).wait()) as TransactionReceipt;
  return swapLogsOf(s, receipt);
}

describe('The launch fee binds every way of trading (no fee-free exit through liquidity)', function () {
  it("a sniper's range-order exit in the launch window is refused; its only exit, a swap, pays the launch fee to the wei", async function () {
    const s = await networkHelpers.loadFixture(launchedSong);
    const startTokens = await s.token.balanceOf(s.trader.address);
    await swapAt(s, s.trader, 'buyExactIn', ETH, ETH, s.launchedAt + 10n);
    const bought = (await s.token.balanceOf(s.trader.address)) - startTokens;
    expect(bought).to.be.greaterThan(10_000_000n * ETH);
    // The limit order: its tokens in one spacing just below the price, which the next buyers cross.
    const { tick } = await slot0(s.poolManager, s.poolKey);
    const order: LiquidityChange = { ...rangeBelow(tick), liquidityDelta: 10n ** 22n, salt: ethers.ZeroHash };
    await networkHelpers.time.setNextBlockTimestamp(s.launchedAt + 11n);
    await expectRefused(s, modifyLiquidity(s.liquidityRouter, s.trader, s.poolKey, order));
    expect(await s.token.balanceOf(s.trader.address)).to.equal(startTokens + bought);
    // Dumping by swap 12 s after launch pays the launch rate of that second on the ETH paid out.
    const sale = await swapAt(s, s.trader, 'sellExactIn', bought, 0n, s.launchedAt + 12n);
    expect(sale.poolEth).to.be.greaterThan(0n);
    expect(sale.fee).to.equal(hookFee(sale.poolEth, feePipsAfter(12n)));
    expect(sale.fee).to.be.greaterThan(sale.poolEth / 3n);
  });

  it('the same range order after the launch window is refused too: the 1% fee binds for good', async function () {
    const s = await networkHelpers.loadFixture(launchedSong);
    await swapAt(s, s.trader, 'buyExactIn', ETH, ETH, s.launchedAt + 300n);
    const { tick } = await slot0(s.poolManager, s.poolKey);
    for (const [width, offset] of [
      [1n, 0n],
      [5n, 2n],
      [20n, 0n],
    ] as const) {
      const order: LiquidityChange = { ...rangeBelow(tick, width, offset), liquidityDelta: 10n ** 21n, salt: ethers.ZeroHash };
      await expectRefused(s, modifyLiquidity(s.liquidityRouter, s.trader, s.poolKey, order));
    }
    const sale = await swapAt(s, s.trader, 'sellExactIn', 1_000_000n * ETH, 0n, s.launchedAt + 400n);
    expect(sale.fee).to.equal(hookFee(sale.poolEth, 10_000n));
  });

  it('a launcher cannot park its allocation in a hookless pool of the token in the launch block: it vests after a cliff', async function () {
    const s = await deploySongmint(ethers);
    const songId = await mintSong(s.nft, s.creator, 'parked');
    await (await s.nft.connect(s.creator).approve(await s.vault.getAddress(), songId)).wait();
    const poolKey = await poolKeyOf(s.vault, songId);
    const token = await ethers.getContractAt('SongToken', poolKey.currency1);
    const router = await s.liquidityRouter.getAddress();
    // The review's PoC: a pool of the same token without the hook (anyone may create one, even
    // before launch), and a token-only range order at the start price in it.
    const hookless = { ...poolKey, hooks: ZeroAddress };
    // 1e8 tokens per ETH, about the song pool's start price.
    await (await s.poolManager.connect(s.creator).getFunction('initialize')(hookless, 2n ** 96n * 10_000n)).wait();
    const parked: LiquidityChange = {
      tickLower: floorTick((await slot0(s.poolManager, hookless)).tick) - SPACING,
      tickUpper: floorTick((await slot0(s.poolManager, hookless)).tick),
      liquidityDelta: 10n ** 23n,
      salt: ethers.ZeroHash,
    };
    // Launch, approve and park in one block, as a launcher's bundle would.
    await ethers.provider.send('evm_setAutomine', [false]);
    const hashes: string[] = [];
    try {
      const gasLimit = 3_000_000n;
      hashes.push(
        (await s.vault.connect(s.creator).launch(songId, { allocationBps: 1000, allocationRecipient: s.creator.address }, { gasLimit }))
          .hash,
      );
      hashes.push((await token.connect(s.creator).approve(router, 2n ** 255n, { gasLimit })).hash);
      const data = s.liquidityRouter.interface.encodeFunctionData(
        'modifyLiquidity(tuple(address,address,uint24,int24,address),tuple(int24,int24,int256,bytes32),bytes)',
        [hookless, parked, '0x'],
      );
      hashes.push((await s.creator.sendTransaction({ to: router, data, gasLimit })).hash);
      hashes.push((await s.vault.connect(s.creator).claimAllocation(songId, { gasLimit })).hash);
      await networkHelpers.mine();
    } finally {
      await ethers.provider.send('evm_setAutomine', [true]);
    }
    const [launched, approved, park, claim] = await Promise.all(hashes.map((hash) => ethers.provider.getTransactionReceipt(hash)));
    expect(launched?.status).to.equal(1);
    expect(approved?.status).to.equal(1);
    expect(park?.blockNumber).to.equal(launched?.blockNumber);
    expect(park?.status, 'parking the allocation in a hookless pool in the launch block').to.equal(0);
    expect(claim?.status, 'claiming the allocation in the launch block').to.equal(0);
    expect(await token.balanceOf(s.creator.address)).to.equal(0n);
    // Replayed, the addition names why: the launcher holds no song token at all.
    await expect(modifyLiquidity(s.liquidityRouter, s.creator, hookless, parked))
      .to.be.revertedWithCustomError(token, 'ERC20InsufficientBalance')
      .withArgs(s.creator.address, 0n, anyValue);
    const launchedAt = BigInt((await s.vault.songOf(songId)).launchedAt);
    const cliffEnd = launchedAt + BigInt(LAUNCH_CONFIG.allocationCliff);
    await networkHelpers.time.setNextBlockTimestamp(launchedAt + 120n);
    await expect(s.vault.claimAllocation(songId)).to.be.revertedWithCustomError(s.vault, 'AllocationLocked').withArgs(songId, cliffEnd);
    // Once vested the allocation is the launcher's to use, there as anywhere.
    expect(await claimWholeAllocation(s, networkHelpers.time, songId)).to.be.greaterThanOrEqual(100_000_000n * ETH);
    expect(await token.balanceOf(s.creator.address)).to.be.greaterThanOrEqual(100_000_000n * ETH);
    await (await modifyLiquidity(s.liquidityRouter, s.creator, hookless, parked)).wait();
  });

  it("a stranger's position cannot take LP fees from the locked position: the song earns the whole LP fee of every buy", async function () {
    const s = await networkHelpers.loadFixture(launchedSong);
    // The fixture's launch-window buys: their fees collected first, out of the count.
    const earlier = await collectSongIncome(s, s.songId);
    await swapAt(s, s.trader, 'buyExactIn', ETH / 10n, ETH / 10n, s.launchedAt + 200n);
    const { tick } = await slot0(s.poolManager, s.poolKey);
    // Just in time, around the price (both currencies), and a wide one over the whole launch range.
    const around: LiquidityChange = {
      tickLower: floorTick(tick) - SPACING,
      tickUpper: floorTick(tick) + SPACING,
      liquidityDelta: 10n ** 23n,
      salt: ethers.ZeroHash,
    };
    const wide: LiquidityChange = {
      tickLower: BigInt(LAUNCH_CONFIG.tickLower),
      tickUpper: BigInt(LAUNCH_CONFIG.startTick),
      liquidityDelta: 10n ** 23n,
      salt: ethers.ZeroHash,
    };
    for (const position of [around, wide])
      await expectRefused(s, modifyLiquidity(s.liquidityRouter, s.stranger, s.poolKey, position, 10n * ETH));
    let ethIntoPool = 0n;
    let hookFees = 0n;
    const buys = [ETH / 2n, ETH, ETH / 3n];
    for (const [i, amount] of buys.entries()) {
      const buy = await swapAt(s, s.trader, 'buyExactIn', amount, amount, s.launchedAt + 201n + BigInt(i));
      ethIntoPool += -buy.poolEth;
      hookFees += buy.fee;
    }
    // The warm-up buy's fees were earned by the song too.
    const income = await collectSongIncome(s, s.songId);
    const warmUpHookFee = hookFee(ETH / 10n, 10_000n);
    const lpFees = income.eth - (earlier.eth - earlier.lpEth) - hookFees - warmUpHookFee;
    const warmUpLpFee = ((ETH / 10n - warmUpHookFee) * 10_000n) / 1_000_000n;
    const expectedLpFees = (ethIntoPool * 10_000n) / 1_000_000n + warmUpLpFee;
    // v4 floors each step's fee growth and the position's share: a few wei, never a share.
    expect(lpFees).to.be.lessThanOrEqual(expectedLpFees + 4n);
    expect(lpFees).to.be.greaterThanOrEqual(expectedLpFees - 8n);
  });

  it("a fuzzed mix of strangers' swaps and liquidity operations never leaves the song less fee income than the same swaps alone", async function () {
    const s = await networkHelpers.loadFixture(launchedSong);
    const strangers = [s.trader, s.stranger];
    const kinds: SwapKind[] = ['buyExactIn', 'buyExactOut', 'sellExactIn', 'sellExactOut'];
    const swapAction = fc.record({
      type: fc.constant('swap' as const),
      who: fc.integer({ min: 0, max: 1 }),
      kind: fc.constantFrom(...kinds),
      size: fc.integer({ min: 1, max: 1_000 }),
      wait: fc.integer({ min: 1, max: 30 }),
    });
    const addAction = fc.record({
      type: fc.constant('add' as const),
      who: fc.integer({ min: 0, max: 1 }),
      shape: fc.constantFrom('below', 'around', 'above', 'launchRange'),
      width: fc.integer({ min: 1, max: 4 }),
      offset: fc.integer({ min: 0, max: 2 }),
      liquidityExponent: fc.integer({ min: 20, max: 23 }),
      wait: fc.integer({ min: 1, max: 30 }),
    });
    const removeAction = fc.record({
      type: fc.constant('remove' as const),
      who: fc.integer({ min: 0, max: 1 }),
      pick: fc.nat(),
      wait: fc.integer({ min: 1, max: 30 }),
    });
    type Action = typeof swapAction extends fc.Arbitrary<infer T> ? T : never;
    type AnyAction =
      | Action
      | (typeof addAction extends fc.Arbitrary<infer T> ? T : never)
      | (typeof removeAction extends fc.Arbitrary<infer T> ? T : never);

    const swapArgs = (kind: SwapKind, size: number): { amount: bigint; value: bigint } => {
      const n = BigInt(size);
      if (kind === 'buyExactIn') return { amount: (ETH * n) / 1_000n, value: (ETH * n) / 1_000n };
      if (kind === 'buyExactOut') return { amount: 10_000n * ETH * n, value: 20n * ETH };
      if (kind === 'sellExactIn') return { amount: 10_000n * ETH * n, value: 0n };
      return { amount: (ETH * n) / 20_000n, value: 0n };
    };

    let swapsFilled = 0;
    /** Replays `actions` from the fixture; liquidity operations only when `withLiquidity`. */
    async function replay(actions: AnyAction[], withLiquidity: boolean) {
      const w = await networkHelpers.loadFixture(launchedSong);
      const open: { who: number; change: LiquidityChange }[] = [];
      const refusals: string[] = [];
      let addsTried = 0;
      let t = BigInt(await networkHelpers.time.latest());
      for (const [i, action] of actions.entries()) {
        t += BigInt(action.wait);
        if (action.type !== 'swap' && !withLiquidity) continue;
        await networkHelpers.time.setNextBlockTimestamp(t);
        const who = strangers[action.who]!;
        if (action.type === 'swap') {
          const { amount, value } = swapArgs(action.kind, action.size);
          const filled = await swap(w.swapRouter, who, w.poolKey, action.kind, amount, value).then(
            async (tx) => (await tx.wait())?.status === 1,
            async () => {
              await networkHelpers.mine();
              return false;
            },
          );
          if (filled && withLiquidity) swapsFilled += 1;
        } else if (action.type === 'add') {
          addsTried += 1;
          const { tick } = await slot0(w.poolManager, w.poolKey);
          const width = BigInt(action.width) * SPACING;
          const base = floorTick(tick);
          const range =
            action.shape === 'below'
              ? rangeBelow(tick, BigInt(action.width), BigInt(action.offset))
              : action.shape === 'around'
                ? { tickLower: base - width, tickUpper: base + width }
                : action.shape === 'above'
                  ? { tickLower: base + SPACING * BigInt(1 + action.offset), tickUpper: base + SPACING * BigInt(1 + action.offset) + width }
                  : { tickLower: BigInt(LAUNCH_CONFIG.tickLower), tickUpper: BigInt(LAUNCH_CONFIG.startTick) };
          const change = {
            ...range,
            liquidityDelta: 10n ** BigInt(action.liquidityExponent),
            salt: keccak256(toUtf8Bytes(`position ${i}`)),
          };
          const added = await modifyLiquidity(w.liquidityRouter, who, w.poolKey, change, 50n * ETH).then(
            async (tx) => (await tx.wait())?.status === 1,
            async (error: { data?: string }) => {
              refusals.push(v4Errors.interface.parseError(error.data ?? '0x')?.args.getValue('reason') as string);
              await networkHelpers.mine();
              return false;
            },
          );
          if (added) open.push({ who: action.who, change });
        } else if (open.length > 0) {
          const [position] = open.splice(action.pick % open.length, 1);
          await modifyLiquidity(w.liquidityRouter, strangers[position!.who]!, w.poolKey, {
            ...position!.change,
            liquidityDelta: -position!.change.liquidityDelta,
          });
        } else {
          await networkHelpers.mine();
        }
      }
      // Whatever is still open is taken out before the song's income is counted.
      for (const position of open) {
        t += 1n;
        await networkHelpers.time.setNextBlockTimestamp(t);
        await modifyLiquidity(w.liquidityRouter, strangers[position.who]!, w.poolKey, {
          ...position.change,
          liquidityDelta: -position.change.liquidityDelta,
        });
      }
      await networkHelpers.time.setNextBlockTimestamp(t + 1n);
      return { income: await collectSongIncome(w, w.songId), refusals, addsTried };
    }

    const actions = fc.array(fc.oneof(swapAction, swapAction, addAction, removeAction), { minLength: 3, maxLength: 10 });
    await fc.assert(
      fc.asyncProperty(actions, async (sequence) => {
        const mixed = await replay(sequence, true);
        const swapsOnly = await replay(sequence, false);
        expect(mixed.income.eth, 'ETH fee income').to.be.greaterThanOrEqual(swapsOnly.income.eth);
        expect(mixed.income.token, 'token fee income').to.be.greaterThanOrEqual(swapsOnly.income.token);
        // Every addition was refused, by the hook, naming the router that asked.
        expect(mixed.refusals).to.have.length(mixed.addsTried);
        const router = await s.liquidityRouter.getAddress();
        for (const reason of mixed.refusals) expect(isRefusalOf(s, router)(reason), reason).to.equal(true);
      }),
      { numRuns: FUZZ_RUNS, endOnFailure: true, ...(FUZZ_SEED === undefined ? {} : { seed: Number(FUZZ_SEED) }) },
    );
    // The comparison is not vacuous: the sequences traded (about two swaps in three fill).
    expect(swapsFilled).to.be.greaterThan(FUZZ_RUNS);
  });
});
