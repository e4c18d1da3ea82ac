import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { unixfs } from '@helia/unixfs';
import { FsBlockstore } from 'blockstore-fs';
import { importer } from 'ipfs-unixfs-importer';
import { CID } from 'multiformats/cid';
import * as raw from 'multiformats/codecs/raw';
import { sha256 } from 'multiformats/hashes/sha2';
import { openIpfsContentStore, parseCid } from '../../oracle/src/ipfs/content-store.ts';
import type { IpfsContentStore } from '../../oracle/src/ipfs/content-store.ts';
import { createPinningClient } from '../../oracle/src/ipfs/pinning-client.ts';
import { makeTempDir } from '../../core/src/testing/temp-dirs.ts';
import type { TempDir } from '../../core/src/testing/temp-dirs.ts';

/** Deterministic pseudo-random bytes (xorshift32), so the DAG has many distinct chunks. */
function pseudoRandomBytes(length: number, seed: number): Uint8Array {
  const out = new Uint8Array(length);
  let x = seed;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

describe('IPFS content store (unixfs-v1-2025 over a filesystem blockstore)', () => {
  let temp: TempDir;
  let dir: string;
  let store: IpfsContentStore;

  before(async () => {
    temp = await makeTempDir('ipfs');
    dir = temp.path;
    store = await openIpfsContentStore(join(dir, 'blocks'));
  });

  after(async () => {
    await store.close();
    await temp.remove();
  });

  it('gives small content the raw-codec CIDv1 of its sha256 (bafkrei...)', async () => {
    const bytes = new TextEncoder().encode('{"name":"Song"}');
    const cid = await store.add(bytes);
    const expected = CID.createV1(raw.code, await sha256.digest(bytes));
    assert.equal(cid.toString(), expected.toString());
    assert.match(cid.toString(), /^bafkrei/);
  });

  it('chunks at 1 MiB with raw leaves: equals Helia defaults, differs from the 256 KiB legacy profile', async () => {
    const bytes = pseudoRandomBytes(3 * 1024 * 1024 + 17, 0x5eed);
    const ours = await store.add(bytes);

    const heliaDir = join(dir, 'helia-default');
    const heliaBlocks = new FsBlockstore(heliaDir);
    await heliaBlocks.open();
    const heliaDefault = await unixfs({ blockstore: heliaBlocks }).addBytes(bytes);
    let legacy: CID | undefined;
    for await (const entry of importer([{ content: bytes }], heliaBlocks)) legacy = entry.cid;
    await heliaBlocks.close();

    assert.equal(ours.toString(), heliaDefault.toString());
    assert.ok(legacy);
    assert.notEqual(ours.toString(), legacy.toString());
    assert.equal(ours.version, 1);
    assert.equal(ours.code, 0x70, 'a multi-chunk file has a dag-pb root');
    // Golden value: a library update that changes the profile's output must fail here.
    assert.equal(ours.toString(), 'bafybeicb3tqdx5yf2aq6yvi3e6myaotub7uh6gm5d7uaqbrflvsf7o56ji');
  });

  it('returns the stored bytes by CID, and survives reopening', async () => {
    const bytes = pseudoRandomBytes(1_500_000, 7);
    const cid = await store.add(bytes);
    const got = await store.cat(cid, 10_000_000);
    assert.ok(got.ok);
    assert.deepEqual(Buffer.from(got.value), Buffer.from(bytes));

    await store.close();
    store = await openIpfsContentStore(join(dir, 'blocks'));
    const again = await store.cat(cid, 10_000_000);
    assert.ok(again.ok);
    assert.equal(again.value.byteLength, bytes.byteLength);
  });

  it('reports unknown CIDs, oversized files and malformed CID text as values', async () => {
    const unknown = CID.createV1(raw.code, await sha256.digest(new Uint8Array([1, 2, 3, 4])));
    const missing = await store.cat(unknown, 100);
    assert.equal(missing.ok ? null : missing.error.code, 'not_found');

    const cid = await store.add(pseudoRandomBytes(5000, 3));
    const big = await store.cat(cid, 4999);
    assert.equal(big.ok ? null : big.error.code, 'too_large');

    const bad = parseCid('not-a-cid');
    assert.equal(bad.ok ? null : bad.error.code, 'invalid_cid');
    const good = parseCid(cid.toString());
    assert.ok(good.ok && good.value.equals(cid));
  });
});

/**
 * A stand-in for a remote pinning service (the machine has no internet): the subset of the
 * IPFS Pinning Service API the client uses, over real HTTP.
 */
interface FakePinningService {
  url: string;
  requests: { method: string; path: string; auth: string | undefined; body: unknown }[];
  /** What the service answers for the next POST. */
  mode: 'ok' | 'other-cid' | 'failed' | 'garbage' | 'server-error';
  close(): Promise<void>;
}

async function startPinningService(token: string): Promise<FakePinningService> {
  const pins = new Map<string, { cid: string; status: string }>();
  const service: FakePinningService = {
    url: '',
    requests: [],
    mode: 'ok',
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => {
      const body: unknown = text === '' ? undefined : JSON.parse(text);
      service.requests.push({ method: req.method ?? '', path: req.url ?? '', auth: req.headers.authorization, body });
      res.setHeader('content-type', 'application/json');
      if (req.headers.authorization !== `Bearer ${token}`) {
        res.statusCode = 401;
        res.end(JSON.stringify({ error: { reason: 'UNAUTHORIZED', details: 'bad token' } }));
        return;
      }
      if (service.mode === 'server-error') {
        res.statusCode = 503;
        res.end('{}');
        return;
      }
      if (req.method === 'POST' && req.url === '/psa/pins') {
        const { cid } = body as { cid: string };
        const requestid = `req-${pins.size + 1}`;
        const pinned = service.mode === 'other-cid' ? 'bafkreiaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' : cid;
        const status = service.mode === 'failed' ? 'failed' : 'queued';
        pins.set(requestid, { cid: pinned, status });
        res.statusCode = 202;
        res.end(
          service.mode === 'garbage'
            ? '{"hello":1}'
            : JSON.stringify({ requestid, status, created: new Date().toISOString(), pin: { cid: pinned }, delegates: [] }),
        );
        return;
      }
      const match = /^\/psa\/pins\/([^/]+)$/.exec(req.url ?? '');
      const pin = match?.[1] === undefined ? undefined : pins.get(match[1]);
      if (req.method === 'GET' && match && pin) {
        res.end(
          JSON.stringify({
            requestid: match[1],
            status: 'pinned',
            created: new Date().toISOString(),
            pin: { cid: pin.cid },
            delegates: [],
          }),
        );
        return;
      }
      res.statusCode = 404;
      res.end(JSON.stringify({ error: { reason: 'NOT_FOUND' } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  service.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/psa`;
  return service;
}

describe('pinning service client', () => {
  const token = 'secret-token';
  let service: FakePinningService;
  let cid: CID;

  before(async () => {
    service = await startPinningService(token);
    cid = CID.createV1(raw.code, await sha256.digest(new TextEncoder().encode('metadata')));
  });
  after(() => service.close());

  it('pins with the bearer token and the computed CID, then reads the status', async () => {
    service.mode = 'ok';
    const client = createPinningClient({ endpoint: `${service.url}/`, accessToken: token });
    const pinned = await client.pin({ cid, name: 'song.json', meta: { job: 'gen_1' } });
    assert.ok(pinned.ok);
    assert.equal(pinned.value.status, 'queued');
    const sent = service.requests.at(-1);
    assert.equal(sent?.auth, `Bearer ${token}`);
    assert.deepEqual(sent?.body, { cid: cid.toString(), name: 'song.json', meta: { job: 'gen_1' } });

    const status = await client.status(pinned.value.requestId, cid);
    assert.ok(status.ok);
    assert.equal(status.value.status, 'pinned');
  });

  it('rejects a service that pinned a different CID', async () => {
    service.mode = 'other-cid';
    const client = createPinningClient({ endpoint: service.url, accessToken: token });
    const pinned = await client.pin({ cid });
    assert.equal(pinned.ok ? null : pinned.error.code, 'cid_mismatch');
  });

  it('maps a wrong token, a failed pin, a malformed answer, a 5xx and a dead service to codes', async () => {
    const wrong = await createPinningClient({ endpoint: service.url, accessToken: 'nope' }).pin({ cid });
    assert.equal(wrong.ok ? null : wrong.error.code, 'unauthorized');
    assert.equal(wrong.ok ? null : wrong.error.message, 'UNAUTHORIZED: bad token');

    const client = createPinningClient({ endpoint: service.url, accessToken: token });
    service.mode = 'failed';
    const failed = await client.pin({ cid });
    assert.equal(failed.ok ? null : failed.error.code, 'pin_failed');
    service.mode = 'garbage';
    const garbage = await client.pin({ cid });
    assert.equal(garbage.ok ? null : garbage.error.code, 'bad_response');
    service.mode = 'server-error';
    const down = await client.pin({ cid });
    assert.equal(down.ok ? null : down.error.code, 'unavailable');

    const dead = await createPinningClient({ endpoint: 'http://127.0.0.1:1/psa', accessToken: token, timeoutMs: 2000 }).pin({ cid });
    assert.equal(dead.ok ? null : dead.error.code, 'unavailable');
  });
});
