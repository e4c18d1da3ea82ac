import { expect } from 'chai';
import { network } from 'hardhat';
import { CID } from 'multiformats/cid';
import {
  bytesToHex,
  concatHex,
  encodeAbiParameters,
  getAddress,
  hexToBigInt,
  keccak256,
  numberToHex,
  parseAbiParameters,
  sliceHex,
  toHex,
  type Address,
  type Hex,
} from 'viem';
import { createMintSigner } from '../../oracle/src/chain/mint-signer.ts';
import {
  DAG_PB_CODEC,
  RAW_CODEC,
  TEST_ROYALTY_BPS,
  cidUri,
  creationCode,
  randomHash,
  receiverRuntimes,
  testPlatformSigner,
} from './helpers/song-nft.ts';

const { ethers, networkHelpers } = await network.create('base');

const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';
/** SongNFT identifies audio by the high 93 bits of its hash. */
const AUDIO_KEY_SHIFT = 256n - 93n;

function audioKey(audioHash: Hex): bigint {
  return hexToBigInt(audioHash) >> AUDIO_KEY_SHIFT;
}

const uint256Pair = parseAbiParameters('uint256, uint256');

function flipBit(hash: Hex, bit: bigint): Hex {
  return numberToHex(hexToBigInt(hash) ^ (1n << bit), { size: 32 });
}

async function deployFixture() {
  const [owner, alice, bob, carol] = await ethers.getSigners();
  if (!owner || !alice || !bob || !carol) throw new Error('the base network needs 4 dev accounts');
  const nft = await ethers.deployContract('SongNFT', [owner.address, testPlatformSigner.address, TEST_ROYALTY_BPS]);
  await nft.waitForDeployment();
  return { nft, owner, alice, bob, carol };
}

/** Signs a mint for `minter` with the platform key, as the oracle does. */
async function platformSignature(minter: string, metadataUri: string, audioHash: Hex): Promise<Hex> {
  return testPlatformSigner.sign({ minter: getAddress(minter), metadataUri, audioHash });
}

async function mintAs(
  nft: Awaited<ReturnType<typeof deployFixture>>['nft'],
  minter: Awaited<ReturnType<typeof ethers.getSigners>>[number],
  metadataUri: string = cidUri(),
  audioHash: Hex = randomHash(),
) {
  const signature = await platformSignature(minter.address, metadataUri, audioHash);
  const tx = await nft.connect(minter).mint(metadataUri, audioHash, signature);
  const receipt = await tx.wait();
  const tokenId = await nft.totalSupply();
  return { tx, receipt, tokenId, metadataUri, audioHash, signature };
}

function splitSignature(signature: Hex): { r: Hex; s: bigint; v: number } {
  return {
    r: sliceHex(signature, 0, 32),
    s: hexToBigInt(sliceHex(signature, 32, 64)),
    v: Number(hexToBigInt(sliceHex(signature, 64, 65))),
  };
}

function joinSignature(r: Hex, s: bigint, v: number): Hex {
  return concatHex([r, numberToHex(s, { size: 32 }), numberToHex(v, { size: 1 })]);
}

describe('SongNFT on the base network', function () {
  it('runs on chain id 8453', async function () {
    const { chainId } = await ethers.provider.getNetwork();
    expect(chainId).to.equal(8453n);
  });

  describe('deployment', function () {
    it('sets owner, signer, royalty, name and symbol and logs the admin settings', async function () {
      const { nft, owner } = await networkHelpers.loadFixture(deployFixture);
      expect(await nft.owner()).to.equal(owner.address);
      expect(await nft.platformSigner()).to.equal(testPlatformSigner.address);
      expect(await nft.royaltyBps()).to.equal(TEST_ROYALTY_BPS);
      expect(await nft.name()).to.equal('Songmint');
      expect(await nft.symbol()).to.equal('SONG');
      expect(await nft.totalSupply()).to.equal(0n);
      const deployTx = nft.deploymentTransaction();
      if (!deployTx) throw new Error('no deployment transaction');
      await expect(deployTx).to.emit(nft, 'PlatformSignerUpdated').withArgs(ZERO_ADDRESS, testPlatformSigner.address);
      await expect(deployTx).to.emit(nft, 'RoyaltyBpsUpdated').withArgs(0, TEST_ROYALTY_BPS);
    });

    it('rejects a zero signer and a royalty above 10%', async function () {
      const [owner] = await ethers.getSigners();
      if (!owner) throw new Error('no signer');
      const factory = await ethers.getContractFactory('SongNFT');
      await expect(factory.deploy(owner.address, ZERO_ADDRESS, 0)).to.be.revertedWithCustomError(factory, 'ZeroPlatformSigner');
      await expect(factory.deploy(owner.address, testPlatformSigner.address, 1001))
        .to.be.revertedWithCustomError(factory, 'RoyaltyRateTooHigh')
        .withArgs(1001, 1000);
      await expect(factory.deploy(ZERO_ADDRESS, testPlatformSigner.address, 0)).to.be.revertedWithCustomError(
        factory,
        'OwnableInvalidOwner',
      );
    });

    it('declares ERC-165, ERC-721, ERC-721 metadata, ERC-2981 and ERC-4906 only', async function () {
      const { nft } = await networkHelpers.loadFixture(deployFixture);
      for (const id of ['0x01ffc9a7', '0x80ac58cd', '0x5b5e139f', '0x2a55205a', '0x49064906']) {
        expect(await nft.supportsInterface(id), id).to.equal(true);
      }
      for (const id of ['0xffffffff', '0x780e9d63', '0x00000000', '0xe8a3d485']) {
        expect(await nft.supportsInterface(id), id).to.equal(false);
      }
    });
  });

  describe('mint', function () {
    it('mints sequential ids from 1 to the caller with the exact URI, audio hash and events', async function () {
      const { nft, alice, bob } = await networkHelpers.loadFixture(deployFixture);
      const first = await mintAs(nft, alice);
      expect(first.tokenId).to.equal(1n);
      await expect(first.tx).to.emit(nft, 'Transfer').withArgs(ZERO_ADDRESS, alice.address, 1n);
      await expect(first.tx).to.emit(nft, 'SongMinted').withArgs(1n, alice.address, first.audioHash, first.metadataUri);

      const second = await mintAs(nft, bob, cidUri(randomHash(), DAG_PB_CODEC));
      expect(second.tokenId).to.equal(2n);
      const third = await mintAs(nft, alice);
      expect(third.tokenId).to.equal(3n);

      expect(await nft.ownerOf(1n)).to.equal(alice.address);
      expect(await nft.ownerOf(2n)).to.equal(bob.address);
      expect(await nft.balanceOf(alice.address)).to.equal(2n);
      expect(await nft.balanceOf(bob.address)).to.equal(1n);
      expect(await nft.totalSupply()).to.equal(3n);
      expect(await nft.tokenURI(1n)).to.equal(first.metadataUri);
      expect(await nft.tokenURI(2n)).to.equal(second.metadataUri);
      expect(await nft.audioKeyOf(2n)).to.equal(audioKey(second.audioHash));
      expect(await nft.matchesAudioHash(2n, second.audioHash)).to.equal(true);
      expect(await nft.creatorOf(3n)).to.equal(alice.address);
      expect(await nft.isAudioHashUsed(first.audioHash)).to.equal(true);
      expect(await nft.isAudioHashUsed(randomHash())).to.equal(false);
    });

    it('returns the new token id', async function () {
      const { nft, alice } = await networkHelpers.loadFixture(deployFixture);
      await mintAs(nft, alice);
      const uri = cidUri();
      const audioHash = randomHash();
      const signature = await platformSignature(alice.address, uri, audioHash);
      expect(await nft.connect(alice).mint.staticCall(uri, audioHash, signature)).to.equal(2n);
    });

    it('returns every URI exactly as minted, packed CIDs and arbitrary strings alike', async function () {
      const { nft, alice } = await networkHelpers.loadFixture(deployFixture);
      const zeroDigest = `0x${'00'.repeat(32)}` as const;
      const onesDigest = `0x${'ff'.repeat(32)}` as const;
      const canonical = cidUri(randomHash(), RAW_CODEC);
      const uris = [
        cidUri(onesDigest, RAW_CODEC),
        cidUri(onesDigest, DAG_PB_CODEC),
        cidUri(`0x${'00'.repeat(31)}01`, RAW_CODEC),
        cidUri(zeroDigest, RAW_CODEC), // decodes to a zero digest: stored verbatim
        '',
        'ipfs://',
        'https://example.com/songs/1.json',
        'ar://8Rk2eJH4hM3a-Bq1mC2Q9e4bQ7wz5xj2sd8Jt3hTq0k',
        'ipfs://QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG',
        'ipfs://bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy/extra',
        'ipfs://bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi/metadata.json',
        `${canonical.slice(0, 14)}${canonical.slice(14).toUpperCase()}`, // upper-case base32
        `${canonical.slice(0, 65)}b`, // non-zero padding bits
        `${canonical.slice(0, 14)}z${canonical.slice(15)}`, // non-zero leading prefix bits
        `${canonical.slice(0, 30)}1${canonical.slice(31)}`, // '1' is not base32
        `${canonical.slice(0, 50)}8${canonical.slice(51)}`, // nor is '8'
        `${canonical.slice(0, 60)}=${canonical.slice(61)}`,
        `${canonical.slice(0, 40)}\u00e9${canonical.slice(42)}`, // 66 UTF-16 units, 67 bytes
        `${canonical.slice(0, 7)}bafkreh${canonical.slice(14)}`, // other prefix, same length
        `ipfs://bafkqei${canonical.slice(14)}`,
        'Lo-fi 🎵 über straße — 歌 ✓',
        'x'.repeat(2000),
      ];
      for (const [index, uri] of uris.entries()) {
        const { tokenId } = await mintAs(nft, alice, uri);
        expect(await nft.tokenURI(tokenId), `uri #${index}`).to.equal(uri);
      }
    });

    it('round-trips packed CID URIs of both kinds over many digests, also after transfers', async function () {
      const { nft, alice, bob } = await networkHelpers.loadFixture(deployFixture);
      const digests: Hex[] = [
        `0x${'00'.repeat(32)}`,
        `0x${'ff'.repeat(32)}`,
        `0x${'a5'.repeat(32)}`,
        `0x${'5a'.repeat(32)}`,
        `0x${'00'.repeat(31)}07`,
        `0xe0${'00'.repeat(31)}`,
        ...Array.from({ length: 24 }, () => randomHash()),
      ];
      const minted: { tokenId: bigint; metadataUri: string }[] = [];
      for (const [index, digest] of digests.entries()) {
        const codec = index % 2 === 0 ? RAW_CODEC : DAG_PB_CODEC;
        minted.push(await mintAs(nft, alice, cidUri(digest, codec)));
      }
      for (const { tokenId } of minted.filter((_, index) => index % 3 === 0)) {
        await nft.connect(alice).transferFrom(alice.address, bob.address, tokenId);
      }
      for (const { tokenId, metadataUri } of minted) {
        expect(await nft.tokenURI(tokenId)).to.equal(metadataUri);
      }
    });

    it('round-trips 150 randomly mutated CID URIs exactly, packed or verbatim', async function () {
      const { nft, alice } = await networkHelpers.loadFixture(deployFixture);
      const alphabet = 'abcdefghijklmnopqrstuvwxyz234567ABCXYZ01890189=/+-_. ~\x7f';
      const minted: { tokenId: bigint; metadataUri: string }[] = [];
      for (let round = 0; round < 150; round++) {
        const chars = [...cidUri(randomHash(), round % 2 === 0 ? RAW_CODEC : DAG_PB_CODEC)];
        for (let edits = 1 + (round % 3); edits > 0; edits--) {
          const at = 7 + Math.floor(Math.random() * (chars.length - 7));
          chars[at] = alphabet[Math.floor(Math.random() * alphabet.length)] ?? 'a';
        }
        minted.push(await mintAs(nft, alice, chars.join('')));
      }
      for (const { tokenId, metadataUri } of minted) {
        expect(await nft.tokenURI(tokenId)).to.equal(metadataUri);
      }
    });

    it('stores a canonical CID URI packed: far cheaper than a 66-byte URI stored verbatim', async function () {
      const { nft, alice } = await networkHelpers.loadFixture(deployFixture);
      await mintAs(nft, alice);
      const gasFor = async (uri: string) => (await mintAs(nft, alice, uri)).receipt?.gasUsed ?? 0n;
      const canonical = cidUri(randomHash(), RAW_CODEC);
      const verbatimSameLength = `${canonical.slice(0, 14)}${canonical.slice(14).toUpperCase()}`;
      const packedRaw = await gasFor(canonical);
      const packedDagPb = await gasFor(cidUri(randomHash(), DAG_PB_CODEC));
      const verbatim = await gasFor(verbatimSameLength);
      // A verbatim 66-byte string takes four more fresh storage slots (22,100 gas each).
      expect(verbatim - packedRaw > 80_000n, `packed ${packedRaw}, verbatim ${verbatim}`).to.equal(true);
      expect(verbatim - packedDagPb > 80_000n, `packed ${packedDagPb}, verbatim ${verbatim}`).to.equal(true);
    });

    it('rejects a signature for another minter, URI or audio hash, or by another key', async function () {
      const { nft, alice, bob } = await networkHelpers.loadFixture(deployFixture);
      const uri = cidUri();
      const audioHash = randomHash();
      const forAlice = await platformSignature(alice.address, uri, audioHash);
      await expect(nft.connect(bob).mint(uri, audioHash, forAlice)).to.be.revertedWith('Invalid signature');
      await expect(nft.connect(alice).mint(cidUri(), audioHash, forAlice)).to.be.revertedWith('Invalid signature');
      await expect(nft.connect(alice).mint(`${uri} `, audioHash, forAlice)).to.be.revertedWith('Invalid signature');
      await expect(nft.connect(alice).mint(uri, randomHash(), forAlice)).to.be.revertedWith('Invalid signature');
      const stranger = createMintSigner(randomHash());
      const byStranger = await stranger.sign({ minter: getAddress(alice.address), metadataUri: uri, audioHash });
      await expect(nft.connect(alice).mint(uri, audioHash, byStranger)).to.be.revertedWith('Invalid signature');
      expect(await nft.totalSupply()).to.equal(0n);
      await expect(nft.connect(alice).mint(uri, audioHash, forAlice)).to.emit(nft, 'SongMinted');
    });

    it('rejects replays and any second signature for the same audio with "Signature used"', async function () {
      const { nft, alice, bob } = await networkHelpers.loadFixture(deployFixture);
      const minted = await mintAs(nft, alice);
      await expect(nft.connect(alice).mint(minted.metadataUri, minted.audioHash, minted.signature)).to.be.revertedWith('Signature used');
      // A fresh signature for the same audio: other URI, other minter.
      const otherUri = cidUri();
      const resigned = await platformSignature(alice.address, otherUri, minted.audioHash);
      await expect(nft.connect(alice).mint(otherUri, minted.audioHash, resigned)).to.be.revertedWith('Signature used');
      const forBob = await platformSignature(bob.address, minted.metadataUri, minted.audioHash);
      await expect(nft.connect(bob).mint(minted.metadataUri, minted.audioHash, forBob)).to.be.revertedWith('Signature used');
      // The signature check comes first: a bad signature on a spent audio hash is "Invalid signature".
      await expect(nft.connect(bob).mint(minted.metadataUri, minted.audioHash, resigned)).to.be.revertedWith('Invalid signature');
      expect(await nft.totalSupply()).to.equal(1n);
    });

    it('rejects high-s, malformed and wrong-length signatures', async function () {
      const { nft, alice } = await networkHelpers.loadFixture(deployFixture);
      const uri = cidUri();
      const audioHash = randomHash();
      const good = await platformSignature(alice.address, uri, audioHash);
      const { r, s, v } = splitSignature(good);
      const bad: Record<string, Hex> = {
        // The malleated twin recovers the same signer through a bare ecrecover.
        highS: joinSignature(r, SECP256K1_N - s, v === 27 ? 28 : 27),
        compact64: concatHex([r, numberToHex(s | (BigInt(v - 27) << 255n), { size: 32 })]),
        empty: '0x',
        extraByte: concatHex([good, '0x00']),
        short: sliceHex(good, 0, 64),
        vZero: joinSignature(r, s, v - 27),
        vOne: joinSignature(r, s, v - 26),
        v29: joinSignature(r, s, 29),
        zeroR: joinSignature(`0x${'00'.repeat(32)}`, s, v),
        zeroS: joinSignature(r, 0n, v),
        allZero: `0x${'00'.repeat(65)}`,
        rAboveN: joinSignature(numberToHex(SECP256K1_N + 1n, { size: 32 }), s, v),
      };
      for (const [label, signature] of Object.entries(bad)) {
        await expect(nft.connect(alice).mint(uri, audioHash, signature), label).to.be.revertedWith('Invalid signature');
      }
      await expect(nft.connect(alice).mint(uri, audioHash, good)).to.emit(nft, 'SongMinted');
    });
  });

  describe('audio keys (the high 93 bits of the audio hash)', function () {
    it("exposes each token's audio key and matches hashes by it, also after transfers", async function () {
      const { nft, alice, bob } = await networkHelpers.loadFixture(deployFixture);
      const hashes: Hex[] = [`0x${'00'.repeat(32)}`, `0x${'ff'.repeat(32)}`, randomHash(), randomHash()];
      const minted: Awaited<ReturnType<typeof mintAs>>[] = [];
      for (const audioHash of hashes) minted.push(await mintAs(nft, alice, cidUri(), audioHash));
      expect(await nft.AUDIO_KEY_BITS()).to.equal(93n);
      for (const { tokenId, audioHash } of minted) {
        await nft.connect(alice).transferFrom(alice.address, bob.address, tokenId);
        expect(await nft.audioKeyOf(tokenId)).to.equal(audioKey(audioHash));
        expect(await nft.matchesAudioHash(tokenId, audioHash)).to.equal(true);
        // Bits below the key are not kept; the lowest and the highest key bit are.
        expect(await nft.matchesAudioHash(tokenId, flipBit(audioHash, 0n))).to.equal(true);
        expect(await nft.matchesAudioHash(tokenId, flipBit(audioHash, AUDIO_KEY_SHIFT - 1n))).to.equal(true);
        expect(await nft.matchesAudioHash(tokenId, flipBit(audioHash, AUDIO_KEY_SHIFT))).to.equal(false);
        expect(await nft.matchesAudioHash(tokenId, flipBit(audioHash, 255n))).to.equal(false);
      }
      expect(await nft.audioKeyOf(2n)).to.equal((1n << 93n) - 1n);
      expect(await nft.audioKeyOf(1n)).to.equal(0n);
    });

    it('isAudioHashUsed and "Signature used" go by the audio key; neighbouring keys stay free', async function () {
      const { nft, alice, bob } = await networkHelpers.loadFixture(deployFixture);
      const first = await mintAs(nft, alice);
      const sameKey = flipBit(flipBit(first.audioHash, 0n), AUDIO_KEY_SHIFT - 1n);
      const nextKey = flipBit(first.audioHash, AUDIO_KEY_SHIFT);
      expect(await nft.isAudioHashUsed(first.audioHash)).to.equal(true);
      expect(await nft.isAudioHashUsed(sameKey)).to.equal(true);
      expect(await nft.isAudioHashUsed(nextKey)).to.equal(false);
      // A platform signature over another hash with the same key cannot mint (the documented
      // trade-off: reaching one takes a 93-bit second preimage of SHA-256).
      const uri = cidUri();
      const sameKeySignature = await platformSignature(bob.address, uri, sameKey);
      await expect(nft.connect(bob).mint(uri, sameKey, sameKeySignature)).to.be.revertedWith('Signature used');
      // The signature is still checked against the full hash first.
      await expect(nft.connect(bob).mint(uri, first.audioHash, sameKeySignature)).to.be.revertedWith('Invalid signature');
      const neighbour = await mintAs(nft, bob, 'https://example.com/neighbour.json', nextKey);
      expect(await nft.isAudioHashUsed(nextKey)).to.equal(true);
      expect(await nft.tokenURI(neighbour.tokenId)).to.equal('https://example.com/neighbour.json');
      expect(await nft.tokenURI(first.tokenId)).to.equal(first.metadataUri);
      expect(await nft.totalSupply()).to.equal(2n);
    });

    it('round-trips raw, dag-pb and verbatim URIs on neighbouring keys through first and later transfers', async function () {
      const { nft, alice, bob, carol } = await networkHelpers.loadFixture(deployFixture);
      const base = randomHash();
      const uris = [
        cidUri(randomHash(), RAW_CODEC),
        cidUri(randomHash(), DAG_PB_CODEC),
        'https://songmint.example/metadata/gen_7f3c2a9e.json',
        cidUri(`0x${'00'.repeat(32)}`, DAG_PB_CODEC), // zero digest: verbatim
        '',
        cidUri(`0x${'ff'.repeat(32)}`, RAW_CODEC),
      ];
      // Keys that differ from each other in their lowest bit or their highest.
      const hashes = uris.map((_, index) =>
        index % 2 === 0 ? flipBit(base, AUDIO_KEY_SHIFT + BigInt(index)) : flipBit(base, 255n - BigInt(index)),
      );
      expect(new Set(hashes.map(audioKey)).size).to.equal(uris.length);
      const minted: Awaited<ReturnType<typeof mintAs>>[] = [];
      for (const [index, uri] of uris.entries()) minted.push(await mintAs(nft, alice, uri, hashes[index]));
      const check = async () => {
        for (const { tokenId, metadataUri, audioHash } of minted) {
          expect(await nft.tokenURI(tokenId), `token ${tokenId}`).to.equal(metadataUri);
          expect(await nft.audioKeyOf(tokenId)).to.equal(audioKey(audioHash));
          expect(await nft.creatorOf(tokenId)).to.equal(alice.address);
        }
      };
      await check();
      for (const { tokenId } of minted) await nft.connect(alice).transferFrom(alice.address, bob.address, tokenId);
      await check();
      for (const { tokenId } of minted) await nft.connect(bob).transferFrom(bob.address, carol.address, tokenId);
      await check();
      for (const { tokenId } of minted) expect(await nft.ownerOf(tokenId)).to.equal(carol.address);
      expect(await nft.balanceOf(carol.address)).to.equal(BigInt(uris.length));
      expect(await nft.balanceOf(alice.address)).to.equal(0n);
    });

    it('a packed mint writes four slots: signer+counter, token record, audio-key commitment, balance', async function () {
      const { nft, alice } = await networkHelpers.loadFixture(deployFixture);
      await mintAs(nft, alice);
      const packed = await mintAs(nft, alice, cidUri(randomHash(), RAW_CODEC));
      const verbatim = await mintAs(nft, alice, 'https://example.com/a-verbatim-uri.json');
      const storesOf = async (hash: string) => {
        const trace = (await ethers.provider.send('debug_traceTransaction', [hash, {}])) as {
          structLogs: { op: string }[];
        };
        return trace.structLogs.filter((step) => step.op === 'SSTORE').length;
      };
      expect(await storesOf(packed.tx.hash)).to.equal(4);
      // The documented layout: slot 3 maps ids to records, slot 4 audio keys to commitments (slots
      // 0-2: owner, pending owner, signer + counter + royalty).
      const record = hexToBigInt(
        (await ethers.provider.getStorage(nft, keccak256(encodeAbiParameters(uint256Pair, [packed.tokenId, 3n])))) as Hex,
      );
      const key = audioKey(packed.audioHash);
      expect(record).to.equal((key << 163n) | (1n << 161n) | hexToBigInt(alice.address as Hex));
      const commitment = await ethers.provider.getStorage(nft, keccak256(encodeAbiParameters(uint256Pair, [key, 4n])));
      const cid = CID.parse(packed.metadataUri.slice('ipfs://'.length));
      expect(commitment).to.equal(bytesToHex(cid.multihash.digest));
      // A verbatim URI adds its string: a length slot and two data slots for 39 bytes.
      expect(await storesOf(verbatim.tx.hash)).to.equal(7);
    });
  });

  describe('royalties (ERC-2981)', function () {
    it('pays the creator, also after the token changed hands', async function () {
      const { nft, alice, bob } = await networkHelpers.loadFixture(deployFixture);
      const { tokenId } = await mintAs(nft, alice);
      expect(await nft.royaltyInfo(tokenId, 10_000n)).to.deep.equal([alice.address, 500n]);
      expect(await nft.royaltyInfo(tokenId, 999n)).to.deep.equal([alice.address, 49n]);
      await nft.connect(alice).transferFrom(alice.address, bob.address, tokenId);
      expect(await nft.ownerOf(tokenId)).to.equal(bob.address);
      expect(await nft.creatorOf(tokenId)).to.equal(alice.address);
      expect(await nft.royaltyInfo(tokenId, 1_000_000n)).to.deep.equal([alice.address, 50_000n]);
      await nft.connect(bob).transferFrom(bob.address, alice.address, tokenId);
      await nft.connect(alice).transferFrom(alice.address, bob.address, tokenId);
      expect(await nft.creatorOf(tokenId)).to.equal(alice.address);
    });

    it('lets only the owner change the rate, up to 10%, with an event', async function () {
      const { nft, owner, alice } = await networkHelpers.loadFixture(deployFixture);
      const { tokenId } = await mintAs(nft, alice);
      await expect(nft.connect(alice).setRoyaltyBps(100))
        .to.be.revertedWithCustomError(nft, 'OwnableUnauthorizedAccount')
        .withArgs(alice.address);
      // The collection's own error for its 10% cap, whether or not the rate is also above 100%.
      for (const bps of [1001, 10_000, 10_001, 65_535]) {
        await expect(nft.connect(owner).setRoyaltyBps(bps)).to.be.revertedWithCustomError(nft, 'RoyaltyRateTooHigh').withArgs(bps, 1000);
      }
      expect(nft.interface.getError('ERC2981InvalidDefaultRoyalty')).to.equal(null);
      await expect(nft.connect(owner).setRoyaltyBps(1000)).to.emit(nft, 'RoyaltyBpsUpdated').withArgs(500, 1000);
      // ERC-4906: marketplaces refresh every token's cached terms.
      await expect(nft.connect(owner).setRoyaltyBps(1000))
        .to.emit(nft, 'BatchMetadataUpdate')
        .withArgs(1n, 2n ** 256n - 1n);
      expect(await nft.royaltyInfo(tokenId, 10_000n)).to.deep.equal([alice.address, 1000n]);
      await expect(nft.connect(owner).setRoyaltyBps(0)).to.emit(nft, 'RoyaltyBpsUpdated').withArgs(1000, 0);
      expect(await nft.royaltyInfo(tokenId, 10_000n)).to.deep.equal([alice.address, 0n]);
    });
  });

  describe('ERC-721 transfers and approvals', function () {
    it('moves tokens for the owner, the approved account and an operator', async function () {
      const { nft, alice, bob, carol } = await networkHelpers.loadFixture(deployFixture);
      const { tokenId } = await mintAs(nft, alice);
      await mintAs(nft, alice);

      await expect(nft.connect(alice).transferFrom(alice.address, bob.address, tokenId))
        .to.emit(nft, 'Transfer')
        .withArgs(alice.address, bob.address, tokenId);
      expect(await nft.balanceOf(alice.address)).to.equal(1n);
      expect(await nft.balanceOf(bob.address)).to.equal(1n);

      await expect(nft.connect(bob).approve(carol.address, tokenId)).to.emit(nft, 'Approval').withArgs(bob.address, carol.address, tokenId);
      expect(await nft.getApproved(tokenId)).to.equal(carol.address);
      await nft.connect(carol).transferFrom(bob.address, carol.address, tokenId);
      expect(await nft.ownerOf(tokenId)).to.equal(carol.address);
      expect(await nft.getApproved(tokenId)).to.equal(ZERO_ADDRESS);

      await expect(nft.connect(carol).setApprovalForAll(alice.address, true))
        .to.emit(nft, 'ApprovalForAll')
        .withArgs(carol.address, alice.address, true);
      expect(await nft.isApprovedForAll(carol.address, alice.address)).to.equal(true);
      // An operator may also approve single tokens of the owner.
      await expect(nft.connect(alice).approve(bob.address, tokenId)).to.emit(nft, 'Approval').withArgs(carol.address, bob.address, tokenId);
      await nft.connect(alice).transferFrom(carol.address, alice.address, tokenId);
      expect(await nft.ownerOf(tokenId)).to.equal(alice.address);
      expect(await nft.getApproved(tokenId)).to.equal(ZERO_ADDRESS);
      expect(await nft.balanceOf(alice.address)).to.equal(2n);
      expect(await nft.balanceOf(carol.address)).to.equal(0n);

      await nft.connect(carol).setApprovalForAll(alice.address, false);
      expect(await nft.isApprovedForAll(carol.address, alice.address)).to.equal(false);
    });

    it('rejects unauthorized, mismatched and invalid transfers and approvals', async function () {
      const { nft, alice, bob, carol } = await networkHelpers.loadFixture(deployFixture);
      const { tokenId } = await mintAs(nft, alice);
      await expect(nft.connect(bob).transferFrom(alice.address, bob.address, tokenId))
        .to.be.revertedWithCustomError(nft, 'ERC721InsufficientApproval')
        .withArgs(bob.address, tokenId);
      await expect(nft.connect(alice).transferFrom(bob.address, carol.address, tokenId))
        .to.be.revertedWithCustomError(nft, 'ERC721IncorrectOwner')
        .withArgs(bob.address, tokenId, alice.address);
      await expect(nft.connect(alice).transferFrom(alice.address, ZERO_ADDRESS, tokenId))
        .to.be.revertedWithCustomError(nft, 'ERC721InvalidReceiver')
        .withArgs(ZERO_ADDRESS);
      await expect(nft.connect(bob).approve(carol.address, tokenId))
        .to.be.revertedWithCustomError(nft, 'ERC721InvalidApprover')
        .withArgs(bob.address);
      await expect(nft.connect(alice).setApprovalForAll(ZERO_ADDRESS, true))
        .to.be.revertedWithCustomError(nft, 'ERC721InvalidOperator')
        .withArgs(ZERO_ADDRESS);
      await expect(nft.balanceOf(ZERO_ADDRESS)).to.be.revertedWithCustomError(nft, 'ERC721InvalidOwner');
      for (const missing of [0n, tokenId + 1n, 2n ** 256n - 1n]) {
        await expect(nft.ownerOf(missing)).to.be.revertedWithCustomError(nft, 'ERC721NonexistentToken').withArgs(missing);
        await expect(nft.tokenURI(missing)).to.be.revertedWithCustomError(nft, 'ERC721NonexistentToken');
        await expect(nft.getApproved(missing)).to.be.revertedWithCustomError(nft, 'ERC721NonexistentToken');
        await expect(nft.creatorOf(missing)).to.be.revertedWithCustomError(nft, 'ERC721NonexistentToken');
        await expect(nft.audioKeyOf(missing)).to.be.revertedWithCustomError(nft, 'ERC721NonexistentToken');
        await expect(nft.matchesAudioHash(missing, randomHash())).to.be.revertedWithCustomError(nft, 'ERC721NonexistentToken');
        // As OpenZeppelin's ERC2981, no revert: a token without a creator has no royalty.
        expect(await nft.royaltyInfo(missing, 10_000n)).to.deep.equal([ZERO_ADDRESS, 0n]);
        await expect(nft.connect(alice).approve(bob.address, missing)).to.be.revertedWithCustomError(nft, 'ERC721NonexistentToken');
        await expect(nft.connect(alice).transferFrom(alice.address, bob.address, missing)).to.be.revertedWithCustomError(
          nft,
          'ERC721NonexistentToken',
        );
      }
      expect(await nft.ownerOf(tokenId)).to.equal(alice.address);
    });

    it('safeTransferFrom calls onERC721Received with operator, from, id and data', async function () {
      const { nft, alice, bob } = await networkHelpers.loadFixture(deployFixture);
      const { tokenId } = await mintAs(nft, alice);
      const receiver = await deployRaw(receiverRuntimes.recordingReceiver);
      await nft.connect(alice).setApprovalForAll(bob.address, true);
      const safeWithData = nft.connect(bob)['safeTransferFrom(address,address,uint256,bytes)'];
      const tx = await safeWithData(alice.address, receiver, tokenId, '0xc0ffee');
      const receipt = await tx.wait();
      const log = receipt?.logs.find((entry) => entry.address === receiver);
      if (!log) throw new Error('the receiver was not called');
      const iface = new ethers.Interface([
        'function onERC721Received(address operator, address from, uint256 tokenId, bytes data) returns (bytes4)',
      ]);
      const call = iface.parseTransaction({ data: log.data });
      expect(call?.args.toArray()).to.deep.equal([bob.address, alice.address, tokenId, '0xc0ffee']);
      expect(await nft.ownerOf(tokenId)).to.equal(receiver);

      const second = await mintAs(nft, alice);
      await nft.connect(alice)['safeTransferFrom(address,address,uint256)'](alice.address, receiver, second.tokenId);
      expect(await nft.ownerOf(second.tokenId)).to.equal(receiver);
      // An EOA needs no callback.
      const third = await mintAs(nft, alice);
      await nft.connect(alice)['safeTransferFrom(address,address,uint256)'](alice.address, bob.address, third.tokenId);
      expect(await nft.ownerOf(third.tokenId)).to.equal(bob.address);
    });

    it('safeTransferFrom refuses contracts that do not accept the token, bubbling their reason', async function () {
      const { nft, alice } = await networkHelpers.loadFixture(deployFixture);
      const { tokenId } = await mintAs(nft, alice);
      const wrongValue = await deployRaw(receiverRuntimes.wrongValueReceiver);
      const reverting = await deployRaw(receiverRuntimes.revertingReceiver);
      const nftAddress = await nft.getAddress();
      const safe = nft.connect(alice)['safeTransferFrom(address,address,uint256)'];
      await expect(safe(alice.address, wrongValue, tokenId))
        .to.be.revertedWithCustomError(nft, 'ERC721InvalidReceiver')
        .withArgs(wrongValue);
      // A contract without the callback (the NFT itself) reverts with empty data.
      await expect(safe(alice.address, nftAddress, tokenId))
        .to.be.revertedWithCustomError(nft, 'ERC721InvalidReceiver')
        .withArgs(nftAddress);
      const call = safe.populateTransaction(alice.address, reverting, tokenId);
      const revertData = await alice
        .call(await call)
        .then(() => 'no revert')
        .catch((error: { data?: string }) => error.data);
      expect(revertData).to.equal('0xcafebabe');
      // Plain transferFrom does not call the receiver.
      await nft.connect(alice).transferFrom(alice.address, reverting, tokenId);
      expect(await nft.ownerOf(tokenId)).to.equal(reverting);
    });
  });

  describe('admin', function () {
    it('rotates the platform signer (owner only); old signatures stop working', async function () {
      const { nft, owner, alice } = await networkHelpers.loadFixture(deployFixture);
      const next = createMintSigner(randomHash());
      await expect(nft.connect(alice).setPlatformSigner(next.address))
        .to.be.revertedWithCustomError(nft, 'OwnableUnauthorizedAccount')
        .withArgs(alice.address);
      await expect(nft.connect(owner).setPlatformSigner(ZERO_ADDRESS)).to.be.revertedWithCustomError(nft, 'ZeroPlatformSigner');
      const uri = cidUri();
      const audioHash = randomHash();
      const oldSignature = await platformSignature(alice.address, uri, audioHash);
      await expect(nft.connect(owner).setPlatformSigner(next.address))
        .to.emit(nft, 'PlatformSignerUpdated')
        .withArgs(testPlatformSigner.address, next.address);
      expect(await nft.platformSigner()).to.equal(next.address);
      await expect(nft.connect(alice).mint(uri, audioHash, oldSignature)).to.be.revertedWith('Invalid signature');
      const newSignature = await next.sign({ minter: getAddress(alice.address), metadataUri: uri, audioHash });
      await expect(nft.connect(alice).mint(uri, audioHash, newSignature))
        .to.emit(nft, 'SongMinted')
        .withArgs(1n, alice.address, audioHash, uri);
    });

    it('rotation without stranding: rotate, the old signature is refused, a new one for the same audio mints', async function () {
      const { nft, owner, alice } = await networkHelpers.loadFixture(deployFixture);
      const uri = cidUri();
      const audioHash = randomHash();
      const issued = await platformSignature(alice.address, uri, audioHash);
      // What the oracle reads before re-issuing: who signed, whether that key is retired, whether the audio is unused.
      expect(await nft.recoverMintSigner(alice.address, uri, audioHash, issued)).to.equal(testPlatformSigner.address);
      expect(await nft.isRetiredSigner(testPlatformSigner.address)).to.equal(false);

      const next = createMintSigner(randomHash());
      const rotation = await (await nft.connect(owner).setPlatformSigner(next.address)).wait();
      await expect(nft.connect(alice).mint(uri, audioHash, issued)).to.be.revertedWith('Invalid signature');
      expect(await nft.isRetiredSigner(testPlatformSigner.address)).to.equal(true);
      expect(await nft.isRetiredSigner(next.address)).to.equal(false);
      expect(await nft.recoverMintSigner(alice.address, uri, audioHash, issued)).to.not.equal(await nft.platformSigner());
      expect(await nft.isAudioHashUsed(audioHash)).to.equal(false);
      // The window closed at the rotation's block: its PlatformSignerUpdated log says so.
      const [update] = await nft.queryFilter(nft.filters.PlatformSignerUpdated(testPlatformSigner.address), 0);
      expect(update?.blockNumber).to.equal(rotation?.blockNumber);

      // Re-issued by the new key for the same job (the URI may differ): it mints, and the old one stays dead.
      const reissuedUri = cidUri();
      const reissued = await next.sign({ minter: getAddress(alice.address), metadataUri: reissuedUri, audioHash });
      expect(await nft.recoverMintSigner(alice.address, reissuedUri, audioHash, reissued)).to.equal(next.address);
      await expect(nft.connect(alice).mint(reissuedUri, audioHash, reissued))
        .to.emit(nft, 'SongMinted')
        .withArgs(1n, alice.address, audioHash, reissuedUri);
      await expect(nft.connect(alice).mint(uri, audioHash, issued)).to.be.revertedWith('Invalid signature');
    });

    it("never takes a retired signer back, so a retired key's unused signatures never revive", async function () {
      const { nft, owner, alice } = await networkHelpers.loadFixture(deployFixture);
      const uri = cidUri();
      const audioHash = randomHash();
      const issued = await platformSignature(alice.address, uri, audioHash);
      const second = createMintSigner(randomHash());
      await expect(nft.connect(owner).setPlatformSigner(testPlatformSigner.address))
        .to.be.revertedWithCustomError(nft, 'PlatformSignerReused')
        .withArgs(testPlatformSigner.address);
      await (await nft.connect(owner).setPlatformSigner(second.address)).wait();
      await expect(nft.connect(owner).setPlatformSigner(testPlatformSigner.address))
        .to.be.revertedWithCustomError(nft, 'PlatformSignerReused')
        .withArgs(testPlatformSigner.address);
      await expect(nft.connect(alice).mint(uri, audioHash, issued)).to.be.revertedWith('Invalid signature');
      const third = createMintSigner(randomHash());
      await expect(nft.connect(owner).setPlatformSigner(third.address))
        .to.emit(nft, 'PlatformSignerUpdated')
        .withArgs(second.address, third.address);
      expect(await nft.isRetiredSigner(second.address)).to.equal(true);
    });

    it('recoverMintSigner agrees with mint on malformed signatures: zero where mint says Invalid signature', async function () {
      const { nft, alice } = await networkHelpers.loadFixture(deployFixture);
      const uri = cidUri();
      const audioHash = randomHash();
      const good = await platformSignature(alice.address, uri, audioHash);
      const { r, s, v } = splitSignature(good);
      for (const bad of [
        joinSignature(r, SECP256K1_N - s, v === 27 ? 28 : 27),
        concatHex([r, numberToHex(s | (BigInt(v - 27) << 255n), { size: 32 })]),
        '0x' as Hex,
        concatHex([good, '0x00']),
        joinSignature(r, s, v - 27),
        joinSignature(r, s, 29),
        `0x${'00'.repeat(65)}` as Hex,
      ]) {
        expect(await nft.recoverMintSigner(alice.address, uri, audioHash, bad), bad).to.equal(ZERO_ADDRESS);
        await expect(nft.connect(alice).mint(uri, audioHash, bad)).to.be.revertedWith('Invalid signature');
      }
      // For another minter, URI or hash it recovers some other address, never the platform signer.
      expect(await nft.recoverMintSigner(alice.address, uri, randomHash(), good)).to.not.equal(testPlatformSigner.address);
      expect(await nft.recoverMintSigner(alice.address, uri, audioHash, good)).to.equal(testPlatformSigner.address);
      expect(await nft.mintMessageHash(alice.address, uri, audioHash)).to.equal(
        keccak256(concatHex([alice.address as Hex, toHex(uri), audioHash])),
      );
    });

    it('ERC-7572: a collection contractURI the owner sets (ContractURIUpdated), with an inline default', async function () {
      const { nft, owner, alice } = await networkHelpers.loadFixture(deployFixture);
      const defaultUri = await nft.contractURI();
      expect(defaultUri).to.equal(await nft.DEFAULT_CONTRACT_URI());
      const json: unknown = JSON.parse(defaultUri.slice('data:application/json;utf8,'.length));
      expect(json).to.deep.include({ name: 'Songmint' });
      await expect(nft.connect(alice).setContractURI('ipfs://x'))
        .to.be.revertedWithCustomError(nft, 'OwnableUnauthorizedAccount')
        .withArgs(alice.address);
      const collection = cidUri();
      await expect(nft.connect(owner).setContractURI(collection)).to.emit(nft, 'ContractURIUpdated');
      expect(await nft.contractURI()).to.equal(collection);
      await expect(nft.connect(owner).setContractURI('')).to.emit(nft, 'ContractURIUpdated');
      expect(await nft.contractURI()).to.equal(defaultUri);
    });

    it('transfers ownership in two steps and cannot be renounced', async function () {
      const { nft, owner, alice, bob } = await networkHelpers.loadFixture(deployFixture);
      await expect(nft.connect(alice).transferOwnership(alice.address)).to.be.revertedWithCustomError(nft, 'OwnableUnauthorizedAccount');
      await expect(nft.connect(owner).transferOwnership(alice.address))
        .to.emit(nft, 'OwnershipTransferStarted')
        .withArgs(owner.address, alice.address);
      expect(await nft.owner()).to.equal(owner.address);
      expect(await nft.pendingOwner()).to.equal(alice.address);
      await expect(nft.connect(bob).acceptOwnership())
        .to.be.revertedWithCustomError(nft, 'OwnableUnauthorizedAccount')
        .withArgs(bob.address);
      await expect(nft.connect(alice).acceptOwnership()).to.emit(nft, 'OwnershipTransferred').withArgs(owner.address, alice.address);
      expect(await nft.owner()).to.equal(alice.address);
      expect(await nft.pendingOwner()).to.equal(ZERO_ADDRESS);
      await expect(nft.connect(owner).setRoyaltyBps(0)).to.be.revertedWithCustomError(nft, 'OwnableUnauthorizedAccount');
      await expect(nft.connect(alice).setRoyaltyBps(0)).to.emit(nft, 'RoyaltyBpsUpdated');
      await expect(nft.connect(alice).renounceOwnership()).to.be.revertedWithCustomError(nft, 'RenounceDisabled');
      await expect(nft.connect(bob).renounceOwnership()).to.be.revertedWithCustomError(nft, 'OwnableUnauthorizedAccount');
      expect(await nft.owner()).to.equal(alice.address);
    });
  });
});

async function deployRaw(runtime: Hex): Promise<Address> {
  const [deployer] = await ethers.getSigners();
  if (!deployer) throw new Error('no signer');
  const tx = await deployer.sendTransaction({ data: creationCode(runtime) });
  const receipt = await tx.wait();
  const address = receipt?.contractAddress;
  if (!address) throw new Error('raw deployment failed');
  expect(await ethers.provider.getCode(address)).to.equal(runtime);
  return getAddress(address);
}
