import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { createObjectStore, fullObjectSha256 } from '../../core/src/object-store.ts';
import type { ObjectStore } from '../../core/src/object-store.ts';
import { startTestS3, testObjectStoreOptions } from '../../core/src/testing/s3.ts';
import type { TestS3 } from '../../core/src/testing/s3.ts';

describe('stored SHA-256 checksums (S3 additional checksums)', () => {
  const digest = createHash('sha256').update('song bytes').digest();

  it('reads a single-part or FULL_OBJECT SHA-256 as the hex of the bytes', () => {
    assert.equal(fullObjectSha256({ ChecksumSHA256: digest.toString('base64') }), digest.toString('hex'));
    assert.equal(fullObjectSha256({ ChecksumSHA256: digest.toString('base64'), ChecksumType: 'FULL_OBJECT' }), digest.toString('hex'));
  });

  it('refuses composite (multipart) checksums, other lengths and absent values: the caller downloads instead', () => {
    assert.equal(fullObjectSha256({ ChecksumSHA256: digest.toString('base64'), ChecksumType: 'COMPOSITE' }), undefined);
    assert.equal(fullObjectSha256({ ChecksumSHA256: `${digest.toString('base64')}-3` }), undefined);
    assert.equal(fullObjectSha256({ ChecksumSHA256: digest.subarray(0, 20).toString('base64') }), undefined);
    assert.equal(fullObjectSha256({}), undefined);
  });

  describe('against s3rver, which keeps no checksums', () => {
    let s3: TestS3;
    let store: ObjectStore;

    before(async () => {
      s3 = await startTestS3();
      store = createObjectStore({ ...testObjectStoreOptions(s3, 'https://cdn.example.test'), storedChecksums: true });
    });

    after(async () => {
      store.close();
      await s3.stop();
    });

    it('uploads with the SHA-256 checksum and falls back to hashing the downloaded bytes', async () => {
      const bytes = new Uint8Array(300_000).map((_, i) => (i * 13) % 256);
      const hex = createHash('sha256').update(bytes).digest('hex');
      const put = await store.put('audio/gen_c.mp3', bytes, { contentType: 'audio/mpeg', sha256: hex });
      assert.ok(put.ok);
      const hashed = await store.sha256('audio/gen_c.mp3');
      assert.ok(hashed.ok);
      assert.deepEqual(hashed.value, { hex, size: bytes.byteLength, source: 'download' });
      const got = await store.get('audio/gen_c.mp3');
      assert.ok(got.ok);
      assert.deepEqual(Buffer.from(got.value.bytes), Buffer.from(bytes));
    });

    it('reports a missing object as not_found from the HEAD as well', async () => {
      const missing = await store.sha256('audio/none.mp3');
      assert.equal(missing.ok ? null : missing.error.code, 'not_found');
    });
  });
});
