import { expect } from 'chai';
import { Wallet } from 'ethers';
import { network } from 'hardhat';
import { readFileSync } from 'node:fs';
import { getAddress } from 'viem';
import SongNFTModule from '../../ignition/modules/SongNFT.ts';
import { createMintSigner } from '../../oracle/src/chain/mint-signer.ts';
import { cidUri, randomHash } from './helpers/song-nft.ts';

/** Hardhat's well-known dev account #1, the platform signer of ignition/parameters/local.json. */
const LOCAL_PLATFORM_KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';

const parametersPath = (name: string) => new URL(`../../ignition/parameters/${name}.json`, import.meta.url).pathname;

function songNftParameters(name: string): { owner: string; platformSigner: string; royaltyBps: number } {
  const parsed: unknown = JSON.parse(readFileSync(parametersPath(name), 'utf8'));
  if (typeof parsed !== 'object' || parsed === null || !('SongNFT' in parsed)) {
    throw new Error(`${name}.json has no SongNFT parameters`);
  }
  return parsed.SongNFT as { owner: string; platformSigner: string; royaltyBps: number };
}

describe('SongNFT Ignition module', function () {
  it('deploys on chain 8453 with ignition/parameters/local.json and mints with the local platform key', async function () {
    const { ethers, ignition } = await network.create('base');
    expect((await ethers.provider.getNetwork()).chainId).to.equal(8453n);
    const expected = songNftParameters('local');
    const { songNFT } = await ignition.deploy(SongNFTModule, {
      parameters: parametersPath('local'),
      displayUi: false,
    });
    const nft = await ethers.getContractAt('SongNFT', await songNFT.getAddress());
    expect(await nft.owner()).to.equal(expected.owner);
    expect(await nft.platformSigner()).to.equal(expected.platformSigner);
    expect(await nft.royaltyBps()).to.equal(BigInt(expected.royaltyBps));

    const platform = createMintSigner(LOCAL_PLATFORM_KEY);
    expect(platform.address).to.equal(expected.platformSigner);
    const [, , creator] = await ethers.getSigners();
    if (!creator) throw new Error('no signer');
    const uri = cidUri();
    const audioHash = randomHash();
    const signature = await platform.sign({ minter: getAddress(creator.address), metadataUri: uri, audioHash });
    await expect(nft.connect(creator).mint(uri, audioHash, signature))
      .to.emit(nft, 'SongMinted')
      .withArgs(1n, creator.address, audioHash, uri);
  });

  it('deploys with a contract owner (a multisig stands in) that administers through its own transactions', async function () {
    const { ethers, ignition } = await network.create('base');
    const [, , , keyholder, outsider] = await ethers.getSigners();
    if (!keyholder || !outsider) throw new Error('no signers');
    // The account's single key stands in for a Safe's threshold: only the account itself is owner.
    const multisig = await ethers.deployContract('SmartAccountProbe', [keyholder.address]);
    const parameters = { SongNFT: { ...songNftParameters('local'), owner: await multisig.getAddress() } };
    const { songNFT } = await ignition.deploy(SongNFTModule, { parameters, displayUi: false });
    const nft = await ethers.getContractAt('SongNFT', await songNFT.getAddress());
    expect(await nft.owner()).to.equal(await multisig.getAddress());
    const nextSigner = Wallet.createRandom().address;
    await expect(nft.connect(keyholder).setPlatformSigner(nextSigner))
      .to.be.revertedWithCustomError(nft, 'OwnableUnauthorizedAccount')
      .withArgs(keyholder.address);
    const call = nft.interface.encodeFunctionData('setPlatformSigner', [nextSigner]);
    await expect(multisig.connect(keyholder).execute(await nft.getAddress(), 0n, call)).to.emit(nft, 'PlatformSignerUpdated');
    expect(await nft.platformSigner()).to.equal(nextSigner);
    // Two-step handover works the same for it: the next owner accepts, and the account is out.
    const handover = nft.interface.encodeFunctionData('transferOwnership', [outsider.address]);
    await (await multisig.connect(keyholder).execute(await nft.getAddress(), 0n, handover)).wait();
    await (await nft.connect(outsider).acceptOwnership()).wait();
    expect(await nft.owner()).to.equal(outsider.address);
  });

  it('refuses to deploy the placeholder ignition/parameters/base.json', async function () {
    const { ignition } = await network.create('base');
    const placeholders = songNftParameters('base');
    expect(placeholders.owner).to.equal('0x0000000000000000000000000000000000000000');
    const outcome = await ignition.deploy(SongNFTModule, { parameters: parametersPath('base'), displayUi: false }).then(
      () => 'deployed',
      (error: unknown) => String(error),
    );
    expect(outcome).to.match(/OwnableInvalidOwner\("0x0{40}"\)/);
  });
});
