/**
 * The hash format of audio and metadata (core/src/content-hash.ts): `0x` + the SHA-256 of the
 * bytes in lowercase hex, the shape the audio_hash columns check and a bytes32 on chain.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { contentHash, contentHashFromSha256, sha256OfContentHash } from '../../core/src/content-hash.ts';

describe('core: the content hash format', () => {
  it("is 0x + SHA-256 in lowercase hex (FIPS 180-2's 'abc' vector)", () => {
    const hash = contentHash(new TextEncoder().encode('abc'));
    assert.equal(hash, '0xba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    assert.match(hash, /^0x[0-9a-f]{64}$/);
  });

  it('reads a store checksum as the same hash and gives the bare hex back for an upload checksum', () => {
    const bytes = Uint8Array.from([0, 1, 2, 250, 255]);
    const hash = contentHash(bytes);
    const bare = sha256OfContentHash(hash);
    assert.match(bare, /^[0-9a-f]{64}$/);
    assert.equal(contentHashFromSha256(bare), hash);
    assert.equal(contentHashFromSha256(bare.toUpperCase()), hash, 'a checksum in capitals is the same hash');
  });
});
