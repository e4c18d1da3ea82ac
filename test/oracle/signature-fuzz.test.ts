import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertVariantAError, assertVariantCError } from './helpers/shapes.ts';
import { startStorageStack } from './storage-stack.ts';
import type { StorageStack } from './storage-stack.ts';

/** Deterministic xorshift32, so a failure reproduces. */
function random(seed: number): () => number {
  let x = seed;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 4294967296;
  };
}

const FIELDS = [
  'job_id',
  'user_address',
  'metadata_uri',
  'metadataURI',
  'audioHash',
  'name',
  'description',
  'audio_url',
  'audioUrl',
  'cover_image',
  'coverImage',
  'attributes',
  'genre',
  'bpm',
  'duration',
  'external_url',
  '__proto__',
  'constructor',
];
const STRINGS = [
  '',
  ' ',
  '\u0000',
  'ipfs://',
  'ipfs://bafkreibwnxqpvx2gp2ayinmhfyd5ns7oyjfqtbspo4zrnkpbpagn5g62eq',
  'gen_',
  'gen_00000000-0000-4000-8000-000000000000',
  'data:image/png;base64,',
  'data:image/png;base64,====',
  'https://a.example/c.mp3',
  `0x${'f'.repeat(64)}`,
  `0x${'1'.repeat(40)}`,
  '💥'.repeat(300),
  'x'.repeat(6000),
];

describe('storage endpoints under random malformed bodies', () => {
  let stack: StorageStack;
  before(async () => {
    stack = await startStorageStack();
  });
  after(() => stack.stop());

  it('never answers 5xx or success, and always in the variant error shape', async () => {
    const next = random(0x50_4e_47);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
    const value = (depth: number): unknown => {
      switch (Math.floor(next() * 8)) {
        case 0:
          return null;
        case 1:
          return next() > 0.5;
        case 2:
          return Math.floor(next() * 2e6) - 1e6;
        case 3:
          return next() * 1e308;
        case 4:
          return depth < 3 ? Array.from({ length: Math.floor(next() * 3) }, () => value(depth + 1)) : [];
        case 5:
          return depth < 3 ? object(depth + 1) : {};
        default:
          return pick(STRINGS);
      }
    };
    const object = (depth: number): Record<string, unknown> =>
      Object.fromEntries(Array.from({ length: Math.floor(next() * 5) }, () => [pick(FIELDS), value(depth)]));

    for (let round = 0; round < 3; round++) {
      // Each user stays under the hourly metadata/NFT allowance of 100 requests.
      const user = await stack.app.login();
      for (let i = 0; i < 90; i++) {
        const path = pick(['/api/signature', '/api/metadata', '/v1/nft/mint']);
        const body = next() < 0.1 ? value(0) : object(0);
        const response = await stack.app.request(path, {
          token: user.token,
          rawBody: JSON.stringify(body) ?? 'null',
          headers: { 'content-type': 'application/json' },
        });
        const label = `${path} ${JSON.stringify(body).slice(0, 160)} -> ${response.status} ${response.text.slice(0, 160)}`;
        assert.ok(response.status >= 400 && response.status < 500, label);
        if (path.startsWith('/v1/')) assertVariantCError(response.body);
        else assertVariantAError(response.body);
      }
    }
  });
});
