import { CID } from 'multiformats/cid';
import * as Digest from 'multiformats/hashes/digest';
import { randomBytes } from 'node:crypto';
import { bytesToHex, hexToBytes, type Hex } from 'viem';
import { createMintSigner, type MintSigner } from '../../../oracle/src/chain/mint-signer.ts';

/**
 * Shared fixtures for chain tests that need a SongNFT: a fixed platform key (not one of the
 * node's dev accounts, so no test can sign with it by accident), real CIDv1 metadata URIs and
 * random audio hashes.
 */

/** Platform signing key used by chain tests. Never use it outside tests. */
export const TEST_PLATFORM_KEY: Hex = '0x8f2a55949038a9610f50fb23b5883af3b4ecb3c3bb792cbcefbd1542c692be63';

/** Royalty rate the tests deploy with: 5%. */
export const TEST_ROYALTY_BPS = 500;

export const testPlatformSigner: MintSigner = createMintSigner(TEST_PLATFORM_KEY);

/** Multicodec codes of the two CIDv1 forms SongNFT stores compactly. */
export const RAW_CODEC = 0x55;
export const DAG_PB_CODEC = 0x70;
const SHA2_256 = 0x12;

export function randomHash(): Hex {
  return bytesToHex(randomBytes(32));
}

/** `ipfs://<CIDv1 base32>` over a sha2-256 digest: `bafkrei…` (raw) or `bafybei…` (dag-pb). */
export function cidUri(digest: Hex = randomHash(), codec: number = RAW_CODEC): string {
  return `ipfs://${CID.create(1, codec, Digest.create(SHA2_256, hexToBytes(digest))).toString()}`;
}

/**
 * Creation code for a contract whose runtime is `runtime` (raw EVM bytecode): a 12-byte loader
 * that copies the runtime after itself into memory and returns it.
 */
export function creationCode(runtime: Hex): Hex {
  const length = (runtime.length - 2) / 2;
  if (length > 0xff) throw new Error('runtime too long for a one-byte loader');
  const len = length.toString(16).padStart(2, '0');
  return `0x60${len}600c60003960${len}6000f3${runtime.slice(2)}`;
}

/**
 * ERC-721 receivers as raw bytecode, so tests need no extra Solidity sources:
 * - `recordingReceiver` logs its whole calldata (LOG0) and returns `onERC721Received.selector`;
 * - `wrongValueReceiver` returns 0xdeadbeef instead;
 * - `revertingReceiver` reverts with the 4 bytes 0xcafebabe.
 */
export const receiverRuntimes = {
  recordingReceiver: '0x365f5f37365fa063150b7a0260e01b5f5260205ff3',
  wrongValueReceiver: '0x63deadbeef60e01b5f5260205ff3',
  revertingReceiver: '0x63cafebabe60e01b5f5260045ffd',
} as const satisfies Record<string, Hex>;
