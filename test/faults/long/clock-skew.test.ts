/**
 * Clock skew (issue 27): an oracle replica and a worker whose wall clocks run 10 minutes off the
 * database's, injected through the clock the code reads (test/faults/support/skewed-clock.mjs
 * preloaded into the process). Shared state runs on the database's clock (docs/operations.md,
 * "Clocks"), so the skewed replica accepts a fresh sign-in nonce issued by another replica and
 * does not expire a preview the database still keeps, and a replica whose clock is already in the
 * next hour charges the hourly window the database is in; the skewed worker does not take a job
 * another worker holds a live lease on.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { JOB_STATUS } from '../../../core/src/jobs/job-state.ts';
import { HOLD_LOG_PREFIX } from '../../../inference/src/worker/stage-hold.ts';
import type { FaultCluster, OracleReplica, Session } from '../support/cluster.ts';
import { httpRequest, startFaultCluster } from '../support/cluster.ts';
import { recordFigure } from '../support/figures.ts';
import { HOURLY_LIMITS } from '../../../oracle/src/domain/request-charge.ts';
import { completedOnce, jobRow, submit } from '../support/jobs.ts';

const SKEW_MS = 10 * 60_000;
const SKEWED_CLOCK = fileURLToPath(new URL('../support/skewed-clock.mjs', import.meta.url));

function skewed(ms: number): Record<string, string> {
  return { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${SKEWED_CLOCK}`.trim(), FAULTS_CLOCK_SKEW_MS: String(ms) };
}

describe('replicas and workers with skewed clocks', { timeout: 900_000 }, () => {
  let cluster: FaultCluster;
  let steady: OracleReplica;
  let ahead: OracleReplica;
  let user: Session;
  before(async () => {
    cluster = await startFaultCluster();
    const first = cluster.oracles[0];
    assert.ok(first !== undefined);
    steady = first;
    user = await cluster.login(steady, { tier: 'enterprise' });
  });
  after(async () => {
    await cluster?.stop();
  });

  it('the replica ahead signs in with a nonce the other replica issued; its session works everywhere', async () => {
    // The nonce lifetime (SIWE_NONCE_TTL_SECONDS, 600 s by default) is exactly the skew: on its
    // own clock the replica would find every nonce of the other replica already expired.
    ahead = await cluster.startOracle(skewed(SKEW_MS));
    const { token } = await cluster.login(steady, { verifyOn: ahead });
    // The replica's clock does run ahead: it stamped the session with its own time.
    const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as { iat: number };
    assert.ok(claims.iat * 1000 - Date.now() > SKEW_MS - 60_000, `issued at ${new Date(claims.iat * 1000).toISOString()}`);
    const status = await httpRequest(`${steady.url}/api/generate/gen_00000000-0000-4000-8000-000000000000`, { token });
    assert.equal(status.status, 404, status.text);
  });

  it('the replica ahead does not expire a preview the database still keeps', async () => {
    // A live worker as the queue sees it (none runs here: the preview stays queued).
    await cluster.db.none(
      `INSERT INTO worker_heartbeats (worker_id, hostname, device, model_name, model_version, slots, last_seen)
       VALUES ('skew-heartbeat', 'skew', 'cpu', 'skew', '0', 1, now()) ON CONFLICT (worker_id) DO UPDATE SET last_seen = now()`,
    );
    const created = await httpRequest(`${steady.url}/api/previews`, { token: user.token, body: { prompt: 'skewed preview' } });
    await cluster.db.none(`DELETE FROM worker_heartbeats WHERE worker_id = 'skew-heartbeat'`);
    assert.equal(created.status, 202, created.text);
    const sessionId = (created.body as { session_id: string }).session_id;
    // Five minutes left on the database's clock; on the replica's own, five minutes past.
    await cluster.db.none(`UPDATE preview_jobs SET created_at = now() - interval '24 hours' + interval '5 minutes' WHERE session_id = $1`, [
      sessionId,
    ]);
    const onAhead = await httpRequest(`${ahead.url}/api/previews/${sessionId}`, { token: user.token });
    assert.equal(onAhead.status, 200, `a preview with 5 minutes left: ${onAhead.text}`);
    const expiresAt = new Date((onAhead.body as { expires_at: string }).expires_at);
    const dbNow = (await cluster.db.one<{ now: Date }>('SELECT now()')).now;
    assert.ok(expiresAt.getTime() > dbNow.getTime(), 'expires in the future on the database clock');
    // Once the database's clock passes the 24 hours, every replica says expired.
    await cluster.db.none(`UPDATE preview_jobs SET created_at = now() - interval '24 hours' - interval '1 second' WHERE session_id = $1`, [
      sessionId,
    ]);
    for (const replica of [steady, ahead]) {
      const gone = await httpRequest(`${replica.url}/api/previews/${sessionId}`, { token: user.token });
      assert.equal(gone.status, 410, gone.text);
    }
    // Its queue message goes too: the next case's workers must meet only the song they are given.
    await cluster.db.none(`DELETE FROM pgboss.job WHERE data ? 'previewId'`);
  });

  it('a replica whose clock is in the next hour charges the window the database is in, never a second one', async () => {
    // The skew that puts this replica's clock one minute into the database's next hour: 1 to 61
    // minutes ahead, whenever the test runs. On its own clock it would open a fresh window.
    const { to_next_hour_ms: toNextHourMs } = await cluster.db.one<{ to_next_hour_ms: number }>(
      `SELECT (extract(epoch FROM date_trunc('hour', now(), 'UTC') + interval '1 hour' - now()) * 1000)::int AS to_next_hour_ms`,
    );
    const skewMs = toNextHourMs + 60_000;
    const nextHour = await cluster.startOracle(skewed(skewMs));
    const limit = HOURLY_LIMITS.general.enterprise;
    const poll = (replica: OracleReplica) =>
      httpRequest(`${replica.url}/api/generate/gen_00000000-0000-4000-8000-000000000000`, { token: user.token });
    const windows = () =>
      cluster.db.manyOrNone<{ window_start: Date; count: number; current: boolean }>(
        `SELECT window_start, count, window_start = date_trunc('hour', now(), 'UTC') AS current
           FROM rate_limit_counters WHERE subject = $1 AND category = 'general' ORDER BY window_start`,
        [`user:${user.userId}`],
      );
    // All but one request of the hour used, counted in the database's window.
    await cluster.db.none(
      `INSERT INTO rate_limit_counters (subject, category, window_start, count) VALUES ($1, 'general', date_trunc('hour', now(), 'UTC'), $2)
       ON CONFLICT (subject, category, window_start) DO UPDATE SET count = EXCLUDED.count`,
      [`user:${user.userId}`, limit - 1],
    );
    const last = await poll(nextHour);
    assert.equal(last.status, 404, last.text);
    assert.equal(last.headers.get('x-ratelimit-remaining'), '0');
    const { reset_at: resetAt } = await cluster.db.one<{ reset_at: Date }>(
      `SELECT date_trunc('hour', now(), 'UTC') + interval '1 hour' AS reset_at`,
    );
    assert.equal(Number(last.headers.get('x-ratelimit-reset')), resetAt.getTime() / 1000, 'the reset of the window charged');
    for (const replica of [nextHour, steady]) {
      const refused = await poll(replica);
      assert.equal(refused.status, 429, `the hour is used up on every replica: ${refused.text}`);
      assert.equal((refused.body as { error: { code: string } }).error.code, 'RATE_002');
      // Retry-After counts to the database's next hour, not to the skewed replica's.
      const retryAfter = Number(refused.headers.get('retry-after'));
      assert.ok(retryAfter >= 1 && retryAfter * 1000 <= toNextHourMs + 5_000, `Retry-After ${retryAfter} s`);
    }
    const counted = await windows();
    assert.deepEqual(
      counted.map((row) => ({ count: row.count, current: row.current })),
      [{ count: limit, current: true }],
      'one window, the database hour, holding exactly the limit',
    );
    recordFigure('clock-skew-rate-limit', { skewMinutes: Math.round(skewMs / 60_000), windowsCharged: counted.length, overLimit: 0 });
    await nextHour.kill('SIGTERM');
  });

  it('a worker whose clock runs ahead does not take a job another worker holds a live lease on', async () => {
    const holder = await cluster.startWorker({ INFERENCE_TEST_HOLD_AT_STAGE: 'model', INFERENCE_TEST_HOLD_MS: '15000' });
    const jobId = await submit(cluster, user, 'leased while skewed');
    await holder.waitForOutput(`${HOLD_LOG_PREFIX} model`);
    const intruder = await cluster.startWorker(skewed(SKEW_MS));
    const row = await completedOnce(cluster, jobId);
    assert.equal(row.attempts, 1, 'the live lease was never taken over');
    // The skewed worker itself works: its own job completes once on one attempt.
    await holder.kill('SIGTERM');
    const next = await submit(cluster, user, 'run by the skewed worker');
    const done = await completedOnce(cluster, next);
    assert.equal(done.attempts, 1);
    assert.equal((await jobRow(cluster, next)).status, JOB_STATUS.completed);
    recordFigure('clock-skew', { skewMinutes: SKEW_MS / 60_000, leasesTakenOver: 0, freshPreviewsExpired: 0, foreignNoncesAccepted: 1 });
    await intruder.kill('SIGTERM');
  });
});
