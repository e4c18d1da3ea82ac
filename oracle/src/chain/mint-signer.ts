import { createRequire } from 'node:module';
import { encodePacked, hashMessage, isAddress, isHex, keccak256, size, type Address, type Hex } from 'viem';
import { privateKeyToAccount, publicKeyToAddress } from 'viem/accounts';
import { toEthereumSignature } from '../../../core/src/signing/ecdsa.ts';
import type { SigningKey } from '../../../core/src/signing/signing-key.ts';

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

export type MintSignerErrorCode =
  | 'INVALID_MINTER'
  | 'INVALID_AUDIO_HASH'
  | 'INVALID_PRIVATE_KEY'
  /** The HSM or KMS holding the key did not sign within the signing deadline (or failed): nothing was signed. */
  | 'SIGNER_UNAVAILABLE';

/**
 * A caller passed a value the contract could never accept (checked before anything is hashed),
 * or the key's HSM or KMS gave no usable signature.
 */
export class MintSignerError extends Error {
  readonly code: MintSignerErrorCode;

  constructor(code: MintSignerErrorCode, message: string) {
    super(message);
    this.name = 'MintSignerError';
    this.code = code;
  }
}

/**
 * What signs. A key held by the process (`PLATFORM_SIGNER_KEY`, development only): libsecp256k1
 * (the `secp256k1` package's prebuilt native binding, about 6x less CPU per signature) or viem's
 * pure-JS @noble/curves; both use RFC 6979 nonces and low-s, so they produce byte-identical
 * signatures. A key the process never sees (`PLATFORM_SIGNER`): a PKCS#11 token or AWS KMS.
 */
export type SigningBackend = 'libsecp256k1' | 'noble' | 'pkcs11' | 'awskms';

export interface MintSigner {
  /** The platform signer address the contract must hold (`SongNFT.platformSigner()`). */
  readonly address: Address;
  readonly backend: SigningBackend;
  /** Which key, without PIN or credentials (`pkcs11:token=…;object=…`, `awskms://…`); `env` for a key in the process. */
  readonly keyReference: string;
  /**
   * Signs one mint; the result is the 65-byte `r || s || v` hex the contract takes. Rejects with
   * a MintSignerError: a bad input, or SIGNER_UNAVAILABLE within the signing deadline.
   */
  sign(input: MintAuthorization): Promise<Hex>;
  /** Releases the HSM sessions or KMS client; nothing to do for a key in the process. */
  close(): Promise<void>;
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
  return keccak256(encodePacked(['address', 'string', 'bytes32'], [input.minter, input.metadataUri, input.audioHash]));
}

/** The part of the `secp256k1` package's API used here. */
interface Libsecp256k1 {
  ecdsaSign(digest: Uint8Array, secretKey: Uint8Array): { signature: Uint8Array; recid: number };
}

/** The native binding, or undefined where its prebuilt binary does not load (other platforms). */
function loadLibsecp256k1(): Libsecp256k1 | undefined {
  try {
    // `secp256k1/bindings` is the native module alone; the package's main entry would fall back
    // to elliptic, slower than noble.
    return createRequire(import.meta.url)('secp256k1/bindings') as Libsecp256k1;
  } catch {
    return undefined;
  }
}

export interface MintSignerOptions {
  /** `auto` (default): libsecp256k1 where its binary loads, else noble. */
  backend?: 'auto' | 'noble';
}

/** A signer over the platform key: low-s signatures with v = 27 or 28, as `ecrecover` takes them. */
export function createMintSigner(privateKey: Hex, options: MintSignerOptions = {}): MintSigner {
  if (!isHex(privateKey, { strict: true }) || size(privateKey) !== 32) {
    throw new MintSignerError('INVALID_PRIVATE_KEY', 'the platform key must be 32 bytes of hex');
  }
  const account = privateKeyToAccount(privateKey);
  const native = options.backend === 'noble' ? undefined : loadLibsecp256k1();
  if (native === undefined) {
    return {
      address: account.address,
      backend: 'noble',
      keyReference: 'env',
      sign: async (input) => account.signMessage({ message: { raw: mintMessageHash(input) } }),
      close: () => Promise.resolve(),
    };
  }
  const secretKey = Buffer.from(privateKey.slice(2), 'hex');
  return {
    address: account.address,
    backend: 'libsecp256k1',
    keyReference: 'env',
    close: () => Promise.resolve(),
    sign: async (input) => {
      const digest = Buffer.from(hashMessage({ raw: mintMessageHash(input) }).slice(2), 'hex');
      const { signature, recid } = native.ecdsaSign(digest, secretKey);
      return `0x${Buffer.from(signature).toString('hex')}${(27 + recid).toString(16)}`;
    },
  };
}

/**
 * A signer over a secp256k1 key in an HSM or KMS (core/src/signing/): the key's address comes
 * from the public key the backend gave; each signature is the backend's ECDSA over the EIP-191
 * digest, with s made low and the recovery id found against that key, so `ecrecover` returns
 * `address`.
 */
export function createHeldKeyMintSigner(key: SigningKey): MintSigner {
  if (key.curve !== 'secp256k1') throw new Error(`the mint key must be secp256k1, not ${key.curve}`);
  const address = publicKeyToAddress(`0x${Buffer.from(key.publicKey).toString('hex')}`);
  return {
    address,
    backend: key.backend,
    keyReference: key.display,
    async sign(input) {
      const digest = Buffer.from(hashMessage({ raw: mintMessageHash(input) }).slice(2), 'hex');
      const signed = await key.signDigest(digest);
      if (!signed.ok) throw new MintSignerError('SIGNER_UNAVAILABLE', signed.error.message);
      const signature = toEthereumSignature(signed.value, digest, key.publicKey);
      if (signature === undefined)
        throw new MintSignerError('SIGNER_UNAVAILABLE', `${key.display} returned a signature that does not recover to ${address}`);
      return `0x${Buffer.from(signature).toString('hex')}`;
    },
    close: () => key.close(),
  };
}
