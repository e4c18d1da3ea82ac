/**
 * SmartAccountProbe (contracts/test): the minimal ERC-1271 smart wallet the sign-in and mint
 * tests use as a Coinbase-Smart-Wallet-style account. Its factory predicts the address, its
 * signatures are the owner's over a replay-safe EIP-712 wrapping, and through it the account
 * itself mints a song with the platform signature bound to the account's address.
 */
import { expect } from 'chai';
import { network } from 'hardhat';
import { getAddress, hashMessage, keccak256, toHex, type Hex } from 'viem';
import { cidUri, randomHash, testPlatformSigner, TEST_ROYALTY_BPS } from './helpers/song-nft.ts';

const { ethers } = await network.create('base');

const ERC1271_MAGIC = '0x1626ba7e';
const ERC1271_REJECT = '0xffffffff';
const SALT = keccak256(toHex('songmint smart account'));

async function deployFixture() {
  const [admin, owner, stranger] = await ethers.getSigners();
  if (!admin || !owner || !stranger) throw new Error('the base network needs 3 dev accounts');
  const factory = await ethers.deployContract('SmartAccountProbeFactory');
  const predicted = await factory.accountAddress(owner.address, SALT);
  await (await factory.createAccount(owner.address, SALT)).wait();
  const account = await ethers.getContractAt('SmartAccountProbe', predicted);
  return { admin, owner, stranger, factory, account, predicted };
}

/** What the account's owner signs to approve `hash` for `account` (its replay-safe EIP-712 wrapping). */
async function ownerSignature(signer: Awaited<ReturnType<typeof ethers.getSigners>>[number], account: string, hash: Hex): Promise<Hex> {
  const chainId = (await ethers.provider.getNetwork()).chainId;
  return (await signer.signTypedData(
    { name: 'SmartAccountProbe', version: '1', chainId, verifyingContract: account },
    { AccountMessage: [{ name: 'hash', type: 'bytes32' }] },
    { hash },
  )) as Hex;
}

describe('SmartAccountProbe (test-only smart wallet)', () => {
  it('is deployed by its factory at the predicted CREATE2 address, once', async () => {
    const { factory, account, owner, predicted } = await deployFixture();
    expect(await ethers.provider.getCode(predicted)).to.not.equal('0x');
    expect(await account.owner()).to.equal(owner.address);
    const again = await factory.createAccount(owner.address, SALT);
    await expect(again).to.not.emit(factory, 'AccountCreated');
    expect(await factory.accountAddress(owner.address, SALT)).to.equal(predicted);
  });

  it("accepts the owner's replay-safe signature (ERC-1271) and refuses a stranger's, a raw one and one made for another account", async () => {
    const { factory, account, owner, stranger, predicted } = await deployFixture();
    const hash = hashMessage('Sign in to Songmint');
    expect(await account.isValidSignature(hash, await ownerSignature(owner, predicted, hash))).to.equal(ERC1271_MAGIC);
    expect(await account.isValidSignature(hash, await ownerSignature(stranger, predicted, hash))).to.equal(ERC1271_REJECT);
    expect(await account.isValidSignature(hash, (await owner.signMessage('Sign in to Songmint')) as Hex)).to.equal(ERC1271_REJECT);
    const otherSalt = keccak256(toHex('another account'));
    const other = await factory.accountAddress(owner.address, otherSalt);
    expect(await account.isValidSignature(hash, await ownerSignature(owner, other, hash))).to.equal(ERC1271_REJECT);
    expect(await account.isValidSignature(hash, '0x1234')).to.equal(ERC1271_REJECT);
  });

  it('mints a song as msg.sender with the platform signature bound to its own address; a stranger cannot act through it', async () => {
    const { admin, account, owner, stranger, predicted } = await deployFixture();
    const nft = await ethers.deployContract('SongNFT', [admin.address, testPlatformSigner.address, TEST_ROYALTY_BPS]);
    const metadataUri = cidUri();
    const audioHash = randomHash();
    const signature = await testPlatformSigner.sign({ minter: getAddress(predicted), metadataUri, audioHash });
    const mintCall = nft.interface.encodeFunctionData('mint', [metadataUri, audioHash, signature]);

    await expect(account.connect(stranger).execute(await nft.getAddress(), 0n, mintCall))
      .to.be.revertedWithCustomError(account, 'NotOwner')
      .withArgs(stranger.address);
    // A signature for the owner's EOA does not mint through the account: the minter is the account.
    const forOwner = await testPlatformSigner.sign({ minter: getAddress(owner.address), metadataUri, audioHash });
    await expect(
      account
        .connect(owner)
        .execute(await nft.getAddress(), 0n, nft.interface.encodeFunctionData('mint', [metadataUri, audioHash, forOwner])),
    ).to.be.revertedWith('Invalid signature');

    await expect(account.connect(owner).execute(await nft.getAddress(), 0n, mintCall))
      .to.emit(nft, 'SongMinted')
      .withArgs(1n, predicted, audioHash, metadataUri);
    expect(await nft.ownerOf(1n)).to.equal(predicted);
  });
});
