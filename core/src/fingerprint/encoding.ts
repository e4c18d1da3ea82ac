/**
 * How a fingerprint is written down:
 * - compact, AcoustID's compressed form (what `fpcalc` prints as FINGERPRINT= and AcoustID's
 *   `/v2/lookup` takes): a 4-byte header (algorithm id, item count as 24 bits big-endian), then
 *   per item the positions of the bits that changed since the previous item as 3-bit gaps (0 ends
 *   an item; 7 means "7 + a 5-bit exception" written after all the 3-bit values), both packed
 *   least-significant bit first, all in URL-safe base64 without padding. About 2.5 bytes per item.
 * - raw, for the database: the 32-bit items big-endian, 4 bytes each.
 * Decoding is outside input (an AcoustID-compatible answer, a stored value): it is bounded by
 * `MAX_FINGERPRINT_ITEMS` and refuses what does not add up.
 */
import { fail, ok } from '../result.ts';
import type { Result } from '../result.ts';
import { CHROMAPRINT_ALGORITHM, CHROMAPRINT_ALGORITHM_ID } from './chromaprint.ts';

/** The longest fingerprint taken: 2^24 - 1 items is the format's own limit (about 24 days). */
export const MAX_FINGERPRINT_ITEMS = 0xffffff;

const NORMAL_BITS = 3;
const MAX_NORMAL = (1 << NORMAL_BITS) - 1;
const EXCEPTION_BITS = 5;

/** Writes `count` values of `width` bits each, least significant bit first, into a byte array. */
function packBits(values: Uint8Array, count: number, width: number): Uint8Array {
  const out = new Uint8Array(Math.ceil((count * width) / 8));
  let bit = 0;
  for (let i = 0; i < count; i += 1) {
    const value = values[i] as number;
    for (let b = 0; b < width; b += 1) {
      if ((value >> b) & 1) out[bit >> 3] = (out[bit >> 3] as number) | (1 << (bit & 7));
      bit += 1;
    }
  }
  return out;
}

function unpackBits(bytes: Uint8Array, from: number, width: number, count: number): Uint8Array {
  const out = new Uint8Array(count);
  let bit = from * 8;
  for (let i = 0; i < count; i += 1) {
    let value = 0;
    for (let b = 0; b < width; b += 1) {
      value |= (((bytes[bit >> 3] as number) >> (bit & 7)) & 1) << b;
      bit += 1;
    }
    out[i] = value;
  }
  return out;
}

/** AcoustID's compressed form of `items`, URL-safe base64 (fpcalc's FINGERPRINT=). */
export function encodeFingerprint(items: Uint32Array, algorithmId: number = CHROMAPRINT_ALGORITHM_ID): string {
  if (items.length > MAX_FINGERPRINT_ITEMS) throw new RangeError(`${items.length} items is more than the format holds`);
  const normal: number[] = [];
  const exceptional: number[] = [];
  let previous = 0;
  for (const item of items) {
    let x = (item ^ previous) >>> 0;
    previous = item;
    let bit = 1;
    let last = 0;
    while (x !== 0) {
      if ((x & 1) !== 0) {
        const gap = bit - last;
        if (gap >= MAX_NORMAL) {
          normal.push(MAX_NORMAL);
          exceptional.push(gap - MAX_NORMAL);
        } else normal.push(gap);
        last = bit;
      }
      x >>>= 1;
      bit += 1;
    }
    normal.push(0);
  }
  const header = new Uint8Array([algorithmId & 0xff, (items.length >> 16) & 0xff, (items.length >> 8) & 0xff, items.length & 0xff]);
  const packedNormal = packBits(Uint8Array.from(normal), normal.length, NORMAL_BITS);
  const packedExceptional = packBits(Uint8Array.from(exceptional), exceptional.length, EXCEPTION_BITS);
  return Buffer.concat([header, packedNormal, packedExceptional]).toString('base64url');
}

export interface DecodedFingerprint {
  algorithmId: number;
  items: Uint32Array;
}

export type FingerprintDecodeError = { code: 'invalid_fingerprint'; message: string };

const invalid = (message: string) => fail<FingerprintDecodeError>({ code: 'invalid_fingerprint', message });

/** Reads AcoustID's compressed form back; refuses anything malformed or longer than `maxItems`. */
export function decodeFingerprint(
  text: string,
  maxItems: number = MAX_FINGERPRINT_ITEMS,
): Result<DecodedFingerprint, FingerprintDecodeError> {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return invalid('not URL-safe base64');
  const bytes = new Uint8Array(Buffer.from(text, 'base64url'));
  if (bytes.length < 4) return invalid('shorter than its 4-byte header');
  const count = ((bytes[1] as number) << 16) | ((bytes[2] as number) << 8) | (bytes[3] as number);
  if (count > maxItems) return invalid(`${count} items, more than ${maxItems}`);
  // Every item takes at least one 3-bit value (its terminating 0), at most 33.
  const available = Math.floor(((bytes.length - 4) * 8) / NORMAL_BITS);
  const normal = unpackBits(bytes, 4, NORMAL_BITS, available);
  let ends = 0;
  let used = 0;
  let exceptions = 0;
  while (ends < count && used < available) {
    const value = normal[used] as number;
    if (value === 0) ends += 1;
    else if (value === MAX_NORMAL) exceptions += 1;
    used += 1;
  }
  if (ends < count) return invalid(`the bits end after ${ends} of ${count} items`);
  const exceptionStart = 4 + Math.ceil((used * NORMAL_BITS) / 8);
  if (bytes.length < exceptionStart + Math.ceil((exceptions * EXCEPTION_BITS) / 8)) return invalid('the exception bits are cut short');
  const exceptional = unpackBits(bytes, exceptionStart, EXCEPTION_BITS, exceptions);
  const items = new Uint32Array(count);
  let item = 0;
  let value = 0;
  let last = 0;
  let next = 0;
  for (let i = 0; i < used; i += 1) {
    let gap = normal[i] as number;
    if (gap === 0) {
      items[item] = (item > 0 ? value ^ (items[item - 1] as number) : value) >>> 0;
      item += 1;
      value = 0;
      last = 0;
      continue;
    }
    if (gap === MAX_NORMAL) {
      gap += exceptional[next] as number;
      next += 1;
    }
    const bit = last + gap;
    if (bit > 32) return invalid(`item ${item} sets bit ${bit}`);
    value = (value | (1 << (bit - 1))) >>> 0;
    last = bit;
  }
  return ok({ algorithmId: bytes[0] as number, items });
}

/** The raw form: items big-endian. */
export function fingerprintToBytes(items: Uint32Array): Uint8Array {
  const out = new Uint8Array(items.length * 4);
  const view = new DataView(out.buffer);
  for (let i = 0; i < items.length; i += 1) view.setUint32(i * 4, items[i] as number);
  return out;
}

export function fingerprintFromBytes(bytes: Uint8Array): Uint32Array {
  if (bytes.length % 4 !== 0) throw new RangeError(`a raw fingerprint of ${bytes.length} bytes`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const items = new Uint32Array(bytes.length / 4);
  for (let i = 0; i < items.length; i += 1) items[i] = view.getUint32(i * 4);
  return items;
}

/**
 * How a song's fingerprint is published (its metadata's generation record, its C2PA generation
 * assertion): the algorithm and its number, and the compact form, which AcoustID's
 * `/v2/lookup` and `fpcalc`'s readers take as is.
 */
export interface FingerprintRecord {
  algorithm: 'chromaprint';
  /** Chromaprint's algorithm number as fpcalc counts it (2, its default). */
  version: number;
  encoding: 'acoustid-compressed-base64url';
  value: string;
}

export function fingerprintRecord(items: Uint32Array): FingerprintRecord {
  return {
    algorithm: 'chromaprint',
    version: CHROMAPRINT_ALGORITHM,
    encoding: 'acoustid-compressed-base64url',
    value: encodeFingerprint(items),
  };
}
