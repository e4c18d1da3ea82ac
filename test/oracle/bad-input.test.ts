import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp } from './helpers/test-app.ts';
import type { LoggedIn, TestApp } from './helpers/test-app.ts';
import { assertVariantAError, assertVariantCError } from './helpers/shapes.ts';

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
    for (const prompt of ['😀 джаз 音楽 مرحبا', 'e\u0301\u0301\u0301', '\ud800 lone surrogate', '<script>alert(1)</script>', "'; DROP TABLE users; --"]) {
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
    const text = await app.request('/api/generate', { token: user.token, rawBody: 'prompt=x&duration=10', headers: { 'content-type': 'application/x-www-form-urlencoded' }, method: 'POST' });
    assert.equal(text.status, 400);
    assertVariantAError(text.body, 'VALIDATION_ERROR');
    const big = await app.request('/api/generate', { token: user.token, body: { prompt: 'x', duration: 10, lyrics: 'a'.repeat(200_000) } });
    assert.equal(big.status, 413);
    assertVariantAError(big.body, 'PAYLOAD_TOO_LARGE');
    const bigC = await app.request('/v1/music/generate', { token: user.token, body: { prompt: 'x', duration: 10, lyrics: 'a'.repeat(200_000) } });
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

  it('Variant B bodies: only prompt and duration', async () => {
    const headers = { prefer: 'wait' };
    for (const body of [{ prompt: 'x', duration: 10, steps: 27 }, { prompt: 'x' }, { audioUrl: 'x' }]) {
      const res = await app.request('/api/generate', { token: user.token, body, headers });
      assert.equal(res.status, 400, JSON.stringify(body));
      assertVariantAError(res.body);
    }
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
});
