import { expect } from 'chai';
import type { TransactionReceipt } from 'ethers';
import { network } from 'hardhat';
import {
  claimAllocationAfterWindow,
  deploySongmint,
  hookFee,
  mintSong,
  poolIdOf,
  poolKeyOf,
  routerSwap,
  type SwapKind,
} from './fixtures/songmint.ts';

/**
 * Swaps through v4-periphery's V4Router (the code UniversalRouter runs for v4), from the compiled
 * artifacts v4-periphery 1.0.3 ships, and quotes through its V4Quoter: the hook's fee is part of
 * what the router settles and what the quoter quotes, so slippage limits hold with the fee in.
 */

const { ethers, networkHelpers } = await network.create('base');
const ETH = 10n ** 18n;

/** A launched song, its allocation with the trader (who approved the router), trading decayed to 1%. */
async function routedSong() {
  const s = await deploySongmint(ethers);
  const songId = await mintSong(s.nft, s.creator, 'router');
  await (await s.nft.connect(s.creator).approve(await s.vault.getAddress(), songId)).wait();
  await (await s.vault.connect(s.creator).launch(songId, { allocationBps: 1000, allocationRecipient: s.trader.address })).wait();
  const poolKey = await poolKeyOf(s.vault, songId);
  const token = await ethers.getContractAt('SongToken', poolKey.currency1);
  await (await token.connect(s.trader).approve(await s.v4Router.getAddress(), 2n ** 255n)).wait();
  await networkHelpers.time.increase(300);
  await claimAllocationAfterWindow(s, networkHelpers.time, songId);
  await (await routerSwap(s.v4Router, s.creator, poolKey, 'buyExactIn', ETH, { minOut: 1n })).wait();
  return { ...s, songId, poolKey, token };
}

type Routed = Awaited<ReturnType<typeof routedSong>>;

async function quote(s: Routed, kind: SwapKind, amount: bigint): Promise<bigint> {
  const params = { poolKey: s.poolKey, zeroForOne: kind.startsWith('buy'), exactAmount: amount, hookData: '0x' };
  const exactInput = kind === 'buyExactIn' || kind === 'sellExactIn';
  const fn = s.quoter.getFunction(exactInput ? 'quoteExactInputSingle' : 'quoteExactOutputSingle');
  const [quoted] = (await fn.staticCall(params)) as [bigint, bigint];
  return quoted;
}

/** Runs a router swap and returns the trader's ETH and token changes and the hook fee charged. */
async function routed(s: Routed, kind: SwapKind, amount: bigint, limits: { maxIn?: bigint; minOut?: bigint } = {}) {
  const ethBefore = await ethers.provider.getBalance(s.trader.address);
  const tokenBefore = await s.token.balanceOf(s.trader.address);
  const receipt = (await (await routerSwap(s.v4Router, s.trader, s.poolKey, kind, amount, limits)).wait()) as TransactionReceipt;
  let fee = 0n;
  let sender = '';
  for (const log of receipt.logs) {
    const parsed = log.address === s.hook.target ? s.hook.interface.parseLog(log) : null;
    if (parsed?.name === 'SwapFeeCharged') {
      fee = parsed.args.getValue('fee') as bigint;
      sender = parsed.args.getValue('sender') as string;
    }
  }
  const eth = (await ethers.provider.getBalance(s.trader.address)) - ethBefore + receipt.fee;
  const tokens = (await s.token.balanceOf(s.trader.address)) - tokenBefore;
  return { eth, tokens, fee, sender };
}

describe('swaps through v4-periphery V4Router and V4Quoter', function () {
  it('buy with exact ETH in: the router settles the ETH once, the quote is what arrives', async function () {
    const s = await networkHelpers.loadFixture(routedSong);
    const amount = ETH / 10n;
    const quoted = await quote(s, 'buyExactIn', amount);
    const out = await routed(s, 'buyExactIn', amount, { minOut: quoted });
    expect(out.sender).to.equal(await s.v4Router.getAddress());
    expect(out.fee).to.equal(hookFee(amount, 10_000n));
    expect(out.eth).to.equal(-amount);
    expect(out.tokens).to.equal(quoted);
  });

  it('buy exact tokens out: the fee is in the quoted input, and the router sweeps the change back', async function () {
    const s = await networkHelpers.loadFixture(routedSong);
    const amount = 3_000_000n * ETH;
    const quoted = await quote(s, 'buyExactOut', amount);
    const out = await routed(s, 'buyExactOut', amount, { maxIn: quoted * 2n });
    expect(out.tokens).to.equal(amount);
    expect(out.eth).to.equal(-quoted);
    // p of the ETH paid, within rounding.
    expect(out.fee).to.equal(hookFee(quoted - out.fee, 10_000n, true));
    expect(await ethers.provider.getBalance(await s.v4Router.getAddress())).to.equal(0n);
  });

  it('sell exact tokens in: the router pulls the tokens, the trader gets the quoted ETH net of the fee', async function () {
    const s = await networkHelpers.loadFixture(routedSong);
    const amount = 5_000_000n * ETH;
    const quoted = await quote(s, 'sellExactIn', amount);
    const out = await routed(s, 'sellExactIn', amount, { minOut: quoted });
    expect(out.tokens).to.equal(-amount);
    expect(out.eth).to.equal(quoted);
    expect(out.fee).to.equal(hookFee(quoted + out.fee, 10_000n));
  });

  it('sell for exact ETH out: the trader gets exactly that, the quote is the tokens it costs', async function () {
    const s = await networkHelpers.loadFixture(routedSong);
    const amount = ETH / 50n;
    const quoted = await quote(s, 'sellExactOut', amount);
    const out = await routed(s, 'sellExactOut', amount, { maxIn: quoted });
    expect(out.eth).to.equal(amount);
    expect(out.tokens).to.equal(-quoted);
    expect(out.fee).to.equal(hookFee(amount, 10_000n, true));
  });

  it('slippage limits bind with the hook fee included, both ways', async function () {
    const s = await networkHelpers.loadFixture(routedSong);
    const errors = s.v4Router.interface;
    const buyOut = await quote(s, 'buyExactIn', ETH / 10n);
    await expect(routerSwap(s.v4Router, s.trader, s.poolKey, 'buyExactIn', ETH / 10n, { minOut: buyOut + 1n }))
      .to.be.revertedWithCustomError({ interface: errors }, 'V4TooLittleReceived')
      .withArgs(buyOut + 1n, buyOut);
    const buyIn = await quote(s, 'buyExactOut', 1_000_000n * ETH);
    await expect(routerSwap(s.v4Router, s.trader, s.poolKey, 'buyExactOut', 1_000_000n * ETH, { maxIn: buyIn - 1n }))
      .to.be.revertedWithCustomError({ interface: errors }, 'V4TooMuchRequested')
      .withArgs(buyIn - 1n, buyIn);
    const sellIn = await quote(s, 'sellExactOut', ETH / 100n);
    await expect(routerSwap(s.v4Router, s.trader, s.poolKey, 'sellExactOut', ETH / 100n, { maxIn: sellIn - 1n }))
      .to.be.revertedWithCustomError({ interface: errors }, 'V4TooMuchRequested')
      .withArgs(sellIn - 1n, sellIn);
    expect(await s.hook.accruedSwapFees(poolIdOf(s.poolKey))).to.equal(hookFee(ETH, 10_000n));
  });
});
