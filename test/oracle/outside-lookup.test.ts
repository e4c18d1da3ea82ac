/**
 * The optional outside lookup of uploads (oracle/src/domain/outside-fingerprint-check.ts) against a
 * local HTTP double of AcoustID's `/v2/lookup` (the real service is not reachable from tests): the
 * request it sends, how it reads answers and failures, and an upload it knows refused through
 * POST /api/uploads.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { decodeUploadedAudio } from '../../core/src/audio/uploaded-audio.ts';
import { fingerprintPcm } from '../../core/src/fingerprint/chromaprint.ts';
import { decodeFingerprint } from '../../core/src/fingerprint/encoding.ts';
import { makeTempDir } from '../../core/src/testing/temp-dirs.ts';
import { createOutsideFingerprintCheck } from '../../oracle/src/domain/outside-fingerprint-check.ts';
import { variantAErrorSchema } from '../../oracle/src/http/schemas.ts';
import { runReference } from '../support/reference-tools.ts';
import { syntheticFingerprint } from './helpers/fingerprints.ts';
import { startStorageStack } from './storage-stack.ts';
import type { StorageStack } from './storage-stack.ts';

interface Received {
  form: URLSearchParams;
  contentType: string | undefined;
}

/** A stand-in for AcoustID's lookup: records each request and answers what `reply` says. */
async function startDouble(
  reply: (form: URLSearchParams, res: ServerResponse) => void,
): Promise<{ url: string; received: Received[]; server: Server }> {
  const received: Received[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
      received.push({ form, contentType: req.headers['content-type'] });
      reply(form, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v2/lookup`, received, server };
}

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

function quietLogger() {
  const warnings: string[] = [];
  return { warnings, logger: { warn: (_fields: Record<string, unknown>, message: string) => void warnings.push(message) } };
}

describe('outside fingerprint lookup (AcoustID-compatible, against a local double)', () => {
  const items = syntheticFingerprint(7, 300);
  let answer: (form: URLSearchParams, res: ServerResponse) => void = (_form, res) => json(res, 200, { status: 'ok', results: [] });
  let double: Awaited<ReturnType<typeof startDouble>>;
  before(async () => {
    double = await startDouble((form, res) => answer(form, res));
  });
  after(() => new Promise<void>((resolve) => double.server.close(() => resolve())));

  const check = (minScore = 0.9, timeoutMs = 2000) => {
    const { logger, warnings } = quietLogger();
    return { warnings, lookup: createOutsideFingerprintCheck({ url: double.url, clientKey: 'test-key', minScore, timeoutMs }, logger) };
  };

  it("sends AcoustID's /v2/lookup form: client, whole seconds, the compressed fingerprint, recording ids asked", async () => {
    answer = (_form, res) => json(res, 200, { status: 'ok', results: [] });
    const { lookup } = check();
    assert.equal(await lookup(items, 37.4), null);
    const sent = double.received.at(-1);
    assert.equal(sent?.contentType, 'application/x-www-form-urlencoded');
    assert.deepEqual(
      [sent?.form.get('client'), sent?.form.get('duration'), sent?.form.get('meta'), sent?.form.get('format')],
      ['test-key', '37', 'recordingids', 'json'],
    );
    const decoded = decodeFingerprint(sent?.form.get('fingerprint') ?? '');
    assert.ok(decoded.ok);
    assert.deepEqual(decoded.value.items, items);
  });

  it('names the best recording at or above the minimum score, else nothing', async () => {
    answer = (_form, res) =>
      json(res, 200, {
        status: 'ok',
        results: [
          { id: 'track-low', score: 0.5, recordings: [{ id: 'mbid-low' }] },
          { id: 'track-high', score: 0.97, recordings: [{ id: 'mbid-high' }] },
          { id: 'track-bare', score: 0.93 },
        ],
      });
    assert.deepEqual(await check().lookup(items, 30), { service: new URL(double.url).host, recordingId: 'mbid-high', score: 0.97 });
    assert.equal(await check(0.99).lookup(items, 30), null);
    answer = (_form, res) => json(res, 200, { status: 'ok', results: [{ id: 'track-bare', score: 0.95 }] });
    assert.equal((await check().lookup(items, 30))?.recordingId, 'track-bare', 'a track without linked recordings is named by its id');
  });

  it('takes the upload without an answer it cannot use, and says so: an error, a failure status, junk, too large, too slow', async () => {
    const cases: [string, (form: URLSearchParams, res: ServerResponse) => void][] = [
      ['error', (_f, res) => json(res, 400, { status: 'error', error: { code: 4, message: 'invalid API key' } })],
      ['500', (_f, res) => res.writeHead(500, { 'content-type': 'text/html' }).end('<html>down</html>')],
      ['junk', (_f, res) => json(res, 200, { results: 'no' })],
      ['large', (_f, res) => res.writeHead(200, { 'content-length': String(4 * 1024 * 1024) }).end('{')],
      ['slow', (_f, res) => setTimeout(() => json(res, 200, { status: 'ok', results: [{ id: 't', score: 1 }] }), 1500)],
    ];
    for (const [name, reply] of cases) {
      answer = reply;
      const { lookup, warnings } = check(0.9, 500);
      assert.equal(await lookup(items, 30), null, name);
      assert.equal(warnings.length, 1, `${name}: ${warnings.join('; ')}`);
    }
  });

  describe('POST /api/uploads with the lookup configured', () => {
    let stack: StorageStack;
    let known: Uint8Array;
    let unknown: Uint8Array;
    let knownItems: Uint32Array;
    const dir = makeTempDir('outside-lookup');
    before(async () => {
      const folder = (await dir).path;
      const make = async (name: string, expr: string) => {
        const path = join(folder, name);
        await runReference('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', `aevalsrc=${expr}:d=6:s=44100`, '-c:a', 'pcm_s16le', path]);
        return new Uint8Array(await readFile(path));
      };
      known = await make('known.wav', '0.3*sin(2*PI*(220+110*floor(t))*t)');
      unknown = await make('unknown.wav', '0.3*sin(2*PI*(330+55*floor(2*t))*t)');
      const decoded = await decodeUploadedAudio(known, { maxSeconds: 60 });
      assert.ok(decoded.ok);
      knownItems = fingerprintPcm(decoded.value.channels, decoded.value.sampleRate);
      // The double knows one recording: the fingerprint of known.wav, exactly.
      answer = (form, res) => {
        const sent = decodeFingerprint(form.get('fingerprint') ?? '');
        const same = sent.ok && sent.value.items.length === knownItems.length && sent.value.items.every((v, i) => v === knownItems[i]);
        json(res, 200, {
          status: 'ok',
          results: same ? [{ id: 'track-1', score: 0.98, recordings: [{ id: 'b1a9c0e9-d987-4042-ae91-78d6a3267d69' }] }] : [],
        });
      };
      const { logger } = quietLogger();
      stack = await startStorageStack({
        outsideCheck: createOutsideFingerprintCheck({ url: double.url, clientKey: 'test-key', minScore: 0.9, timeoutMs: 2000 }, logger),
      });
    });
    after(async () => {
      await stack.stop();
      await (await dir).remove();
    });

    it('refuses audio the service knows with 409 UPLOAD_005 naming its recording, stores nothing, gives the charge back; takes the rest', async () => {
      const carol = await stack.app.login();
      const upload = (bytes: Uint8Array) =>
        fetch(`${stack.app.baseUrl}/api/uploads`, {
          method: 'POST',
          headers: { authorization: `Bearer ${carol.token}`, 'Songmint-Rights-Confirmed': 'true' },
          body: bytes,
        });
      const charged = async () =>
        (
          await stack.app.db.one<{ n: number }>(
            `SELECT coalesce(sum(count), 0)::int AS n FROM rate_limit_counters WHERE subject = $1 AND category = 'general'`,
            [`user:${carol.userId}`],
          )
        ).n;
      const refused = await upload(known);
      const body: unknown = await refused.json();
      assert.equal(refused.status, 409, JSON.stringify(body));
      const { error } = variantAErrorSchema.parse(body);
      assert.equal(error.code, 'UPLOAD_005');
      assert.match(error.details, /b1a9c0e9-d987-4042-ae91-78d6a3267d69/);
      assert.equal(await charged(), 0, 'the charge was given back');
      const rows = await stack.app.db.one<{ n: number }>('SELECT count(*)::int AS n FROM uploads WHERE user_id = $1', [carol.userId]);
      assert.equal(rows.n, 0);
      const taken = await upload(unknown);
      assert.equal(taken.status, 201, await taken.text());
      assert.equal(await charged(), 1);
    });
  });
});
