/**
 * The hash format of every file this project records (spec, "Files"): `0x` + the SHA-256 of the
 * exact bytes, 64 lowercase hex digits: a `bytes32` on chain. `audio_hash` is this of the MP3
 * (songs and previews, hashed once by the worker before publishing and checked again from the
 * store before a mint signature); `metadata_hash` is this of the metadata JSON behind the CID.
 * The columns check the same shape (`^0x[0-9a-f]{64}$`, core/src/db/migrations).
 */
import { createHash } from 'node:crypto';

export type ContentHash = `0x${string}`;

/** `0x` + SHA-256 of `bytes`. */
export function contentHash(bytes: Uint8Array): ContentHash {
  return contentHashFromSha256(createHash('sha256').update(bytes).digest('hex'));
}

/** The content hash of a SHA-256 given as bare hex (an object store's checksum). */
export function contentHashFromSha256(hex: string): ContentHash {
  return `0x${hex.toLowerCase()}`;
}

/** The bare SHA-256 hex of a content hash (what an S3 checksum header carries). */
export function sha256OfContentHash(hash: string): string {
  return hash.replace(/^0x/, '');
}
