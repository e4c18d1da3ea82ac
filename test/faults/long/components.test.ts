/**
 * Faults of the real components, each with its expected outcome (issue 12, item 2): PostgreSQL
 * SIGKILLed under load, the object store down during upload, a worker SIGKILLed at each stage.
 * One cluster (PostgreSQL, S3, one oracle process) for all of them; workers come and go.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { JOB_STATUS } from '../../../core/src/jobs/job-state.ts';
import { PIPELINE_STAGES } from '../../../inference/src/worker/pipeline.ts';
import { HOLD_LOG_PREFIX } from '../../../inference/src/worker/stage-hold.ts';
import { assertVariantAError } from '../../oracle/helpers/shapes.ts';
import { recordFigure } from '../support/figures.ts';
import type { FaultCluster, HttpResult, Session } from '../support/cluster.ts';
import { httpRequest, startFaultCluster, storedObjectKeys, waitFor } from '../support/cluster.ts';
import { completedOnce, jobRow, submit } from '../support/jobs.ts';

describe('faults of the real components', { timeout: 900_000 }, () => {
  let cluster: FaultCluster;
  let user: Session;
  let faultsSurvived = 0;
  before(async () => {
    cluster = await startFaultCluster();
    const oracle = cluster.oracles[0];
    assert.ok(oracle !== undefined);
    user = await cluster.login(oracle, { tier: 'enterprise' });
  });
  after(async () => {
    recordFigure('component-faults', { faultsSurvived });
    await cluster?.stop();
  });

  it('PostgreSQL SIGKILLed under load: 503 in the error shape, never a hang or a 500; recovers without restarts; no job lost or doubled', async () => {
    const oracle = cluster.oracles[0];
    assert.ok(oracle !== undefined);
    const worker = await cluster.startWorker();
    const before = await submit(cluster, user, 'before the crash');
    await completedOnce(cluster, before);

    // Load through the crash: job submissions and polls, each bounded by a client timeout.
    const acknowledged: string[] = [];
    const outcomes: HttpResult[] = [];
    let loading = true;
    const load = (async () => {
      let n = 0;
      while (loading) {
        const poll = httpRequest(`${oracle.url}/api/generate/${before}`, { token: user.token, timeoutMs: 20_000 });
        const generate = httpRequest(`${oracle.url}/api/generate`, {
          token: user.token,
          body: { prompt: `under load ${n++}`, duration: 5 },
          timeoutMs: 20_000,
        });
        for (const response of await Promise.all([poll, generate])) outcomes.push(response);
        const created = await generate;
        if (created.status === 202) acknowledged.push((created.body as { job_id: string }).job_id);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    await waitFor('load before the crash', async () => (outcomes.length >= 6 ? true : undefined), 30_000);
    await cluster.pg.kill();
    const downSince = outcomes.length;
    await waitFor(
      'requests answered while PostgreSQL is down',
      async () => (outcomes.slice(downSince).filter((r) => r.status === 503).length >= 4 ? true : undefined),
      60_000,
    );
    const live = await httpRequest(`${oracle.url}/health/live`, { timeoutMs: 5000 });
    assert.equal(live.status, 200, 'the oracle process stays live without its database');
    await cluster.pg.restart();
    const upSince = outcomes.length;
    await waitFor(
      'a job acknowledged after the restart',
      async () => (outcomes.slice(upSince).some((r) => r.status === 202) ? true : undefined),
      120_000,
    );
    loading = false;
    await load;

    for (const response of outcomes) {
      assert.ok([200, 202, 503].includes(response.status), `unexpected ${response.status}: ${response.text.slice(0, 400)}`);
      if (response.status === 503) {
        assertVariantAError(response.body);
        assert.ok(!/\n\s+at /.test(response.text), 'no stack trace in a 503');
      }
    }
    const unavailable = outcomes.filter((r) => r.status === 503).length;
    assert.ok(unavailable > 0);
    // Every acknowledged job completes exactly once on the same worker process, never restarted.
    for (const jobId of acknowledged) await completedOnce(cluster, jobId);
    assert.equal(worker.child.exitCode, null, 'the worker was not restarted');
    assert.equal(oracle.child.exitCode, null, 'the oracle was not restarted');
    const all = await cluster.db.one<{ n: number }>("SELECT count(*)::int AS n FROM generation_jobs WHERE prompt LIKE 'under load %'");
    assert.equal(all.n, acknowledged.length, 'no job exists that was not acknowledged (a 503 left nothing behind)');
    recordFigure('postgres-kill', {
      requests: outcomes.length,
      answered503: unavailable,
      jobsAcknowledged: acknowledged.length,
      jobsExactlyOnce: acknowledged.length,
    });
    faultsSurvived++;
    await worker.kill('SIGTERM');
  });

  it('object store down during upload: the attempt fails and retries, completes once it is back; GEN_005 only after the configured retries', async () => {
    // Each attempt waits 3 s before its upload: the store goes away while the first one waits.
    const worker = await cluster.startWorker({ INFERENCE_TEST_HOLD_AT_STAGE: 'upload', INFERENCE_TEST_HOLD_MS: '3000' });
    const recovering = await submit(cluster, user, 'store comes back');
    await worker.waitForOutput(`${HOLD_LOG_PREFIX} upload`);
    await cluster.s3.stop();
    await waitFor(
      'a failed upload attempt',
      async () => {
        const row = await jobRow(cluster, recovering);
        return row.attempts >= 2 && row.status !== JOB_STATUS.failed ? row : undefined;
      },
      120_000,
    );
    await cluster.s3.start();
    const row = await completedOnce(cluster, recovering);
    assert.ok(row.attempts >= 2 && row.attempts <= 3, `completed on a retry (attempt ${row.attempts})`);

    // Store down for every attempt: GEN_005 after exactly 1 + 2 attempts.
    await cluster.s3.stop();
    const doomed = await submit(cluster, user, 'store never comes back');
    const failed = await waitFor(
      'the job to fail',
      async () => {
        const current = await jobRow(cluster, doomed);
        return current.status === JOB_STATUS.failed ? current : undefined;
      },
      180_000,
      250,
    );
    assert.equal(failed.attempts, 3, 'failed only after the configured retries (1 + WORKER_RETRY_LIMIT)');
    assert.equal(failed.error_code, 'GEN_005');
    await cluster.s3.start();
    const oracle = cluster.oracles[0];
    assert.ok(oracle !== undefined);
    const status = await httpRequest(`${oracle.url}/api/generate/${doomed}`, { token: user.token });
    assert.equal((status.body as { status: string }).status, 'failed');
    assert.ok(!(await storedObjectKeys(cluster.s3, 'audio/')).includes(`audio/${doomed}.mp3`), 'no object for the failed job');
    recordFigure('object-store-down', { retriedThenCompleted: 1, failedAfterAttempts: failed.attempts });
    faultsSurvived += 2;
    await worker.kill('SIGTERM');
  });

  for (const stage of PIPELINE_STAGES) {
    it(`a worker SIGKILLed at the ${stage} stage: the job completes exactly once`, async () => {
      const doomed = await cluster.startWorker({ INFERENCE_TEST_HOLD_AT_STAGE: stage });
      const jobId = await submit(cluster, user, `killed at ${stage}`);
      await doomed.waitForOutput(`${HOLD_LOG_PREFIX} ${stage}`);
      await doomed.kill('SIGKILL');
      const rescuer = await cluster.startWorker();
      const row = await completedOnce(cluster, jobId);
      assert.equal(row.attempts, 2, 'the killed attempt counts, the next completes');
      recordFigure(`worker-kill-${stage}`, { jobsExactlyOnce: 1, attempts: row.attempts });
      faultsSurvived++;
      await rescuer.kill('SIGTERM');
    });
  }
});
