import { expect } from 'chai';
import { network } from 'hardhat';
import { randomBytes, randomInt } from 'node:crypto';
import {
  bytesToHex,
  concat,
  decodeAbiParameters,
  decodeFunctionResult,
  encodeAbiParameters,
  encodeFunctionData,
  getAddress,
  hexToBytes,
  keccak256,
  parseAbi,
  toFunctionSelector,
  toHex,
  type Hex,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import {
  DAG_PB_CODEC,
  RAW_CODEC,
  TEST_PLATFORM_KEY,
  TEST_ROYALTY_BPS,
  cidUri,
  randomHash,
  testPlatformSigner,
} from './helpers/song-nft.ts';

/**
 * SongNFT's metadata URI is a `string` in the ABI but any bytes on chain: a wallet can send bytes
 * that are not UTF-8 at all. Whatever the bytes, `tokenURI` must return them exactly, and so must
 * the `SongMinted` event. The compact form applies only to canonical `ipfs://bafkrei…` /
 * `ipfs://bafybei…` CIDv1 URIs (IpfsCidUri), so the packer is tested against an independent
 * definition of "canonical" over arbitrary bytes, and mints are fuzzed end to end with raw bytes.
 *
 * SONGMINT_FUZZ_RUNS scales both (default 1: 3,000 packer inputs, 120 mints).
 */

const { ethers } = await network.create('base');
const RUNS = Math.max(1, Number(process.env.SONGMINT_FUZZ_RUNS ?? '1'));

/** `mint(string,bytes32,bytes)` and `tokenURI` with the URI handled as bytes (the same ABI
 * encoding as string, without a UTF-8 step). */
const MINT_SELECTOR = toFunctionSelector('mint(string,bytes32,bytes)');
const rawNftAbi = parseAbi(['function tokenURI(uint256 tokenId) view returns (bytes)']);
const SONG_MINTED_TOPIC = keccak256(toHex('SongMinted(uint256,address,bytes32,string)'));
const platformAccount = privateKeyToAccount(TEST_PLATFORM_KEY);

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';
const PREFIXES = ['ipfs://bafkrei', 'ipfs://bafybei'].map((p) => new TextEncoder().encode(p));

/** Independent definition of what IpfsCidUri packs: 66 bytes, a known prefix, 52 lower-case
 * base32 characters whose first value is below 8 and last a multiple of 4, non-zero digest. */
function isCanonicalCidUri(bytes: Uint8Array): boolean {
  if (bytes.length !== 66) return false;
  if (!PREFIXES.some((prefix) => prefix.every((byte, i) => bytes[i] === byte))) return false;
  const values: number[] = [];
  for (const byte of bytes.subarray(14)) {
    const value = BASE32.indexOf(String.fromCharCode(byte));
    if (byte >= 0x80 || value < 0) return false;
    values.push(value);
  }
  if ((values[0] ?? 8) >= 8 || (values[51] ?? 1) % 4 !== 0) return false;
  return values.some((value) => value !== 0);
}

/** Random byte strings shaped to reach every branch of the packer. */
function fuzzUri(index: number): Uint8Array {
  const canonical = hexToBytes(toHex(cidUri(randomHash(), index % 2 === 0 ? RAW_CODEC : DAG_PB_CODEC)));
  switch (index % 6) {
    case 0: {
      // 1-3 arbitrary bytes (0x00-0xff) anywhere past "ipfs://".
      const out = canonical.slice();
      for (let edits = 1 + (index % 3); edits > 0; edits--) out[randomInt(7, 66)] = randomInt(256);
      return out;
    }
    case 1: {
      // Bytes with bit 7 set, which used to carry into their neighbours.
      const out = canonical.slice();
      out[randomInt(14, 66)] = randomInt(0x80, 0x100);
      return out;
    }
    case 2: {
      // A multi-byte UTF-8 character in place of as many base32 characters (length stays 66).
      const codePoint = randomInt(0x80, 0x110000);
      const char = new TextEncoder().encode(String.fromCodePoint(codePoint >= 0xd800 && codePoint < 0xe000 ? 0x1cb2 : codePoint));
      const at = randomInt(14, 66 - char.length + 1);
      const out = canonical.slice();
      out.set(char, at);
      return out;
    }
    case 3:
      return canonical;
    case 4:
      return randomBytes(randomInt(0, 100));
    default: {
      // Wholly random 66-byte strings behind a valid prefix.
      const out = new Uint8Array(66);
      out.set(canonical.subarray(0, 14));
      out.set(randomBytes(52), 14);
      return out;
    }
  }
}

async function deploy() {
  const [owner, minter] = await ethers.getSigners();
  if (!owner || !minter) throw new Error('no signers');
  const nft = await ethers.deployContract('SongNFT', [owner.address, testPlatformSigner.address, TEST_ROYALTY_BPS]);
  return { nft, nftAddress: (await nft.getAddress()) as Hex, minter };
}

/** Mints `uri` (raw bytes) with a real platform signature over exactly those bytes; returns the
 * token id, the URI of the SongMinted event and tokenURI, all as raw bytes. */
async function mintRaw(ctx: Awaited<ReturnType<typeof deploy>>, uri: Uint8Array) {
  const audioHash = randomHash();
  const minter = getAddress(ctx.minter.address);
  const uriHex = bytesToHex(uri);
  const signature = await platformAccount.signMessage({ message: { raw: keccak256(concat([minter, uriHex, audioHash])) } });
  const tx = await ctx.minter.sendTransaction({
    to: ctx.nftAddress,
    data: concat([
      MINT_SELECTOR,
      encodeAbiParameters([{ type: 'bytes' }, { type: 'bytes32' }, { type: 'bytes' }], [uriHex, audioHash, signature]),
    ]),
  });
  const receipt = await tx.wait();
  const log = receipt?.logs.find((entry) => entry.topics[0] === SONG_MINTED_TOPIC);
  if (!log) throw new Error('no SongMinted event');
  const tokenId = BigInt(log.topics[1] ?? '0x0');
  const [eventUri] = decodeAbiParameters([{ type: 'bytes' }], log.data as Hex);
  const returned = await ethers.provider.call({
    to: ctx.nftAddress,
    data: encodeFunctionData({ abi: rawNftAbi, functionName: 'tokenURI', args: [tokenId] }),
  });
  const tokenUri = decodeFunctionResult({ abi: rawNftAbi, functionName: 'tokenURI', data: returned as Hex });
  return { tokenId, eventUri, tokenUri, uriHex };
}

describe('SongNFT metadata URIs as arbitrary bytes', function () {
  it('a URI with U+1CB2 inside the base32 part is stored verbatim and returned as minted (it used to read back "a22")', async function () {
    const ctx = await deploy();
    const canonical = cidUri();
    const uri = `${canonical.slice(0, 30)}\u1cb2${canonical.slice(33)}`;
    expect(new TextEncoder().encode(uri).length).to.equal(66);
    const audioHash = randomHash();
    const signature = await testPlatformSigner.sign({ minter: getAddress(ctx.minter.address), metadataUri: uri, audioHash });
    await expect(ctx.nft.connect(ctx.minter).mint(uri, audioHash, signature))
      .to.emit(ctx.nft, 'SongMinted')
      .withArgs(1n, ctx.minter.address, audioHash, uri);
    expect(await ctx.nft.tokenURI(1n)).to.equal(uri);
  });

  it("the packer's character checks at every range edge, in the first, middle, boundary and last positions", async function () {
    const harness = await ethers.deployContract('IpfsCidUriHarness');
    // Just outside and inside '2'-'7' and 'a'-'z', ASCII's ends, and bytes with bit 7 set.
    const edges = [0x00, 0x31, 0x32, 0x37, 0x38, 0x41, 0x5a, 0x60, 0x61, 0x7a, 0x7b, 0x7f, 0x80, 0xb2, 0xe1, 0xff];
    // Position 14 is the first base32 character, 45 the last of the first word, 46 the first of
    // the second, 65 the last of the string.
    const positions = [14, 30, 45, 46, 57, 65];
    const inputs: Uint8Array[] = [];
    for (const codec of [RAW_CODEC, DAG_PB_CODEC]) {
      const canonical = hexToBytes(toHex(cidUri(`0x${'5a'.repeat(32)}`, codec)));
      for (const at of positions) {
        for (const byte of edges) {
          const input = canonical.slice();
          input[at] = byte;
          inputs.push(input);
        }
      }
    }
    const [kinds, decoded] = await harness.packMany(inputs);
    let packed = 0;
    for (const [i, input] of inputs.entries()) {
      expect(kinds[i] !== 0n, bytesToHex(input)).to.equal(isCanonicalCidUri(input));
      if (kinds[i] !== 0n) {
        packed++;
        expect(decoded[i]).to.equal(bytesToHex(input));
      }
    }
    // In range at a middle position ('2', '7', 'a', 'z'): packed; everything else: verbatim.
    expect(packed).to.be.greaterThan(2 * 4 * 3);
  });

  it(`the packer packs exactly the canonical CID URIs and decodes them byte for byte (${3000 * RUNS} random byte strings)`, async function () {
    const harness = await ethers.deployContract('IpfsCidUriHarness');
    let packed = 0;
    for (let batch = 0; batch < 30 * RUNS; batch++) {
      const inputs = Array.from({ length: 100 }, (_, i) => fuzzUri(batch * 100 + i));
      const [kinds, decoded] = await harness.packMany(inputs);
      for (const [i, input] of inputs.entries()) {
        const canonical = isCanonicalCidUri(input);
        expect(kinds[i] !== 0n, bytesToHex(input)).to.equal(canonical);
        if (canonical) {
          packed++;
          expect(kinds[i]).to.equal(input[10] === 'k'.charCodeAt(0) ? 1n : 2n);
          expect(decoded[i]).to.equal(bytesToHex(input));
        }
      }
    }
    // The generator reaches both outcomes often.
    expect(packed).to.be.greaterThan(300 * RUNS);
  });

  it(`mints ${120 * RUNS} URIs of arbitrary bytes: tokenURI == minted bytes == SongMinted URI, packed or verbatim`, async function () {
    const ctx = await deploy();
    for (let i = 0; i < 120 * RUNS; i++) {
      const uri = fuzzUri(i);
      const { eventUri, tokenUri, uriHex } = await mintRaw(ctx, uri);
      expect(eventUri, `event, input ${uriHex}`).to.equal(uriHex);
      expect(tokenUri, `tokenURI, input ${uriHex}`).to.equal(uriHex);
    }
  });
});
