import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { SignatureV4 } from '@smithy/signature-v4';
import { bucketBaseUrl, createChecksumHead, encodeObjectKey } from '../../core/src/s3-checksum-head.ts';
import type { ObjectLocation } from '../../core/src/s3-checksum-head.ts';
import { createObjectStore } from '../../core/src/object-store.ts';
import { startTestS3, testObjectStoreOptions } from '../../core/src/testing/s3.ts';
import type { TestS3 } from '../../core/src/testing/s3.ts';

const CREDENTIALS = { accessKeyId: 'AKIDSONGMINTTEST', secretAccessKey: 'songmint-test-secret' };
const KEYS = [
  'audio/gen_0b5e0e43.mp3',
  'covers/a b+c.png',
  'ünï/çødé 🎵.mp3',
  "odd/x!'()*~@$&=;:,?#[].mp3",
  'a//double/slash',
  'trailing/',
];

function client(location: ObjectLocation, credentials = CREDENTIALS): S3Client {
  return new S3Client({
    region: location.region,
    credentials,
    ...(location.endpoint === undefined ? {} : { endpoint: location.endpoint }),
    forcePathStyle: location.forcePathStyle ?? false,
  });
}

describe('signed HEAD for stored checksums (core/src/s3-checksum-head.ts)', () => {
  it('addresses every object exactly where the S3 SDK does', async () => {
    const locations: ObjectLocation[] = [
      { endpoint: 'http://127.0.0.1:9000', region: 'us-east-1', bucket: 'songmint', forcePathStyle: true },
      { endpoint: 'https://minio.example.test:9443/', region: 'us-east-1', bucket: 'songmint', forcePathStyle: true },
      { endpoint: 'https://r2.example.test', region: 'auto', bucket: 'songmint-audio' },
      { endpoint: 'https://r2.example.test', region: 'auto', bucket: 'sm' },
      { endpoint: 'https://r2.example.test', region: 'auto', bucket: 'Songmint' },
      { endpoint: 'https://r2.example.test', region: 'auto', bucket: 'song.mint' },
      { endpoint: 'http://r2.example.test', region: 'auto', bucket: 'song.mint' },
      { endpoint: 'http://127.0.0.1:9000', region: 'us-east-1', bucket: 'songmint' },
      { endpoint: 'http://localhost:9000', region: 'us-east-1', bucket: 'songmint' },
      { region: 'us-east-1', bucket: 'songmint-audio' },
      { region: 'us-east-1', bucket: 'song--mint' },
      { region: 'us-east-1', bucket: 'Songmint' },
      { region: 'us-east-1', bucket: '192.168.1.1' },
      { region: 'eu-west-1', bucket: 'songmint.audio' },
      { region: 'eu-west-1', bucket: 'songmint-audio', forcePathStyle: true },
      { region: 'cn-north-1', bucket: 'songmint-audio' },
    ];
    for (const location of locations) {
      const sdk = client(location);
      for (const key of KEYS) {
        const presigned = new URL(await getSignedUrl(sdk, new HeadObjectCommand({ Bucket: location.bucket, Key: key }), { expiresIn: 60 }));
        const ours = new URL(`${bucketBaseUrl(location).href.replace(/\/$/, '')}/${encodeObjectKey(key)}`);
        assert.equal(`${ours.origin}${ours.pathname}`, `${presigned.origin}${presigned.pathname}`, `${JSON.stringify(location)} ${key}`);
      }
      sdk.destroy();
    }
  });

  describe('against a server that verifies SigV4', () => {
    let server: Server;
    let location: ObjectLocation;
    const seen: string[] = [];
    const digest = createHash('sha256').update('song').digest('base64');

    /** Recomputes the signature from the request as received, with the server's copy of the secret. */
    async function verified(request: IncomingMessage): Promise<boolean> {
      const authorization = request.headers.authorization ?? '';
      const signedHeaders = /SignedHeaders=([^,]+)/.exec(authorization)?.[1]?.split(';') ?? [];
      const amzDate = request.headers['x-amz-date'];
      if (typeof amzDate !== 'string' || signedHeaders.length === 0) return false;
      const headers: Record<string, string> = {};
      for (const name of signedHeaders) {
        const value = request.headers[name];
        if (typeof value === 'string') headers[name] = value;
      }
      const url = new URL(request.url ?? '/', 'http://placeholder');
      const verifier = new SignatureV4({
        credentials: CREDENTIALS,
        region: location.region,
        service: 's3',
        sha256: client(location).config.sha256,
        uriEscapePath: false,
      });
      const date = new Date(amzDate.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z'));
      const expected = await verifier.sign(
        { method: request.method ?? '', protocol: 'http:', hostname: '127.0.0.1', path: url.pathname, query: {}, headers },
        { signingDate: date },
      );
      return expected.headers.authorization === authorization;
    }

    before(async () => {
      server = createServer((request, response) => {
        void verified(request).then((ok) => {
          seen.push(`${request.method} ${request.url} ${ok ? 'valid' : 'INVALID'}`);
          if (!ok) {
            response.writeHead(403).end();
            return;
          }
          response.writeHead(200, { 'content-length': '4', 'x-amz-checksum-sha256': digest, 'x-amz-checksum-type': 'FULL_OBJECT' }).end();
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      location = {
        endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        region: 'eu-central-1',
        bucket: 'songmint',
        forcePathStyle: true,
      };
    });

    after(() => {
      server.closeAllConnections();
      server.close();
    });

    it('sends a request whose signature verifies, for keys that need encoding, and reads the checksum', async () => {
      const sdk = client(location);
      const head = createChecksumHead({ location, credentials: sdk.config.credentials, sha256: sdk.config.sha256 });
      for (const key of KEYS) {
        const result = await head(key);
        assert.deepEqual(result, { kind: 'checksum', hex: Buffer.from(digest, 'base64').toString('hex'), size: 4 }, key);
      }
      assert.equal(seen.filter((line) => line.endsWith('valid') && !line.endsWith('INVALID')).length, KEYS.length);
      head.close();
      sdk.destroy();
    });

    it('answers unknown, never a hash, when the store refuses the signature (wrong secret)', async () => {
      const sdk = client(location, { ...CREDENTIALS, secretAccessKey: 'wrong' });
      const head = createChecksumHead({ location, credentials: sdk.config.credentials, sha256: sdk.config.sha256 });
      assert.deepEqual(await head('audio/x.mp3'), { kind: 'unknown' });
      assert.match(seen.at(-1) ?? '', /INVALID$/);
      head.close();
      sdk.destroy();
    });

    it('answers unknown when nothing listens (the SDK path then reports the outage)', async () => {
      const sdk = client(location);
      const head = createChecksumHead({
        location: { ...location, endpoint: 'http://127.0.0.1:9' },
        credentials: sdk.config.credentials,
        sha256: sdk.config.sha256,
      });
      assert.deepEqual(await head('audio/x.mp3'), { kind: 'unknown' });
      head.close();
      sdk.destroy();
    });
  });

  describe('through ObjectStore.sha256 against the test S3', () => {
    let s3: TestS3;
    before(async () => {
      s3 = await startTestS3();
    });
    after(() => s3.stop());

    it('reads stored checksums by the signed HEAD, and a missing or checksum-less object still through the SDK', async () => {
      const store = createObjectStore(testObjectStoreOptions(s3));
      const bytes = Buffer.from('a song of some bytes');
      const hex = createHash('sha256').update(bytes).digest('hex');
      assert.ok((await store.put('audio/ünï code.mp3', bytes, { contentType: 'audio/mpeg', sha256: hex })).ok);
      assert.ok((await store.put('audio/plain.mp3', bytes, { contentType: 'audio/mpeg' })).ok);
      const sdk = client(
        { endpoint: s3.endpoint, region: s3.region, bucket: s3.bucket, forcePathStyle: true },
        { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
      );
      const head = createChecksumHead({
        location: { endpoint: s3.endpoint, region: s3.region, bucket: s3.bucket, forcePathStyle: true },
        credentials: sdk.config.credentials,
        sha256: sdk.config.sha256,
      });
      assert.deepEqual(await head('audio/ünï code.mp3'), { kind: 'checksum', hex, size: bytes.byteLength });
      assert.deepEqual(await head('audio/plain.mp3'), { kind: 'none' });
      assert.deepEqual(await head('audio/missing.mp3'), { kind: 'unknown' });
      const viaStore = await store.sha256('audio/ünï code.mp3');
      assert.deepEqual(viaStore.ok ? viaStore.value : null, { hex, size: bytes.byteLength, source: 'store_checksum' });
      const plain = await store.sha256('audio/plain.mp3');
      assert.deepEqual(plain.ok ? plain.value : null, { hex, size: bytes.byteLength, source: 'download' });
      const missing = await store.sha256('audio/missing.mp3');
      assert.equal(missing.ok ? null : missing.error.code, 'not_found');
      head.close();
      sdk.destroy();
      store.close();
    });
  });
});
