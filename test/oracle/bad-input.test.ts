import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp } from './helpers/test-app.ts';
import type { LoggedIn, TestApp } from './helpers/test-app.ts';
import { assertVariantAError, assertVariantCError } from './helpers/shapes.ts';
import { openEventStream } from './helpers/sse-client.ts';
import { ANONYMOUS_HOURLY_LIMIT } from '../../oracle/src/domain/request-charge.ts';
import { startStorageStack } from './storage-stack.ts';
import type { StorageStack } from './storage-stack.ts';

describe('bad input: no 5xx, every error in the spec shape, nothing charged', () => {
  let app: TestApp;
  let user: LoggedIn;
  before(async () => {
    app = await startTestApp();
    await app.addWorkerHeartbeat('bad-input-worker', 4);
    user = await app.login();
    await app.setTier(user.userId, 'enterprise');
  });
  after(async () => {
    await app.stop();
  });

  const post = (body: unknown) => app.request('/api/generate', { token: user.token, body });

  it('boundary values: duration 4/5/240/241, steps 26/27/60/61, prompt 500/501 characters', async () => {
    const cases: Array<[object, number, string | null]> = [
      [{ prompt: 'b', duration: 4 }, 400, 'VALIDATION_ERROR'],
      [{ prompt: 'b', duration: 5 }, 202, null],
      [{ prompt: 'b', duration: 240 }, 202, null],
      [{ prompt: 'b', duration: 241 }, 400, 'GEN_004'],
      [{ prompt: 'b', duration: 5, steps: 26 }, 400, 'VALIDATION_ERROR'],
      [{ prompt: 'b', duration: 5, steps: 27 }, 202, null],
      [{ prompt: 'b', duration: 5, steps: 60 }, 202, null],
      [{ prompt: 'b', duration: 5, steps: 61 }, 400, 'VALIDATION_ERROR'],
      [{ prompt: 'p'.repeat(500), duration: 5 }, 202, null],
      [{ prompt: 'p'.repeat(501), duration: 5 }, 400, 'GEN_003'],
      // 500 characters outside the BMP are 1000 UTF-16 units: still 500 characters.
      [{ prompt: '🎵'.repeat(500), duration: 5 }, 202, null],
      [{ prompt: '🎵'.repeat(501), duration: 5 }, 400, 'GEN_003'],
    ];
    for (const [body, status, code] of cases) {
      const res = await post(body);
      assert.equal(res.status, status, JSON.stringify(body).slice(0, 80));
      if (code !== null) assertVariantAError(res.body, code);
    }
  });

  it('wrong types, missing and unknown fields, odd unicode', async () => {
    const before = await app.db.one('SELECT daily_generations FROM users WHERE id = $1', [user.userId]);
    const cases: Array<[unknown, string]> = [
      [{}, 'GEN_003'],
      [{ duration: 10 }, 'GEN_003'],
      [{ prompt: 'x' }, 'VALIDATION_ERROR'],
      [{ prompt: 42, duration: 10 }, 'GEN_003'],
      [{ prompt: null, duration: 10 }, 'GEN_003'],
      [{ prompt: '', duration: 10 }, 'GEN_003'],
      [{ prompt: '   \n\t ', duration: 10 }, 'GEN_003'],
      [{ prompt: 'nul\u0000byte', duration: 10 }, 'GEN_003'],
      [{ prompt: 'x', duration: '10' }, 'VALIDATION_ERROR'],
      [{ prompt: 'x', duration: 10.5 }, 'VALIDATION_ERROR'],
      [{ prompt: 'x', duration: -5 }, 'VALIDATION_ERROR'],
      [{ prompt: 'x', duration: 1e308 }, 'GEN_004'],
      [{ prompt: 'x', duration: true }, 'VALIDATION_ERROR'],
      [{ prompt: 'x', duration: 10, steps: '27' }, 'VALIDATION_ERROR'],
      [{ prompt: 'x', duration: 10, seed: 1.5 }, 'VALIDATION_ERROR'],
      [{ prompt: 'x', duration: 10, seed: 2 ** 60 }, 'VALIDATION_ERROR'],
      [{ prompt: 'x', duration: 10, lyrics: 7 }, 'VALIDATION_ERROR'],
      [{ prompt: 'x', duration: 10, lyrics: 'l'.repeat(5001) }, 'VALIDATION_ERROR'],
      [{ prompt: 'x', duration: 10, lyrics: 'a\u0000b' }, 'VALIDATION_ERROR'],
      [{ prompt: 'x', duration: 10, with_lyrics: 'yes' }, 'VALIDATION_ERROR'],
      [{ prompt: 'x', duration: 10, tier: 'enterprise' }, 'VALIDATION_ERROR'],
      [[], 'VALIDATION_ERROR'],
      ['just a string', 'VALIDATION_ERROR'],
      [null, 'VALIDATION_ERROR'],
      [42, 'VALIDATION_ERROR'],
    ];
    for (const [body, code] of cases) {
      const res = await post(body);
      assert.equal(res.status, 400, JSON.stringify(body).slice(0, 80));
      assertVariantAError(res.body, code);
    }
    const after = await app.db.one('SELECT daily_generations FROM users WHERE id = $1', [user.userId]);
    assert.deepEqual(after, before);
  });

  it('accepts unicode prompts and lyrics (emoji, RTL, combining marks, lone surrogates) and stores them', async () => {
    for (const prompt of [
      '😀 джаз 音楽 مرحبا',
      'e\u0301\u0301\u0301',
      '\ud800 lone surrogate',
      '<script>alert(1)</script>',
      "'; DROP TABLE users; --",
    ]) {
      const res = await post({ prompt, duration: 5, lyrics: `[verse]\n${prompt}` });
      assert.equal(res.status, 202, prompt);
    }
    const stored = await app.db.one(`SELECT count(*)::int AS n FROM generation_jobs WHERE prompt = $1`, ["'; DROP TABLE users; --"]);
    assert.equal(stored.n, 1);
  });

  it('invalid JSON, wrong content type, oversized body', async () => {
    const headers = { 'content-type': 'application/json' };
    for (const raw of ['{', '{"prompt": "x", "duration": 10,}', "{'prompt': 'x'}", 'nul', '\u0000']) {
      const res = await app.request('/api/generate', { token: user.token, rawBody: raw, headers, method: 'POST' });
      assert.equal(res.status, 400, raw);
      assertVariantAError(res.body, 'VALIDATION_ERROR');
    }
    const text = await app.request('/api/generate', {
      token: user.token,
      rawBody: 'prompt=x&duration=10',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      method: 'POST',
    });
    assert.equal(text.status, 400);
    assertVariantAError(text.body, 'VALIDATION_ERROR');
    const big = await app.request('/api/generate', { token: user.token, body: { prompt: 'x', duration: 10, lyrics: 'a'.repeat(200_000) } });
    assert.equal(big.status, 413);
    assertVariantAError(big.body, 'PAYLOAD_TOO_LARGE');
    const bigC = await app.request('/v1/music/generate', {
      token: user.token,
      body: { prompt: 'x', duration: 10, lyrics: 'a'.repeat(200_000) },
    });
    assert.equal(bigC.status, 413);
    assertVariantCError(bigC.body, 'PAYLOAD_TOO_LARGE');
    const badC = await app.request('/v1/music/generate', { token: user.token, rawBody: '{', headers, method: 'POST' });
    assert.equal(badC.status, 400);
    assertVariantCError(badC.body, 'VALIDATION_ERROR');
  });

  it('odd paths and methods: 404 in the variant shape', async () => {
    const cases: Array<[string, string, 'A' | 'C']> = [
      ['GET', '/api/generate/gen_not-a-uuid', 'A'],
      ['GET', `/api/generate/${encodeURIComponent('gen_%00')}`, 'A'],
      ['GET', `/api/generate/gen_${'f'.repeat(5000)}`, 'A'],
      ['DELETE', '/api/generate', 'A'],
      ['GET', '/api/nothing-here', 'A'],
      ['GET', '/v1/nothing-here', 'C'],
    ];
    for (const [method, path, variant] of cases) {
      const res = await app.request(path, { token: user.token, method });
      assert.equal(res.status, 404, `${method} ${path.slice(0, 60)}`);
      if (variant === 'A') assertVariantAError(res.body, 'NOT_FOUND');
      else assertVariantCError(res.body, 'NOT_FOUND');
    }
  });

  // Issue 15 (items 1, 2, 5): Idempotency-Key, cancel and list.
  it('Idempotency-Key: empty, too long, non-ASCII or control characters are 400 and nothing is charged or kept', async () => {
    const before = await app.db.one('SELECT daily_generations FROM users WHERE id = $1', [user.userId]);
    // (HTTP trims a header value's outer whitespace, so ' ' arrives empty.)
    for (const key of ['', ' ', 'k'.repeat(256), 'tab\there', 'clé']) {
      for (const path of ['/api/generate', '/v1/music/generate']) {
        const res = await app.request(path, { token: user.token, body: { prompt: 'x', duration: 5 }, headers: { 'idempotency-key': key } });
        assert.equal(res.status, 400, `${path} ${JSON.stringify(key).slice(0, 40)}`);
        if (path.startsWith('/v1')) assertVariantCError(res.body, 'VALIDATION_ERROR');
        else assertVariantAError(res.body, 'VALIDATION_ERROR');
      }
    }
    const longest = await app.request('/api/generate', {
      token: user.token,
      body: { prompt: 'x', duration: 5, seed: 1 },
      headers: { 'idempotency-key': 'k'.repeat(255) },
    });
    assert.equal(longest.status, 202);
    const after = await app.db.one<{ daily_generations: number }>('SELECT daily_generations FROM users WHERE id = $1', [user.userId]);
    assert.equal(after.daily_generations, (before as { daily_generations: number }).daily_generations + 1, 'only the valid key ran');
    const kept = await app.db.one<{ n: number }>('SELECT count(*)::int AS n FROM idempotency_keys WHERE user_id = $1', [user.userId]);
    assert.equal(kept.n, 1);
    // A bad body with a good key is refused and not kept either.
    const bad = await app.request('/api/generate', {
      token: user.token,
      body: { prompt: '', duration: 5 },
      headers: { 'idempotency-key': 'bad-body' },
    });
    assert.equal(bad.status, 400);
    assertVariantAError(bad.body, 'GEN_003');
    assert.equal(
      (await app.db.one<{ n: number }>('SELECT count(*)::int AS n FROM idempotency_keys WHERE user_id = $1', [user.userId])).n,
      1,
    );
  });

  it('GET /api/generate: bad limit, cursor or parameters are 400 VALIDATION_ERROR', async () => {
    const forge = (text: string) => Buffer.from(text).toString('base64url');
    const uuid = '00000000-0000-4000-8000-000000000000';
    const forged = [
      forge('2026-01-01T00:00:00.000000Z|not-a-uuid'),
      forge(`2026-02-31T00:00:00.000000Z|${uuid}`),
      forge(`2026-11-23T24:00:00.000000Z|${uuid}`),
      forge(`0000-01-01T00:00:00.000000Z|${uuid}`),
      forge(`2026-11-23T13:07:37.123Z|${uuid}`),
    ].map((cursor) => `cursor=${cursor}`);
    const queries = [
      'limit=0',
      'limit=101',
      'limit=-1',
      'limit=2.5',
      'limit=abc',
      'limit=',
      'limit=1&limit=2',
      'cursor=',
      'cursor=%%%',
      'cursor=abc',
      ...forged,
      `cursor=${'A'.repeat(300)}`,
      'cursor[a]=1',
      'page=2',
      'offset=10',
    ];
    const general = async () =>
      (
        await app.db.oneOrNone<{ n: number }>(
          `SELECT sum(count)::int AS n FROM rate_limit_counters WHERE subject = $1 AND category = 'general'`,
          [`user:${user.userId}`],
        )
      )?.n ?? 0;
    const chargedBefore = await general();
    for (const query of queries) {
      const res = await app.request(`/api/generate?${query}`, { token: user.token });
      assert.equal(res.status, 400, query);
      assertVariantAError(res.body, 'VALIDATION_ERROR');
    }
    assert.equal(await general(), chargedBefore, 'a refused list query is not charged');
    const fine = await app.request('/api/generate?limit=100', { token: user.token });
    assert.equal(fine.status, 200);
    // A well-formed cursor past every job is an empty last page, not an error.
    const past = await app.request(`/api/generate?cursor=${forge(`1999-01-01T00:00:00.000000Z|${uuid}`)}`, { token: user.token });
    assert.equal(past.status, 200);
    // `total` counts every job the list matches, whatever the page (the library's "20 of N").
    const everyJob = (fine.body as { jobs: unknown[] }).jobs.length;
    assert.deepEqual(past.body, { jobs: [], next_cursor: null, total: everyJob });
    const anonymous = await app.request('/api/generate');
    assert.equal(anonymous.status, 401);
    assertVariantAError(anonymous.body, 'AUTH_ERROR');
  });

  it('POST /api/generate/{job_id}/cancel: malformed, unknown and absent ids are 404; no token is 401', async () => {
    for (const id of [
      'gen_not-a-uuid',
      'nope',
      `gen_${'f'.repeat(500)}`,
      encodeURIComponent('gen_%00'),
      'gen_00000000-0000-4000-8000-000000000000',
    ]) {
      const res = await app.request(`/api/generate/${id}/cancel`, { token: user.token, method: 'POST' });
      assert.equal(res.status, 404, id.slice(0, 40));
      assertVariantAError(res.body, 'NOT_FOUND');
    }
    const anonymous = await app.request('/api/generate/gen_00000000-0000-4000-8000-000000000000/cancel', { method: 'POST' });
    assert.equal(anonymous.status, 401);
    assertVariantAError(anonymous.body, 'AUTH_ERROR');
    const wrongMethod = await app.request('/api/generate/gen_00000000-0000-4000-8000-000000000000/cancel', {
      token: user.token,
      method: 'GET',
    });
    assert.equal(wrongMethod.status, 404);
    assertVariantAError(wrongMethod.body, 'NOT_FOUND');
  });

  it('Variant B bodies: only prompt and duration', async () => {
    const headers = { prefer: 'wait' };
    for (const body of [{ prompt: 'x', duration: 10, steps: 27 }, { prompt: 'x' }, { audioUrl: 'x' }]) {
      const res = await app.request('/api/generate', { token: user.token, body, headers });
      assert.equal(res.status, 400, JSON.stringify(body));
      assertVariantAError(res.body);
    }
  });

  // Issue 15, item 4: the webhook field and the webhook secret routes.
  it('webhook: malformed, insecure, private and loopback targets are 400 on both generate routes; nothing is charged or created', async () => {
    const charged = async () => ({
      daily: (await app.db.one<{ n: number }>('SELECT daily_generations AS n FROM users WHERE id = $1', [user.userId])).n,
      jobs: (await app.db.one<{ n: number }>('SELECT count(*)::int AS n FROM generation_jobs WHERE user_id = $1', [user.userId])).n,
      hourly:
        (
          await app.db.oneOrNone<{ n: number }>(
            `SELECT sum(count)::int AS n FROM rate_limit_counters WHERE subject = $1 AND category = 'generation'`,
            [`user:${user.userId}`],
          )
        )?.n ?? 0,
    });
    const before = await charged();
    const webhooks: unknown[] = [
      42,
      null,
      true,
      ['https://hooks.example/'],
      '',
      'not a url',
      '/relative/path',
      'hooks.example/path',
      'https:hooks.example',
      'ftp://hooks.example/',
      'javascript:alert(1)',
      'https://user:pw@hooks.example/',
      'https://user@hooks.example/',
      `https://hooks.example/${'a'.repeat(2048)}`,
      `https://hooks.example/${'é'.repeat(400)}`, // 422 characters, 2422 once percent-encoded
      'http://hooks.example/', // http only for allow-listed hosts (none here, as in production)
      'https://127.0.0.1/',
      'https://127.1/',
      'https://2130706433/', // 127.0.0.1 as a number
      'https://0x7f000001/',
      'https://0.0.0.0/',
      'https://10.0.0.1/',
      'https://172.16.5.4/',
      'https://192.168.1.1/',
      'https://100.64.0.1/',
      'https://169.254.169.254/latest/meta-data',
      'https://224.0.0.1/',
      'https://255.255.255.255/',
      'https://[::1]/',
      'https://[::]/',
      'https://[fe80::1]/',
      'https://[fd00::1]/',
      'https://[ff02::1]/',
      'https://[::ffff:127.0.0.1]/',
      'https://[::ffff:10.0.0.1]/',
      'https://[64:ff9b::7f00:1]/',
      'https://hooks.example/\u0000',
    ];
    for (const webhook of webhooks) {
      for (const path of ['/api/generate', '/v1/music/generate']) {
        const res = await app.request(path, { token: user.token, body: { prompt: 'x', duration: 5, webhook } });
        assert.equal(res.status, 400, `${path} ${JSON.stringify(webhook).slice(0, 60)}`);
        if (path.startsWith('/v1')) assertVariantCError(res.body, 'VALIDATION_ERROR');
        else assertVariantAError(res.body, 'VALIDATION_ERROR');
      }
    }
    // Variant B (synchronous) has no webhook.
    const variantB = await app.request('/api/generate', {
      token: user.token,
      body: { prompt: 'x', duration: 5, webhook: 'https://hooks.example/' },
      headers: { prefer: 'wait' },
    });
    assert.equal(variantB.status, 400);
    assertVariantAError(variantB.body, 'VALIDATION_ERROR');
    assert.deepEqual(await charged(), before);
    // Public https targets (names are checked again at delivery) are accepted.
    for (const webhook of ['https://hooks.example/songmint?x=1', 'https://[2606:4700:4700::1111]/hook', 'https://93.184.215.14:8443/']) {
      const res = await post({ prompt: 'x', duration: 5, webhook });
      assert.equal(res.status, 202, `${webhook}: ${res.text}`);
    }
  });

  it('GET /api/webhooks/secret and POST /api/webhooks/secret/rotate: 401 without a token, 404 for other methods and paths', async () => {
    for (const [method, path] of [
      ['GET', '/api/webhooks/secret'],
      ['POST', '/api/webhooks/secret/rotate'],
    ] as const) {
      const anonymous = await app.request(path, { method });
      assert.equal(anonymous.status, 401, path);
      assertVariantAError(anonymous.body, 'AUTH_ERROR');
      const forged = await app.request(path, { method, token: 'not.a.jwt' });
      assert.equal(forged.status, 401, path);
    }
    for (const [method, path] of [
      ['POST', '/api/webhooks/secret'],
      ['GET', '/api/webhooks/secret/rotate'],
      ['DELETE', '/api/webhooks/secret'],
      ['GET', '/api/webhooks'],
      ['GET', '/api/webhooks/secret/x'],
    ] as const) {
      const res = await app.request(path, { method, token: user.token });
      assert.equal(res.status, 404, `${method} ${path}`);
      assertVariantAError(res.body, 'NOT_FOUND');
    }
    // A body on the rotate route is ignored, whatever it is.
    const rotated = await app.request('/api/webhooks/secret/rotate', {
      token: user.token,
      rawBody: '{not json',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(rotated.status, 200);
  });

  it('odd If-None-Match headers on the job status route: 200 with the view, never 304 or 5xx', async () => {
    const created = await post({ prompt: 'conditional', duration: 5 });
    assert.equal(created.status, 202);
    const { job_id } = created.body as { job_id: string };
    for (const tag of ['garbage', 'W/', '""', ',,,', `"${'x'.repeat(6000)}"`, 'W/"a", "b", \u00e9']) {
      const res = await app.request(`/api/generate/${job_id}`, { token: user.token, headers: { 'if-none-match': tag } });
      assert.equal(res.status, 200, tag.slice(0, 40));
      assert.equal((res.body as { job_id: string }).job_id, job_id);
    }
  });

  // Issue 15, item 3: the job event stream (its behaviour: test/oracle/job-events.test.ts).
  it('GET /api/generate/{job_id}/events: bad ids 404, bad tokens 401, odd Last-Event-ID still streams; never 5xx', async () => {
    const events = (id: string) => `${app.baseUrl}/api/generate/${id}/events`;
    for (const id of [
      'gen_not-a-uuid',
      'nope',
      `gen_${'f'.repeat(500)}`,
      encodeURIComponent('gen_%00'),
      'gen_00000000-0000-4000-8000-000000000000',
      '%20',
    ]) {
      const res = await openEventStream(events(id), { token: user.token });
      assert.equal(res.status, 404, id.slice(0, 40));
      assertVariantAError(res.errorBody, 'NOT_FOUND');
    }
    const malformed = await app.request('/api/generate/%E0%A4%A/events', { token: user.token });
    assert.ok(malformed.status === 400 || malformed.status === 404, String(malformed.status));
    assertVariantAError(malformed.body);
    for (const authorization of ['', 'Bearer', 'Bearer x.y.z', 'Basic dXNlcjpwYXNz', `Bearer ${'a'.repeat(5000)}`]) {
      const res = await openEventStream(events('gen_00000000-0000-4000-8000-000000000000'), { headers: { authorization } });
      assert.equal(res.status, 401, authorization.slice(0, 20));
      assertVariantAError(res.errorBody, 'AUTH_ERROR');
    }
    const wrongMethod = await app.request('/api/generate/gen_00000000-0000-4000-8000-000000000000/events', {
      token: user.token,
      method: 'POST',
      body: {},
    });
    assert.equal(wrongMethod.status, 404);
    assertVariantAError(wrongMethod.body, 'NOT_FOUND');

    const created = await post({ prompt: 'events with odd ids', duration: 5 });
    const { job_id } = created.body as { job_id: string };
    for (const lastEventId of ['garbage', '', 'completed', `${'x'.repeat(5000)}`, 'queued-999', '\u00e9\u00e8']) {
      const stream = await openEventStream(events(job_id), { token: user.token, headers: { 'last-event-id': lastEventId } });
      try {
        assert.equal(stream.status, 200, lastEventId.slice(0, 40));
        const first = await stream.nextEvent();
        assert.equal(first?.id, 'queued-0', 'an id the server did not send gets the current view');
      } finally {
        stream.close();
      }
    }
  });
});

// Issue 15, item 8: the pool routes (their happy path against a real chain: test/oracle/pools.test.ts).
describe('bad input on the pool routes: 400/404 in the Variant C shape, never 5xx', () => {
  let app: TestApp;
  let user: LoggedIn;
  before(async () => {
    app = await startTestApp({ services: () => ({ trading: { chainId: 8453 } }) });
    user = await app.login();
  });
  after(async () => {
    await app.stop();
  });

  it('GET /v1/trading/pools: bad cursor and limit are 400; edge limits are served', async () => {
    const forged = Buffer.from('pools1:1:99999999999').toString('base64url');
    const bad = [
      'cursor=',
      'cursor=not-a-cursor!',
      `cursor=${Buffer.from('pools1:x:1').toString('base64url')}`,
      `cursor=${Buffer.from('pools2:1:1').toString('base64url')}`,
      `cursor=${forged}`,
      `cursor=${'A'.repeat(300)}`,
      'cursor=a&cursor=b',
      'limit=0',
      'limit=101',
      'limit=-1',
      'limit=1.5',
      'limit=abc',
      'limit=',
      'limit=1e2',
      'limit=20&limit=30',
      'page=2',
    ];
    for (const query of bad) {
      const res = await app.request(`/v1/trading/pools?${query}`, { token: user.token });
      assert.equal(res.status, 400, query.slice(0, 60));
      assertVariantCError(res.body, 'VALIDATION_ERROR');
    }
    for (const query of ['limit=1', 'limit=100', `cursor=${Buffer.from('pools1:1:0').toString('base64url')}&limit=5`]) {
      const res = await app.request(`/v1/trading/pools?${query}`, { token: user.token });
      assert.equal(res.status, 200, query);
      assert.deepEqual(res.body, { pools: [], next_cursor: null, indexed_through_block: null });
    }
  });

  it('GET /v1/trading/pools/{songId}: non-ids are 400, unknown songs 404, no token 401', async () => {
    for (const id of ['0', '-1', 'abc', '1.5', '0x1', '99999999999999999999', '9223372036854775808', '%E0%A4%A', ' 1']) {
      const res = await app.request(`/v1/trading/pools/${id}`, { token: user.token });
      assert.equal(res.status, 400, id);
      assertVariantCError(res.body, 'VALIDATION_ERROR');
    }
    const missing = await app.request('/v1/trading/pools/9223372036854775807', { token: user.token });
    assert.equal(missing.status, 404);
    assertVariantCError(missing.body, 'NOT_FOUND');
    const anonymous = await app.request('/v1/trading/pools/1');
    assert.equal(anonymous.status, 401);
    assertVariantCError(anonymous.body, 'AUTH_ERROR');
  });

  it('GET /v1/trading/pools/{songId}/history (public): bad ids, cursors and limits are 400 and charge nothing; an unknown pool is 404; pages of an empty pool', async () => {
    const charged = async () =>
      (
        await app.db.oneOrNone<{ n: number }>(
          `SELECT sum(count)::int AS n FROM rate_limit_counters WHERE subject LIKE 'ip:%' AND category = 'trading'`,
        )
      )?.n ?? 0;
    const before = await charged();
    for (const id of ['0', '-1', 'abc', '1.5', '0x1', '99999999999999999999', '%E0%A4%A', ' 1']) {
      const res = await app.request(`/v1/trading/pools/${id}/history`);
      assert.equal(res.status, 400, id);
      assertVariantCError(res.body, 'VALIDATION_ERROR');
    }
    const forged = Buffer.from('swaps1:1:99999999999').toString('base64url');
    for (const query of [
      'cursor=',
      'cursor=!',
      `cursor=${Buffer.from('pools1:1:1').toString('base64url')}`,
      `cursor=${forged}`,
      'cursor=a&cursor=b',
      'limit=0',
      'limit=501',
      'limit=1.5',
      'limit=',
      'limit=1&limit=2',
      'from=0',
    ]) {
      const res = await app.request(`/v1/trading/pools/1/history?${query}`);
      assert.equal(res.status, 400, query);
      assertVariantCError(res.body, 'VALIDATION_ERROR');
    }
    assert.equal(await charged(), before, 'refused requests are not charged');
    const missing = await app.request('/v1/trading/pools/1/history?limit=500');
    assert.equal(missing.status, 404, missing.text);
    assertVariantCError(missing.body, 'NOT_FOUND');
    assert.equal(await charged(), before + 1, 'an answered request is charged to the client address, with no token');
    assert.equal(missing.headers.get('x-ratelimit-limit'), String(ANONYMOUS_HOURLY_LIMIT));

    // A launched pool with no swap yet: its launch price and an empty page.
    await app.db.none(
      `INSERT INTO song_pools (song_id, pool_id, token, creator, launcher, allocation, pool_supply, launch_liquidity, launch_block, launch_log_index, launch_tx_hash, launched_at, init_sqrt_price_x96, init_tick)
       VALUES (7, '0x${'07'.repeat(32)}', '0x${'aa'.repeat(20)}', '0x${'bb'.repeat(20)}', '0x${'bb'.repeat(20)}', 1, 1, 0, 12, 3, '0x${'cc'.repeat(32)}', now(), $1, 0)`,
      [(2n ** 96n).toString()],
    );
    const empty = await app.request(`/v1/trading/pools/7/history?limit=1&cursor=${Buffer.from('swaps1:12:0').toString('base64url')}`);
    assert.equal(empty.status, 200, empty.text);
    assert.deepEqual(
      (empty.body as { swaps: unknown[]; next_cursor: unknown; launch: { tokens_per_eth: string; tick: number } }).swaps,
      [],
    );
    assert.deepEqual((empty.body as { launch: unknown }).launch, {
      sqrt_price_x96: (2n ** 96n).toString(),
      tick: 0,
      tokens_per_eth: '1',
      eth_per_token: '1',
      block_number: '12',
      time: (empty.body as { launch: { time: string } }).launch.time,
    });
    // The token-holding routes beside it still need their token.
    assert.equal((await app.request('/v1/trading/pools/7')).status, 401);
    assert.equal((await app.request('/v1/trading/pools/7', { token: user.token })).status, 200);
  });
});

// Issue 15, item 7: previews (their happy path with a real worker: test/oracle/previews.test.ts).
describe('bad input on the preview routes: 4xx in the Variant A shape, never 5xx, nothing charged', () => {
  let stack: StorageStack;
  let user: LoggedIn;
  before(async () => {
    stack = await startStorageStack();
    await stack.app.addWorkerHeartbeat('bad-input-preview-worker', 4);
    user = await stack.app.login();
    await stack.app.setTier(user.userId, 'enterprise');
  });
  after(async () => {
    await stack.stop();
  });

  const post = (body: unknown, headers: Record<string, string> = {}) =>
    stack.app.request('/api/previews', { token: user.token, body, headers });
  /** Preview requests charged this hour and preview jobs of the user. */
  const charged = async () =>
    stack.app.db.one<{ previews: number; counted: number; daily: number }>(
      `SELECT (SELECT count(*)::int FROM preview_jobs WHERE user_id = $1) AS previews,
              coalesce((SELECT sum(count)::int FROM rate_limit_counters WHERE subject = 'user:' || $1::text AND category = 'preview'), 0) AS counted,
              (SELECT daily_generations FROM users WHERE id = $1) AS daily`,
      [user.userId],
    );

  it('POST /api/previews: boundaries (duration 4/5/15/16, prompt 500/501, steps), wrong types, unknown fields', async () => {
    const cases: Array<[unknown, number, string | null]> = [
      [{ prompt: 'b' }, 202, null],
      [{ prompt: 'b', duration: 4 }, 400, 'VALIDATION_ERROR'],
      [{ prompt: 'b', duration: 5 }, 202, null],
      [{ prompt: 'b', duration: 15 }, 202, null],
      [{ prompt: 'b', duration: 16 }, 400, 'GEN_004'],
      [{ prompt: 'b', duration: 240 }, 400, 'GEN_004'],
      [{ prompt: 'b', duration: 5.5 }, 400, 'VALIDATION_ERROR'],
      [{ prompt: 'b', duration: '10' }, 400, 'VALIDATION_ERROR'],
      [{ prompt: 'b', steps: 26 }, 400, 'VALIDATION_ERROR'],
      [{ prompt: 'b', steps: 60 }, 202, null],
      [{ prompt: 'p'.repeat(500) }, 202, null],
      [{ prompt: 'p'.repeat(501) }, 400, 'GEN_003'],
      [{ prompt: '🎵'.repeat(501) }, 400, 'GEN_003'],
      [{}, 400, 'GEN_003'],
      [{ prompt: '' }, 400, 'GEN_003'],
      [{ prompt: '  \n ' }, 400, 'GEN_003'],
      [{ prompt: 'nul\u0000byte' }, 400, 'GEN_003'],
      [{ prompt: 42 }, 400, 'GEN_003'],
      [{ prompt: 'x', seed: 1.5 }, 400, 'VALIDATION_ERROR'],
      [{ prompt: 'x', lyrics: 'l'.repeat(5001) }, 400, 'VALIDATION_ERROR'],
      [{ prompt: 'x', with_lyrics: 'yes' }, 400, 'VALIDATION_ERROR'],
      [{ prompt: 'x', session_id: 'prv_mine_mine_mine' }, 400, 'VALIDATION_ERROR'],
      [{ prompt: 'x', tier: 'enterprise' }, 400, 'VALIDATION_ERROR'],
      [[], 400, 'VALIDATION_ERROR'],
      [null, 400, 'VALIDATION_ERROR'],
      ['just a string', 400, 'VALIDATION_ERROR'],
    ];
    const before = await charged();
    let accepted = 0;
    for (const [body, status, code] of cases) {
      const res = await post(body);
      assert.equal(res.status, status, `${JSON.stringify(body).slice(0, 80)}: ${res.text.slice(0, 200)}`);
      if (code !== null) assertVariantAError(res.body, code);
      else accepted += 1;
    }
    const after = await charged();
    assert.deepEqual(
      after,
      { previews: before.previews + accepted, counted: before.counted + accepted, daily: before.daily },
      'only accepted previews are charged',
    );
  });

  it('POST /api/previews: invalid JSON, wrong content type, oversized body, bad Idempotency-Key, no token; nothing charged', async () => {
    const before = await charged();
    for (const raw of ['{', '{"prompt": "x",}', 'nul']) {
      const res = await stack.app.request('/api/previews', {
        token: user.token,
        rawBody: raw,
        headers: { 'content-type': 'application/json' },
        method: 'POST',
      });
      assert.equal(res.status, 400, raw);
      assertVariantAError(res.body, 'VALIDATION_ERROR');
    }
    const form = await stack.app.request('/api/previews', {
      token: user.token,
      rawBody: 'prompt=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      method: 'POST',
    });
    assert.equal(form.status, 400);
    assertVariantAError(form.body, 'VALIDATION_ERROR');
    const big = await post({ prompt: 'x', lyrics: 'a'.repeat(200_000) });
    assert.equal(big.status, 413);
    assertVariantAError(big.body, 'PAYLOAD_TOO_LARGE');
    for (const key of ['', 'k'.repeat(256), 'tab\there', 'clé']) {
      const res = await post({ prompt: 'x' }, { 'idempotency-key': key });
      assert.equal(res.status, 400, JSON.stringify(key).slice(0, 40));
      assertVariantAError(res.body, 'VALIDATION_ERROR');
    }
    const anonymous = await stack.app.request('/api/previews', { body: { prompt: 'x' } });
    assert.equal(anonymous.status, 401);
    assertVariantAError(anonymous.body, 'AUTH_ERROR');
    const forged = await stack.app.request('/api/previews', { token: `${user.token}x`, body: { prompt: 'x' } });
    assert.equal(forged.status, 401);
    assert.deepEqual(await charged(), before);
  });

  it('POST /api/previews: GEN_002 (503, Retry-After 60) without a live worker; nothing charged', async () => {
    const before = await charged();
    await stack.app.db.none(`UPDATE worker_heartbeats SET last_seen = now() - interval '1 hour'`);
    try {
      const res = await post({ prompt: 'no worker' });
      assert.equal(res.status, 503, res.text);
      assertVariantAError(res.body, 'GEN_002');
      assert.equal(res.headers.get('retry-after'), '60');
    } finally {
      await stack.app.addWorkerHeartbeat('bad-input-preview-worker', 4);
    }
    assert.deepEqual(await charged(), before);
  });

  it('GET /api/previews/{session_id}: malformed, unknown and odd ids are 404; no token 401; DELETE is 404', async () => {
    const ids = [
      'x',
      'prv_AAAAAAAAAAAAAAAAAAAAAAAA',
      encodeURIComponent('prv_%00'),
      encodeURIComponent("'; DROP TABLE preview_jobs; --"),
      'p'.repeat(5000),
      encodeURIComponent('../../audio/x'),
    ];
    for (const id of ids) {
      const res = await stack.app.request(`/api/previews/${id}`, { token: user.token });
      assert.equal(res.status, 404, `${id.slice(0, 60)}: ${res.text.slice(0, 200)}`);
      assertVariantAError(res.body, 'NOT_FOUND');
    }
    const anonymous = await stack.app.request('/api/previews/prv_AAAAAAAAAAAAAAAAAAAAAAAA');
    assert.equal(anonymous.status, 401);
    assertVariantAError(anonymous.body, 'AUTH_ERROR');
    const wrongMethod = await stack.app.request('/api/previews/prv_AAAAAAAAAAAAAAAAAAAAAAAA', { token: user.token, method: 'DELETE' });
    assert.equal(wrongMethod.status, 404);
    assertVariantAError(wrongMethod.body, 'NOT_FOUND');
  });
});
