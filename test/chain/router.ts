import { expect } from 'chai';
import type { TransactionReceipt } from 'ethers';
import { TypedDataEncoder, dataSlice, getCreate2Address, keccak256, zeroPadValue } from 'ethers';
import { network } from 'hardhat';
import { BASE_POOL_MANAGER, CREATE2_DEPLOYER } from '../../ignition/songmint-hook.ts';
import { PERMIT2_SALT, permit2Fixture } from '../../scripts/permit2-canonical.ts';
import {
  BASE_PERMIT2,
  BASE_UNIVERSAL_ROUTER,
  BASE_UNIVERSAL_ROUTER_PARAMETERS,
  BASE_V4_QUOTER,
  BASE_WETH9,
  universalRouterArtifact,
} from '../../scripts/uniswap-v4.ts';
import {
  deadlineIn,
  deploySongmint,
  feePipsAfter,
  hookFee,
  songPartOfHookFee,
  mintSong,
  poolKeyOf,
  signPermit,
  swap,
  swapLogsOf,
  universalRouterSwap,
  type SwapKind,
} from './fixtures/songmint.ts';

/**
 * Swaps the way wallets reach a song pool on Base: through the Universal Router at its Base
 * address (the 2.0.0 build Base runs, with Base's constructor parameters), ETH in as msg.value,
 * tokens out of the wallet by a Permit2 signature (Permit2 created as on Base: the deterministic
 * deployment proxy, its salt and creation code), quoted by the V4Quoter. The hook's fee must come out exactly as on the direct path (v4-core's PoolSwapTest).
 */

const { ethers, networkHelpers } = await network.create('base');
const ETH = 10n ** 18n;
const KINDS: SwapKind[] = ['buyExactIn', 'buyExactOut', 'sellExactIn', 'sellExactOut'];
/** Each kind's amount: what goes in (exact input) or comes out (exact output). */
const AMOUNT: Record<SwapKind, bigint> = {
  buyExactIn: ETH / 10n,
  buyExactOut: 3_000_000n * ETH,
  sellExactIn: 5_000_000n * ETH,
  sellExactOut: ETH / 50n,
};

/**
 * A song launched at T with no allocation; at T + 1 and T + 2 the trader approves Permit2 (the
 * one-time approval wallets give) and the direct path's router; at T + 3 the trader buys 1 ETH of
 * tokens on the direct path, so every kind can run from T + 4 on.
 */
async function tradedSong() {
  const s = await deploySongmint(ethers);
  const songId = await mintSong(s.nft, s.creator, 'router');
  await (await s.nft.connect(s.creator).approve(await s.vault.getAddress(), songId)).wait();
  await (await s.vault.connect(s.creator).launch(songId, { allocationBps: 0, allocationRecipient: s.creator.address })).wait();
  const launchedAt = BigInt((await s.vault.songOf(songId)).launchedAt);
  const poolKey = await poolKeyOf(s.vault, songId);
  const token = await ethers.getContractAt('SongToken', poolKey.currency1);
  await networkHelpers.time.setNextBlockTimestamp(launchedAt + 1n);
  await (await token.connect(s.trader).approve(BASE_PERMIT2, 2n ** 256n - 1n)).wait();
  await networkHelpers.time.setNextBlockTimestamp(launchedAt + 2n);
  await (await token.connect(s.trader).approve(await s.swapRouter.getAddress(), 2n ** 256n - 1n)).wait();
  await networkHelpers.time.setNextBlockTimestamp(launchedAt + 3n);
  await (await swap(s.swapRouter, s.trader, poolKey, 'buyExactIn', ETH, ETH)).wait();
  return { ...s, songId, poolKey, token, launchedAt };
}

type Traded = Awaited<ReturnType<typeof tradedSong>>;

async function quote(s: Traded, kind: SwapKind, amount: bigint): Promise<bigint> {
  const params = { poolKey: s.poolKey, zeroForOne: kind.startsWith('buy'), exactAmount: amount, hookData: '0x' };
  const exactInput = kind.endsWith('ExactIn');
  const [quoted] = (await s.quoter.getFunction(exactInput ? 'quoteExactInputSingle' : 'quoteExactOutputSingle').staticCall(params)) as [
    bigint,
    bigint,
  ];
  return quoted;
}

/** Runs `send` and returns the trader's ETH (gas added back) and token changes, the pool's deltas and the hook's fee. */
async function traded(s: Traded, send: () => ReturnType<typeof swap>) {
  const ethBefore = await ethers.provider.getBalance(s.trader.address);
  const tokenBefore = await s.token.balanceOf(s.trader.address);
  const receipt = (await (await send()).wait()) as TransactionReceipt;
  const logs = await swapLogsOf(s, receipt);
  return {
    ...logs,
    eth: (await ethers.provider.getBalance(s.trader.address)) - ethBefore + receipt.fee,
    tokens: (await s.token.balanceOf(s.trader.address)) - tokenBefore,
  };
}

describe('Universal Router and Permit2 at their Base addresses', function () {
  it("are placed on chain 8453 as Base has them: the router 2.0.0 with Base's parameters, Permit2 by its canonical creation", async function () {
    const s = await networkHelpers.loadFixture(tradedSong);
    expect((await ethers.provider.getNetwork()).chainId).to.equal(8453n);
    const ur = s.universalRouter;
    expect(await ur.getAddress()).to.equal(BASE_UNIVERSAL_ROUTER);
    expect(await ur.getFunction('poolManager').staticCall()).to.equal(BASE_POOL_MANAGER);
    expect(await ur.getFunction('V3_POSITION_MANAGER').staticCall()).to.equal(BASE_UNIVERSAL_ROUTER_PARAMETERS.v3NFTPositionManager);
    expect(await ur.getFunction('V4_POSITION_MANAGER').staticCall()).to.equal(BASE_UNIVERSAL_ROUTER_PARAMETERS.v4PositionManager);
    // 2.0.0 has no EIP-712 domain (2.1's executeSigned): nothing in it depends on its address or the chain.
    expect(ur.interface.getFunction('eip712Domain')).to.equal(null);
    // The code is the Foundry build's runtime code with Base's parameters in its immutables, and nothing else.
    const artifact = universalRouterArtifact();
    const code = (await ethers.provider.getCode(BASE_UNIVERSAL_ROUTER)).toLowerCase();
    const built = artifact.deployedBytecode.object.toLowerCase();
    expect(code.length).to.equal(built.length);
    const immutables = Object.values(artifact.deployedBytecode.immutableReferences ?? {}).flat();
    const masked = (hex: string) => {
      const bytes = hex.slice(2).split('');
      for (const { start, length } of immutables) bytes.fill('0', start * 2, (start + length) * 2);
      return bytes.join('');
    };
    expect(masked(code)).to.equal(masked(built));
    const words = new Set(immutables.map(({ start }) => dataSlice(code, start, start + 32)));
    const expected = Object.values(BASE_UNIVERSAL_ROUTER_PARAMETERS).map((value) => zeroPadValue(value, 32).toLowerCase());
    expect([...words].sort()).to.deep.equal([...new Set(expected)].sort());
    for (const word of [BASE_PERMIT2, BASE_WETH9, BASE_POOL_MANAGER])
      expect(code).to.include(zeroPadValue(word, 32).slice(2).toLowerCase());

    // Permit2: the proxy's CREATE2 of the fixture's creation code, which caches chain id 8453 and its domain.
    const fixture = permit2Fixture();
    expect(getCreate2Address(CREATE2_DEPLOYER, PERMIT2_SALT, keccak256(fixture.initCode))).to.equal(BASE_PERMIT2);
    expect(await s.permit2.getAddress()).to.equal(BASE_PERMIT2);
    const domain = TypedDataEncoder.hashDomain({ name: 'Permit2', chainId: 8453, verifyingContract: BASE_PERMIT2 });
    expect(await s.permit2.getFunction('DOMAIN_SEPARATOR').staticCall()).to.equal(domain);
    const permit2Code = await ethers.provider.getCode(BASE_PERMIT2);
    const cached = fixture.immutableReferences.map(({ start }) => dataSlice(permit2Code, start, start + 32));
    expect(new Set(cached)).to.deep.equal(new Set([zeroPadValue('0x2105', 32), domain]));

    expect((await s.quoter.getAddress()).toLowerCase()).to.equal(BASE_V4_QUOTER.toLowerCase());
    expect(await s.quoter.getFunction('poolManager').staticCall()).to.equal(BASE_POOL_MANAGER);
  });

  for (const at of [30n, 300n]) {
    it(`every swap kind pays the hook fee to the wei as the direct path does (${at} s after launch)`, async function () {
      const s = await networkHelpers.loadFixture(tradedSong);
      for (const kind of KINDS) {
        const amount = AMOUNT[kind];
        const exactInput = kind.endsWith('ExactIn');
        const snapshot = await networkHelpers.takeSnapshot();
        await networkHelpers.time.setNextBlockTimestamp(s.launchedAt + at);
        const direct = await traded(s, () => swap(s.swapRouter, s.trader, s.poolKey, kind, amount, kind.startsWith('buy') ? 2n * ETH : 0n));
        await snapshot.restore();

        await networkHelpers.time.setNextBlockTimestamp(s.launchedAt + at - 1n);
        await networkHelpers.mine();
        const quoted = await quote(s, kind, amount);
        const limit = exactInput ? { minOut: quoted } : { maxIn: quoted };
        const routed = await traded(s, () => universalRouterSwap(s, s.trader, s.poolKey, kind, amount, limit));
        await snapshot.restore();

        expect(routed.sender, kind).to.equal(BASE_UNIVERSAL_ROUTER);
        expect(routed.fee, kind).to.be.greaterThan(0n);
        expect(routed.fee, `${kind} fee`).to.equal(direct.fee);
        expect(routed.poolEth, kind).to.equal(direct.poolEth);
        expect([routed.eth, routed.tokens], kind).to.deep.equal([direct.eth, direct.tokens]);
        // The quote is what the trader got (exact input) or paid (exact output), fee included; in
        // the launch window the fee falls between the quote's second and the swap's, to the trader's gain.
        const traderSide = { buyExactIn: routed.tokens, buyExactOut: -routed.eth, sellExactIn: routed.eth, sellExactOut: -routed.tokens };
        if (at < 120n) expect(traderSide[kind] > quoted === exactInput, `${kind} quote`).to.equal(true);
        else {
          expect(traderSide[kind], `${kind} quote`).to.equal(quoted);
          const onTop = kind === 'buyExactOut' || kind === 'sellExactOut';
          const base = { buyExactIn: amount, buyExactOut: -routed.poolEth, sellExactIn: routed.poolEth, sellExactOut: amount }[kind];
          expect(routed.fee, `${kind} fee at 1%`).to.equal(hookFee(base, 10_000n, onTop));
        }
      }
      expect(await ethers.provider.getBalance(BASE_UNIVERSAL_ROUTER)).to.equal(0n);
    });
  }

  it('slippage bounds bind with the hook fee in, and a passed deadline is refused', async function () {
    const s = await networkHelpers.loadFixture(tradedSong);
    await networkHelpers.time.increase(300);
    const ur = s.universalRouter;
    const buyOut = await quote(s, 'buyExactIn', ETH / 10n);
    await expect(universalRouterSwap(s, s.trader, s.poolKey, 'buyExactIn', ETH / 10n, { minOut: buyOut + 1n }))
      .to.be.revertedWithCustomError(ur, 'V4TooLittleReceived')
      .withArgs(buyOut + 1n, buyOut);
    const buyIn = await quote(s, 'buyExactOut', 1_000_000n * ETH);
    await expect(universalRouterSwap(s, s.trader, s.poolKey, 'buyExactOut', 1_000_000n * ETH, { maxIn: buyIn - 1n }))
      .to.be.revertedWithCustomError(ur, 'V4TooMuchRequested')
      .withArgs(buyIn - 1n, buyIn);
    const sellIn = await quote(s, 'sellExactOut', ETH / 100n);
    await expect(universalRouterSwap(s, s.trader, s.poolKey, 'sellExactOut', ETH / 100n, { maxIn: sellIn - 1n }))
      .to.be.revertedWithCustomError(ur, 'V4TooMuchRequested')
      .withArgs(sellIn - 1n, sellIn);
    const passed = await deadlineIn(ethers, 0n);
    await expect(universalRouterSwap(s, s.trader, s.poolKey, 'buyExactIn', ETH / 10n, { deadline: passed })).to.be.revertedWithCustomError(
      ur,
      'TransactionDeadlinePassed',
    );
    // Only the fixture's buy (3 s after launch) was charged; the song keeps the steady part of it.
    expect(await s.vault.accruedSwapFees(s.songId)).to.equal(songPartOfHookFee(hookFee(ETH, feePipsAfter(3n)), feePipsAfter(3n)));
  });

  it('a Permit2 signature for another amount, another spender or a passed deadline moves no token', async function () {
    const s = await networkHelpers.loadFixture(tradedSong);
    await networkHelpers.time.increase(300);
    const amount = 5_000_000n * ETH;
    const token = await s.token.getAddress();
    const deadline = await deadlineIn(ethers, 600n);
    const held = await s.token.balanceOf(s.trader.address);
    const sell = (permit: Awaited<ReturnType<typeof signPermit>>) =>
      universalRouterSwap(s, s.trader, s.poolKey, 'sellExactIn', amount, { permit, deadline });
    const ur = s.universalRouter;
    const permitError = (reason: string, args: unknown[] = []) => s.permit2.interface.encodeErrorResult(reason, args);

    // Signed for less than the sale: the struct sent claims the full amount, so the signer differs.
    const less = await signPermit(s, s.trader, token, { amount: amount - 1n, deadline });
    await expect(sell({ ...less, permit: { ...less.permit, details: { ...less.permit.details, amount } } }))
      .to.be.revertedWithCustomError(ur, 'ExecutionFailed')
      .withArgs(0n, permitError('InvalidSigner'));
    // Signed for less and sent as signed: the permit holds, the router may not pull the sale.
    await expect(sell(less))
      .to.be.revertedWithCustomError(s.permit2, 'InsufficientAllowance')
      .withArgs(amount - 1n);

    // Signed for another spender, sent as for the router.
    const stranger = await signPermit(s, s.trader, token, { amount, deadline, spender: s.stranger.address });
    await expect(sell({ ...stranger, permit: { ...stranger.permit, spender: BASE_UNIVERSAL_ROUTER } }))
      .to.be.revertedWithCustomError(ur, 'ExecutionFailed')
      .withArgs(0n, permitError('InvalidSigner'));
    // Sent as signed: the allowance goes to the stranger; the router has none (never granted, so expired at 0).
    await expect(sell(stranger)).to.be.revertedWithCustomError(s.permit2, 'AllowanceExpired').withArgs(0n);

    // A signature past its deadline (the router's own deadline still ahead).
    const now = await deadlineIn(ethers, 0n);
    const lapsed = await signPermit(s, s.trader, token, { amount, deadline: now });
    await expect(sell(lapsed))
      .to.be.revertedWithCustomError(ur, 'ExecutionFailed')
      .withArgs(0n, permitError('SignatureExpired', [now]));
    expect(await s.token.balanceOf(s.trader.address)).to.equal(held);

    // The right signature sells, once: replayed, its nonce is spent.
    const right = await signPermit(s, s.trader, token, { amount, deadline });
    await (await sell(right)).wait();
    expect(await s.token.balanceOf(s.trader.address)).to.equal(held - amount);
    await expect(sell(right)).to.be.revertedWithCustomError(ur, 'ExecutionFailed').withArgs(0n, permitError('InvalidNonce'));
    // The allowance was for exactly the sale: nothing is left for the router.
    const [left] = (await s.permit2.getFunction('allowance').staticCall(s.trader.address, token, BASE_UNIVERSAL_ROUTER)) as [bigint];
    expect(left).to.equal(0n);
  });
});
