import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp } from './helpers/test-app.ts';
import type { TestApp } from './helpers/test-app.ts';
import { assertVariantAError, assertVariantCError } from './helpers/shapes.ts';
import { healthSchema, livenessSchema, readinessSchema } from '../../oracle/src/http/schemas.ts';

describe('health, metrics, OpenAPI, docs', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(async () => {
    await app.stop();
  });

  it('/health and /health/live answer 200', async () => {
    assert.deepEqual(healthSchema.parse((await app.request('/health')).body), { status: 'ok', service: 'songmint-oracle' });
    const live = await app.request('/health/live');
    assert.equal(live.status, 200);
    assert.equal(livenessSchema.parse(live.body).status, 'alive');
  });

  it('/health/ready is 503 without a live worker and 200 with one', async () => {
    await app.db.none('DELETE FROM worker_heartbeats');
    const down = await app.request('/health/ready');
    assert.equal(down.status, 503);
    const downBody = readinessSchema.parse(down.body);
    assert.equal(downBody.status, 'not_ready');
    assert.equal(downBody.checks.database, 'up');
    assert.deepEqual(downBody.waiting_for, ['workers']);
    await app.db.none(
      `INSERT INTO worker_heartbeats (worker_id, hostname, device, model_name, model_version, slots, last_seen)
       VALUES ('stale', 'h', 'cuda', 'm', '1', 2, now() - interval '5 minutes')`,
    );
    assert.equal((await app.request('/health/ready')).status, 503);
    await app.addWorkerHeartbeat('gpu-1', 2);
    const up = await app.request('/health/ready');
    assert.equal(up.status, 200);
    readinessSchema.parse(up.body);
    assert.deepEqual(up.body, {
      status: 'ready',
      checks: { database: 'up', workers: { live: 1, slots: 2, devices: ['cpu'], models: ['test-model@0'], status: 'up' } },
    });
  });

  it('/metrics exposes latency histograms, queue depth by tier, jobs by status, signatures and limit rejections', async () => {
    await app.db.none('DELETE FROM worker_heartbeats');
    await app.addWorkerHeartbeat();
    const user = await app.login();
    await app.setTier(user.userId, 'pro');
    await app.request('/api/generate', { token: user.token, body: { prompt: 'metric', duration: 10 } });
    await app.db.none('UPDATE users SET daily_generations = 100 WHERE id = $1', [user.userId]);
    assert.equal((await app.request('/api/generate', { token: user.token, body: { prompt: 'metric', duration: 10 } })).status, 429);
    assert.equal((await app.request('/api/generate', { body: { prompt: 'no token', duration: 10 } })).status, 401);
    app.deps.metrics.signaturesIssued.inc();
    const res = await app.request('/metrics');
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/plain/);
    const text = res.text;
    // Labelled by the route table's template, the same for an answered and a refused request.
    assert.match(text, /http_request_duration_seconds_bucket\{[^}]*method="POST"[^}]*route="\/api\/generate"[^}]*status="202"/);
    assert.match(text, /http_request_duration_seconds_count\{method="POST",route="\/api\/generate",status="401"\} 1/);
    assert.match(text, /generation_queue_depth\{tier="pro"\} 1/);
    assert.match(text, /generation_queue_depth\{tier="free"\} 0/);
    assert.match(text, /generation_jobs\{status="queued"\} 1/);
    assert.match(text, /mint_signatures_issued_total 1/);
    assert.match(text, /rate_limit_rejections_total\{limit="daily",category="generation"\} 1/);
    assert.match(text, /generation_workers_live 1/);
    assert.match(text, /webhook_deliveries\{state="pending"\} 0/);
    assert.match(text, /preview_jobs\{status="queued"\} 0/);
    assert.match(text, /job_event_streams_open 0/);
  });

  it('answers CORS preflights and exposes the rate-limit headers to browsers', async () => {
    const preflight = await app.request('/api/generate', {
      method: 'OPTIONS',
      headers: {
        origin: 'https://dapp.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type, idempotency-key',
      },
    });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get('access-control-allow-origin'), '*');
    // Every header the SDK sends from a dApp on another origin (a generation carries an Idempotency-Key).
    const allowed = (preflight.headers.get('access-control-allow-headers') ?? '').toLowerCase().split(/,\s*/);
    for (const header of ['authorization', 'content-type', 'idempotency-key', 'last-event-id', 'songmint-rights-confirmed'])
      assert.ok(allowed.includes(header), `${header} allowed`);
    const simple = await app.request('/health', { headers: { origin: 'https://dapp.example' } });
    assert.equal(simple.headers.get('access-control-allow-origin'), '*');
    assert.match(simple.headers.get('access-control-expose-headers') ?? '', /X-RateLimit-Remaining/);
  });

  it('/openapi.json is OpenAPI 3.1 and describes the core paths; /docs serves Swagger UI locally', async () => {
    const doc = (await app.request('/openapi.json')).body as {
      openapi: string;
      paths: Record<string, object>;
      components: { schemas: Record<string, object> };
    };
    assert.equal(doc.openapi, '3.1.0');
    for (const path of [
      '/api/auth/nonce',
      '/api/auth/verify',
      '/api/generate',
      '/api/generate/{job_id}',
      '/v1/music/generate',
      '/v1/user/profile',
      '/health/ready',
      '/metrics',
    ]) {
      assert.ok(path in doc.paths, path);
    }
    assert.ok('GenerateRequest' in doc.components.schemas);
    const docs = await app.request('/docs');
    assert.match(docs.text, /swagger-ui-bundle\.js/);
    const bundle = await fetch(`${app.baseUrl}/docs/assets/swagger-ui-bundle.js`);
    assert.equal(bundle.status, 200);
    assert.ok((await bundle.arrayBuffer()).byteLength > 100_000);
  });
});

describe('database outage: 503 while PostgreSQL is down, recovery without a restart', () => {
  let app: TestApp;
  before(async () => {
    // Its own server: the test stops and restarts it.
    app = await startTestApp({ ownPostgres: true });
  });
  after(async () => {
    await app.stop();
  });

  it('answers 503 in the spec shapes during the outage and serves again once the database is back', async () => {
    await app.addWorkerHeartbeat();
    const user = await app.login();
    const first = await app.request('/api/generate', { token: user.token, body: { prompt: 'before', duration: 5 } });
    assert.equal(first.status, 202);
    const jobId = (first.body as { job_id: string }).job_id;

    await app.pg.suspend();
    const during = [
      await app.request('/api/generate', { token: user.token, body: { prompt: 'during', duration: 5 } }),
      await app.request(`/api/generate/${jobId}`, { token: user.token }),
      await app.request('/api/auth/nonce'),
    ];
    for (const res of during) {
      assert.equal(res.status, 503, res.text);
      assertVariantAError(res.body, 'SERVICE_UNAVAILABLE');
      assert.ok(Number(res.headers.get('retry-after')) > 0);
    }
    const v1 = await app.request('/v1/user/profile', { token: user.token });
    assert.equal(v1.status, 503);
    assertVariantCError(v1.body, 'SERVICE_UNAVAILABLE');
    const unready = await app.request('/health/ready');
    assert.equal(unready.status, 503);
    assert.deepEqual(readinessSchema.parse(unready.body).waiting_for, ['database']);
    assert.equal((await app.request('/health/live')).status, 200);
    assert.equal((await app.request('/metrics')).status, 200);

    await app.pg.resume();
    await app.addWorkerHeartbeat();
    const status = await app.request(`/api/generate/${jobId}`, { token: user.token });
    assert.equal(status.status, 200);
    const again = await app.request('/api/generate', { token: user.token, body: { prompt: 'after', duration: 5 } });
    assert.equal(again.status, 202, again.text);
    const counter = await app.db.one('SELECT daily_generations FROM users WHERE id = $1', [user.userId]);
    assert.equal(counter.daily_generations, 2);
    assert.equal((await app.request('/health/ready')).status, 200);
  });
});
