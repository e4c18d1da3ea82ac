import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import express from 'express';
import { CID } from 'multiformats/cid';
import * as raw from 'multiformats/codecs/raw';
import { sha256 } from 'multiformats/hashes/sha2';
import { gatewayRouter } from '../../oracle/src/http/routes/gateway.ts';
import { createPinningClient } from '../../oracle/src/ipfs/pinning-client.ts';
import { assertVariantAError } from './helpers/shapes.ts';
import { metadataResponseSchema, metadataResponseVariantBSchema } from '../../oracle/src/http/routes/metadata.ts';
import type { LoggedIn } from './helpers/test-app.ts';
import { PUBLIC_BASE_URL, dataUri, pngBytes, startStorageStack } from './storage-stack.ts';
import type { StorageStack } from './storage-stack.ts';
import { JOB_STATUS } from '../../core/src/jobs/job-state.ts';

interface Document {
  name: string;
  description: string;
  image?: string;
  animation_url: string;
  attributes: Array<{ trait_type: string; value: string | number; display_type?: string }>;
  properties: Record<string, string>;
}

const COVER_LIMIT = 5 * 1024 * 1024;

describe('POST /api/metadata', () => {
  let stack: StorageStack;
  let alice: LoggedIn;
  let bob: LoggedIn;

  before(async () => {
    stack = await startStorageStack();
    alice = await stack.app.login();
    bob = await stack.app.login();
  });
  after(() => stack.stop());

  const upload = (who: LoggedIn, body: unknown) => stack.app.request('/api/metadata', { token: who.token, body });

  async function documentAt(cidText: string): Promise<{ bytes: Uint8Array; doc: Document }> {
    const content = await stack.ipfs.cat(CID.parse(cidText), 1_000_000);
    assert.ok(content.ok);
    return { bytes: content.value, doc: JSON.parse(new TextDecoder().decode(content.value)) as Document };
  }

  it('stores the cover, adds ERC-721 JSON to IPFS and returns ipfs://<cid> with the sha256 of those bytes', async () => {
    const job = await stack.seedJob(alice.userId, alice.address);
    const cover = pngBytes(32, 32);
    const response = await upload(alice, {
      name: 'Neon Driveway',
      description: 'Synthwave at night',
      audio_url: job.audioUrl,
      cover_image: dataUri('image/png', cover),
      attributes: { genre: 'Synthwave', mood: 'Nostalgic', bpm: 118 },
    });
    assert.equal(response.status, 201, response.text);
    const body = metadataResponseSchema.parse(response.body);
    assert.equal(body.metadata_uri, `ipfs://${body.cid}`);
    assert.equal(body.job_id, job.publicId);

    const { bytes, doc } = await documentAt(body.cid);
    assert.equal(body.metadata_hash, `0x${createHash('sha256').update(bytes).digest('hex')}`);
    // Small JSON is one raw block: its CID is the raw-codec CIDv1 of its sha256.
    assert.equal(body.cid, CID.createV1(raw.code, await sha256.digest(bytes)).toString());

    const coverCid = CID.createV1(raw.code, await sha256.digest(cover)).toString();
    assert.equal(body.image, `ipfs://${coverCid}`);
    assert.equal(body.cover_url, `${PUBLIC_BASE_URL}/covers/${job.publicId}.png`);
    assert.deepEqual(doc, {
      name: 'Neon Driveway',
      description: 'Synthwave at night',
      image: `ipfs://${coverCid}`,
      animation_url: job.audioUrl,
      attributes: [
        { trait_type: 'Genre', value: 'Synthwave' },
        { trait_type: 'Mood', value: 'Nostalgic' },
        { trait_type: 'Duration', value: 30, display_type: 'number' },
        { trait_type: 'BPM', value: 118, display_type: 'number' },
      ],
      properties: {
        audio_url: job.audioUrl,
        audio_hash: job.audioHash,
        job_id: job.publicId,
        cover_url: `${PUBLIC_BASE_URL}/covers/${job.publicId}.png`,
        cover_mime_type: 'image/png',
        generation: {
          prompt: 'test song',
          lyrics: null,
          seed: null,
          model: null,
          content_credentials: null,
          outside_audio: { seconds: 0, spans: [] },
        },
      },
    });
    assert.equal(new TextDecoder().decode(bytes).includes(' '), true, 'values keep their spaces');
    assert.deepEqual(Object.keys(JSON.parse(new TextDecoder().decode(bytes)) as object), Object.keys(doc).sort());

    const stored = await stack.objectStore.get(`covers/${job.publicId}.png`);
    assert.ok(stored.ok);
    assert.deepEqual(Buffer.from(stored.value.bytes), Buffer.from(cover));
    assert.equal(stored.value.contentType, 'image/png');

    const row = await stack.app.db.one<{ job_id: string; metadata_hash: string; cover_cid: string; user_id: string }>(
      'SELECT job_id, metadata_hash, cover_cid, user_id FROM song_metadata WHERE cid = $1',
      [body.cid],
    );
    assert.deepEqual(row, { job_id: job.id, metadata_hash: body.metadata_hash, cover_cid: coverCid, user_id: alice.userId });
  });

  it("names an edited song's source in the generation record (edit_of)", async () => {
    const source = await stack.seedJob(alice.userId, alice.address);
    const edited = await stack.seedJob(alice.userId, alice.address);
    await stack.app.db.none(`UPDATE generation_jobs SET edit_source_id = $2, edit = '{"task":"repaint","start":4,"end":6}' WHERE id = $1`, [
      edited.id,
      source.id,
    ]);
    const response = await upload(alice, { name: 'Bridge retake', description: 'repainted at 4-6 s', audio_url: edited.audioUrl });
    assert.equal(response.status, 201, response.text);
    const { doc } = await documentAt(metadataResponseSchema.parse(response.body).cid);
    assert.deepEqual((doc.properties as unknown as { generation: { edit_of?: unknown } }).generation.edit_of, {
      job_id: source.publicId,
      audio_hash: source.audioHash,
      task: 'repaint',
      start: 4,
      end: 6,
    });
  });

  it('is deterministic: the same input gives the same CID and hash', async () => {
    const input = {
      name: 'Same',
      description: 'Twice',
      audio_url: 'https://example.com/a.mp3',
      attributes: { mood: 'Calm', genre: 'Ambient' },
    };
    const first = metadataResponseSchema.parse((await upload(alice, input)).body);
    const second = metadataResponseSchema.parse(
      (
        await upload(alice, {
          attributes: { genre: 'Ambient', mood: 'Calm' },
          audio_url: input.audio_url,
          description: 'Twice',
          name: 'Same',
        })
      ).body,
    );
    assert.equal(first.cid, second.cid);
    assert.equal(first.metadata_hash, second.metadata_hash);
    assert.equal(first.job_id, undefined, 'an outside audio URL links no job');
  });

  it('accepts other audio URLs and stores their cover under its content hash', async () => {
    const jpeg = new Uint8Array([
      0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0xff, 0xd9,
    ]);
    const response = await upload(alice, {
      name: 'Outside',
      audio_url: 'https://example.com/song.mp3',
      cover_image: dataUri('image/jpeg', jpeg),
    });
    assert.equal(response.status, 201, response.text);
    const body = metadataResponseSchema.parse(response.body);
    const key = `covers/${createHash('sha256').update(jpeg).digest('hex')}.png`;
    assert.equal(body.cover_url, `${PUBLIC_BASE_URL}/${key}`);
    const head = await stack.objectStore.head(key);
    assert.ok(head.ok);
    assert.equal(head.value.contentType, 'image/jpeg');
    const { doc } = await documentAt(body.cid);
    assert.equal(doc.description, '');
    assert.deepEqual(doc.attributes, []);
  });

  it('Variant B: {name, description, audioUrl} answers {metadataURI, ipfsHash}', async () => {
    const job = await stack.seedJob(alice.userId, alice.address);
    const response = await upload(alice, { name: 'B side', description: 'camel', audioUrl: job.audioUrl });
    assert.equal(response.status, 201, response.text);
    const body = metadataResponseVariantBSchema.parse(response.body);
    assert.equal(body.metadataURI, `ipfs://${body.ipfsHash}`);
    const { doc } = await documentAt(body.ipfsHash);
    assert.equal(doc.properties.audio_hash, job.audioHash);
  });

  it("refuses Songmint audio that is not the caller's completed job", async () => {
    const bobsJob = await stack.seedJob(bob.userId, bob.address);
    const queued = await stack.seedJob(alice.userId, alice.address, JOB_STATUS.queued);
    for (const audioUrl of [bobsJob.audioUrl, stack.objectStore.publicUrl(`audio/${queued.publicId}.mp3`)]) {
      const response = await upload(alice, { name: 'Not mine', audio_url: audioUrl });
      assert.equal(response.status, 400, audioUrl);
      assertVariantAError(response.body, 'VALIDATION_ERROR');
    }
  });

  it('accepts a cover of exactly 5 MB and refuses 5 MB + 1 byte with 413', async () => {
    const atLimit = await upload(alice, {
      name: 'Big',
      audio_url: 'https://example.com/a.mp3',
      cover_image: dataUri('image/png', pngBytes(8, 8, COVER_LIMIT)),
    });
    assert.equal(atLimit.status, 201, atLimit.text.slice(0, 300));
    const over = await upload(alice, {
      name: 'Too big',
      audio_url: 'https://example.com/a.mp3',
      cover_image: dataUri('image/png', pngBytes(8, 8, COVER_LIMIT + 1)),
    });
    assert.equal(over.status, 413);
    assertVariantAError(over.body, 'PAYLOAD_TOO_LARGE');
  });

  it('refuses bad input with 400 (or 413) in the Variant A shape and writes nothing', async () => {
    const before = await stack.app.db.one<{ n: number }>('SELECT count(*)::int AS n FROM song_metadata');
    const png = dataUri('image/png', pngBytes(4, 4));
    const good = { name: 'Song', audio_url: 'https://example.com/a.mp3' };
    const cases: Array<[unknown, number]> = [
      [{}, 400],
      [[], 400],
      ['song', 400],
      [{ ...good, name: '' }, 400],
      [{ ...good, name: '   ' }, 400],
      [{ ...good, name: 'x'.repeat(201) }, 400],
      [{ ...good, name: 42 }, 400],
      [{ ...good, name: 'a\u0000b' }, 400],
      [{ ...good, description: 'd'.repeat(5001) }, 400],
      [{ ...good, audio_url: 'ftp://example.com/a.mp3' }, 400],
      [{ ...good, audio_url: 'not a url' }, 400],
      [{ name: 'Song' }, 400],
      [{ ...good, cover_image: 'iVBORw0KGgo=' }, 400],
      [{ ...good, cover_image: dataUri('text/plain', new TextEncoder().encode('hello')) }, 400],
      [{ ...good, cover_image: dataUri('image/png', new TextEncoder().encode('not really a png')) }, 400],
      [{ ...good, cover_image: png.replace('image/png', 'image/jpeg') }, 400],
      [{ ...good, cover_image: dataUri('image/svg+xml', new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>')) }, 400],
      [{ ...good, cover_image: 'data:image/png;base64,@@@@' }, 400],
      [{ ...good, cover_image: 7 }, 400],
      [{ ...good, attributes: { bpm: 'fast' } }, 400],
      [{ ...good, attributes: { bpm: 12.5 } }, 400],
      [{ ...good, attributes: { duration: -1 } }, 400],
      [{ ...good, attributes: { colour: 'red' } }, 400],
      [{ ...good, attributes: [] }, 400],
      [{ ...good, unknown: 1 }, 400],
      [{ name: 'B', audioUrl: 'https://example.com/a.mp3', audio_url: 'https://example.com/a.mp3' }, 400],
    ];
    for (const [body, status] of cases) {
      const response = await stack.app.request('/api/metadata', {
        token: bob.token,
        rawBody: JSON.stringify(body),
        headers: { 'content-type': 'application/json' },
      });
      assert.equal(response.status, status, `${JSON.stringify(body).slice(0, 120)} -> ${response.text.slice(0, 200)}`);
      assertVariantAError(response.body, status === 413 ? 'PAYLOAD_TOO_LARGE' : 'VALIDATION_ERROR');
    }
    const invalidJson = await stack.app.request('/api/metadata', {
      token: bob.token,
      rawBody: '{"name": "x",',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(invalidJson.status, 400);
    assertVariantAError(invalidJson.body, 'VALIDATION_ERROR');
    const huge = await stack.app.request('/api/metadata', {
      token: bob.token,
      rawBody: JSON.stringify({ ...good, description: 'x'.repeat(9 * 1024 * 1024) }),
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(huge.status, 413);
    assertVariantAError(huge.body, 'PAYLOAD_TOO_LARGE');

    const afterCount = await stack.app.db.one<{ n: number }>('SELECT count(*)::int AS n FROM song_metadata');
    assert.equal(afterCount.n, before.n);
  });

  describe('GET /ipfs/:cid (development gateway)', () => {
    let server: Server;
    let base: string;

    before(async () => {
      const app = express();
      app.use('/ipfs', gatewayRouter({ ipfs: stack.ipfs }));
      server = app.listen(0, '127.0.0.1');
      await new Promise<void>((resolve) => server.once('listening', () => resolve()));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/ipfs`;
    });
    after(async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });

    it('serves uploaded metadata and covers with their type and immutable caching', async () => {
      const user = await stack.app.login();
      const cover = pngBytes(5, 5);
      const upload = await stack.app.request('/api/metadata', {
        token: user.token,
        body: { name: 'Gateway', audio_url: 'https://example.com/g.mp3', cover_image: dataUri('image/png', cover) },
      });
      const body = metadataResponseSchema.parse(upload.body);

      const metadata = await fetch(`${base}/${body.cid}`);
      assert.equal(metadata.status, 200);
      assert.equal(metadata.headers.get('content-type'), 'application/json; charset=utf-8');
      assert.equal(metadata.headers.get('cache-control'), 'public, max-age=31536000, immutable');
      const bytes = new Uint8Array(await metadata.arrayBuffer());
      assert.equal(`0x${createHash('sha256').update(bytes).digest('hex')}`, body.metadata_hash);

      const image = await fetch(`${base}/${body.image?.replace('ipfs://', '')}`);
      assert.equal(image.headers.get('content-type'), 'image/png');
      assert.deepEqual(Buffer.from(await image.arrayBuffer()), Buffer.from(cover));

      const revalidated = await fetch(`${base}/${body.cid}`, { headers: { 'if-none-match': `"${body.cid}"` } });
      assert.equal(revalidated.status, 304);
    });

    it('answers 404 for content it does not hold and 400 for a malformed CID', async () => {
      const unknown = CID.createV1(raw.code, await sha256.digest(new TextEncoder().encode('nobody added this')));
      const missing = await fetch(`${base}/${unknown.toString()}`);
      assert.equal(missing.status, 404);
      assertVariantAError(await missing.json(), 'NOT_FOUND');
      const bad = await fetch(`${base}/not-a-cid`);
      assert.equal(bad.status, 400);
      assertVariantAError(await bad.json(), 'VALIDATION_ERROR');
    });
  });
});

describe('POST /api/metadata with a remote pinning service', () => {
  const token = 'pin-token';
  let service: Server;
  let mode: 'ok' | 'other-cid' = 'ok';
  const pinned: string[] = [];
  let stack: StorageStack;
  let user: LoggedIn;

  before(async () => {
    // Stand-in for the outside pinning service (no internet here): POST /pins of the spec.
    service = createServer((req, res) => {
      let text = '';
      req.on('data', (chunk: Buffer) => (text += chunk.toString()));
      req.on('end', () => {
        res.setHeader('content-type', 'application/json');
        if (req.headers.authorization !== `Bearer ${token}` || req.method !== 'POST' || req.url !== '/pins') {
          res.statusCode = 401;
          res.end(JSON.stringify({ error: { reason: 'UNAUTHORIZED' } }));
          return;
        }
        const { cid } = JSON.parse(text) as { cid: string };
        const answered = mode === 'ok' ? cid : 'bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy';
        if (mode === 'ok') pinned.push(cid);
        res.statusCode = 202;
        res.end(
          JSON.stringify({
            requestid: `r${pinned.length}`,
            status: 'pinning',
            created: new Date().toISOString(),
            pin: { cid: answered },
            delegates: [],
          }),
        );
      });
    });
    await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
    const endpoint = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
    stack = await startStorageStack({ pinning: createPinningClient({ endpoint, accessToken: token }) });
    user = await stack.app.login();
  });
  after(async () => {
    await stack.stop();
    await new Promise<void>((resolve) => service.close(() => resolve()));
  });

  it('pins the metadata and the cover and reports the pin status', async () => {
    const cover = pngBytes(2, 2);
    const response = await stack.app.request('/api/metadata', {
      token: user.token,
      body: { name: 'Pinned', audio_url: 'https://example.com/p.mp3', cover_image: dataUri('image/png', cover) },
    });
    assert.equal(response.status, 201, response.text);
    const body = metadataResponseSchema.parse(response.body);
    assert.equal(body.pin_status, 'pinning');
    assert.deepEqual(pinned, [body.image?.replace('ipfs://', ''), body.cid]);
  });

  it('refuses with 503 and writes nothing when the service pins another CID', async () => {
    mode = 'other-cid';
    const cover = pngBytes(3, 3);
    const response = await stack.app.request('/api/metadata', {
      token: user.token,
      body: { name: 'Mismatch', audio_url: 'https://example.com/m.mp3', cover_image: dataUri('image/png', cover) },
    });
    assert.equal(response.status, 503);
    assertVariantAError(response.body, 'SERVICE_UNAVAILABLE');
    const rows = await stack.app.db.one<{ n: number }>("SELECT count(*)::int AS n FROM song_metadata WHERE document->>'name' = 'Mismatch'");
    assert.equal(rows.n, 0);
    const key = `covers/${createHash('sha256').update(cover).digest('hex')}.png`;
    const head = await stack.objectStore.head(key);
    assert.equal(head.ok ? null : head.error.code, 'not_found', 'no cover written for a refused upload');
  });

  it('gives the hourly charge of a 503 back before the answer reaches the client', async () => {
    mode = 'other-cid';
    const charged = async (): Promise<number> =>
      (
        await stack.app.db.oneOrNone<{ n: number }>(
          "SELECT sum(count)::int AS n FROM rate_limit_counters WHERE subject = $1 AND category = 'metadata_nft'",
          [`user:${user.userId}`],
        )
      )?.n ?? 0;
    const before = await charged();
    const refused = await stack.app.request('/api/metadata', {
      token: user.token,
      body: { name: 'Refunded', audio_url: 'https://example.com/r.mp3' },
    });
    assert.equal(refused.status, 503);
    assertVariantAError(refused.body, 'SERVICE_UNAVAILABLE');
    // Read at once, with no wait: the refund committed before the answer was sent.
    assert.equal(await charged(), before, 'the 503 used up none of the hourly limit');
    const limit = Number(refused.headers.get('x-ratelimit-limit'));
    assert.equal(Number(refused.headers.get('x-ratelimit-remaining')), limit - before, 'the header counts the request given back');

    mode = 'ok';
    const served = await stack.app.request('/api/metadata', {
      token: user.token,
      body: { name: 'Served', audio_url: 'https://example.com/s.mp3' },
    });
    assert.equal(served.status, 201, served.text);
    assert.equal(await charged(), before + 1, 'a served request is counted');
    assert.equal(Number(served.headers.get('x-ratelimit-remaining')), limit - before - 1);
  });
});
