/**
 * Idempotency-Key on every POST that creates or charges, against the real stack (PostgreSQL,
 * pg-boss, s3rver, IPFS blockstore, a real platform key): the same key and body answer the first
 * response byte for byte without a second job, charge or signature; another body is 422 IDEM_001;
 * 20 concurrent duplicates make one job; refused requests leave the key free; keys expire after
 * 24 hours and are pruned.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, beforeEach, describe, it } from 'node:test';
import { IDEMPOTENCY_KEY_TTL_SECONDS, pruneIdempotencyKeys } from '../../oracle/src/domain/idempotency.ts';
import { metadataResponseSchema } from '../../oracle/src/http/routes/metadata.ts';
import { nftMintResponseSchema } from '../../oracle/src/http/routes/nft.ts';
import { signatureResponseSchema } from '../../oracle/src/http/routes/signature.ts';
import { generateAcceptedSchema } from '../../oracle/src/http/schemas.ts';
import { assertVariantAError, assertVariantCError } from './helpers/shapes.ts';
import type { LoggedIn, TestResponse } from './helpers/test-app.ts';
import { startStorageStack } from './storage-stack.ts';
import type { StorageStack } from './storage-stack.ts';

const METADATA_URI = 'ipfs://bafkreibwnxqpvx2gp2ayinmhfyd5ns7oyjfqtbspo4zrnkpbpagn5g62eq';

describe('Idempotency-Key', () => {
  let stack: StorageStack;
  let alice: LoggedIn;

  before(async () => {
    stack = await startStorageStack();
  });
  after(async () => {
    await stack.stop();
  });
  beforeEach(async () => {
    await stack.app.addWorkerHeartbeat();
    alice = await stack.app.login();
  });

  const jobsOf = async (userId: string) =>
    (await stack.app.db.one<{ n: number }>('SELECT count(*)::int AS n FROM generation_jobs WHERE user_id = $1', [userId])).n;
  const dailyOf = async (userId: string) =>
    (await stack.app.db.one<{ n: number }>('SELECT daily_generations AS n FROM users WHERE id = $1', [userId])).n;
  const hourlyOf = async (userId: string, category: string) =>
    (
      await stack.app.db.oneOrNone<{ n: number }>(
        'SELECT sum(count)::int AS n FROM rate_limit_counters WHERE subject = $1 AND category = $2',
        [`user:${userId}`, category],
      )
    )?.n ?? 0;
  const generate = (who: LoggedIn, body: unknown, key?: string, path = '/api/generate'): Promise<TestResponse> =>
    stack.app.request(path, { token: who.token, body, ...(key === undefined ? {} : { headers: { 'idempotency-key': key } }) });

  it('POST /api/generate: the same key and body answer the first 202 byte for byte, with one job and one daily charge', async () => {
    const key = randomUUID();
    const body = { prompt: 'lofi rain', duration: 10, seed: 3, with_lyrics: true };
    const first = await generate(alice, body, key);
    assert.equal(first.status, 202, first.text);
    generateAcceptedSchema.parse(first.body);
    assert.equal(first.headers.get('idempotent-replayed'), null);
    // The same body with its keys in another order is the same request.
    const again = await generate(alice, { with_lyrics: true, seed: 3, duration: 10, prompt: 'lofi rain' }, key);
    assert.equal(again.status, 202);
    assert.equal(again.text, first.text);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.equal(again.headers.get('location'), first.headers.get('location'));
    assert.equal(await jobsOf(alice.userId), 1);
    assert.equal(await dailyOf(alice.userId), 1);
    assert.equal(await hourlyOf(alice.userId, 'generation'), 1);

    const other = await generate(alice, { ...body, prompt: 'something else' }, key);
    assert.equal(other.status, 422);
    assertVariantAError(other.body, 'IDEM_001');
    assert.equal(await jobsOf(alice.userId), 1);

    // Keys belong to their user: Bob's identical request with Alice's key is his own job.
    const bob = await stack.app.login();
    const his = await generate(bob, body, key);
    assert.equal(his.status, 202);
    assert.notEqual(generateAcceptedSchema.parse(his.body).job_id, generateAcceptedSchema.parse(first.body).job_id);
    // A new key is a new request.
    assert.equal((await generate(alice, body, randomUUID())).status, 202);
    assert.equal(await jobsOf(alice.userId), 2);
  });

  it('20 concurrent duplicates create exactly one job and charge once; the others get the answer or 409 IDEM_002', async () => {
    const key = randomUUID();
    const body = { prompt: 'stampede', duration: 5 };
    const answers = await Promise.all(Array.from({ length: 20 }, () => generate(alice, body, key)));
    const accepted = answers.filter((answer) => answer.status === 202);
    const busy = answers.filter((answer) => answer.status === 409);
    assert.equal(accepted.length + busy.length, 20, answers.map((answer) => `${answer.status} ${answer.text}`).join('\n'));
    assert.ok(accepted.length >= 1);
    assert.equal(new Set(accepted.map((answer) => answer.text)).size, 1, 'every 202 is the same answer');
    for (const answer of busy) {
      assertVariantAError(answer.body, 'IDEM_002');
      assert.equal(answer.headers.get('retry-after'), '1');
    }
    assert.equal(await jobsOf(alice.userId), 1);
    assert.equal(await dailyOf(alice.userId), 1);
    const later = await generate(alice, body, key);
    assert.equal(later.status, 202);
    assert.equal(later.text, accepted[0]?.text);
  });

  it('a refused request is not kept: bad input (400), a tier limit (GEN_004) and no worker (GEN_002) leave the key free and charge nothing', async () => {
    const key = randomUUID();
    const bad = await generate(alice, { prompt: '', duration: 10 }, key);
    assert.equal(bad.status, 400);
    const tooLong = await generate(alice, { prompt: 'long', duration: 200 }, key);
    assert.equal(tooLong.status, 400);
    assertVariantAError(tooLong.body, 'GEN_004');
    await stack.app.db.none('DELETE FROM worker_heartbeats');
    const noWorker = await generate(alice, { prompt: 'nobody home', duration: 10 }, key);
    assert.equal(noWorker.status, 503);
    assertVariantAError(noWorker.body, 'GEN_002');
    await stack.app.addWorkerHeartbeat();
    assert.equal(await dailyOf(alice.userId), 0);
    assert.equal(
      (await stack.app.db.one<{ n: number }>('SELECT count(*)::int AS n FROM idempotency_keys WHERE user_id = $1', [alice.userId])).n,
      0,
    );
    // The key is free: a different (good) body with it runs.
    const good = await generate(alice, { prompt: 'now right', duration: 10 }, key);
    assert.equal(good.status, 202, good.text);
    assert.equal(await jobsOf(alice.userId), 1);
  });

  it('a key lives 24 hours, then the same key runs anew; expired keys are pruned', async () => {
    const key = randomUUID();
    const first = await generate(alice, { prompt: 'day one', duration: 5 }, key);
    assert.equal(first.status, 202);
    const kept = await stack.app.db.one<{ hours: number }>(
      'SELECT round(extract(epoch FROM expires_at - created_at) / 3600)::int AS hours FROM idempotency_keys WHERE user_id = $1 AND key = $2',
      [alice.userId, key],
    );
    assert.equal(kept.hours, 24);
    // 24 hours on (the session token would not live that long): the key's time is up.
    await stack.app.db.none(`UPDATE idempotency_keys SET expires_at = now() - interval '1 second' WHERE user_id = $1 AND key = $2`, [
      alice.userId,
      key,
    ]);
    const nextDay = await generate(alice, { prompt: 'day two', duration: 5 }, key);
    assert.equal(nextDay.status, 202, nextDay.text);
    assert.notEqual(nextDay.text, first.text);
    assert.equal(await jobsOf(alice.userId), 2);
    const stale = randomUUID();
    assert.equal((await generate(alice, { prompt: 'stale', duration: 5 }, stale)).status, 202);
    assert.equal(await pruneIdempotencyKeys(stack.app.db, new Date()), 0, 'nothing within its 24 hours is pruned');
    const pruned = await pruneIdempotencyKeys(stack.app.db, new Date(Date.now() + (IDEMPOTENCY_KEY_TTL_SECONDS + 1) * 1000));
    assert.ok(pruned >= 2);
    const left = await stack.app.db.manyOrNone<{ key: string }>('SELECT key FROM idempotency_keys WHERE user_id = $1', [alice.userId]);
    assert.deepEqual(left, [], 'both keys are past their 24 hours at that time');
  });

  it('POST /v1/music/generate: replays in Variant C, IDEM_001 in the Variant C shape, keys separate from /api/generate', async () => {
    const key = randomUUID();
    const body = { prompt: 'versioned', duration: 5 };
    const first = await generate(alice, body, key, '/v1/music/generate');
    assert.equal(first.status, 202);
    const again = await generate(alice, body, key, '/v1/music/generate');
    assert.equal(again.text, first.text);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    const other = await generate(alice, { ...body, duration: 6 }, key, '/v1/music/generate');
    assert.equal(other.status, 422);
    assertVariantCError(other.body, 'IDEM_001');
    assert.equal((await generate(alice, body, key)).status, 202, 'the same key on another route is another key');
    assert.equal(await jobsOf(alice.userId), 2);
  });

  it('POST /api/metadata: one publication, one hourly charge, the same 201 again', async () => {
    const job = await stack.seedJob(alice.userId, alice.address);
    const key = randomUUID();
    const body = { name: 'Once', description: 'only once', audio_url: job.audioUrl };
    const send = () => stack.app.request('/api/metadata', { token: alice.token, body, headers: { 'idempotency-key': key } });
    const first = await send();
    assert.equal(first.status, 201, first.text);
    metadataResponseSchema.parse(first.body);
    const again = await send();
    assert.equal(again.status, 201);
    assert.equal(again.text, first.text);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    const rows = await stack.app.db.one<{ n: number }>('SELECT count(*)::int AS n FROM song_metadata WHERE user_id = $1', [alice.userId]);
    assert.equal(rows.n, 1);
    assert.equal(await hourlyOf(alice.userId, 'metadata_nft'), 1, 'the replay is not charged');
  });

  it('POST /api/signature and POST /v1/nft/mint: a retry with the key answers the first signature instead of SIGN_002', async () => {
    const job = await stack.seedJob(alice.userId, alice.address);
    const key = randomUUID();
    const body = { job_id: job.publicId, user_address: alice.address, metadata_uri: METADATA_URI };
    const sign = (headers: Record<string, string>) => stack.app.request('/api/signature', { token: alice.token, body, headers });
    const first = await sign({ 'idempotency-key': key });
    assert.equal(first.status, 200, first.text);
    signatureResponseSchema.parse(first.body);
    const again = await sign({ 'idempotency-key': key });
    assert.equal(again.status, 200);
    assert.equal(again.text, first.text);
    const unkeyed = await sign({});
    assert.equal(unkeyed.status, 409);
    assertVariantAError(unkeyed.body, 'SIGN_002');
    assert.equal(await hourlyOf(alice.userId, 'metadata_nft'), 2, 'the first request and the unkeyed one');

    const other = await stack.seedJob(alice.userId, alice.address);
    const mintKey = randomUUID();
    const mint = () =>
      stack.app.request('/v1/nft/mint', {
        token: alice.token,
        body: { job_id: other.publicId, metadata_uri: METADATA_URI },
        headers: { 'idempotency-key': mintKey },
      });
    const minted = await mint();
    assert.equal(minted.status, 200, minted.text);
    nftMintResponseSchema.parse(minted.body);
    const mintedAgain = await mint();
    assert.equal(mintedAgain.text, minted.text);
    assert.equal(mintedAgain.headers.get('idempotent-replayed'), 'true');
    const signatures = await stack.app.db.one<{ n: number }>(
      'SELECT count(*)::int AS n FROM mint_signatures WHERE job_id = ANY($1::uuid[])',
      [[job.id, other.id]],
    );
    assert.equal(signatures.n, 2);
    assert.equal(await hourlyOf(alice.userId, 'metadata_nft'), 3, 'the mint replay is not charged');
  });

  it('keeps no key for a request that failed before its answer: the status is never a stored 4xx', async () => {
    const key = randomUUID();
    const missing = await stack.app.request('/api/signature', {
      token: alice.token,
      body: { job_id: `gen_${randomUUID()}`, user_address: alice.address, metadata_uri: METADATA_URI },
      headers: { 'idempotency-key': key },
    });
    assert.equal(missing.status, 404);
    assertVariantAError(missing.body, 'SIGN_001');
    const stored = await stack.app.db.oneOrNone('SELECT 1 FROM idempotency_keys WHERE user_id = $1 AND key = $2', [alice.userId, key]);
    assert.equal(stored, null);
  });
});
