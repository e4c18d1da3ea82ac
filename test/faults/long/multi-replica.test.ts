/**
 * Multi-replica exactness (issue 12, item 1): two oracle processes and three workers on one
 * PostgreSQL. 20 users submit generations across both replicas at once, each past one of its
 * limits (10 users past the daily tier limit, 10 past the hourly generation limit): exactly the
 * allowed number is acknowledged, every acknowledged job completes exactly once (one object, one
 * hash, one completion), and concurrent signature requests for one job on both replicas give
 * exactly one signature.
 *
 * FAULTS_USERS (default 20) scales it; 5 acknowledged jobs per user.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { JOB_STATUS } from '../../../core/src/jobs/job-state.ts';
import { assertDailyLimitBody, assertVariantAError } from '../../oracle/helpers/shapes.ts';
import { recordFigure } from '../support/figures.ts';
import type { FaultCluster, HttpResult, Session } from '../support/cluster.ts';
import { httpRequest, startFaultCluster, storedObjectKeys, waitFor } from '../support/cluster.ts';

const USERS = Number(process.env.FAULTS_USERS ?? 20);
const ACCEPTED_PER_USER = 5;
const REQUESTS_PER_USER = 8;
const SIGNED_JOBS = Math.min(10, USERS);

let overloadRetries = 0;

/**
 * A client that retries a 503 (the pool of one replica exhausted by the burst: SERVICE_UNAVAILABLE
 * with Retry-After) after a moment, as the SDK does. A 503 charges nothing, so the retried
 * request meets the same limits.
 */
async function submitRetrying(url: string, token: string, body: unknown): Promise<HttpResult> {
  for (let attempt = 0; ; attempt++) {
    const response = await httpRequest(url, { token, body });
    if (response.status !== 503 || attempt >= 30) return response;
    assertVariantAError(response.body, 'SERVICE_UNAVAILABLE');
    overloadRetries++;
    await new Promise((resolve) => setTimeout(resolve, 200 + Math.random() * 300));
  }
}

/** The hour must not turn while the limits are charged: wait out its last two minutes. */
async function awayFromHourBoundary(): Promise<void> {
  const left = 3_600_000 - (Date.now() % 3_600_000);
  if (left < 120_000) await new Promise((resolve) => setTimeout(resolve, left + 1000));
}

describe('two oracle replicas and three workers on one PostgreSQL', { timeout: 900_000 }, () => {
  let cluster: FaultCluster;
  before(async () => {
    cluster = await startFaultCluster();
    await cluster.startOracle();
    for (let i = 0; i < 3; i++) await cluster.startWorker();
  });
  after(async () => {
    await cluster?.stop();
  });

  it('acknowledges exactly the limits allow and completes every acknowledged job exactly once', async () => {
    const [a, b] = cluster.oracles;
    assert.ok(a !== undefined && b !== undefined);
    const users: Session[] = [];
    for (let i = 0; i < USERS; i++) users.push(await cluster.login(i % 2 === 0 ? a : b));
    await awayFromHourBoundary();
    // Half the users have used all but 5 of their 10 daily generations, half all but 5 of their
    // 10 hourly ones (the free tier): 8 concurrent requests each, 4 on each replica.
    for (const [index, user] of users.entries()) {
      if (index % 2 === 0) await cluster.db.none('UPDATE users SET daily_generations = 5 WHERE id = $1', [user.userId]);
      else
        await cluster.db.none(
          "INSERT INTO rate_limit_counters (subject, category, window_start, count) VALUES ($1, 'generation', date_trunc('hour', now(), 'UTC'), 5)",
          [`user:${user.userId}`],
        );
    }
    const submissions = users.flatMap((user, index) =>
      Array.from({ length: REQUESTS_PER_USER }, (_, n) => {
        const replica = n % 2 === 0 ? a : b;
        return submitRetrying(`${replica.url}/api/generate`, user.token, { prompt: `faults song ${index}-${n}`, duration: 5 }).then(
          (response) => ({ user, index, response }),
        );
      }),
    );
    const results = await Promise.all(submissions);
    const acknowledged = new Map<string, Session>();
    for (const { user, index, response } of results) {
      if (response.status === 202) {
        const jobId = (response.body as { job_id: string }).job_id;
        assert.ok(!acknowledged.has(jobId), `job id ${jobId} acknowledged twice`);
        acknowledged.set(jobId, user);
        continue;
      }
      assert.equal(response.status, 429, `unexpected ${response.status}: ${response.text}`);
      if (index % 2 === 0) assertDailyLimitBody(response.body, 10);
      else assertVariantAError(response.body, 'RATE_002');
    }
    for (const user of users) {
      const count = [...acknowledged.values()].filter((owner) => owner === user).length;
      assert.equal(count, ACCEPTED_PER_USER, `user ${user.userId}: ${count} acknowledged, the limit allows ${ACCEPTED_PER_USER}`);
    }
    const counters = await cluster.db.many<{ id: string; daily_generations: number; hourly: number | null }>(
      `SELECT u.id, u.daily_generations, c.count AS hourly FROM users u
         LEFT JOIN rate_limit_counters c ON c.subject = 'user:' || u.id::text AND c.category = 'generation'
                                        AND c.window_start = date_trunc('hour', now(), 'UTC')
        WHERE u.id = ANY($1::uuid[])`,
      [users.map((user) => user.userId)],
    );
    for (const row of counters) {
      const index = users.findIndex((user) => user.userId === row.id);
      if (index % 2 === 0) assert.equal(row.daily_generations, 10, 'the daily counter stops at the limit');
      else assert.equal(row.hourly, 10, 'the hourly counter stops at the limit');
    }
    const total = acknowledged.size;
    assert.equal(total, USERS * ACCEPTED_PER_USER);

    const started = Date.now();
    const ids = [...acknowledged.keys()].map((id) => id.replace(/^gen_/, ''));
    await waitFor(
      `${total} jobs to complete`,
      async () => {
        const open = await cluster.db.one<{ open: number; failed: number }>(
          `SELECT count(*) FILTER (WHERE status <> '${JOB_STATUS.completed}')::int AS open, count(*) FILTER (WHERE status = '${JOB_STATUS.failed}')::int AS failed FROM generation_jobs WHERE id = ANY($1::uuid[])`,
          [ids],
        );
        if (open.failed > 0) throw new Error(`${open.failed} jobs failed`);
        return open.open === 0 ? true : undefined;
      },
      600_000,
      1000,
    );
    const completionSeconds = (Date.now() - started) / 1000;

    const rows = await cluster.db.many<{ id: string; audio_key: string; audio_hash: string }>(
      `SELECT id, audio_key, audio_hash FROM generation_jobs WHERE id = ANY($1::uuid[]) AND status = '${JOB_STATUS.completed}'`,
      [ids],
    );
    assert.equal(rows.length, total, 'one completed row per acknowledged job');
    assert.equal(new Set(rows.map((row) => row.audio_key)).size, total, 'one object key per job');
    const objects = await storedObjectKeys(cluster.s3, 'audio/');
    assert.deepEqual(objects, rows.map((row) => row.audio_key).sort(), 'exactly one stored object per job, no strays');
    for (const row of rows) {
      const bytes = await readFile(join(cluster.s3.directory, cluster.s3.bucket, `${row.audio_key}._S3rver_object`));
      assert.equal(`0x${createHash('sha256').update(bytes).digest('hex')}`, row.audio_hash, `${row.audio_key} is the bytes its hash names`);
    }
    const queue = await cluster.db.many<{ job_id: string; completed: number; other: number }>(
      `SELECT data->>'jobId' AS job_id, count(*) FILTER (WHERE state = 'completed')::int AS completed, count(*) FILTER (WHERE state <> 'completed')::int AS other
         FROM pgboss.job WHERE data->>'jobId' = ANY($1::text[]) GROUP BY 1`,
      [ids],
    );
    assert.equal(queue.length, total);
    for (const message of queue)
      assert.deepEqual(
        { completed: message.completed, other: message.other },
        { completed: 1, other: 0 },
        `queue message of ${message.job_id}`,
      );
    recordFigure('multi-replica', { jobs: total, exactlyOnce: total, completionSeconds, overloadRetries });

    // One signature per job, whichever replica is asked, however many times at once.
    let signaturesIssued = 0;
    for (const [jobId, user] of [...acknowledged.entries()].slice(0, SIGNED_JOBS)) {
      const status = await httpRequest(`${a.url}/api/generate/${jobId}`, { token: user.token });
      const audioUrl = (status.body as { audio_url: string }).audio_url;
      const metadata = await httpRequest(`${b.url}/api/metadata`, {
        token: user.token,
        body: { name: 'Faults', description: 'multi-replica', audio_url: audioUrl },
      });
      assert.equal(metadata.status, 201, metadata.text);
      const uri = (metadata.body as { metadata_uri: string }).metadata_uri;
      const asks: HttpResult[] = await Promise.all(
        Array.from({ length: 6 }, (_, n) =>
          httpRequest(`${(n % 2 === 0 ? a : b).url}/api/signature`, {
            token: user.token,
            body: { job_id: jobId, user_address: user.address, metadata_uri: uri },
          }),
        ),
      );
      const ok = asks.filter((ask) => ask.status === 200);
      assert.equal(ok.length, 1, `exactly one signature for ${jobId}: ${asks.map((ask) => ask.status).join(',')}`);
      for (const ask of asks.filter((other) => other.status !== 200)) {
        assert.equal(ask.status, 409, ask.text);
        assertVariantAError(ask.body, 'SIGN_002');
      }
      const stored = await cluster.db.one<{ n: number }>('SELECT count(*)::int AS n FROM mint_signatures WHERE job_id = $1', [
        jobId.replace(/^gen_/, ''),
      ]);
      assert.equal(stored.n, 1);
      signaturesIssued++;
    }
    recordFigure('multi-replica-signatures', { jobs: signaturesIssued, concurrentAsksPerJob: 6, signaturesPerJob: 1 });
  });
});
