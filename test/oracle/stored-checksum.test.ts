import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DeleteObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { createObjectStore, fullObjectSha256 } from '../../core/src/object-store.ts';
import type { ObjectStore } from '../../core/src/object-store.ts';
import { publishObject } from '../../core/src/publish-object.ts';
import { startTestS3, testObjectStoreOptions } from '../../core/src/testing/s3.ts';
import type { TestS3 } from '../../core/src/testing/s3.ts';
import { makeTempDir } from '../../core/src/testing/temp-dirs.ts';

const sha256 = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest();

describe('stored SHA-256 checksums (S3 additional checksums)', () => {
  const digest = sha256('song bytes');

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

  describe('against the test S3 server (s3rver with SHA-256 checksums added)', () => {
    let s3: TestS3;
    let store: ObjectStore;
    let downloadOnly: ObjectStore;
    let client: S3Client;
    const bytes = new Uint8Array(300_000).map((_, i) => (i * 13) % 256);
    const hex = sha256(bytes).toString('hex');

    before(async () => {
      s3 = await startTestS3();
      store = createObjectStore(testObjectStoreOptions(s3, 'https://cdn.example.test'));
      downloadOnly = createObjectStore({ ...testObjectStoreOptions(s3, 'https://cdn.example.test'), storedChecksums: false });
      client = new S3Client({
        endpoint: s3.endpoint,
        region: s3.region,
        forcePathStyle: true,
        credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
      });
    });

    after(async () => {
      store.close();
      downloadOnly.close();
      client.destroy();
      await s3.stop();
    });

    it('a create-only upload (If-None-Match: *) never replaces an object: the late one is refused and the first bytes and hash stay', async () => {
      const key = 'audio/gen_create-only.mp3';
      const late = bytes.map((byte) => byte ^ 0xff);
      const first = await store.put(key, bytes, { contentType: 'audio/mpeg', sha256: hex, ifAbsent: true });
      assert.ok(first.ok, JSON.stringify(first));
      const refused = await store.put(key, late, { contentType: 'audio/mpeg', sha256: sha256(late).toString('hex'), ifAbsent: true });
      assert.equal(refused.ok ? 'stored' : refused.error.code, 'exists');
      const kept = await store.get(key);
      assert.ok(kept.ok);
      assert.deepEqual(Buffer.from(kept.value.bytes), Buffer.from(bytes), 'the first bytes stay');
      for (const reader of [store, downloadOnly]) {
        const hashed = await reader.sha256(key);
        assert.ok(hashed.ok);
        assert.equal(hashed.value.hex, hex, 'the hash of the bytes kept, whichever way it is read');
      }
      // Once deleted, the key takes a create-only upload again.
      assert.ok((await store.delete(key)).ok);
      assert.ok((await store.put(key, late, { contentType: 'audio/mpeg', ifAbsent: true })).ok);
    });

    it('publishObject clears an object left at the key, writes create-only, and a late upload after it is refused', async () => {
      const key = 'audio/gen_publish.mp3';
      const leftover = bytes.map((byte) => byte ^ 0x55);
      const late = bytes.map((byte) => byte ^ 0xaa);
      assert.ok((await store.put(key, leftover, { contentType: 'audio/mpeg' })).ok, 'a dead attempt left its object');
      const published = await publishObject(store, key, bytes, { contentType: 'audio/mpeg', sha256: hex });
      assert.ok(published.ok, JSON.stringify(published));
      // The dead attempt's upload held by a partition arrives after the publication.
      const refused = await store.put(key, late, { contentType: 'audio/mpeg', sha256: sha256(late).toString('hex'), ifAbsent: true });
      assert.equal(refused.ok ? 'stored' : refused.error.code, 'exists');
      const kept = await store.get(key);
      assert.ok(kept.ok);
      assert.deepEqual(Buffer.from(kept.value.bytes), Buffer.from(bytes), 'the published bytes stay');
      const hashed = await store.sha256(key);
      assert.equal(hashed.ok ? hashed.value.hex : hashed.error.code, hex);
    });

    it('publishObject refuses bytes that do not match their SHA-256 and leaves nothing at a new key', async () => {
      const key = 'audio/gen_publish-corrupt.mp3';
      const published = await publishObject(store, key, bytes, {
        contentType: 'audio/mpeg',
        sha256: sha256('other bytes').toString('hex'),
      });
      assert.equal(published.ok ? 'stored' : published.error.code, 'failed');
      const head = await store.head(key);
      assert.equal(head.ok ? 'present' : head.error.code, 'not_found');
    });

    it('keeps the SHA-256 sent with an upload and answers it to a HEAD, without downloading', async () => {
      const put = await store.put('audio/gen_c.mp3', bytes, { contentType: 'audio/mpeg', sha256: hex });
      assert.ok(put.ok);
      const hashed = await store.sha256('audio/gen_c.mp3');
      assert.ok(hashed.ok);
      assert.deepEqual(hashed.value, { hex, size: bytes.byteLength, source: 'store_checksum' });
      const head = await client.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: 'audio/gen_c.mp3', ChecksumMode: 'ENABLED' }));
      assert.equal(head.ChecksumType, 'FULL_OBJECT');
      const got = await store.get('audio/gen_c.mp3');
      assert.ok(got.ok);
      assert.deepEqual(Buffer.from(got.value.bytes), Buffer.from(bytes));
    });

    it('with stored checksums off, hashes the downloaded bytes to the same value', async () => {
      const hashed = await downloadOnly.sha256('audio/gen_c.mp3');
      assert.ok(hashed.ok);
      assert.deepEqual(hashed.value, { hex, size: bytes.byteLength, source: 'download' });
    });

    it('refuses an upload whose bytes do not match its SHA-256 (BadDigest) and keeps the previous object', async () => {
      const other = new Uint8Array(bytes).fill(7, 0, 10);
      await assert.rejects(
        client.send(
          new PutObjectCommand({
            Bucket: s3.bucket,
            Key: 'audio/gen_c.mp3',
            Body: other,
            ChecksumSHA256: sha256(bytes).toString('base64'),
          }),
        ),
        (error: Error) => error.name === 'BadDigest',
      );
      const hashed = await store.sha256('audio/gen_c.mp3');
      assert.deepEqual(hashed.ok ? hashed.value : null, { hex, size: bytes.byteLength, source: 'store_checksum' });
    });

    it('forgets the checksum when the object is replaced without one, so the replacement is hashed', async () => {
      const replacement = new Uint8Array(bytes).fill(1, 0, 100);
      const put = await store.put('audio/gen_d.mp3', bytes, { contentType: 'audio/mpeg', sha256: hex });
      assert.ok(put.ok);
      await client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: 'audio/gen_d.mp3', Body: replacement }));
      const hashed = await store.sha256('audio/gen_d.mp3');
      assert.deepEqual(hashed.ok ? hashed.value : null, {
        hex: sha256(replacement).toString('hex'),
        size: bytes.byteLength,
        source: 'download',
      });
    });

    it('drops the checksum with a deleted object, so a later upload without one has none', async () => {
      assert.ok((await store.put('audio/gen_e.mp3', bytes, { contentType: 'audio/mpeg', sha256: hex })).ok);
      await client.send(new DeleteObjectCommand({ Bucket: s3.bucket, Key: 'audio/gen_e.mp3' }));
      assert.equal(((await store.sha256('audio/gen_e.mp3')) as { ok: false; error: { code: string } }).error.code, 'not_found');
      await client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: 'audio/gen_e.mp3', Body: bytes }));
      const head = await client.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: 'audio/gen_e.mp3', ChecksumMode: 'ENABLED' }));
      assert.equal(head.ChecksumSHA256, undefined);
    });

    it('answers no checksum without checksum mode, as S3 does', async () => {
      const head = await client.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: 'audio/gen_c.mp3' }));
      assert.equal(head.ChecksumSHA256, undefined);
    });

    it('keeps checksums across a restart of the server on the same directory', async () => {
      const temp = await makeTempDir('s3-restart');
      const directory = join(temp.path, 'objects');
      try {
        for (const round of [1, 2]) {
          const server = await startTestS3({ directory });
          const restarted = createObjectStore(testObjectStoreOptions(server));
          if (round === 1) assert.ok((await restarted.put('audio/gen_f.mp3', bytes, { contentType: 'audio/mpeg', sha256: hex })).ok);
          const hashed = await restarted.sha256('audio/gen_f.mp3');
          assert.deepEqual(hashed.ok ? hashed.value : null, { hex, size: bytes.byteLength, source: 'store_checksum' }, `round ${round}`);
          restarted.close();
          await server.stop();
        }
      } finally {
        await temp.remove();
      }
    });

    it('reports a missing object as not_found from the HEAD as well', async () => {
      const missing = await store.sha256('audio/none.mp3');
      assert.equal(missing.ok ? null : missing.error.code, 'not_found');
    });
  });
});
