/**
 * The ECDSA encodings between what a token or KMS returns and what a verifier takes: DER
 * `SEQUENCE { r, s }` (KMS) to raw `r || s` (PKCS#11's CKM_ECDSA, COSE), and raw `r || s` to
 * Ethereum's 65-byte `r || s || v` with s low (EIP-2, which `ecrecover` callers such as
 * OpenZeppelin's ECDSA require) and the recovery id found by recovering against the known key.
 */
import { createRequire } from 'node:module';
import type { SigningCurve } from './signing-key.ts';

/** Group orders of the two curves. */
const ORDER: Record<SigningCurve, bigint> = {
  secp256k1: 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n,
  'P-256': 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n,
};

const SECP256K1_HALF_ORDER = ORDER.secp256k1 >> 1n;

function toBigInt(bytes: Uint8Array): bigint {
  return bytes.length === 0 ? 0n : BigInt(`0x${Buffer.from(bytes).toString('hex')}`);
}

function to32Bytes(value: bigint): Uint8Array {
  return Uint8Array.from(Buffer.from(value.toString(16).padStart(64, '0'), 'hex'));
}

/** Reads one DER length at `at`; returns [length, offset after it] or undefined. */
function readLength(der: Uint8Array, at: number): [number, number] | undefined {
  const first = der[at];
  if (first === undefined) return undefined;
  if (first < 0x80) return [first, at + 1];
  if (first === 0x81 && der[at + 1] !== undefined && der[at + 1]! >= 0x80) return [der[at + 1]!, at + 2];
  return undefined;
}

/**
 * DER `SEQUENCE { INTEGER r, INTEGER s }` to raw `r || s`, each 32 bytes; undefined when the
 * bytes are not exactly that with r and s in [1, n).
 */
export function derToRawSignature(der: Uint8Array, curve: SigningCurve): Uint8Array | undefined {
  if (der[0] !== 0x30) return undefined;
  const sequence = readLength(der, 1);
  if (sequence === undefined || sequence[1] + sequence[0] !== der.length) return undefined;
  let at = sequence[1];
  const parts: bigint[] = [];
  for (let i = 0; i < 2; i++) {
    if (der[at] !== 0x02) return undefined;
    const integer = readLength(der, at + 1);
    if (integer === undefined || integer[0] === 0 || integer[0] > 33) return undefined;
    const bytes = der.subarray(integer[1], integer[1] + integer[0]);
    if (bytes.length !== integer[0] || (bytes[0]! & 0x80) !== 0) return undefined;
    parts.push(toBigInt(bytes));
    at = integer[1] + integer[0];
  }
  if (at !== der.length) return undefined;
  const [r, s] = parts as [bigint, bigint];
  if (r <= 0n || r >= ORDER[curve] || s <= 0n || s >= ORDER[curve]) return undefined;
  return Uint8Array.from([...to32Bytes(r), ...to32Bytes(s)]);
}

/** `r || s` with s replaced by n - s where it is in the upper half (EIP-2). */
export function normaliseLowS(raw: Uint8Array): Uint8Array {
  const s = toBigInt(raw.subarray(32, 64));
  if (s <= SECP256K1_HALF_ORDER) return raw;
  return Uint8Array.from([...raw.subarray(0, 32), ...to32Bytes(ORDER.secp256k1 - s)]);
}

/** Whether `s` of a raw secp256k1 signature is in the upper half of the order. */
export function isHighS(raw: Uint8Array): boolean {
  return toBigInt(raw.subarray(32, 64)) > SECP256K1_HALF_ORDER;
}

/** The `secp256k1` package: its native binding where the prebuilt binary loads, elliptic otherwise. */
interface Secp256k1Recover {
  ecdsaRecover(signature: Uint8Array, recid: number, message: Uint8Array, compressed: boolean): Uint8Array;
}

const secp256k1 = createRequire(import.meta.url)('secp256k1') as Secp256k1Recover;

/**
 * Ethereum's `r || s || v` (v = 27 or 28) for a raw secp256k1 signature over `digest` by the key
 * whose uncompressed point is `publicKey`: s made low, v the recovery id under which the
 * signature recovers to that key. Undefined when neither does (the backend signed with another
 * key, or over other bytes): such a signature would mint nothing.
 */
export function toEthereumSignature(raw: Uint8Array, digest: Uint8Array, publicKey: Uint8Array): Uint8Array | undefined {
  if (raw.length !== 64 || digest.length !== 32) return undefined;
  const low = normaliseLowS(raw);
  for (const recid of [0, 1]) {
    let recovered: Uint8Array;
    try {
      recovered = secp256k1.ecdsaRecover(low, recid, digest, false);
    } catch {
      continue;
    }
    if (Buffer.from(recovered).equals(Buffer.from(publicKey))) return Uint8Array.from([...low, 27 + recid]);
  }
  return undefined;
}
