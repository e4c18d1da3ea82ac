import { expect } from 'chai';
import { network } from 'hardhat';
import { anyValue } from '@nomicfoundation/hardhat-ethers-chai-matchers/withArgs';
import { Contract, ZeroAddress } from 'ethers';
import { getContractAddress, type Hex } from 'viem';
import {
  BASE_POOL_MANAGER,
  CREATE2_DEPLOYER,
  create2DeployData,
  mineHookSalt,
  SONG_POOL_HOOK_FLAGS,
  songPoolHookInitCode,
} from '../../ignition/songmint-hook.ts';
import {
  deploySongmint,
  LAUNCH_CONFIG,
  mintAndLaunch,
  mintSong,
  poolIdOf,
  poolKeyOf,
  predictedHook,
  slot0,
  songVaultArgs,
  swap,
  TOTAL_SUPPLY,
  V4_LIBRARY_ERRORS,
} from './fixtures/songmint.ts';

const { ethers, networkHelpers } = await network.create('base');
const v4Errors = new Contract(ZeroAddress, V4_LIBRARY_ERRORS);

async function protocol() {
  return deploySongmint(ethers);
}

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
    const poolSupply = await token.balanceOf(BASE_POOL_MANAGER);
    // The allocation vests (the rest of the supply, minted as it is claimed).
    expect(await token.totalSupply()).to.equal(poolSupply);
    expect(await token.balanceOf(s.trader.address)).to.equal(0n);
    const [recipient, allocation, claimed, vested, cliffEnd, vestingEnd] = await s.vault.allocationOf(s.songId);
    expect(recipient).to.equal(s.trader.address);
    expect([claimed, vested]).to.deep.equal([0n, 0n]);
    expect(poolSupply + allocation).to.equal(TOTAL_SUPPLY);
    // The allocation is 5% plus the pool share's rounding dust (below one token unit of 1e-14).
    expect(allocation - TOTAL_SUPPLY / 20n)
      .to.be.greaterThanOrEqual(0n)
      .and.lessThan(10n ** 4n * 2n);
    expect(await token.balanceOf(vaultAddress)).to.equal(0n);
    expect(await ethers.provider.getBalance(vaultAddress)).to.equal(0n);

    const state = await slot0(s.poolManager, key);
    expect(state.tick).to.equal(BigInt(LAUNCH_CONFIG.startTick));
    expect(key.currency0).to.equal(ethers.ZeroAddress);
    expect(key.currency1).to.equal(predicted);
    expect(key.fee).to.equal(BigInt(LAUNCH_CONFIG.lpFee));
    expect(key.hooks).to.equal(await s.hook.getAddress());

    const song = await s.vault.songOf(s.songId);
    expect(song.payoutRecipient).to.equal(s.creator.address);
    expect(await s.hook.launchedAt(poolIdOf(key))).to.equal(song.launchedAt);
    expect(cliffEnd).to.equal(song.launchedAt + BigInt(LAUNCH_CONFIG.allocationCliff));
    expect(vestingEnd).to.equal(cliffEnd + BigInt(LAUNCH_CONFIG.allocationVestingPeriod));
    await expect(tx)
      .to.emit(s.vault, 'SongLaunched')
      .withArgs(anyValue, anyValue, anyValue, anyValue, anyValue, anyValue, allocation, poolSupply, anyValue);
    await expect(tx).to.emit(s.vault, 'AllocationVesting').withArgs(s.songId, s.trader.address, allocation, cliffEnd, vestingEnd);
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
      'claimAllocation',
      'claimFor',
      'collectFees',
      'launch',
      'recoverClaims',
      'recoverSong',
      'setPayoutRecipient',
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
    const params = {
      tickLower: LAUNCH_CONFIG.tickLower,
      tickUpper: LAUNCH_CONFIG.startTick,
      liquidityDelta: -liquidity,
      salt: ethers.ZeroHash,
    };
    await expect(removal(poolKey, params, '0x')).to.be.revert(ethers);
    expect(await token.balanceOf(BASE_POOL_MANAGER)).to.be.greaterThan((TOTAL_SUPPLY * 9n) / 10n);
  });

  it('takes no allocation when asked for 0% and at most 10%', async function () {
    const s = await networkHelpers.loadFixture(protocol);
    const none = await mintAndLaunch(s, 'zero', 0);
    expect((await s.vault.allocationOf(none.songId))[1]).to.be.lessThan(10n ** 5n);
    const max = await mintAndLaunch(s, 'max', 1000);
    const [, total] = await s.vault.allocationOf(max.songId);
    expect(total).to.be.greaterThanOrEqual(TOTAL_SUPPLY / 10n);
    expect(total - TOTAL_SUPPLY / 10n).to.be.lessThan(10n ** 5n);
  });

  it('lets a later owner launch: fees stay with the creator, the allocation goes to the launcher', async function () {
    const s = await songReadyToLaunch();
    await (await s.nft.connect(s.creator).transferFrom(s.creator.address, s.stranger.address, s.songId)).wait();
    await (await s.nft.connect(s.stranger).approve(await s.vault.getAddress(), s.songId)).wait();
    await (await s.vault.connect(s.stranger).launch(s.songId, { allocationBps: 100, allocationRecipient: s.stranger.address })).wait();
    expect((await s.vault.songOf(s.songId)).payoutRecipient).to.equal(s.creator.address);
    const [recipient, total] = await s.vault.allocationOf(s.songId);
    expect(recipient).to.equal(s.stranger.address);
    expect(total).to.be.greaterThanOrEqual(TOTAL_SUPPLY / 100n);
  });

  describe('the allocation vests: nothing until the cliff ends, then linearly, all of it at the end', function () {
    it('pays what has vested and not been claimed, to its recipient only, as often as asked', async function () {
      const s = await songReadyToLaunch();
      await (await s.vault.connect(s.creator).launch(s.songId, { allocationBps: 1000, allocationRecipient: s.trader.address })).wait();
      const token = await ethers.getContractAt('SongToken', await s.vault.tokenOf(s.songId));
      const { launchedAt } = await s.vault.songOf(s.songId);
      const [, total, , , cliffEnd, vestingEnd] = await s.vault.allocationOf(s.songId);
      const period = await s.vault.ALLOCATION_VESTING_PERIOD();
      expect(await s.vault.ALLOCATION_CLIFF()).to.equal(7n * 86_400n);
      expect(period).to.equal(180n * 86_400n);
      expect(cliffEnd).to.equal(launchedAt + 7n * 86_400n);
      expect(vestingEnd).to.equal(cliffEnd + period);

      // Up to and at the cliff's end: nothing has vested, for the recipient as for anyone.
      for (const at of [launchedAt + 120n, cliffEnd]) {
        await networkHelpers.time.setNextBlockTimestamp(at);
        await expect(s.vault.connect(s.trader).claimAllocation(s.songId))
          .to.be.revertedWithCustomError(s.vault, 'AllocationLocked')
          .withArgs(s.songId, cliffEnd);
      }
      // A quarter of the period in: a quarter, to the recipient named at launch, whoever sends the claim.
      const quarter = cliffEnd + period / 4n;
      await networkHelpers.time.setNextBlockTimestamp(quarter);
      const first = s.vault.connect(s.stranger).claimAllocation(s.songId);
      await expect(first)
        .to.emit(s.vault, 'AllocationClaimed')
        .withArgs(s.songId, s.trader.address, total / 4n, total - total / 4n);
      await expect(first)
        .to.emit(token, 'Transfer')
        .withArgs(ethers.ZeroAddress, s.trader.address, total / 4n);
      expect(await token.balanceOf(s.stranger.address)).to.equal(0n);
      // In the claim's block, the view agrees: a quarter vested, all of it claimed.
      const { blockNumber } = (await (await first).wait())!;
      expect([...(await s.vault.allocationOf(s.songId, { blockTag: blockNumber }))]).to.deep.equal([
        s.trader.address,
        total,
        total / 4n,
        total / 4n,
        cliffEnd,
        vestingEnd,
      ]);
      // One second later: one second's worth, and no more.
      await networkHelpers.time.setNextBlockTimestamp(quarter + 1n);
      const oneSecond = (total * (period / 4n + 1n)) / period - total / 4n;
      await expect(s.vault.connect(s.trader).claimAllocation(s.songId))
        .to.emit(s.vault, 'AllocationClaimed')
        .withArgs(s.songId, s.trader.address, oneSecond, total - total / 4n - oneSecond);
      // At the end: the rest, and the whole supply exists.
      await networkHelpers.time.setNextBlockTimestamp(vestingEnd);
      const claimedBefore = await token.balanceOf(s.trader.address);
      await expect(s.vault.claimAllocation(s.songId))
        .to.emit(s.vault, 'AllocationClaimed')
        .withArgs(s.songId, s.trader.address, total - claimedBefore, 0n);
      expect(await token.balanceOf(s.trader.address)).to.equal(total);
      expect(await token.totalSupply()).to.equal(TOTAL_SUPPLY);
      expect([...(await s.vault.allocationOf(s.songId))]).to.deep.equal([s.trader.address, total, total, total, cliffEnd, vestingEnd]);
      // Nothing is left: NothingVested(songId, claimed, total), for good.
      await networkHelpers.time.increase(86_400);
      await expect(s.vault.claimAllocation(s.songId))
        .to.be.revertedWithCustomError(s.vault, 'NothingVested')
        .withArgs(s.songId, total, total);
    });

    it('a song not launched has none', async function () {
      const s = await songReadyToLaunch();
      await expect(s.vault.claimAllocation(s.songId)).to.be.revertedWithCustomError(s.vault, 'NotLaunched').withArgs(s.songId);
      expect([...(await s.vault.allocationOf(s.songId))]).to.deep.equal([ethers.ZeroAddress, 0n, 0n, 0n, 0n, 0n]);
    });
  });

  describe('an NFT sent to the vault with a plain transferFrom', function () {
    it("goes back to its creator's chosen address (SongRecovered), after which it launches normally", async function () {
      const s = await songReadyToLaunch();
      const vaultAddress = await s.vault.getAddress();
      await (await s.nft.connect(s.creator).transferFrom(s.creator.address, vaultAddress, s.songId)).wait();
      expect(await s.nft.ownerOf(s.songId)).to.equal(vaultAddress);
      // Not a launch: the owner of record cannot launch it from the vault, strangers cannot take it.
      await expect(s.vault.connect(s.creator).launch(s.songId, { allocationBps: 0, allocationRecipient: s.creator.address }))
        .to.be.revertedWithCustomError(s.vault, 'NotSongOwner')
        .withArgs(s.songId, s.creator.address);
      await expect(s.vault.connect(s.stranger).recoverSong(s.songId, s.stranger.address))
        .to.be.revertedWithCustomError(s.vault, 'NotSongCreator')
        .withArgs(s.songId, s.stranger.address);
      await expect(s.vault.connect(s.creator).recoverSong(s.songId, ethers.ZeroAddress)).to.be.revertedWithCustomError(
        s.vault,
        'ZeroAddress',
      );
      await expect(s.vault.connect(s.creator).recoverSong(s.songId, s.trader.address))
        .to.emit(s.vault, 'SongRecovered')
        .withArgs(s.songId, s.creator.address, s.trader.address);
      expect(await s.nft.ownerOf(s.songId)).to.equal(s.trader.address);
      // Recovered, it launches the ordinary way.
      await (await s.nft.connect(s.trader).approve(vaultAddress, s.songId)).wait();
      await expect(s.vault.connect(s.trader).launch(s.songId, { allocationBps: 0, allocationRecipient: s.trader.address })).to.emit(
        s.vault,
        'SongLaunched',
      );
    });

    it('goes to the creator even when a later owner sent it: SongNFT records no other owner', async function () {
      const s = await songReadyToLaunch();
      await (await s.nft.connect(s.creator).transferFrom(s.creator.address, s.trader.address, s.songId)).wait();
      await (await s.nft.connect(s.trader).transferFrom(s.trader.address, await s.vault.getAddress(), s.songId)).wait();
      await expect(s.vault.connect(s.trader).recoverSong(s.songId, s.trader.address))
        .to.be.revertedWithCustomError(s.vault, 'NotSongCreator')
        .withArgs(s.songId, s.trader.address);
      await (await s.vault.connect(s.creator).recoverSong(s.songId, s.creator.address)).wait();
      expect(await s.nft.ownerOf(s.songId)).to.equal(s.creator.address);
    });

    it('cannot pull a launched song out of the vault, nor a song the vault does not hold', async function () {
      const s = await songReadyToLaunch();
      await expect(s.vault.connect(s.creator).recoverSong(s.songId, s.creator.address))
        .to.be.revertedWithCustomError(s.nft, 'ERC721IncorrectOwner')
        .withArgs(await s.vault.getAddress(), s.songId, s.creator.address);
      await (await s.vault.connect(s.creator).launch(s.songId, { allocationBps: 0, allocationRecipient: s.creator.address })).wait();
      await expect(s.vault.connect(s.creator).recoverSong(s.songId, s.creator.address))
        .to.be.revertedWithCustomError(s.vault, 'AlreadyLaunched')
        .withArgs(s.songId);
      expect(await s.nft.ownerOf(s.songId)).to.equal(await s.vault.getAddress());
    });
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
        s.nft.connect(s.creator).getFunction('safeTransferFrom(address,address,uint256)')(
          s.creator.address,
          await s.vault.getAddress(),
          s.songId,
        ),
      ).to.be.revertedWithCustomError(s.nft, 'ERC721InvalidReceiver');
    });

    it('when a stranger calls the unlock callback or sends ETH', async function () {
      const s = await networkHelpers.loadFixture(protocol);
      await expect(s.vault.connect(s.stranger).unlockCallback('0x')).to.be.revertedWithCustomError(s.vault, 'NotPoolManager');
      await expect(s.stranger.sendTransaction({ to: await s.vault.getAddress(), value: 1n })).to.be.revertedWithCustomError(
        s.vault,
        'NotPoolManager',
      );
    });
  });

  describe('deployment checks', function () {
    it('rejects an unusable launch configuration and a token implementation of another SongNFT', async function () {
      const s = await networkHelpers.loadFixture(protocol);
      const factory = await ethers.getContractFactory('SongVault');
      const [poolManager, nft, implementation, , platform] = await songVaultArgs(s);
      const deploy = (config: { [K in keyof typeof LAUNCH_CONFIG]: number }, tokenImplementation = implementation) =>
        factory.deploy(poolManager, nft, tokenImplementation, config, platform);
      // The allocation's vesting: a cliff of 7 to 3,650 days, a period of 30 to 3,650 days (a
      // duration given in milliseconds is refused).
      for (const bad of [
        { ...LAUNCH_CONFIG, allocationCliff: 7 * 86_400 - 1 },
        { ...LAUNCH_CONFIG, allocationVestingPeriod: 30 * 86_400 - 1 },
        { ...LAUNCH_CONFIG, allocationCliff: 3_650 * 86_400 + 1 },
        { ...LAUNCH_CONFIG, allocationVestingPeriod: 7 * 86_400 * 1000 },
      ]) {
        await expect(deploy(bad))
          .to.be.revertedWithCustomError(s.vault, 'InvalidAllocationVesting')
          .withArgs(bad.allocationCliff, bad.allocationVestingPeriod);
      }
      const bounds = await factory.deploy(
        poolManager,
        nft,
        implementation,
        {
          ...LAUNCH_CONFIG,
          allocationCliff: 7 * 86_400,
          allocationVestingPeriod: 30 * 86_400,
        },
        platform,
      );
      expect([await bounds.ALLOCATION_CLIFF(), await bounds.ALLOCATION_VESTING_PERIOD()]).to.deep.equal([604_800n, 2_592_000n]);
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
      await expect(deploy(LAUNCH_CONFIG, s.stranger.address))
        .to.be.revertedWithCustomError(s.vault, 'WrongTokenImplementation')
        .withArgs(s.stranger.address);
      const foreign = await ethers.deployContract('SongToken', [s.stranger.address]);
      await expect(deploy(LAUNCH_CONFIG, await foreign.getAddress()))
        .to.be.revertedWithCustomError(s.vault, 'WrongTokenImplementation')
        .withArgs(await foreign.getAddress());
      await expect(factory.deploy(ethers.ZeroAddress, nft, implementation, LAUNCH_CONFIG, platform)).to.be.revertedWithCustomError(
        s.vault,
        'ZeroAddress',
      );
    });

    it('deploys its hook at the address mined off chain from the vault address, bound to it', async function () {
      const s = await networkHelpers.loadFixture(protocol);
      const predicted = await predictedHook(ethers, await s.vault.getAddress());
      expect(await s.vault.hook()).to.equal(predicted.address);
      expect(await s.hook.vault()).to.equal(await s.vault.getAddress());
      expect(await s.hook.HOOK_FLAGS()).to.equal(SONG_POOL_HOOK_FLAGS);
      // The hook's fee claims are held in each song token's name: the hook names no ERC-6909 operator.
      await expect(s.vault.deploymentTransaction()).to.not.emit(s.poolManager, 'OperatorSet');
    });

    it('a stranger who deploys first can neither block the vault nor take or bind its hook', async function () {
      const s = await networkHelpers.loadFixture(protocol);
      const [deployer] = await ethers.getSigners();
      if (deployer === undefined) throw new Error('no signer');
      const args = await songVaultArgs(s);
      // Everything about the next vault is public: its address (deployer + nonce), so its hook's.
      const nextVault = getContractAddress({
        from: deployer.address as Hex,
        nonce: BigInt(await ethers.provider.getTransactionCount(deployer.address)),
      });
      const predicted = await predictedHook(ethers, nextVault);
      const hookFactory = await ethers.getContractFactory('SongPoolHook');
      const initCode = songPoolHookInitCode(hookFactory.bytecode as Hex, BASE_POOL_MANAGER);

      // The stranger replays the salt through the public CREATE2 proxy and through its own deployer:
      // CREATE2 addresses include the deployer, so neither lands on the vault's hook address, and
      // at those addresses the flag bits are wrong, so the hook's own constructor refuses them.
      await expect(s.stranger.sendTransaction({ to: CREATE2_DEPLOYER, data: create2DeployData(predicted.salt, initCode) })).to.be.revert(
        ethers,
      );
      const probe = await ethers.deployContract('HookDeployerProbe', [BASE_POOL_MANAGER], s.stranger);
      await expect(probe.deploy(predicted.salt)).to.be.revertedWithCustomError(v4Errors, 'HookAddressNotValid');
      // It can deploy genuine SongPoolHooks (mined for its own addresses), and a whole vault of its
      // own with the same arguments: each is bound to its own deployer.
      const proxyMined = mineHookSalt({ initCode, deployer: CREATE2_DEPLOYER });
      if (!proxyMined.ok) throw new Error(proxyMined.message);
      await (await s.stranger.sendTransaction({ to: CREATE2_DEPLOYER, data: create2DeployData(proxyMined.value.salt, initCode) })).wait();
      const proxyHook = await ethers.getContractAt('SongPoolHook', proxyMined.value.address);
      expect(await proxyHook.vault()).to.equal(CREATE2_DEPLOYER);
      const strangerVault = await (await ethers.getContractFactory('SongVault', s.stranger)).deploy(...args);
      expect(await strangerVault.hook()).to.not.equal(predicted.address);
      expect(await ethers.provider.getCode(predicted.address)).to.equal('0x');

      // The protocol deploys anyway, its hook where predicted and bound to it alone.
      const vault = await (await ethers.getContractFactory('SongVault', deployer)).deploy(...args);
      expect(await vault.getAddress()).to.equal(nextVault);
      expect(await vault.hook()).to.equal(predicted.address);
      const hook = await ethers.getContractAt('SongPoolHook', predicted.address);
      expect(await hook.vault()).to.equal(nextVault);
      expect(hook.interface.fragments.some((f) => f.type === 'function' && 'name' in f && f.name === 'bindVault')).to.equal(false);
      // Nobody else initializes pools with it (the stranger's vault neither), and songs launch through it.
      const songId = await mintSong(s.nft, s.creator, 'after-squat');
      await (await s.nft.connect(s.creator).approve(nextVault, songId)).wait();
      const key = { ...(await poolKeyOf(vault, songId)), currency1: await s.tokenImplementation.getAddress() };
      await expect(s.poolManager.connect(s.stranger).getFunction('initialize')(key, 2n ** 96n)).to.be.revertedWithCustomError(
        v4Errors,
        'WrappedError',
      );
      await expect(vault.connect(s.creator).launch(songId, { allocationBps: 0, allocationRecipient: s.creator.address })).to.emit(
        hook,
        'PoolLaunched',
      );
    });
  });
});
