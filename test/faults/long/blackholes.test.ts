/**
 * Components that stop answering without closing (issue 27): PostgreSQL and the object store
 * behind blackhole proxies (test/faults/support/blackhole-proxy.ts), under two oracle replicas and
 * two workers, and a worker starting while PostgreSQL is silent. The short, single-replica PostgreSQL case is test/faults/short/postgres-blackhole;
 * the chain RPC's is in ./chain.test.ts.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { REQUEST_DEADLINE_MS } from '../../../core/src/db/database.ts';
import { MIGRATION_DEADLINES } from '../../../core/src/db/migrate.ts';
import { JOB_STATUS } from '../../../core/src/jobs/job-state.ts';
import { OBJECT_STORE_DEADLINES } from '../../../core/src/object-store-deadlines.ts';
import { HOLD_LOG_PREFIX } from '../../../inference/src/worker/stage-hold.ts';
import { assertVariantAError } from '../../oracle/helpers/shapes.ts';
import type { FaultCluster, OracleReplica, Session } from '../support/cluster.ts';
import { startFaultCluster, storedObjectKeys, waitFor } from '../support/cluster.ts';
import { SCHEDULING_SLACK_MS, bounded } from '../support/bounded-requests.ts';
import type { Outcome } from '../support/bounded-requests.ts';
import { recordFigure } from '../support/figures.ts';
import { completedOnce, jobRow, submit } from '../support/jobs.ts';

const BLACKHOLE_MS = 20_000;

describe('blackholed PostgreSQL and object store under replicas and workers', { timeout: 900_000 }, () => {
  let cluster: FaultCluster;
  let replicas: OracleReplica[];
  let users: Session[];
  before(async () => {
    cluster = await startFaultCluster({ blackholes: ['postgres', 's3'] });
    const first = cluster.oracles[0];
    assert.ok(first !== undefined);
    replicas = [first];
    users = [await cluster.login(first, { tier: 'enterprise' }), await cluster.login(first, { tier: 'enterprise' })];
  });
  after(async () => {
    await cluster?.stop();
  });

  it('PostgreSQL blackholed under load: every request answers within the deadline, 503 in the shape; after healing every job completes once', async (t) => {
    const proxy = cluster.proxies.postgres;
    assert.ok(proxy !== undefined);
    replicas.push(await cluster.startOracle());
    const workers = [await cluster.startWorker(), await cluster.startWorker()];
    // The next case needs the only worker to be its own.
    t.after(async () => {
      for (const worker of workers) await worker.kill('SIGTERM');
    });
    const polled = [
      await submit(cluster, users[0] as Session, 'bh load first 0'),
      await submit(cluster, users[1] as Session, 'bh load first 1'),
    ];
    const acknowledged = [...polled];
    const outcomes: Outcome[] = [];
    let loading = true;
    const load = (replica: OracleReplica, user: Session, name: string, own: string) =>
      (async () => {
        for (let n = 0; loading; n++) {
          const round = await Promise.all([
            bounded('nonce', `${replica.url}/api/auth/nonce`),
            bounded('status', `${replica.url}/api/generate/${own}`, { token: user.token }),
            bounded('generate', `${replica.url}/api/generate`, {
              token: user.token,
              body: { prompt: `bh load ${name} ${n}`, duration: 5 },
            }),
          ]);
          outcomes.push(...round);
          const created = round[2]?.response;
          if (created?.status === 202) acknowledged.push((created.body as { job_id: string }).job_id);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      })();
    const loads = replicas.map((replica, index) => load(replica, users[index] as Session, `r${index}`, polled[index] ?? ''));
    await waitFor('load before the blackhole', async () => (outcomes.length >= 12 ? true : undefined), 60_000);

    proxy.blackhole();
    const blackholedAt = outcomes.length;
    const health = await Promise.all(
      replicas.flatMap((replica) => [bounded('ready', `${replica.url}/health/ready`), bounded('live', `${replica.url}/health/live`)]),
    );
    await new Promise((resolve) => setTimeout(resolve, BLACKHOLE_MS));
    const during = outcomes.slice(blackholedAt);
    proxy.heal();
    const healedAt = outcomes.length;
    await waitFor(
      'a job acknowledged after healing',
      async () => (outcomes.slice(healedAt).some((o) => o.what === 'generate' && o.response?.status === 202) ? true : undefined),
      120_000,
    );
    loading = false;
    await Promise.all(loads);

    for (const check of health) {
      assert.ok(check.response !== undefined, `${check.what} had no answer within the deadline`);
      assert.equal(check.response.status, check.what === 'live' ? 200 : 503, `${check.what} while blackholed`);
    }
    for (const outcome of outcomes) {
      assert.ok(outcome.response !== undefined, `${outcome.what} had no answer within ${REQUEST_DEADLINE_MS + SCHEDULING_SLACK_MS} ms`);
      const { status, text, body } = outcome.response;
      assert.ok([200, 202, 503].includes(status), `${outcome.what}: unexpected ${status} ${text.slice(0, 300)}`);
      if (status === 503) {
        // The workers' heartbeats cannot reach the database while it is silent: once they are
        // older than HEARTBEAT_STALE_SECONDS (as old as the blackhole), a submission right after
        // healing may truthfully meet no live worker (GEN_002) until the next heartbeat lands.
        const code = (body as { error?: { code?: string } }).error?.code;
        assertVariantAError(body, outcome.what === 'generate' && code === 'GEN_002' ? 'GEN_002' : 'SERVICE_UNAVAILABLE');
        assert.ok(!/\n\s+at /.test(text), 'no stack trace in a 503');
      }
    }
    assert.ok(
      during.some((o) => o.response?.status === 503),
      'requests were refused while blackholed',
    );
    for (const jobId of acknowledged) await completedOnce(cluster, jobId);
    // A 503 whose COMMIT was already on the wire may have committed (the client cannot know):
    // such a job must complete once like any other, never stay half-done.
    const rows = await cluster.db.many<{ id: string }>("SELECT id FROM generation_jobs WHERE prompt LIKE 'bh load %'");
    for (const row of rows) await completedOnce(cluster, `gen_${row.id}`);
    for (const service of [...replicas, ...workers]) assert.equal(service.child.exitCode, null, `${service.name} was not restarted`);
    recordFigure('postgres-blackhole-load', {
      requests: outcomes.length,
      answered503: outcomes.filter((o) => o.response?.status === 503).length,
      noLiveWorker503: outcomes.filter((o) => (o.response?.body as { error?: { code?: string } } | undefined)?.error?.code === 'GEN_002')
        .length,
      slowestMs: Math.max(...outcomes.map((o) => o.ms)),
      deadlineMs: REQUEST_DEADLINE_MS,
      jobsAcknowledged: acknowledged.length,
      jobsExactlyOnce: rows.length,
      committedBehind503: rows.length - acknowledged.length,
    });
  });

  it('object store blackholed during an upload: the attempt is abandoned at its deadline and retried; one object, its hash, once', async () => {
    const proxy = cluster.proxies.s3;
    assert.ok(proxy !== undefined);
    const worker = await cluster.startWorker({ INFERENCE_TEST_HOLD_AT_STAGE: 'upload', INFERENCE_TEST_HOLD_MS: '3000' });
    const jobId = await submit(cluster, users[1] as Session, 'store blackholed');
    await worker.waitForOutput(`${HOLD_LOG_PREFIX} upload`);
    proxy.blackhole();
    const started = performance.now();
    // One upload waits at most `attempts` silent sockets; then the attempt fails and the job goes back to the queue.
    const abandoned = await waitFor(
      'the stalled upload to be abandoned',
      async () => {
        const row = await jobRow(cluster, jobId);
        return row.attempts >= 2 || row.status === JOB_STATUS.queued ? row : undefined;
      },
      120_000,
      250,
    );
    const abandonedMs = Math.round(performance.now() - started);
    assert.notEqual(abandoned.status, JOB_STATUS.failed);
    // Held long enough for the retry's upload to stall too, then healed: the held uploads arrive late.
    await new Promise((resolve) => setTimeout(resolve, 2 * OBJECT_STORE_DEADLINES.idleMs));
    proxy.heal();
    const row = await completedOnce(cluster, jobId);
    // The late uploads of the abandoned attempts landed too: still one object, the recorded bytes.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const objects = (await storedObjectKeys(cluster.s3, 'audio/')).filter((key) => key.includes(jobId));
    assert.deepEqual(objects, [row.audio_key], 'no second object');
    await completedOnce(cluster, jobId);
    recordFigure('object-store-blackhole', { abandonedAfterMs: abandonedMs, attempts: row.attempts, retriedThenCompleted: 1 });
    await worker.kill('SIGTERM');
  });

  it('a worker starting against a blackholed PostgreSQL gives up at the migration deadline and says why; after healing one starts', async () => {
    const proxy = cluster.proxies.postgres;
    assert.ok(proxy !== undefined);
    proxy.blackhole();
    const started = performance.now();
    try {
      // startWorker rejects when the process exits before its first heartbeat.
      await assert.rejects(cluster.startWorker(), (error: Error) => {
        assert.match(error.message, /exited/);
        assert.match(error.message, /DATABASE_UNAVAILABLE/);
        assert.match(error.message, /the database could not be migrated: .*timeout/i);
        return true;
      });
    } finally {
      proxy.heal({ reset: true });
    }
    const gaveUpMs = Math.round(performance.now() - started);
    // Start-up itself (configuration, signing identity, model) comes before the migration.
    assert.ok(gaveUpMs >= MIGRATION_DEADLINES.connectMs, `gave up after ${gaveUpMs} ms`);
    const worker = await cluster.startWorker();
    await worker.kill('SIGTERM');
    recordFigure('postgres-blackhole-startup', { workerGaveUpAfterMs: gaveUpMs, connectDeadlineMs: MIGRATION_DEADLINES.connectMs });
  });
});
