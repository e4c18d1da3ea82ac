import { expect } from 'chai';
import { network } from 'hardhat';
import { randomBytes, randomInt } from 'node:crypto';
import { bytesToHex, getAddress, hexToBigInt, keccak256, recoverMessageAddress, sliceHex, type Hex } from 'viem';
import {
  MintSignerError,
  createMintSigner,
  mintMessageHash,
  type MintAuthorization,
  type MintSigner,
} from '../../oracle/src/chain/mint-signer.ts';
import { DAG_PB_CODEC, TEST_PLATFORM_KEY, TEST_ROYALTY_BPS, cidUri, randomHash, testPlatformSigner } from './helpers/song-nft.ts';

const { ethers } = await network.create('base');

const HALF_CURVE_ORDER = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0n;

function randomAddress() {
  return getAddress(bytesToHex(randomBytes(20)));
}

/** A random string of `length` code points drawn from ASCII, Latin-1, CJK, emoji and controls. */
function randomUnicode(length: number): string {
  const ranges: [number, number][] = [
    [0x20, 0x7e],
    [0x00, 0x1f],
    [0xa0, 0xff],
    [0x4e00, 0x9fff],
    [0x1f300, 0x1faff],
    [0x0400, 0x04ff],
  ];
  let out = '';
  for (let i = 0; i < length; i++) {
    const range = ranges[randomInt(ranges.length)] ?? [0x20, 0x7e];
    out += String.fromCodePoint(randomInt(range[0], range[1] + 1));
  }
  return out;
}

/** The same address with one letter's case flipped: a bad EIP-55 checksum. */
function breakChecksum(address: Hex): Hex {
  const index = [...address].findIndex((char, i) => i >= 2 && /[a-fA-F]/.test(char));
  if (index < 0) throw new Error('address without letters');
  const char = address[index] ?? '';
  const flipped = char === char.toUpperCase() ? char.toLowerCase() : char.toUpperCase();
  return `${address.slice(0, index)}${flipped}${address.slice(index + 1)}` as Hex;
}

function randomUri(index: number): string {
  switch (index % 8) {
    case 0:
      return '';
    case 1:
      return cidUri();
    case 2:
      return cidUri(randomHash(), DAG_PB_CODEC);
    case 3:
      return randomUnicode(randomInt(1, 40));
    case 4:
      return `https://songmint.example/metadata/${randomUnicode(randomInt(0, 12))}.json`;
    case 5:
      return 'x'.repeat(randomInt(1, 3000));
    case 6:
      return randomUnicode(randomInt(200, 600));
    default:
      return bytesToHex(randomBytes(randomInt(0, 100)));
  }
}

function randomAudioHash(index: number): Hex {
  if (index === 0) return `0x${'00'.repeat(32)}`;
  if (index === 1) return `0x${'ff'.repeat(32)}`;
  return randomHash();
}

describe('mint signer (oracle/src/chain/mint-signer.ts) against SongNFT', function () {
  async function deploy() {
    const [owner] = await ethers.getSigners();
    if (!owner) throw new Error('no signer');
    return ethers.deployContract('SongNFT', [owner.address, testPlatformSigner.address, TEST_ROYALTY_BPS]);
  }

  it('hashes 1,200 generated inputs exactly as the contract view does', async function () {
    const nft = await deploy();
    const inputs: MintAuthorization[] = Array.from({ length: 1200 }, (_, index) => ({
      minter: index === 0 ? getAddress(`0x${'00'.repeat(20)}`) : randomAddress(),
      metadataUri: randomUri(index),
      audioHash: randomAudioHash(index),
    }));
    // eth_calls in parallel batches: the in-process node answers them without mining.
    const onChain: string[] = [];
    for (let start = 0; start < inputs.length; start += 200) {
      const batch = inputs.slice(start, start + 200);
      onChain.push(...(await Promise.all(batch.map((input) => nft.mintMessageHash(input.minter, input.metadataUri, input.audioHash)))));
    }
    let mismatches = 0;
    for (const [index, input] of inputs.entries()) {
      const offChain = mintMessageHash(input);
      if (offChain !== onChain[index]) mismatches++;
      // An independent encoder (ethers) agrees too.
      expect(offChain).to.equal(
        ethers.solidityPackedKeccak256(['address', 'string', 'bytes32'], [input.minter, input.metadataUri, input.audioHash]),
      );
    }
    expect(mismatches).to.equal(0);
    // Sanity: the inputs really vary, so equal hashes mean equal encodings.
    expect(new Set(onChain).size).to.equal(inputs.length);
  });

  it('accepts lower-case minters and hashes them like checksummed ones', function () {
    const minter = randomAddress();
    const input = { minter, metadataUri: cidUri(), audioHash: randomHash() };
    const lower = { ...input, minter: minter.toLowerCase() as Hex };
    expect(mintMessageHash(lower)).to.equal(mintMessageHash(input));
  });

  for (const backend of ['auto', 'noble'] as const) {
    it(`signs EIP-191 messages with low s, v 27/28, 65 bytes, recoverable to the platform address (${backend})`, async function () {
      await expectWellFormedSignatures(createMintSigner(TEST_PLATFORM_KEY, { backend }));
    });
  }

  it('signs with the native libsecp256k1 on this platform, byte for byte as noble does', async function () {
    const native = createMintSigner(TEST_PLATFORM_KEY);
    const noble = createMintSigner(TEST_PLATFORM_KEY, { backend: 'noble' });
    // The prebuilt binary ships for linux-x64 (glibc and musl), darwin-arm64 and win32-x64.
    if (`${process.platform}-${process.arch}` === 'linux-x64') expect(native.backend).to.equal('libsecp256k1');
    expect(noble.backend).to.equal('noble');
    expect(native.address).to.equal(noble.address);
    for (let index = 0; index < 200; index++) {
      const input = { minter: randomAddress(), metadataUri: randomUri(index), audioHash: randomHash() };
      expect(await native.sign(input)).to.equal(await noble.sign(input));
    }
  });

  async function expectWellFormedSignatures(signer: MintSigner) {
    expect(signer.address).to.equal(testPlatformSigner.address);
    for (let index = 0; index < 100; index++) {
      const input = { minter: randomAddress(), metadataUri: randomUri(index), audioHash: randomHash() };
      const signature = await signer.sign(input);
      expect(signature).to.match(/^0x[0-9a-f]{130}$/);
      expect(hexToBigInt(sliceHex(signature, 32, 64)) <= HALF_CURVE_ORDER).to.equal(true);
      expect([27n, 28n]).to.include(hexToBigInt(sliceHex(signature, 64, 65)));
      const recovered = await recoverMessageAddress({ message: { raw: mintMessageHash(input) }, signature });
      expect(recovered).to.equal(signer.address);
      // Deterministic (RFC 6979): signing again gives the same bytes.
      expect(await signer.sign(input)).to.equal(signature);
    }
  }

  it('produces signatures that mint on chain, for that minter, URI and audio hash only', async function () {
    const nft = await deploy();
    const [, alice, bob] = await ethers.getSigners();
    if (!alice || !bob) throw new Error('no signers');
    const uri = randomUnicode(30);
    const audioHash = randomHash();
    const signature = await testPlatformSigner.sign({ minter: getAddress(alice.address), metadataUri: uri, audioHash });
    await expect(nft.connect(bob).mint(uri, audioHash, signature)).to.be.revertedWith('Invalid signature');
    await expect(nft.connect(alice).mint(uri, audioHash, signature))
      .to.emit(nft, 'SongMinted')
      .withArgs(1n, alice.address, audioHash, uri);
    expect(await nft.tokenURI(1n)).to.equal(uri);
    await expect(nft.connect(alice).mint(uri, audioHash, signature)).to.be.revertedWith('Signature used');
  });

  it('rejects inputs the contract could never accept, with codes', async function () {
    const valid: MintAuthorization = { minter: randomAddress(), metadataUri: 'ipfs://x', audioHash: randomHash() };
    const cases: [Partial<MintAuthorization>, string][] = [
      [{ minter: '0x1234' }, 'INVALID_MINTER'],
      [{ minter: `0x${'zz'.repeat(20)}` }, 'INVALID_MINTER'],
      [{ minter: breakChecksum(valid.minter) }, 'INVALID_MINTER'],
      [{ audioHash: `0x${'00'.repeat(31)}` }, 'INVALID_AUDIO_HASH'],
      [{ audioHash: `0x${'00'.repeat(33)}` }, 'INVALID_AUDIO_HASH'],
      [{ audioHash: `0x${'g0'.repeat(32)}` }, 'INVALID_AUDIO_HASH'],
      [{ audioHash: '00'.repeat(32) as Hex }, 'INVALID_AUDIO_HASH'],
    ];
    for (const [override, code] of cases) {
      const input = { ...valid, ...override };
      const thrown = (() => {
        try {
          mintMessageHash(input);
          return undefined;
        } catch (error) {
          return error;
        }
      })();
      expect(thrown, JSON.stringify(override)).to.be.instanceOf(MintSignerError);
      expect((thrown as MintSignerError).code).to.equal(code);
      const signed = await testPlatformSigner.sign(input).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect((signed as MintSignerError).code).to.equal(code);
    }
    for (const key of ['0x1234', `0x${'00'.repeat(33)}`, keccak256('0x01').slice(2)]) {
      expect(() => createMintSigner(key as Hex)).to.throw(MintSignerError);
    }
  });
});
