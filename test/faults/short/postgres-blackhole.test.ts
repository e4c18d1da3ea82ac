/**
 * PostgreSQL blackholed (issue 27): the oracle and the worker reach the database through a proxy
 * that stops forwarding without closing, as a partition or a stuck load balancer does. Every
 * request answers within the request deadline (core/src/db/database.ts): 503 SERVICE_UNAVAILABLE
 * in the error shape, never a hang, never a 500; /health/ready says not ready, /health/live keeps
 * answering. After healing, with nothing restarted, every acknowledged job completes exactly once
 * and a refused submission left no job behind. The heavier cases (replicas, workers, load) are in
 * test/faults/long/blackholes.test.ts.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { REQUEST_DEADLINE_MS } from '../../../core/src/db/database.ts';
import { assertVariantAError } from '../../oracle/helpers/shapes.ts';
import type { FaultCluster, HttpResult, OracleReplica, ServiceProcess, Session } from '../support/cluster.ts';
import { httpRequest, startFaultCluster, waitFor } from '../support/cluster.ts';
import { recordFigure } from '../support/figures.ts';
import { completedOnce, submit } from '../support/jobs.ts';

/**
 * What the client allows beyond the deadline: timers fire late on a loaded machine. A request
 * still unanswered then is a hang (the client aborts it and the test fails).
 */
const SCHEDULING_SLACK_MS = 3000;

interface Timed {
  name: string;
  response: HttpResult;
  ms: number;
}

async function timed(name: string, url: string, options: Parameters<typeof httpRequest>[1] = {}): Promise<Timed> {
  const started = performance.now();
  const response = await httpRequest(url, { ...options, timeoutMs: REQUEST_DEADLINE_MS + SCHEDULING_SLACK_MS }).catch((error: unknown) => {
    throw new Error(`${name} had no answer within ${REQUEST_DEADLINE_MS + SCHEDULING_SLACK_MS} ms: ${String(error)}`);
  });
  return { name, response, ms: Math.round(performance.now() - started) };
}

describe('PostgreSQL blackholed: bounded 503s, then every acknowledged job once', { timeout: 600_000 }, () => {
  let cluster: FaultCluster;
  let oracle: OracleReplica;
  let worker: ServiceProcess;
  let user: Session;
  before(async () => {
    cluster = await startFaultCluster({ blackholes: ['postgres'] });
    const first = cluster.oracles[0];
    assert.ok(first !== undefined);
    oracle = first;
    worker = await cluster.startWorker();
    user = await cluster.login(oracle, { tier: 'enterprise' });
  });
  after(async () => {
    await cluster?.stop();
  });

  it('answers every request within the deadline while blackholed and recovers without restarts', async () => {
    const proxy = cluster.proxies.postgres;
    assert.ok(proxy !== undefined);
    const acknowledged = [await submit(cluster, user, 'before the blackhole 1'), await submit(cluster, user, 'before the blackhole 2')];
    const statusOf = acknowledged[0] ?? '';

    proxy.blackhole();
    const rounds: Timed[][] = [];
    // Twice: first on the pool's open connections, then on connections the first round replaced.
    for (let round = 0; round < 2; round++) {
      rounds.push(
        await Promise.all([
          timed('GET /api/auth/nonce', `${oracle.url}/api/auth/nonce`),
          timed('GET /api/generate/{id}', `${oracle.url}/api/generate/${statusOf}`, { token: user.token }),
          timed('POST /api/generate', `${oracle.url}/api/generate`, {
            token: user.token,
            body: { prompt: `while blackholed ${round}`, duration: 5 },
          }),
          timed('GET /health/ready', `${oracle.url}/health/ready`),
          timed('GET /health/live', `${oracle.url}/health/live`),
        ]),
      );
    }
    for (const answer of rounds.flat()) {
      if (answer.name === 'GET /health/live') {
        assert.equal(answer.response.status, 200, 'the process stays live');
        continue;
      }
      assert.equal(answer.response.status, 503, `${answer.name}: ${answer.response.status} ${answer.response.text.slice(0, 300)}`);
      if (answer.name === 'GET /health/ready') {
        assert.deepEqual((answer.response.body as { waiting_for?: string[] }).waiting_for, ['database']);
        continue;
      }
      assertVariantAError(answer.response.body, 'SERVICE_UNAVAILABLE');
      assert.ok(answer.response.headers.get('retry-after') !== null, `${answer.name} says when to retry`);
      assert.ok(!/\n\s+at /.test(answer.response.text), 'no stack trace in a 503');
    }

    proxy.heal();
    await waitFor(
      'the oracle to answer with its database again',
      async () => {
        const nonce = await httpRequest(`${oracle.url}/api/auth/nonce`, { timeoutMs: REQUEST_DEADLINE_MS });
        return nonce.status === 200 ? true : undefined;
      },
      60_000,
      500,
    );
    acknowledged.push(await submit(cluster, user, 'after healing'));
    for (const jobId of acknowledged) await completedOnce(cluster, jobId);
    const refused = await cluster.db.one<{ n: number }>(
      "SELECT count(*)::int AS n FROM generation_jobs WHERE prompt LIKE 'while blackholed %'",
    );
    assert.equal(refused.n, 0, 'a 503 left no job behind');
    assert.equal(oracle.child.exitCode, null, 'the oracle was not restarted');
    assert.equal(worker.child.exitCode, null, 'the worker was not restarted');

    const slowest = Math.max(...rounds.flat().map((answer) => answer.ms));
    const slowestLive = Math.max(
      ...rounds
        .flat()
        .filter((answer) => answer.name === 'GET /health/live')
        .map((answer) => answer.ms),
    );
    recordFigure('postgres-blackhole-short', {
      requests: rounds.flat().length,
      slowestMs: slowest,
      slowestLiveMs: slowestLive,
      deadlineMs: REQUEST_DEADLINE_MS,
      jobsExactlyOnce: acknowledged.length,
    });
  });
});
