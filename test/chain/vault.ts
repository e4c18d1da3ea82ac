import { expect } from 'chai';
import type { TransactionReceipt } from 'ethers';
import { keccak256, toUtf8Bytes } from 'ethers';
import { network } from 'hardhat';
import type { Hex } from 'viem';
import { createMintSigner } from '../../oracle/src/chain/mint-signer.ts';
import { deployV4Artifact } from '../../scripts/uniswap-v4.ts';
import type { FeeClaimerProbe } from '../../typechain-types/index.ts';
import {
  claimWholeAllocation,
  deploySongmint,
  hookFee,
  LAUNCH_CONFIG,
  mintAndLaunch,
  PLATFORM_SIGNER_KEY,
  poolKeyOf,
  swap,
  type PoolKeyTuple,
  type Songmint,
} from './fixtures/songmint.ts';

const { ethers, networkHelpers } = await network.create('base');
const ETH = 10n ** 18n;
const BPS = 10_000n;

/** Two launched songs by the same creator, launch fee decayed, a trader with tokens. */
async function twoSongs() {
  const s = await deploySongmint(ethers);
  const first = await mintAndLaunch(s, 'first');
  const second = await mintAndLaunch(s, 'second');
  await networkHelpers.time.increase(300);
  for (const song of [first, second]) {
    await claimWholeAllocation(s, networkHelpers.time, song.songId);
    await (await song.token.connect(s.creator).transfer(s.trader.address, 20_000_000n * ETH)).wait();
    await (await song.token.connect(s.trader).approve(await s.swapRouter.getAddress(), 2n ** 255n)).wait();
  }
  return { ...s, first, second };
}

function split(amount: bigint): { creator: bigint; platform: bigint } {
  const platform = (amount * BigInt(LAUNCH_CONFIG.platformShareBps)) / BPS;
  return { creator: amount - platform, platform };
}

async function buyAndSell(s: Songmint, key: PoolKeyTuple, eth: bigint, tokens: bigint): Promise<void> {
  await (await swap(s.swapRouter, s.trader, key, 'buyExactIn', eth, eth)).wait();
  await (await swap(s.swapRouter, s.trader, key, 'sellExactIn', tokens)).wait();
}

function collected(s: Songmint, receipt: TransactionReceipt | null) {
  for (const log of receipt?.logs ?? []) {
    const parsed = log.address === s.vault.target ? s.vault.interface.parseLog(log) : null;
    if (parsed?.name === 'FeesCollected') {
      const field = (name: string) => parsed.args.getValue(name) as bigint;
      return {
        songId: field('songId'),
        lpFeesEth: field('lpFeesEth'),
        lpFeesToken: field('lpFeesToken'),
        swapFeesEth: field('swapFeesEth'),
        creatorEth: field('creatorEth'),
        creatorToken: field('creatorToken'),
        platformEth: field('platformEth'),
        platformToken: field('platformToken'),
      };
    }
  }
  throw new Error('no FeesCollected event');
}

describe('SongVault fees', function () {
  describe('collectFees', function () {
    it('collects LP fees of the locked position and the hook fees, credited per song and split exactly', async function () {
      const s = await networkHelpers.loadFixture(twoSongs);
      const key = s.first.poolKey;
      const buy = ETH / 2n;
      await buyAndSell(s, key, buy, 5_000_000n * ETH);
      const swapFees = await s.vault.accruedSwapFees(s.first.songId);
      const vaultEthBefore = await ethers.provider.getBalance(s.vault.target);

      const receipt = await (await s.vault.connect(s.stranger).collectFees(s.first.songId)).wait();
      const c = collected(s, receipt);
      expect(c.swapFeesEth).to.equal(swapFees);
      // The LP fee is 1% of what reached the pool: the buy's ETH after the hook fee, and the sell's tokens.
      const poolEthIn = buy - hookFee(buy, 10_000n);
      expect(c.lpFeesEth).to.be.within((poolEthIn * 10_000n) / 1_000_000n - 1n, (poolEthIn * 10_000n) / 1_000_000n + 1n);
      expect(c.lpFeesToken).to.be.within(49_999n * ETH, 50_000n * ETH);
      const eth = c.lpFeesEth + c.swapFeesEth;
      expect(c.creatorEth + c.platformEth).to.equal(eth);
      expect(c.platformEth).to.equal(split(eth).platform);
      expect(c.creatorToken + c.platformToken).to.equal(c.lpFeesToken);
      expect(c.platformToken).to.equal(split(c.lpFeesToken).platform);
      expect((await ethers.provider.getBalance(s.vault.target)) - vaultEthBefore).to.equal(eth);
      // The claims held in the token's name went through the vault and were burned for their ETH.
      expect(await s.poolManager.getFunction('balanceOf')(key.currency1, 0n)).to.equal(0n);
      expect(await s.poolManager.getFunction('balanceOf')(s.vault.target, 0n)).to.equal(0n);
      expect(await s.vault.swapFeesCollected(s.first.songId)).to.equal(swapFees);
      expect(await s.vault.accruedSwapFees(s.first.songId)).to.equal(swapFees);

      const [creator, platform] = await s.vault.feesOf(s.first.songId);
      expect([creator.eth, creator.token, platform.eth, platform.token]).to.deep.equal([
        c.creatorEth,
        c.creatorToken,
        c.platformEth,
        c.platformToken,
      ]);
      const [otherCreator] = await s.vault.feesOf(s.second.songId);
      expect(otherCreator.eth).to.equal(0n);
    });

    it('a second collect with no trading in between credits nothing more', async function () {
      const s = await networkHelpers.loadFixture(twoSongs);
      await buyAndSell(s, s.first.poolKey, ETH / 10n, 1_000n * ETH);
      await (await s.vault.collectFees(s.first.songId)).wait();
      const c = collected(s, await (await s.vault.collectFees(s.first.songId)).wait());
      expect([c.lpFeesEth, c.lpFeesToken, c.swapFeesEth]).to.deep.equal([0n, 0n, 0n]);
    });

    it('keeps two songs apart: each song is credited only its own pool fees', async function () {
      const s = await networkHelpers.loadFixture(twoSongs);
      await buyAndSell(s, s.first.poolKey, ETH, 10n * ETH);
      await buyAndSell(s, s.second.poolKey, ETH / 7n, 3n * ETH);
      const a = collected(s, await (await s.vault.collectFees(s.first.songId)).wait());
      const b = collected(s, await (await s.vault.collectFees(s.second.songId)).wait());
      expect(a.swapFeesEth).to.equal(await s.vault.accruedSwapFees(s.first.songId));
      expect(b.swapFeesEth).to.equal(await s.vault.accruedSwapFees(s.second.songId));
      expect(a.swapFeesEth).to.not.equal(b.swapFeesEth);
    });

    it('reverts for a song that was not launched', async function () {
      const s = await networkHelpers.loadFixture(twoSongs);
      await expect(s.vault.collectFees(77n)).to.be.revertedWithCustomError(s.vault, 'NotLaunched').withArgs(77n);
    });
  });

  describe('claim', function () {
    async function collectedBoth() {
      const s = await networkHelpers.loadFixture(twoSongs);
      await buyAndSell(s, s.first.poolKey, ETH, 2_000_000n * ETH);
      await buyAndSell(s, s.second.poolKey, ETH / 3n, 1_000_000n * ETH);
      await (await s.vault.collectFees(s.first.songId)).wait();
      await (await s.vault.collectFees(s.second.songId)).wait();
      return s;
    }

    it('pays the creator its share of several songs: tokens per song, ETH in one transfer', async function () {
      const s = await collectedBoth();
      const [a] = await s.vault.feesOf(s.first.songId);
      const [b] = await s.vault.feesOf(s.second.songId);
      const to = s.stranger.address;
      const tx = s.vault.connect(s.creator).claim([s.first.songId, s.second.songId], to);
      await expect(tx).to.changeEtherBalances(ethers, [to, s.vault.target], [a.eth + b.eth, -(a.eth + b.eth)]);
      await expect(tx).to.emit(s.vault, 'FeesClaimed').withArgs(s.first.songId, s.creator.address, to, a.eth, a.token);
      expect(await s.first.token.balanceOf(to)).to.equal(a.token);
      expect(await s.second.token.balanceOf(to)).to.equal(b.token);
      const [afterA, platformA] = await s.vault.feesOf(s.first.songId);
      expect(afterA.eth + afterA.token).to.equal(0n);
      expect(platformA.eth).to.be.greaterThan(0n);
      await expect(s.vault.connect(s.creator).claim([s.first.songId], to)).to.be.revertedWithCustomError(s.vault, 'NothingToClaim');
    });

    it('pays the platform (the owner) its share; creator and platform shares drain the vault exactly', async function () {
      const s = await collectedBoth();
      const ids = [s.first.songId, s.second.songId];
      await (await s.vault.connect(s.platform).claim(ids, s.platform.address)).wait();
      await (await s.vault.connect(s.creator).claim(ids, s.creator.address)).wait();
      expect(await ethers.provider.getBalance(s.vault.target)).to.equal(0n);
      expect(await s.first.token.balanceOf(s.vault.target)).to.equal(0n);
      expect(await s.second.token.balanceOf(s.vault.target)).to.equal(0n);
    });

    it('reverts for a stranger, an empty list and the zero address; duplicates pay once', async function () {
      const s = await collectedBoth();
      await expect(s.vault.connect(s.stranger).claim([s.first.songId], s.stranger.address)).to.be.revertedWithCustomError(
        s.vault,
        'NothingToClaim',
      );
      await expect(s.vault.connect(s.creator).claim([], s.creator.address)).to.be.revertedWithCustomError(s.vault, 'NothingToClaim');
      await expect(s.vault.connect(s.creator).claim([s.first.songId], ethers.ZeroAddress)).to.be.revertedWithCustomError(
        s.vault,
        'ZeroAddress',
      );
      const [a] = await s.vault.feesOf(s.first.songId);
      await expect(s.vault.connect(s.creator).claim([s.first.songId, s.first.songId], s.stranger.address)).to.changeEtherBalance(
        ethers,
        s.stranger.address,
        a.eth,
      );
    });

    it('moves the platform share with ownership (two-step), and ownership cannot be renounced', async function () {
      const s = await collectedBoth();
      await (await s.vault.connect(s.platform).transferOwnership(s.stranger.address)).wait();
      expect(await s.vault.owner()).to.equal(s.platform.address);
      await expect(s.vault.connect(s.trader).acceptOwnership()).to.be.revertedWithCustomError(s.vault, 'OwnableUnauthorizedAccount');
      await (await s.vault.connect(s.stranger).acceptOwnership()).wait();
      await expect(s.vault.connect(s.platform).claim([s.first.songId], s.platform.address)).to.be.revertedWithCustomError(
        s.vault,
        'NothingToClaim',
      );
      const [, platform] = await s.vault.feesOf(s.first.songId);
      await expect(s.vault.connect(s.stranger).claim([s.first.songId], s.stranger.address)).to.changeEtherBalance(
        ethers,
        s.stranger.address,
        platform.eth,
      );
      await expect(s.vault.connect(s.stranger).renounceOwnership()).to.be.revertedWithCustomError(s.vault, 'RenounceDisabled');
      await expect(s.vault.connect(s.platform).renounceOwnership()).to.be.revertedWithCustomError(s.vault, 'OwnableUnauthorizedAccount');
    });
  });

  describe('the creator payout role', function () {
    async function collectedFirst() {
      const s = await networkHelpers.loadFixture(twoSongs);
      await buyAndSell(s, s.first.poolKey, ETH, 2_000_000n * ETH);
      await (await s.vault.collectFees(s.first.songId)).wait();
      return s;
    }

    it('the creator hands it to another address (PayoutRecipientUpdated): credited and future fees follow', async function () {
      const s = await collectedFirst();
      const split = s.stranger.address;
      const [owedBefore] = await s.vault.feesOf(s.first.songId);
      await expect(s.vault.connect(s.creator).setPayoutRecipient(s.first.songId, split))
        .to.emit(s.vault, 'PayoutRecipientUpdated')
        .withArgs(s.first.songId, s.creator.address, split);
      expect((await s.vault.songOf(s.first.songId)).payoutRecipient).to.equal(split);
      // The other song's role is untouched.
      expect((await s.vault.songOf(s.second.songId)).payoutRecipient).to.equal(s.creator.address);
      await expect(s.vault.connect(s.creator).claim([s.first.songId], s.creator.address)).to.be.revertedWithCustomError(
        s.vault,
        'NothingToClaim',
      );
      await buyAndSell(s, s.first.poolKey, ETH / 2n, ETH);
      const c = collected(s, await (await s.vault.collectFees(s.first.songId)).wait());
      await expect(s.vault.connect(s.stranger).claim([s.first.songId], split)).to.changeEtherBalance(
        ethers,
        split,
        owedBefore.eth + c.creatorEth,
      );
      // The platform share is unaffected.
      const [, platform] = await s.vault.feesOf(s.first.songId);
      expect(platform.eth).to.be.greaterThan(0n);
    });

    it('only its holder moves it, never to zero or the vault; the new holder can move it on', async function () {
      const s = await collectedFirst();
      const id = s.first.songId;
      await expect(s.vault.connect(s.stranger).setPayoutRecipient(id, s.stranger.address))
        .to.be.revertedWithCustomError(s.vault, 'NotPayoutRecipient')
        .withArgs(id, s.stranger.address);
      await expect(s.vault.connect(s.platform).setPayoutRecipient(id, s.platform.address))
        .to.be.revertedWithCustomError(s.vault, 'NotPayoutRecipient')
        .withArgs(id, s.platform.address);
      await expect(s.vault.connect(s.creator).setPayoutRecipient(999n, s.creator.address))
        .to.be.revertedWithCustomError(s.vault, 'NotPayoutRecipient')
        .withArgs(999n, s.creator.address);
      for (const bad of [ethers.ZeroAddress, await s.vault.getAddress()]) {
        await expect(s.vault.connect(s.creator).setPayoutRecipient(id, bad))
          .to.be.revertedWithCustomError(s.vault, 'InvalidPayoutRecipient')
          .withArgs(bad);
      }
      await (await s.vault.connect(s.creator).setPayoutRecipient(id, s.trader.address)).wait();
      await expect(s.vault.connect(s.creator).setPayoutRecipient(id, s.creator.address)).to.be.revertedWithCustomError(
        s.vault,
        'NotPayoutRecipient',
      );
      await expect(s.vault.connect(s.trader).setPayoutRecipient(id, s.stranger.address))
        .to.emit(s.vault, 'PayoutRecipientUpdated')
        .withArgs(id, s.trader.address, s.stranger.address);
    });

    it("claimFor: anyone pushes a recipient's share to the recipient itself (a contract that cannot call claim)", async function () {
      const s = await collectedFirst();
      const id = s.first.songId;
      const sink = await ethers.deployContract('PayoutSinkProbe');
      const sinkAddress = await sink.getAddress();
      const [owed, platformOwed] = await s.vault.feesOf(id);
      await (await s.vault.connect(s.creator).setPayoutRecipient(id, sinkAddress)).wait();
      const push = s.vault.connect(s.trader).claimFor([id], sinkAddress);
      await expect(push).to.emit(s.vault, 'FeesClaimed').withArgs(id, sinkAddress, sinkAddress, owed.eth, owed.token);
      await expect(push).to.changeEtherBalance(ethers, sinkAddress, owed.eth);
      expect(await s.first.token.balanceOf(sinkAddress)).to.equal(owed.token);
      // The platform share can be pushed to the owner the same way; nothing is owed to others.
      await expect(s.vault.connect(s.trader).claimFor([id], s.platform.address)).to.changeEtherBalance(
        ethers,
        s.platform.address,
        platformOwed.eth,
      );
      for (const account of [sinkAddress, s.creator.address, s.trader.address, ethers.ZeroAddress]) {
        await expect(s.vault.connect(s.trader).claimFor([id], account)).to.be.revertedWithCustomError(s.vault, 'NothingToClaim');
      }
    });
  });

  describe('token fee credits in the launch fee window', function () {
    /**
     * The review's measured case: a song launched at T (no allocation), a trader who bought in the
     * pool at T + 2 sells it all back at T + 6, and a stranger collects at T + 8. The LP fees of
     * the sells are song tokens, credited to the creator and the platform inside the window.
     */
    async function soldInWindow() {
      const s = await deploySongmint(ethers);
      const song = await mintAndLaunch(s, 'window', 0);
      const launchedAt = BigInt((await s.vault.songOf(song.songId)).launchedAt);
      await (await song.token.connect(s.trader).approve(await s.swapRouter.getAddress(), 2n ** 255n)).wait();
      await networkHelpers.time.setNextBlockTimestamp(launchedAt + 2n);
      await (await swap(s.swapRouter, s.trader, song.poolKey, 'buyExactIn', 2n * ETH, 2n * ETH)).wait();
      const bought = await song.token.balanceOf(s.trader.address);
      await networkHelpers.time.setNextBlockTimestamp(launchedAt + 6n);
      await (await swap(s.swapRouter, s.trader, song.poolKey, 'sellExactIn', bought)).wait();
      await networkHelpers.time.setNextBlockTimestamp(launchedAt + 8n);
      const c = collected(s, await (await s.vault.connect(s.stranger).collectFees(song.songId)).wait());
      return { ...s, song, launchedAt, c };
    }

    it('claims by creator and platform before the window ends move no song token; ETH is paid; the tokens follow in full after it', async function () {
      const s = await networkHelpers.loadFixture(soldInWindow);
      const { songId, token } = s.song;
      expect(s.c.creatorToken).to.be.greaterThan(0n);
      expect(s.c.platformToken).to.be.greaterThan(0n);
      const [creatorOwed, platformOwed] = await s.vault.feesOf(songId);
      expect([creatorOwed.token, platformOwed.token]).to.deep.equal([s.c.creatorToken, s.c.platformToken]);
      const vaultTokens = await token.balanceOf(s.vault.target);
      expect(vaultTokens).to.equal(s.c.lpFeesToken);
      const [creatorNow, platformNow] = await s.vault.claimableFeesOf(songId);
      expect([creatorNow.eth, creatorNow.token, platformNow.eth, platformNow.token]).to.deep.equal([
        creatorOwed.eth,
        0n,
        platformOwed.eth,
        0n,
      ]);

      // T + 9 and T + 10: both parties claim inside the window; only ETH moves.
      await networkHelpers.time.setNextBlockTimestamp(s.launchedAt + 9n);
      const byCreator = s.vault.connect(s.creator).claim([songId], s.creator.address);
      await expect(byCreator).to.emit(s.vault, 'FeesClaimed').withArgs(songId, s.creator.address, s.creator.address, creatorOwed.eth, 0n);
      await expect(byCreator).to.changeEtherBalance(ethers, s.vault.target, -creatorOwed.eth);
      await networkHelpers.time.setNextBlockTimestamp(s.launchedAt + 10n);
      const byPlatform = s.vault.connect(s.platform).claim([songId], s.platform.address);
      await expect(byPlatform)
        .to.emit(s.vault, 'FeesClaimed')
        .withArgs(songId, s.platform.address, s.platform.address, platformOwed.eth, 0n);
      await expect(byPlatform).to.not.emit(token, 'Transfer');
      for (const holder of [s.creator.address, s.platform.address]) expect(await token.balanceOf(holder)).to.equal(0n);
      expect(await token.balanceOf(s.vault.target)).to.equal(vaultTokens);
      const [creatorLeft, platformLeft] = await s.vault.feesOf(songId);
      expect([creatorLeft.eth, creatorLeft.token, platformLeft.eth, platformLeft.token]).to.deep.equal([
        0n,
        s.c.creatorToken,
        0n,
        s.c.platformToken,
      ]);
      // Nothing else to pay in the window: the token credits alone are not claimable (claimFor too).
      await expect(s.vault.connect(s.creator).claim([songId], s.creator.address)).to.be.revertedWithCustomError(s.vault, 'NothingToClaim');
      await expect(s.vault.connect(s.stranger).claimFor([songId], s.platform.address)).to.be.revertedWithCustomError(
        s.vault,
        'NothingToClaim',
      );

      // The window ends at launchedAt + LAUNCH_FEE_DURATION.
      const claimableAt = s.launchedAt + (await s.vault.LAUNCH_FEE_DURATION());
      expect(claimableAt).to.equal(s.launchedAt + 120n);
      await networkHelpers.time.setNextBlockTimestamp(claimableAt - 1n);
      await expect(s.vault.connect(s.creator).claim([songId], s.creator.address)).to.be.revertedWithCustomError(s.vault, 'NothingToClaim');
      await networkHelpers.time.setNextBlockTimestamp(claimableAt);
      await networkHelpers.mine();
      const [creatorOpen, platformOpen] = await s.vault.claimableFeesOf(songId);
      expect([creatorOpen.token, platformOpen.token]).to.deep.equal([s.c.creatorToken, s.c.platformToken]);
      await expect(s.vault.connect(s.creator).claim([songId], s.creator.address))
        .to.emit(s.vault, 'FeesClaimed')
        .withArgs(songId, s.creator.address, s.creator.address, 0n, s.c.creatorToken);
      await expect(s.vault.connect(s.stranger).claimFor([songId], s.platform.address))
        .to.emit(s.vault, 'FeesClaimed')
        .withArgs(songId, s.platform.address, s.platform.address, 0n, s.c.platformToken);
      expect(await token.balanceOf(s.creator.address)).to.equal(s.c.creatorToken);
      expect(await token.balanceOf(s.platform.address)).to.equal(s.c.platformToken);
      expect(await token.balanceOf(s.vault.target)).to.equal(0n);
    });
  });

  describe('ERC-6909 claims that reach the token or the vault from outside', function () {
    /** Mints `amount` of PoolManager ETH claims to `to`, paid by `from` (v4-core's PoolClaimsTest). */
    async function giveEthClaims(s: Songmint, from: (typeof s)['stranger'], to: string, amount: bigint) {
      const claims = await deployV4Artifact('PoolClaimsTest', from, [await s.poolManager.getAddress()]);
      await (await claims.getFunction('deposit')(ethers.ZeroAddress, to, amount, { value: amount })).wait();
    }

    it('claims donated to a song token count as its hook fees (accruedSwapFees), and are collected and split as such', async function () {
      const s = await networkHelpers.loadFixture(twoSongs);
      const { songId, token } = s.first;
      await buyAndSell(s, s.first.poolKey, ETH, 2_000_000n * ETH);
      const charged = await s.vault.accruedSwapFees(songId);
      const gift = 12_345_678_901n;
      await giveEthClaims(s, s.stranger, await token.getAddress(), gift);
      expect(await s.vault.accruedSwapFees(songId)).to.equal(charged + gift);
      const c = collected(s, await (await s.vault.collectFees(songId)).wait());
      expect(c.swapFeesEth).to.equal(charged + gift);
      expect(c.creatorEth + c.platformEth).to.equal(c.lpFeesEth + charged + gift);
      expect(await s.poolManager.getFunction('balanceOf')(await token.getAddress(), 0n)).to.equal(0n);
    });

    it('claims sent to the vault are no fees: collection ignores them, and only the owner sends them on (ClaimsRecovered)', async function () {
      const s = await networkHelpers.loadFixture(twoSongs);
      const vault = await s.vault.getAddress();
      const claimsOf = (who: string) => s.poolManager.getFunction('balanceOf')(who, 0n) as Promise<bigint>;
      await expect(s.vault.connect(s.platform).recoverClaims(0n, s.stranger.address))
        .to.be.revertedWithCustomError(s.vault, 'NoClaimsHeld')
        .withArgs(0n);
      const stray = 7n * 10n ** 15n;
      await giveEthClaims(s, s.stranger, vault, stray);
      await buyAndSell(s, s.first.poolKey, ETH, 2_000_000n * ETH);
      const charged = await s.vault.accruedSwapFees(s.first.songId);
      const c = collected(s, await (await s.vault.collectFees(s.first.songId)).wait());
      expect(c.swapFeesEth).to.equal(charged);
      expect(await s.vault.accruedSwapFees(s.first.songId)).to.equal(charged);
      expect(await claimsOf(vault)).to.equal(stray);

      // Fees not yet collected stay with the song token: recovery cannot reach them.
      await buyAndSell(s, s.second.poolKey, ETH / 2n, ETH);
      const pending = await claimsOf(await s.second.token.getAddress());
      expect(pending).to.be.greaterThan(0n);
      for (const who of [s.stranger, s.creator]) {
        await expect(s.vault.connect(who).recoverClaims(0n, who.address))
          .to.be.revertedWithCustomError(s.vault, 'OwnableUnauthorizedAccount')
          .withArgs(who.address);
      }
      await expect(s.vault.connect(s.platform).recoverClaims(0n, ethers.ZeroAddress)).to.be.revertedWithCustomError(s.vault, 'ZeroAddress');
      await expect(s.vault.connect(s.platform).recoverClaims(0n, s.stranger.address))
        .to.emit(s.vault, 'ClaimsRecovered')
        .withArgs(0n, s.stranger.address, stray);
      expect(await claimsOf(s.stranger.address)).to.equal(stray);
      expect(await claimsOf(vault)).to.equal(0n);
      expect(await claimsOf(await s.second.token.getAddress())).to.equal(pending);
      const second = collected(s, await (await s.vault.collectFees(s.second.songId)).wait());
      expect(second.swapFeesEth).to.equal(pending);
    });
  });

  describe('property: the fee split always adds up', function () {
    it('splits 400 random amounts at random shares with platform + creator == amount', async function () {
      const harness = await ethers.deployContract('FeeSplitHarness');
      let seed = 0x5eedn;
      const next = (bits: bigint) => {
        seed = BigInt(keccak256(toUtf8Bytes(seed.toString())));
        return seed & ((1n << bits) - 1n);
      };
      const edge = [0n, 1n, 9_999n, 10_000n, 10_001n, 2n ** 128n - 1n, 2n ** 200n];
      for (let i = 0; i < 400; i++) {
        const amount = i < edge.length ? edge[i]! : next(BigInt(1 + (Number(next(7n)) % 129)));
        const bps = i % 50 === 0 ? 10_000n : next(14n) % 10_001n;
        const [creator, platform] = await harness.split(amount, bps);
        expect(creator + platform).to.equal(amount);
        expect(platform).to.equal((amount * bps) / BPS);
      }
    });

    it('random trading on a live pool: every collect splits exactly and claims pay out to the wei', async function () {
      const s = await networkHelpers.loadFixture(twoSongs);
      let seed = 42n;
      const next = (max: bigint) => {
        seed = BigInt(keccak256(toUtf8Bytes(`trade${seed}`)));
        return (seed % max) + 1n;
      };
      let creatorEth = 0n;
      let platformEth = 0n;
      for (let round = 0; round < 6; round++) {
        await buyAndSell(s, s.first.poolKey, next(ETH / 4n), next(3_000_000n * ETH));
        const c = collected(s, await (await s.vault.collectFees(s.first.songId)).wait());
        expect(c.creatorEth + c.platformEth).to.equal(c.lpFeesEth + c.swapFeesEth);
        expect(c.creatorToken + c.platformToken).to.equal(c.lpFeesToken);
        creatorEth += c.creatorEth;
        platformEth += c.platformEth;
      }
      await expect(s.vault.connect(s.creator).claim([s.first.songId], s.stranger.address)).to.changeEtherBalance(
        ethers,
        s.stranger.address,
        creatorEth,
      );
      await expect(s.vault.connect(s.platform).claim([s.first.songId], s.stranger.address)).to.changeEtherBalance(
        ethers,
        s.stranger.address,
        platformEth,
      );
      expect(await ethers.provider.getBalance(s.vault.target)).to.equal(0n);
    });
  });

  describe('hostile fee recipients', function () {
    async function probeSong(s: Songmint, label: string): Promise<{ probe: FeeClaimerProbe; songId: bigint; key: PoolKeyTuple }> {
      const probe = await ethers.deployContract('FeeClaimerProbe', [s.vault.target]);
      const audioHash = keccak256(toUtf8Bytes(`probe:${label}`)) as Hex;
      const uri = `ipfs://probe-${label}`;
      const signature = await createMintSigner(PLATFORM_SIGNER_KEY).sign({
        minter: (await probe.getAddress()) as Hex,
        metadataUri: uri,
        audioHash,
      });
      await (await probe.mintAndLaunch(uri, audioHash, signature)).wait();
      const songId = await s.nft.totalSupply();
      expect((await s.vault.songOf(songId)).payoutRecipient).to.equal(await probe.getAddress());
      return { probe, songId, key: await poolKeyOf(s.vault, songId) };
    }

    it('a creator that rejects ETH blocks neither swaps, nor collection, nor other songs', async function () {
      const s = await networkHelpers.loadFixture(twoSongs);
      const { probe, songId, key } = await probeSong(s, 'reject');
      await (await probe.setMode(1)).wait();
      await networkHelpers.time.increase(300);
      await (await swap(s.swapRouter, s.trader, key, 'buyExactIn', ETH, ETH)).wait();
      await (await s.vault.collectFees(songId)).wait();
      const [owed] = await s.vault.feesOf(songId);
      await expect(probe.claim([songId], await probe.getAddress()))
        .to.be.revertedWithCustomError(s.vault, 'EthTransferFailed')
        .withArgs(await probe.getAddress(), owed.eth);
      // The fees stay credited, other songs pay out, and the creator can claim to another address.
      expect((await s.vault.feesOf(songId))[0].eth).to.equal(owed.eth);
      await buyAndSell(s, s.first.poolKey, ETH / 10n, ETH);
      await (await s.vault.collectFees(s.first.songId)).wait();
      await (await s.vault.connect(s.creator).claim([s.first.songId], s.creator.address)).wait();
      await expect(probe.claim([songId], s.stranger.address)).to.changeEtherBalance(ethers, s.stranger.address, owed.eth);
    });

    it('a re-entrant creator cannot claim twice or collect from inside its payout', async function () {
      const s = await networkHelpers.loadFixture(twoSongs);
      const { probe, songId, key } = await probeSong(s, 'reenter');
      await networkHelpers.time.increase(300);
      await (await swap(s.swapRouter, s.trader, key, 'buyExactIn', ETH, ETH)).wait();
      await (await s.vault.collectFees(songId)).wait();
      const [owed] = await s.vault.feesOf(songId);

      await (await probe.setMode(2)).wait();
      await expect(probe.claim([songId], await probe.getAddress())).to.changeEtherBalance(ethers, probe.target, owed.eth);
      expect(await probe.reentryAttempted()).to.equal(true);
      expect(await probe.reentrySucceeded()).to.equal(false);

      await (await swap(s.swapRouter, s.trader, key, 'buyExactIn', ETH, ETH)).wait();
      await (await s.vault.collectFees(songId)).wait();
      await (await probe.setMode(3)).wait();
      await (await probe.claim([songId], await probe.getAddress())).wait();
      expect(await probe.reentrySucceeded()).to.equal(false);
      expect((await s.vault.feesOf(songId))[0].eth).to.equal(0n);
    });
  });
});
