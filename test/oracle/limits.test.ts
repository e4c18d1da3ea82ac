import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { GENERATION_QUEUE } from '../../core/src/generation-queue.ts';
import type { GenerationMessage } from '../../core/src/generation-queue.ts';
import { startTestApp } from './helpers/test-app.ts';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createApp } from '../../oracle/src/http/app.ts';
import type { TrustProxy } from '../../oracle/src/http/trust-proxy.ts';
import type { TestApp } from './helpers/test-app.ts';
import { assertDailyLimitBody, assertVariantAError, assertVariantCError } from './helpers/shapes.ts';
import { JOB_STATUS } from '../../core/src/jobs/job-state.ts';
import { profileSchema } from '../../oracle/src/http/schemas.ts';

describe('limits, queue capacity, worker liveness and priority', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp({ queueCapacity: 200 });
  });
  after(async () => {
    await app.stop();
  });
  beforeEach(async () => {
    // Each test starts from an empty queue and a live worker.
    await app.db.none('DELETE FROM generation_jobs');
    await app.db.none('DELETE FROM pgboss.job');
    await app.db.none('DELETE FROM worker_heartbeats');
    await app.addWorkerHeartbeat();
  });

  const generate = (token: string, body: object = { prompt: 'concurrency', duration: 5 }) => app.request('/api/generate', { token, body });

  it('50 concurrent requests from a free user: exactly 10 accepted, the counter is 10, 40 get the daily 429 body', async () => {
    const user = await app.login();
    const results = await Promise.all(Array.from({ length: 50 }, () => generate(user.token)));
    const accepted = results.filter((r) => r.status === 202);
    const refused = results.filter((r) => r.status === 429);
    assert.equal(accepted.length, 10);
    assert.equal(refused.length, 40);
    for (const r of refused) {
      assertDailyLimitBody(r.body, 10);
      assert.equal(r.headers.get('x-ratelimit-remaining'), '0');
      assert.ok(Number(r.headers.get('retry-after')) > 0);
    }
    const counter = await app.db.one('SELECT daily_generations, total_generations FROM users WHERE id = $1', [user.userId]);
    assert.deepEqual(counter, { daily_generations: 10, total_generations: 10 });
    const jobs = await app.db.one('SELECT count(*)::int AS n FROM generation_jobs WHERE user_id = $1', [user.userId]);
    assert.equal(jobs.n, 10);
    const messages = await app.db.one('SELECT count(*)::int AS n FROM pgboss.job WHERE name = $1', [GENERATION_QUEUE]);
    assert.equal(messages.n, 10);
    const hourly = await app.db.one(`SELECT count FROM rate_limit_counters WHERE subject = $1 AND category = 'generation'`, [
      `user:${user.userId}`,
    ]);
    assert.equal(hourly.count, 10);
  });

  it('resets the daily counter when last_generation_reset is before today (rule 1)', async () => {
    const user = await app.login();
    await app.db.none(`UPDATE users SET daily_generations = 10, last_generation_reset = CURRENT_DATE - 1 WHERE id = $1`, [user.userId]);
    const res = await generate(user.token);
    assert.equal(res.status, 202);
    const row = await app.db.one(`SELECT daily_generations, last_generation_reset = CURRENT_DATE AS today FROM users WHERE id = $1`, [
      user.userId,
    ]);
    assert.deepEqual(row, { daily_generations: 1, today: true });
  });

  it('keeps counting when the reset day is today and refuses at the limit without charging', async () => {
    const user = await app.login();
    await app.db.none(`UPDATE users SET daily_generations = 10 WHERE id = $1`, [user.userId]);
    const res = await generate(user.token);
    assert.equal(res.status, 429);
    assertDailyLimitBody(res.body, 10);
    const row = await app.db.one(`SELECT daily_generations, total_generations FROM users WHERE id = $1`, [user.userId]);
    assert.deepEqual(row, { daily_generations: 10, total_generations: 0 });
  });

  it('applies each tier daily limit (pro 100) and maximum duration (GEN_004: free 30, pro 120, enterprise 240)', async () => {
    const user = await app.login();
    const tooLong = await generate(user.token, { prompt: 'x', duration: 31 });
    assert.equal(tooLong.status, 400);
    assertVariantAError(tooLong.body, 'GEN_004');
    assert.equal((await generate(user.token, { prompt: 'x', duration: 30 })).status, 202);
    await app.setTier(user.userId, 'pro');
    assert.equal((await generate(user.token, { prompt: 'x', duration: 120 })).status, 202);
    assertVariantAError((await generate(user.token, { prompt: 'x', duration: 121 })).body, 'GEN_004');
    await app.db.none(`UPDATE users SET daily_generations = 100 WHERE id = $1`, [user.userId]);
    const capped = await generate(user.token, { prompt: 'x', duration: 60 });
    assert.equal(capped.status, 429);
    assertDailyLimitBody(capped.body, 100);
    await app.setTier(user.userId, 'enterprise');
    assert.equal((await generate(user.token, { prompt: 'x', duration: 240 })).status, 202);
    const over = await generate(user.token, { prompt: 'x', duration: 241 });
    assert.equal(over.status, 400);
    assertVariantAError(over.body, 'GEN_004');
  });

  it('refuses with the hourly generation limit (RATE_002) when the hour is used up, without charging the daily counter', async () => {
    const user = await app.login();
    await app.db.none(
      `INSERT INTO rate_limit_counters (subject, category, window_start, count) VALUES ($1, 'generation', date_trunc('hour', now(), 'UTC'), 10)`,
      [`user:${user.userId}`],
    );
    const res = await generate(user.token);
    assert.equal(res.status, 429);
    assertVariantAError(res.body, 'RATE_002');
    assert.equal(res.headers.get('x-ratelimit-limit'), '10');
    assert.equal(res.headers.get('x-ratelimit-remaining'), '0');
    const reset = Number(res.headers.get('x-ratelimit-reset'));
    assert.equal(reset % 3600, 0);
    const row = await app.db.one(`SELECT daily_generations FROM users WHERE id = $1`, [user.userId]);
    assert.equal(row.daily_generations, 0);
  });

  it('shows the tighter limit in the headers: a pro user near the hourly cap sees the hourly window', async () => {
    const user = await app.login();
    await app.setTier(user.userId, 'pro');
    const first = await generate(user.token);
    assert.equal(first.headers.get('x-ratelimit-limit'), '100');
    assert.equal(first.headers.get('x-ratelimit-remaining'), '99');
    const midnight = new Date();
    midnight.setUTCHours(24, 0, 0, 0);
    assert.equal(Number(first.headers.get('x-ratelimit-reset')), midnight.getTime() / 1000);
    await app.db.none(`UPDATE rate_limit_counters SET count = 95 WHERE subject = $1 AND category = 'generation'`, [`user:${user.userId}`]);
    const second = await generate(user.token);
    assert.equal(second.headers.get('x-ratelimit-remaining'), '4');
    const hour = await app.db.one<{ start: Date }>(`SELECT date_trunc('hour', now(), 'UTC') AS start`);
    assert.equal(Number(second.headers.get('x-ratelimit-reset')), hour.start.getTime() / 1000 + 3600);
  });

  it('the profile shows songs and previews left today and this hour; a generation moves them, a refused one does not', async () => {
    const user = await app.login();
    const limitsNow = async () => {
      const res = await app.request('/v1/user/profile', { token: user.token });
      assert.equal(res.status, 200, res.text);
      return profileSchema.parse(res.body).limits;
    };
    const hour = await app.db.one<{ end: Date }>(`SELECT date_trunc('hour', now(), 'UTC') + interval '1 hour' AS end`);
    const midnight = new Date();
    midnight.setUTCHours(24, 0, 0, 0);
    const daily = (used: number) => ({ limit: 10, used, remaining: 10 - used, reset_at: midnight.toISOString() });
    const hourly = (limit: number, used: number) => ({ limit, used, remaining: limit - used, reset_at: hour.end.toISOString() });
    assert.deepEqual(await limitsNow(), { songs: { daily: daily(0), hourly: hourly(10, 0) }, previews: { hourly: hourly(30, 0) } });

    assert.equal((await generate(user.token)).status, 202);
    assert.deepEqual((await limitsNow()).songs, { daily: daily(1), hourly: hourly(10, 1) });

    // Refused for bad input (GEN_004) and for the daily limit (RATE_001): nothing is counted.
    assertVariantAError((await generate(user.token, { prompt: 'x', duration: 31 })).body, 'GEN_004');
    assert.deepEqual((await limitsNow()).songs, { daily: daily(1), hourly: hourly(10, 1) });
    await app.db.none('UPDATE users SET daily_generations = 10 WHERE id = $1', [user.userId]);
    assertDailyLimitBody((await generate(user.token)).body, 10);
    assert.deepEqual((await limitsNow()).songs, { daily: daily(10), hourly: hourly(10, 1) });

    // Previews have their own hourly window, read from the counter the preview route charges.
    await app.db.none(
      `INSERT INTO rate_limit_counters (subject, category, window_start, count) VALUES ($1, 'preview', date_trunc('hour', now(), 'UTC'), 4)`,
      [`user:${user.userId}`],
    );
    assert.deepEqual((await limitsNow()).previews, { hourly: hourly(30, 4) });
    await app.setTier(user.userId, 'pro');
    assert.deepEqual(await limitsNow(), {
      songs: { daily: { limit: 100, used: 10, remaining: 90, reset_at: midnight.toISOString() }, hourly: hourly(100, 1) },
      previews: { hourly: hourly(300, 4) },
    });
  });

  it('limits other categories per hour with headers (general: 1000/h), Variant C shape on /v1', async () => {
    const user = await app.login();
    const ok = await app.request('/v1/user/profile', { token: user.token });
    assert.equal(ok.status, 200);
    assert.equal(ok.headers.get('x-ratelimit-limit'), '1000');
    assert.equal(ok.headers.get('x-ratelimit-remaining'), '999');
    await app.db.none(`UPDATE rate_limit_counters SET count = 1000 WHERE subject = $1 AND category = 'general'`, [`user:${user.userId}`]);
    const refused = await app.request('/v1/user/profile', { token: user.token });
    assert.equal(refused.status, 429);
    assertVariantCError(refused.body, 'RATE_002');
  });

  it('TRUST_PROXY: per-IP buckets separated or shared as configured (loopback default, hop count, address list, off)', async (t) => {
    // One app per setting over this test's database; the client is always this process on 127.0.0.1.
    const serve = async (trustProxy?: TrustProxy): Promise<string> => {
      const server: Server = await new Promise((resolve) => {
        const listening = createApp({ ...app.deps, ...(trustProxy === undefined ? {} : { trustProxy }) }).listen(0, '127.0.0.1', () =>
          resolve(listening),
        );
      });
      t.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    };
    // GET /api/auth/nonce is charged to the client address's hourly bucket.
    const charged = async (base: string, forwardedFor?: string) => {
      const res = await fetch(`${base}/api/auth/nonce`, forwardedFor === undefined ? {} : { headers: { 'x-forwarded-for': forwardedFor } });
      assert.equal(res.status, 200);
    };
    const bucket = async (ip: string) =>
      (
        await app.db.one<{ n: number }>(
          `SELECT coalesce(sum(count), 0)::int AS n FROM rate_limit_counters WHERE subject = $1 AND category = 'general'`,
          [`ip:${ip}`],
        )
      ).n;
    const counts = (...ips: string[]) => Promise.all(ips.map(bucket));

    // Default (loopback): a proxy on this host names the client; two clients, two buckets.
    const byDefault = await serve();
    const loopback = await bucket('127.0.0.1');
    await charged(byDefault, '198.51.100.1');
    await charged(byDefault, '198.51.100.2');
    await charged(byDefault, '203.0.113.50, 198.51.100.2');
    assert.deepEqual(await counts('198.51.100.1', '198.51.100.2', '203.0.113.50', '127.0.0.1'), [1, 2, 0, loopback]);

    // Off: nobody is trusted, the header is ignored, every request is the peer's (one shared bucket).
    const off = await serve(false);
    await charged(off, '198.51.100.3');
    await charged(off, '198.51.100.4');
    assert.deepEqual(await counts('198.51.100.3', '198.51.100.4', '127.0.0.1'), [0, 0, loopback + 2]);

    // A hop count of 1: the address our one proxy appended is the client; what the client put before it is not.
    const oneHop = await serve(1);
    await charged(oneHop, '203.0.113.60, 198.51.100.5');
    await charged(oneHop, '203.0.113.61, 198.51.100.5');
    await charged(oneHop, '198.51.100.6');
    assert.deepEqual(await counts('198.51.100.5', '198.51.100.6', '203.0.113.60', '203.0.113.61'), [2, 1, 0, 0]);

    // An address list: only listed peers and hops are proxies. This peer (127.0.0.1) is not in the first list.
    const notListed = await serve(['10.0.0.0/8']);
    await charged(notListed, '198.51.100.7');
    assert.deepEqual(await counts('198.51.100.7', '127.0.0.1'), [0, loopback + 3]);
    const listed = await serve(['127.0.0.1/32', '10.0.0.0/8']);
    await charged(listed, '198.51.100.8, 10.1.2.3');
    await charged(listed, '203.0.113.70, 198.51.100.8');
    assert.deepEqual(await counts('198.51.100.8', '10.1.2.3', '203.0.113.70'), [2, 0, 0]);
  });

  it('GEN_002 (503, Retry-After 60) when no worker heartbeat is fresh; nothing charged', async () => {
    const user = await app.login();
    await app.db.none(`UPDATE worker_heartbeats SET last_seen = now() - interval '1 minute'`);
    const res = await generate(user.token);
    assert.equal(res.status, 503);
    assertVariantAError(res.body, 'GEN_002');
    assert.equal(res.headers.get('retry-after'), '60');
    assert.equal((res.body as { error: { retry_after: number } }).error.retry_after, 60);
    const row = await app.db.one(`SELECT daily_generations FROM users WHERE id = $1`, [user.userId]);
    assert.equal(row.daily_generations, 0);
    const v1 = await app.request('/v1/music/generate', { token: user.token, body: { prompt: 'x', duration: 5 } });
    assert.equal(v1.status, 503);
    assertVariantCError(v1.body, 'GEN_002');
  });

  it('GEN_001 (503 with Retry-After) once the queue holds QUEUE_CAPACITY jobs', async () => {
    const small = await startTestApp({ queueCapacity: 3 });
    try {
      await small.addWorkerHeartbeat();
      const user = await small.login();
      for (let i = 0; i < 3; i += 1) {
        assert.equal((await small.request('/api/generate', { token: user.token, body: { prompt: 'q', duration: 5 } })).status, 202);
      }
      const full = await small.request('/api/generate', { token: user.token, body: { prompt: 'q', duration: 5 } });
      assert.equal(full.status, 503);
      assertVariantAError(full.body, 'GEN_001');
      assert.ok(Number(full.headers.get('retry-after')) > 0);
      const row = await small.db.one(`SELECT daily_generations FROM users WHERE id = $1`, [user.userId]);
      assert.equal(row.daily_generations, 3);
      // A job leaving the queue frees a place.
      await small.db.none(
        `UPDATE generation_jobs SET status = '${JOB_STATUS.processing}', started_at = now() WHERE id = (SELECT id FROM generation_jobs LIMIT 1)`,
      );
      assert.equal((await small.request('/api/generate', { token: user.token, body: { prompt: 'q', duration: 5 } })).status, 202);
      // Concurrent requests cannot overshoot the capacity: with one place left, 20 at once admit one.
      await small.db.none(
        `UPDATE generation_jobs SET status = '${JOB_STATUS.processing}', started_at = now() WHERE id = (SELECT id FROM generation_jobs WHERE status = '${JOB_STATUS.queued}' LIMIT 1)`,
      );
      const others = await Promise.all(Array.from({ length: 4 }, () => small.login()));
      const burst = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          small.request('/api/generate', { token: others[i % others.length]!.token, body: { prompt: 'q', duration: 5 } }),
        ),
      );
      assert.equal(burst.filter((response) => response.status === 202).length, 1);
      assert.equal(burst.filter((response) => response.status === 503).length, 19);
      const queued = await small.db.one<{ n: number }>(
        `SELECT count(*)::int AS n FROM generation_jobs WHERE status = '${JOB_STATUS.queued}'`,
      );
      assert.equal(queued.n, 3);
    } finally {
      await small.stop();
    }
  });

  it('serves higher tiers first: positions reflect priority and pg-boss hands out enterprise, pro, then free', async () => {
    const free = await app.login();
    const pro = await app.login();
    const enterprise = await app.login();
    await app.setTier(pro.userId, 'pro');
    await app.setTier(enterprise.userId, 'enterprise');
    const f1 = await generate(free.token);
    const f2 = await generate(free.token);
    assert.equal((f1.body as { position: number }).position, 1);
    assert.equal((f2.body as { position: number }).position, 2);
    const p = await generate(pro.token);
    assert.equal((p.body as { position: number }).position, 1);
    const e = await generate(enterprise.token);
    assert.equal((e.body as { position: number }).position, 1);
    const f1View = await app.request(`/api/generate/${(f1.body as { job_id: string }).job_id}`, { token: free.token });
    assert.equal((f1View.body as { position: number }).position, 3);
    // Waiting behind more work means a later estimate.
    assert.ok(
      (f1View.body as { estimated_remaining: number }).estimated_remaining >= (e.body as { estimated_time: number }).estimated_time,
    );
    const order: string[] = [];
    for (let i = 0; i < 4; i += 1) {
      const [job] = await app.boss.fetch<GenerationMessage>(GENERATION_QUEUE);
      assert.ok(job !== undefined);
      order.push(`gen_${job.data.jobId}`);
    }
    assert.deepEqual(
      order,
      [e, p, f1, f2].map((r) => (r.body as { job_id: string }).job_id),
    );
  });

  it('estimates from measured durations of recent completed jobs', async () => {
    const user = await app.login();
    await app.setTier(user.userId, 'enterprise');
    // Recently completed 60-step jobs took 2 s per second of audio.
    await app.db.none(
      `INSERT INTO generation_jobs (user_id, user_address, prompt, duration, steps, tier, status, audio_url, audio_hash, started_at, completed_at)
       SELECT $1, $2, 'done', 10, 60, 'enterprise', '${JOB_STATUS.completed}', 'http://s/a.mp3', $3, now() - interval '20 seconds', now()
       FROM generate_series(1, 3)`,
      [user.userId, user.address, `0x${'00'.repeat(32)}`],
    );
    const res = await generate(user.token, { prompt: 'x', duration: 100, steps: 60 });
    assert.equal(res.status, 202);
    assert.equal((res.body as { estimated_time: number }).estimated_time, 200);
  });
});
