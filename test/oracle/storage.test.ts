import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { parse as parseContentDisposition } from 'content-disposition';
import { createObjectStore } from '../../core/src/object-store.ts';
import { attachmentDisposition, downloadFileName } from '../../oracle/src/domain/download-name.ts';
import type { ObjectStore } from '../../core/src/object-store.ts';
import { startTestS3, testObjectStoreOptions } from '../../core/src/testing/s3.ts';
import type { TestS3 } from '../../core/src/testing/s3.ts';

describe('object store over s3rver', () => {
  let s3: TestS3;
  let store: ObjectStore;

  before(async () => {
    s3 = await startTestS3();
    store = createObjectStore(testObjectStoreOptions(s3, 'https://cdn.example.test/songs/'));
  });

  after(async () => {
    store.close();
    await s3.stop();
  });

  it('puts, heads and gets the same bytes with their content type and cache control', async () => {
    const bytes = new Uint8Array(256 * 1024).map((_, i) => (i * 31) % 251);
    const put = await store.put('audio/gen_a.mp3', bytes, {
      contentType: 'audio/mpeg',
      cacheControl: 'public, max-age=31536000, immutable',
    });
    assert.equal(put.ok, true);

    const head = await store.head('audio/gen_a.mp3');
    assert.ok(head.ok);
    assert.equal(head.value.size, bytes.byteLength);
    assert.equal(head.value.contentType, 'audio/mpeg');
    assert.equal(head.value.cacheControl, 'public, max-age=31536000, immutable');

    const got = await store.get('audio/gen_a.mp3');
    assert.ok(got.ok);
    assert.deepEqual(Buffer.from(got.value.bytes), Buffer.from(bytes));
    assert.equal(got.value.contentType, 'audio/mpeg');
  });

  it('marks private objects no-store unless told otherwise', async () => {
    const put = await store.put('preview/s1.mp3', new Uint8Array([1, 2, 3]), {
      contentType: 'audio/mpeg',
      private: true,
    });
    assert.ok(put.ok);
    const head = await store.head('preview/s1.mp3');
    assert.ok(head.ok);
    assert.equal(head.value.cacheControl, 'private, no-store');
  });

  it('hashes a stored object by streaming it', async () => {
    const bytes = new Uint8Array(3 * 1024 * 1024 + 5).map((_, i) => (i * 7) % 256);
    await store.put('audio/gen_h.mp3', bytes, { contentType: 'audio/mpeg' });
    const hashed = await store.sha256('audio/gen_h.mp3');
    assert.ok(hashed.ok);
    assert.deepEqual(hashed.value, { hex: createHash('sha256').update(bytes).digest('hex'), size: bytes.byteLength, source: 'download' });
    const missing = await store.sha256('audio/none.mp3');
    assert.equal(missing.ok ? null : missing.error.code, 'not_found');
  });

  it('reports a missing object as not_found, as a value', async () => {
    const got = await store.get('audio/missing.mp3');
    assert.deepEqual(got.ok ? null : got.error.code, 'not_found');
    const head = await store.head('audio/missing.mp3');
    assert.deepEqual(head.ok ? null : head.error.code, 'not_found');
  });

  it('rejects keys that are empty, absolute or climb out', async () => {
    for (const key of ['', '/audio/x.mp3', 'audio/../x', 'k'.repeat(1025)]) {
      const got = await store.get(key);
      assert.equal(got.ok ? null : got.error.code, 'invalid_key', key.slice(0, 20));
    }
  });

  it('deletes, and deleting again still succeeds', async () => {
    await store.put('covers/del.png', new Uint8Array([9]), { contentType: 'image/png' });
    assert.equal((await store.delete('covers/del.png')).ok, true);
    const head = await store.head('covers/del.png');
    assert.equal(head.ok ? null : head.error.code, 'not_found');
    assert.equal((await store.delete('covers/del.png')).ok, true);
  });

  it('lists every key under a prefix across pages', async () => {
    const keys = Array.from({ length: 7 }, (_, i) => `list/item-${i}.bin`);
    for (const key of keys) await store.put(key, new Uint8Array([1]), { contentType: 'application/octet-stream' });
    await store.put('other/item.bin', new Uint8Array([1]), { contentType: 'application/octet-stream' });
    const listed = await store.list('list/', { pageSize: 3 });
    assert.ok(listed.ok);
    assert.deepEqual(listed.value.map((o) => o.key).sort(), keys);
    assert.ok(listed.value.every((o) => o.size === 1));
  });

  it('builds public URLs from the public base URL without doubling slashes', () => {
    assert.equal(store.publicUrl('audio/gen_x.mp3'), 'https://cdn.example.test/songs/audio/gen_x.mp3');
  });

  it('presigns GET URLs that serve the bytes and validates the lifetime', async () => {
    await store.put('preview/p.mp3', new Uint8Array([4, 5, 6]), { contentType: 'audio/mpeg', private: true });
    const url = await store.presignedGetUrl('preview/p.mp3', 3600);
    assert.ok(url.ok);
    assert.match(url.value, /X-Amz-Expires=3600/);
    const response = await fetch(url.value);
    assert.equal(response.status, 200);
    assert.deepEqual([...new Uint8Array(await response.arrayBuffer())], [4, 5, 6]);

    const tooLong = await store.presignedGetUrl('preview/p.mp3', 8 * 24 * 3600);
    assert.equal(tooLong.ok, false);
  });

  it('answers a presigned GET with the Content-Disposition it was signed with (a download saved under the song title, non-ASCII too)', async () => {
    await store.put('lossless/gen_d.wav', new Uint8Array([7, 8]), { contentType: 'audio/wav', private: true });
    await store.put('audio/gen_d.mp3', new Uint8Array([9]), { contentType: 'audio/mpeg' });
    const name = downloadFileName('Café “Nuit” / 東京 *mix*', 'gen_3f1c2b9e-7a4d-4e55-9b0a-2d6f8c1e5a70', 'wav');
    assert.equal(name, 'Café “Nuit” 東京 mix - 3f1c2b9e.wav');
    for (const key of ['lossless/gen_d.wav', 'audio/gen_d.mp3']) {
      const url = await store.presignedGetUrl(key, 600, { contentDisposition: attachmentDisposition(name) });
      assert.ok(url.ok);
      assert.match(url.value, /response-content-disposition=attachment/);
      const response = await fetch(url.value);
      assert.equal(response.status, 200, key);
      const header = response.headers.get('content-disposition') ?? '';
      // Read back by jshttp's parser (the one Express uses), not by our writer.
      const parsed = parseContentDisposition(header);
      assert.equal(parsed.type, 'attachment');
      assert.equal(parsed.parameters.filename, name, 'filename* carries the exact UTF-8 name');
      assert.equal(/filename="([^"]*)"/.exec(header)?.[1], 'Cafe _Nuit_ __ mix - 3f1c2b9e.wav', 'an ASCII fallback');
      await response.arrayBuffer();
    }
    // A tampered disposition is outside the signature's query: a store that checks signatures
    // refuses it; s3rver checks none (core/src/testing/s3.ts), so only the header is asserted here.
    const plain = await store.presignedGetUrl('audio/gen_d.mp3', 600);
    assert.ok(plain.ok);
    assert.equal((await fetch(plain.value)).headers.get('content-disposition'), null, 'no disposition unless asked');
  });

  it('reports an unreachable server as unavailable', async () => {
    const dead = createObjectStore({
      endpoint: 'http://127.0.0.1:1',
      region: 'us-east-1',
      bucket: 'b',
      credentials: { accessKeyId: 'x', secretAccessKey: 'y' },
      forcePathStyle: true,
      publicBaseUrl: 'http://localhost',
    });
    const got = await dead.get('audio/x.mp3');
    dead.close();
    assert.equal(got.ok ? null : got.error.code, 'unavailable');
  });
});
