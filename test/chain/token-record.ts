import { expect } from 'chai';
import fc from 'fast-check';
import { network } from 'hardhat';
import { bytesToHex, encodeAbiParameters, getAddress, hexToBigInt, keccak256, parseAbiParameters, type Hex } from 'viem';
import { cidUri, RAW_CODEC, randomHash, testPlatformSigner, TEST_ROYALTY_BPS } from './helpers/song-nft.ts';

/**
 * SongNFT's packed token record (contracts/types/TokenRecord.sol), the way v4-core keeps Slot0:
 * a user-defined value type whose library is the one place the bit layout is written. The layout
 * is checked field by field over random records, and against the word SongNFT really stores.
 */

const { ethers, networkHelpers } = await network.create('base');
const OWNER_MASK = (1n << 160n) - 1n;
const CREATOR_MOVED = 1n << 160n;
const RUNS = 150;

const address = fc.uint8Array({ minLength: 20, maxLength: 20 }).map((bytes) => getAddress(bytesToHex(bytes)));
const creatorAddress = address.filter((a) => BigInt(a) !== 0n);
const hash = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((bytes) => bytesToHex(bytes));
const uriKind = fc.integer({ min: 0, max: 3 }).map(BigInt);

/** The documented layout, written out independently of the library. */
function layout(owner: string, kind: bigint, audioHash: Hex, moved = false): bigint {
  return ((hexToBigInt(audioHash) >> 163n) << 163n) | (kind << 161n) | (moved ? CREATOR_MOVED : 0n) | BigInt(owner);
}

async function harness() {
  return ethers.deployContract('TokenRecordHarness');
}

describe('TokenRecord (SongNFT token record type)', function () {
  it('packs a minted record as the documented layout and reads every field back', async function () {
    const records = await networkHelpers.loadFixture(harness);
    await fc.assert(
      fc.asyncProperty(creatorAddress, uriKind, hash, async (creator, kind, audioHash) => {
        const word = await records.minted(creator, kind, audioHash);
        expect(word).to.equal(layout(creator, kind, audioHash));
        const [owner, exists, moved, readKind, key] = await records.read(word);
        expect(owner).to.equal(creator);
        expect(exists).to.equal(true);
        expect(moved).to.equal(false);
        expect(readKind).to.equal(kind);
        expect(key).to.equal(hexToBigInt(audioHash) >> 163n);
        expect(key).to.equal(await records.audioKeyOf(audioHash));
        expect(key).to.be.lessThan(1n << 93n);
      }),
      { numRuns: RUNS },
    );
  });

  it('refuses a URI kind outside its 2 bits and a zero creator instead of corrupting the word', async function () {
    const records = await networkHelpers.loadFixture(harness);
    const creator = getAddress('0x00000000000000000000000000000000000000c4');
    const audioHash = keccak256('0x01');
    // Unchecked, kind 4 would have read back as kind 0 with the audio key's lowest bit flipped.
    for (const kind of [4n, 5n, 1n << 93n, (1n << 256n) - 1n]) {
      await expect(records.minted(creator, kind, audioHash))
        .to.be.revertedWithCustomError(records, 'TokenRecordUriKindOutOfRange')
        .withArgs(kind);
    }
    await expect(records.minted(ethers.ZeroAddress, 0n, audioHash)).to.be.revertedWithCustomError(records, 'TokenRecordZeroCreator');
    // Bits above the address in the creator's word never reach the flag, kind or key fields.
    await fc.assert(
      fc.asyncProperty(creatorAddress, uriKind, hash, fc.bigInt({ min: 1n, max: (1n << 96n) - 1n }), async (owner, kind, hashed, dirt) => {
        const word = await records.mintedFromWord((dirt << 160n) | BigInt(owner), kind, hashed);
        expect(word).to.equal(layout(owner, kind, hashed));
      }),
      { numRuns: 40 },
    );
  });

  it('a transfer changes only the owner and sets the creator-moved flag, whatever the record held', async function () {
    const records = await networkHelpers.loadFixture(harness);
    const anyWord = fc.bigInt({ min: 0n, max: 2n ** 256n - 1n });
    await fc.assert(
      fc.asyncProperty(anyWord, address, async (word, to) => {
        const after = await records.transferredTo(word, to);
        expect(after & ~OWNER_MASK & ~CREATOR_MOVED).to.equal(word & ~OWNER_MASK & ~CREATOR_MOVED);
        const [owner, , moved] = await records.read(after);
        expect(owner).to.equal(to);
        expect(moved).to.equal(true);
      }),
      { numRuns: RUNS },
    );
  });

  it('a record with a zero owner is no token, whatever its other bits', async function () {
    const records = await networkHelpers.loadFixture(harness);
    for (const high of [0n, CREATOR_MOVED, 3n << 161n, (2n ** 256n - 1n) & ~OWNER_MASK]) {
      const [, exists] = await records.read(high);
      expect(exists).to.equal(false);
    }
    const [, exists] = await records.read(1n);
    expect(exists).to.equal(true);
  });

  it('is the word SongNFT stores at mint and after a transfer', async function () {
    const [owner, alice, bob] = await ethers.getSigners();
    if (!owner || !alice || !bob) throw new Error('need 3 signers');
    const nft = await ethers.deployContract('SongNFT', [owner.address, testPlatformSigner.address, TEST_ROYALTY_BPS]);
    const records = await harness();
    const audioHash = randomHash();
    const metadataUri = cidUri(randomHash(), RAW_CODEC);
    const signature = await testPlatformSigner.sign({ minter: alice.address as Hex, metadataUri, audioHash });
    await (await nft.connect(alice).mint(metadataUri, audioHash, signature)).wait();
    // `_tokenRecords` is storage slot 3 (docs/minting.md).
    const slot = keccak256(encodeAbiParameters(parseAbiParameters('uint256, uint256'), [1n, 3n]));
    const stored = async () => hexToBigInt((await ethers.provider.getStorage(nft, slot)) as Hex);
    expect(await stored()).to.equal(await records.minted(alice.address, 1n, audioHash));
    await (await nft.connect(alice).transferFrom(alice.address, bob.address, 1n)).wait();
    expect(await stored()).to.equal(await records.transferredTo(await records.minted(alice.address, 1n, audioHash), bob.address));
    expect(await nft.creatorOf(1n)).to.equal(alice.address);
  });
});
