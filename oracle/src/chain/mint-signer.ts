import { encodePacked, isAddress, isHex, keccak256, size, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

/**
 * The platform's mint authorization for SongNFT: an EIP-191 signature over
 * `keccak256(abi.encodePacked(minter, metadataUri, audioHash))`, exactly what
 * `SongNFT.mint` recomputes with `msg.sender` as the minter.
 */

/** What one mint signature binds: who mints, the exact metadata URI string and the audio hash. */
export interface MintAuthorization {
  readonly minter: Address;
  readonly metadataUri: string;
  /** `0x` + 64 hex digits: SHA-256 of the audio bytes. */
  readonly audioHash: Hex;
}

export type MintSignerErrorCode = 'INVALID_MINTER' | 'INVALID_AUDIO_HASH' | 'INVALID_PRIVATE_KEY';

/** A caller passed a value the contract could never accept; checked before anything is hashed. */
export class MintSignerError extends Error {
  readonly code: MintSignerErrorCode;

  constructor(code: MintSignerErrorCode, message: string) {
    super(message);
    this.name = 'MintSignerError';
    this.code = code;
  }
}

export interface MintSigner {
  /** The platform signer address the contract must hold (`SongNFT.platformSigner()`). */
  readonly address: Address;
  /** Signs one mint; the result is the 65-byte `r || s || v` hex the contract takes. */
  sign(input: MintAuthorization): Promise<Hex>;
}

function assertValid({ minter, audioHash }: MintAuthorization): void {
  if (!isAddress(minter)) {
    throw new MintSignerError('INVALID_MINTER', `minter is not a 20-byte address (or has a bad checksum): ${String(minter)}`);
  }
  if (!isHex(audioHash, { strict: true }) || size(audioHash) !== 32) {
    throw new MintSignerError('INVALID_AUDIO_HASH', `audioHash is not 32 bytes of hex: ${String(audioHash)}`);
  }
}

/** The hash SongNFT's `mintMessageHash(minter, metadataURI, audioHash)` returns (before EIP-191). */
export function mintMessageHash(input: MintAuthorization): Hex {
  assertValid(input);
  return keccak256(
    encodePacked(['address', 'string', 'bytes32'], [input.minter, input.metadataUri, input.audioHash]),
  );
}

/** A signer over the platform key; viem produces low-s signatures with v = 27 or 28. */
export function createMintSigner(privateKey: Hex): MintSigner {
  if (!isHex(privateKey, { strict: true }) || size(privateKey) !== 32) {
    throw new MintSignerError('INVALID_PRIVATE_KEY', 'the platform key must be 32 bytes of hex');
  }
  const account = privateKeyToAccount(privateKey);
  return {
    address: account.address,
    sign: async (input) => account.signMessage({ message: { raw: mintMessageHash(input) } }),
  };
}
