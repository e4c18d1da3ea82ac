import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { network } from 'hardhat';
import { getAddress } from 'viem';
import SongmintProtocol from '../../ignition/modules/SongmintProtocol.ts';
import { BASE_POOL_MANAGER, SONG_POOL_HOOK_FLAGS } from '../../ignition/songmint-hook.ts';
import { createMintSigner } from '../../oracle/src/chain/mint-signer.ts';
import { poolKeyOf, swap } from './fixtures/songmint.ts';
import { deployUniswapV4 } from '../../scripts/uniswap-v4.ts';
import { cidUri, randomHash } from './helpers/song-nft.ts';

/** Hardhat's well-known dev account #1, the platform signer of ignition/parameters/local.json. */
const LOCAL_PLATFORM_KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
const parametersPath = (name: string) => new URL(`../../ignition/parameters/${name}.json`, import.meta.url).pathname;

interface ProtocolParameters {
  platform: string;
  lpFee: number;
  tickSpacing: number;
  startTick: number;
  tickLower: number;
  platformShareBps: number;
}

function protocolParameters(name: string): ProtocolParameters {
  const parsed: unknown = JSON.parse(readFileSync(parametersPath(name), 'utf8'));
  if (typeof parsed !== 'object' || parsed === null || !('SongmintProtocol' in parsed)) {
    throw new Error(`${name}.json has no SongmintProtocol parameters`);
  }
  return parsed.SongmintProtocol as ProtocolParameters;
}

describe('SongmintProtocol Ignition module', function () {
  it('deploys the protocol on chain 8453 with local.json, then a song launches and trades through the hook', async function () {
    const { ethers, ignition } = await network.create('base');
    const v4 = await deployUniswapV4(ethers);
    const { songNFT, vault, hook, tokenImplementation } = await ignition.deploy(SongmintProtocol, {
      parameters: parametersPath('local'),
      displayUi: false,
    });
    const expected = protocolParameters('local');
    const songVault = await ethers.getContractAt('SongVault', await vault.getAddress());
    const songPoolHook = await ethers.getContractAt('SongPoolHook', await hook.getAddress());
    const nft = await ethers.getContractAt('SongNFT', await songNFT.getAddress());

    expect(BigInt(await hook.getAddress()) & 0x3fffn).to.equal(SONG_POOL_HOOK_FLAGS);
    expect(await songPoolHook.vault()).to.equal(await vault.getAddress());
    expect(await songPoolHook.poolManager()).to.equal(BASE_POOL_MANAGER);
    expect(await songVault.owner()).to.equal(expected.platform);
    expect(await songVault.songNFT()).to.equal(await songNFT.getAddress());
    expect(await songVault.tokenImplementation()).to.equal(await tokenImplementation.getAddress());
    expect(await songVault.lpFee()).to.equal(BigInt(expected.lpFee));
    expect(await songVault.tickUpper()).to.equal(BigInt(expected.startTick));
    expect(await songVault.tickLower()).to.equal(BigInt(expected.tickLower));
    expect(await songVault.platformShareBps()).to.equal(BigInt(expected.platformShareBps));

    const [, , creator, trader] = await ethers.getSigners();
    if (!creator || !trader) throw new Error('no signers');
    const uri = cidUri();
    const audioHash = randomHash();
    const signature = await createMintSigner(LOCAL_PLATFORM_KEY).sign({
      minter: getAddress(creator.address),
      metadataUri: uri,
      audioHash,
    });
    await (await nft.connect(creator).mint(uri, audioHash, signature)).wait();
    await (await nft.connect(creator).approve(await vault.getAddress(), 1n)).wait();
    await expect(songVault.connect(creator).launch(1n, { allocationBps: 500, allocationRecipient: creator.address })).to.emit(
      songVault,
      'SongLaunched',
    );

    const token = await ethers.getContractAt('SongToken', await songVault.tokenOf(1n));
    const key = await poolKeyOf(songVault, 1n);
    // The hook's fee: ETH claims the PoolManager mints (and logs) to the song's token.
    await expect(swap(v4.swapRouter, trader, key, 'buyExactIn', 10n ** 17n, 10n ** 17n)).to.emit(v4.poolManager, 'Transfer');
    expect(await v4.poolManager.getFunction('balanceOf')(await token.getAddress(), 0n)).to.equal(await songVault.accruedSwapFees(1n));
    expect(await songVault.accruedSwapFees(1n)).to.be.greaterThan(0n);
    expect(await token.balanceOf(trader.address)).to.be.greaterThan(0n);
    await (await songVault.collectFees(1n)).wait();
    const [creatorFees, platformFees] = await songVault.feesOf(1n);
    expect(creatorFees.eth).to.be.greaterThan(0n);
    expect(platformFees.eth).to.be.greaterThan(0n);
  });

  it('refuses to deploy the vault with the placeholder platform of ignition/parameters/base.json', async function () {
    const { ethers, ignition } = await network.create('base');
    await deployUniswapV4(ethers);
    const placeholders = protocolParameters('base');
    expect(placeholders.platform).to.equal('0x0000000000000000000000000000000000000000');
    const local: unknown = JSON.parse(readFileSync(parametersPath('local'), 'utf8'));
    if (typeof local !== 'object' || local === null || !('SongNFT' in local)) throw new Error('local.json has no SongNFT');
    const parameters = { SongNFT: local.SongNFT as Record<string, string>, SongmintProtocol: { ...placeholders } };
    const outcome = await ignition.deploy(SongmintProtocol, { parameters, displayUi: false }).then(
      () => 'deployed',
      (error: unknown) => String(error),
    );
    expect(outcome).to.match(/OwnableInvalidOwner\("0x0{40}"\)/);
  });
});
