import { expect } from 'chai';
import { network } from 'hardhat';
import { anyValue } from '@nomicfoundation/hardhat-ethers-chai-matchers/withArgs';
import { BASE_POOL_MANAGER } from '../../ignition/songmint-hook.ts';
import {
  deploySongmint,
  LAUNCH_CONFIG,
  minedHookSalt,
  mintAndLaunch,
  mintSong,
  poolIdOf,
  poolKeyOf,
  slot0,
  swap,
  TOTAL_SUPPLY,
} from './fixtures/songmint.ts';

const { ethers, networkHelpers } = await network.create('base');

async function protocol() {
  return deploySongmint(ethers);
}

/** One fixture per file: a second fixture would redeploy the hook at its taken CREATE2 address. */
async function songReadyToLaunch() {
  const s = await networkHelpers.loadFixture(protocol);
  const songId = await mintSong(s.nft, s.creator, 'launch');
  await (await s.nft.connect(s.creator).approve(await s.vault.getAddress(), songId)).wait();
  return { ...s, songId };
}

describe('SongVault.launch', function () {
  it('does everything in one transaction: custody, token, pool, locked liquidity, allocation', async function () {
    const s = await songReadyToLaunch();
    const vaultAddress = await s.vault.getAddress();
    const predicted = await s.vault.tokenOf(s.songId);
    expect(await ethers.provider.getCode(predicted)).to.equal('0x');
    const key = await poolKeyOf(s.vault, s.songId);

    const tx = s.vault.connect(s.creator).launch(s.songId, { allocationBps: 500, allocationRecipient: s.trader.address });
    await expect(tx)
      .to.emit(s.vault, 'SongLaunched')
      .withArgs(s.songId, predicted, poolIdOf(key), s.creator.address, s.creator.address, s.trader.address, anyValue, anyValue, anyValue);
    await expect(tx).to.emit(s.hook, 'PoolLaunched');

    const token = await ethers.getContractAt('SongToken', predicted);
    expect(await s.nft.ownerOf(s.songId)).to.equal(vaultAddress);
    expect(await token.totalSupply()).to.equal(TOTAL_SUPPLY);
    const poolSupply = await token.balanceOf(BASE_POOL_MANAGER);
    const allocation = await token.balanceOf(s.trader.address);
    expect(poolSupply + allocation).to.equal(TOTAL_SUPPLY);
    // The allocation is 5% plus the pool share's rounding dust (below one token unit of 1e-14).
    expect(allocation - TOTAL_SUPPLY / 20n).to.be.greaterThanOrEqual(0n).and.lessThan(10n ** 4n * 2n);
    expect(await token.balanceOf(vaultAddress)).to.equal(0n);
    expect(await ethers.provider.getBalance(vaultAddress)).to.equal(0n);

    const state = await slot0(s.poolManager, key);
    expect(state.tick).to.equal(BigInt(LAUNCH_CONFIG.startTick));
    expect(key.currency0).to.equal(ethers.ZeroAddress);
    expect(key.currency1).to.equal(predicted);
    expect(key.fee).to.equal(BigInt(LAUNCH_CONFIG.lpFee));
    expect(key.hooks).to.equal(await s.hook.getAddress());

    const song = await s.vault.songOf(s.songId);
    expect(song.creator).to.equal(s.creator.address);
    expect(await s.hook.launchedAt(poolIdOf(key))).to.equal(song.launchedAt);
  });

  it('names the token after the song at an address known before launch', async function () {
    const s = await networkHelpers.loadFixture(protocol);
    const { songId, token } = await mintAndLaunch(s, 'named');
    expect(await token.name()).to.equal(`Songmint #${songId}`);
    expect(await token.symbol()).to.equal(`SONG${songId}`);
    expect(await token.decimals()).to.equal(18n);
    expect(await token.songId()).to.equal(songId);
    expect(await token.getAddress()).to.equal(await s.vault.tokenOf(songId));
  });

  it('seeds single-sided token liquidity that buyers move into and that cannot be removed', async function () {
    const s = await networkHelpers.loadFixture(protocol);
    const { poolKey, token } = await mintAndLaunch(s, 'buy');
    const before = await token.balanceOf(s.trader.address);
    await (await swap(s.swapRouter, s.trader, poolKey, 'buyExactIn', 10n ** 18n, 10n ** 18n)).wait();
    expect((await token.balanceOf(s.trader.address)) - before).to.be.greaterThan(10n ** 24n);
    expect((await slot0(s.poolManager, poolKey)).tick).to.be.lessThan(BigInt(LAUNCH_CONFIG.startTick));
    // No function of the vault removes liquidity: its ABI has only these state-changing entry points.
    const writers = s.vault.interface.fragments
      .filter((f) => f.type === 'function' && 'stateMutability' in f && f.stateMutability !== 'view' && f.stateMutability !== 'pure')
      .map((f) => ('name' in f ? String(f.name) : ''))
      .sort();
    expect(writers).to.deep.equal([
      'acceptOwnership',
      'claim',
      'collectFees',
      'launch',
      'transferOwnership',
      'unlockCallback',
    ]);
  });

  it('nobody else can remove the locked position: a router asking to burn it owns no such position', async function () {
    const s = await networkHelpers.loadFixture(protocol);
    const { songId, poolKey, token } = await mintAndLaunch(s, 'locked');
    const liquidity = (await s.vault.queryFilter(s.vault.filters.SongLaunched(songId)))[0]?.args.liquidity;
    if (liquidity === undefined) throw new Error('no SongLaunched event');
    const removal = s.liquidityRouter
      .connect(s.stranger)
      .getFunction('modifyLiquidity(tuple(address,address,uint24,int24,address),tuple(int24,int24,int256,bytes32),bytes)');
    const params = { tickLower: LAUNCH_CONFIG.tickLower, tickUpper: LAUNCH_CONFIG.startTick, liquidityDelta: -liquidity, salt: ethers.ZeroHash };
    await expect(removal(poolKey, params, '0x')).to.be.revert(ethers);
    expect(await token.balanceOf(BASE_POOL_MANAGER)).to.be.greaterThan((TOTAL_SUPPLY * 9n) / 10n);
  });

  it('takes no allocation when asked for 0% and at most 10%', async function () {
    const s = await networkHelpers.loadFixture(protocol);
    const none = await mintAndLaunch(s, 'zero', 0);
    expect(await none.token.balanceOf(s.creator.address)).to.be.lessThan(10n ** 5n);
    const max = await mintAndLaunch(s, 'max', 1000);
    expect(await max.token.balanceOf(s.creator.address)).to.be.greaterThanOrEqual(TOTAL_SUPPLY / 10n);
  });

  it('lets a later owner launch: fees stay with the creator, the allocation goes to the launcher', async function () {
    const s = await songReadyToLaunch();
    await (await s.nft.connect(s.creator).transferFrom(s.creator.address, s.stranger.address, s.songId)).wait();
    await (await s.nft.connect(s.stranger).approve(await s.vault.getAddress(), s.songId)).wait();
    await (await s.vault.connect(s.stranger).launch(s.songId, { allocationBps: 100, allocationRecipient: s.stranger.address })).wait();
    expect((await s.vault.songOf(s.songId)).creator).to.equal(s.creator.address);
    const token = await ethers.getContractAt('SongToken', await s.vault.tokenOf(s.songId));
    expect(await token.balanceOf(s.stranger.address)).to.be.greaterThanOrEqual(TOTAL_SUPPLY / 100n);
  });

  describe('reverts', function () {
    it('when the caller does not own the song', async function () {
      const s = await songReadyToLaunch();
      await expect(s.vault.connect(s.stranger).launch(s.songId, { allocationBps: 0, allocationRecipient: s.stranger.address }))
        .to.be.revertedWithCustomError(s.vault, 'NotSongOwner')
        .withArgs(s.songId, s.stranger.address);
    });

    it('when the song does not exist', async function () {
      const s = await songReadyToLaunch();
      await expect(
        s.vault.connect(s.creator).launch(999n, { allocationBps: 0, allocationRecipient: s.creator.address }),
      ).to.be.revertedWithCustomError(s.nft, 'ERC721NonexistentToken');
    });

    it('when the song was already launched', async function () {
      const s = await songReadyToLaunch();
      const params = { allocationBps: 0, allocationRecipient: s.creator.address };
      await (await s.vault.connect(s.creator).launch(s.songId, params)).wait();
      await expect(s.vault.connect(s.creator).launch(s.songId, params))
        .to.be.revertedWithCustomError(s.vault, 'NotSongOwner')
        .withArgs(s.songId, s.creator.address);
    });

    it('when the allocation is above 10%', async function () {
      const s = await songReadyToLaunch();
      await expect(s.vault.connect(s.creator).launch(s.songId, { allocationBps: 1001, allocationRecipient: s.creator.address }))
        .to.be.revertedWithCustomError(s.vault, 'AllocationTooLarge')
        .withArgs(1001n);
    });

    it('when the allocation recipient is the zero address', async function () {
      const s = await songReadyToLaunch();
      await expect(
        s.vault.connect(s.creator).launch(s.songId, { allocationBps: 0, allocationRecipient: ethers.ZeroAddress }),
      ).to.be.revertedWithCustomError(s.vault, 'ZeroAddress');
    });

    it('when the vault is not approved for the NFT', async function () {
      const s = await networkHelpers.loadFixture(protocol);
      const songId = await mintSong(s.nft, s.creator, 'unapproved');
      await expect(
        s.vault.connect(s.creator).launch(songId, { allocationBps: 0, allocationRecipient: s.creator.address }),
      ).to.be.revertedWithCustomError(s.nft, 'ERC721InsufficientApproval');
    });

    it('when the NFT is pushed to the vault outside a launch (safeTransferFrom)', async function () {
      const s = await songReadyToLaunch();
      await expect(
        s.nft
          .connect(s.creator)
          .getFunction('safeTransferFrom(address,address,uint256)')(s.creator.address, await s.vault.getAddress(), s.songId),
      ).to.be.revertedWithCustomError(s.nft, 'ERC721InvalidReceiver');
    });

    it('when a stranger calls the unlock callback or sends ETH', async function () {
      const s = await networkHelpers.loadFixture(protocol);
      await expect(s.vault.connect(s.stranger).unlockCallback('0x')).to.be.revertedWithCustomError(s.vault, 'NotPoolManager');
      await expect(
        s.stranger.sendTransaction({ to: await s.vault.getAddress(), value: 1n }),
      ).to.be.revertedWithCustomError(s.vault, 'NotPoolManager');
    });
  });

  describe('deployment checks', function () {
    it('rejects an unusable launch configuration, a missing implementation and a used hook salt', async function () {
      const s = await networkHelpers.loadFixture(protocol);
      const factory = await ethers.getContractFactory('SongVault');
      const nft = await s.nft.getAddress();
      const implementation = await s.tokenImplementation.getAddress();
      const { salt } = await minedHookSalt(ethers, BASE_POOL_MANAGER);
      const freshSalt = (await minedHookSalt(ethers, BASE_POOL_MANAGER, 1n << 64n)).salt;
      const deploy = (config: { [K in keyof typeof LAUNCH_CONFIG]: number }, hookSalt: string = freshSalt) =>
        factory.deploy(BASE_POOL_MANAGER, nft, implementation, hookSalt, config, s.platform.address);
      for (const bad of [
        { ...LAUNCH_CONFIG, startTick: 184_201 },
        { ...LAUNCH_CONFIG, tickLower: 184_200 },
        { ...LAUNCH_CONFIG, tickLower: -887_400 },
        { ...LAUNCH_CONFIG, tickSpacing: 0 },
        { ...LAUNCH_CONFIG, lpFee: 1_000_001 },
        { ...LAUNCH_CONFIG, platformShareBps: 10_001 },
      ]) {
        await expect(deploy(bad)).to.be.revertedWithCustomError(s.vault, 'InvalidLaunchConfig');
      }
      await expect(
        factory.deploy(BASE_POOL_MANAGER, nft, s.stranger.address, freshSalt, LAUNCH_CONFIG, s.platform.address),
      ).to.be.revertedWithCustomError(s.vault, 'ZeroAddress');
      // The first vault's hook already sits at the salt's address; a salt not mined for the flags fails too.
      await expect(deploy(LAUNCH_CONFIG, salt)).to.be.revertedWithCustomError(s.vault, 'HookDeploymentFailed').withArgs(salt);
      await expect(deploy(LAUNCH_CONFIG, ethers.ZeroHash)).to.be.revertedWithCustomError(s.vault, 'HookDeploymentFailed');
      // A second vault with its own mined salt gets its own hook, bound to it alone.
      const second = await deploy(LAUNCH_CONFIG);
      const secondHook = await ethers.getContractAt('SongPoolHook', await second.hook());
      expect(await secondHook.vault()).to.equal(await second.getAddress());
      expect(await s.hook.vault()).to.equal(await s.vault.getAddress());
    });
  });
});
