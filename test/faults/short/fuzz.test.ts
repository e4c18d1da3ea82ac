/**
 * Fuzzed input (issue 12, item 3): fast-check generates paths, headers, tokens and bodies for
 * every operation of the OpenAPI document a running oracle process serves (so routes added later
 * are covered without editing this file), sends them to that process, and checks every answer:
 * never a 5xx, every 4xx in one of the strict error schemas the document shows, and nothing
 * charged for a rejected request (the users' daily counters, the hourly counters and the job,
 * metadata and signature rows in PostgreSQL are read before and after each request).
 *
 * FUZZ_REQUESTS sets the count: 500 in `npm test`, 50,000 in `npm run test:faults`. The seed is
 * printed first; FUZZ_SEED replays a run (with the same FUZZ_REQUESTS).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { dailyLimitErrorSchema, variantAErrorSchema, variantCErrorSchema } from '../../../oracle/src/http/schemas.ts';
import { recordFigure } from '../support/figures.ts';
import type { FaultCluster, HttpResult, OracleReplica, Session } from '../support/cluster.ts';
import { httpRequest, startFaultCluster } from '../support/cluster.ts';
import type { FuzzRequest, JsonSchema, Operation } from '../support/openapi-arbitraries.ts';
import { operationsOf, requestArbitrary } from '../support/openapi-arbitraries.ts';

const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 500);
const SEED = process.env.FUZZ_SEED === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(process.env.FUZZ_SEED);

/** What a rejected request must leave as it was. */
const CHARGE_SNAPSHOT = `SELECT
  (SELECT coalesce(sum(daily_generations), 0)::int FROM users) AS daily,
  (SELECT coalesce(sum(total_generations), 0)::int FROM users) AS total,
  (SELECT coalesce(sum(count), 0)::int FROM rate_limit_counters WHERE subject LIKE 'user:%') AS hourly,
  (SELECT count(*)::int FROM generation_jobs) AS jobs,
  (SELECT count(*)::int FROM song_metadata) AS metadata,
  (SELECT count(*)::int FROM mint_signatures) AS signatures,
  (SELECT count(*)::int FROM preview_jobs) AS previews`;

interface Snapshot {
  daily: number;
  total: number;
  hourly: number;
  jobs: number;
  metadata: number;
  signatures: number;
  previews: number;
}

/** Bad input (oracle/src/http/charging.ts): refunded in full, once the response has finished. */
const BAD_INPUT = new Set([400, 413, 415]);
const REFUND_SETTLE_MS = 3000;

const errorSchemas = [variantAErrorSchema, variantCErrorSchema, dailyLimitErrorSchema];

function isDocumentedError(body: unknown): boolean {
  return errorSchemas.some((schema) => schema.safeParse(body).success);
}

/** Time for the run: start-up, then what one request with its database snapshots may take on a loaded machine. */
const BUDGET_MS = 600_000 + REQUESTS * 50;

describe('fuzzed requests against every route of the served OpenAPI document', { timeout: BUDGET_MS }, () => {
  let cluster: FaultCluster;
  let oracle: OracleReplica;
  let sessions: Session[];
  before(async () => {
    cluster = await startFaultCluster();
    const first = cluster.oracles[0];
    assert.ok(first !== undefined);
    oracle = first;
    sessions = [await cluster.login(oracle, { tier: 'enterprise' }), await cluster.login(oracle)];
  });
  after(async () => {
    await cluster?.stop();
  });

  it(
    `${REQUESTS} generated requests: no 5xx, every 4xx in a documented error shape, nothing charged for a rejection`,
    { timeout: BUDGET_MS },
    async () => {
      const document = await httpRequest(`${oracle.url}/openapi.json`);
      assert.equal(document.status, 200);
      const operations: Operation[] = operationsOf(
        document.body as { paths: Record<string, Record<string, JsonSchema>>; components?: { schemas?: Record<string, JsonSchema> } },
      );
      assert.ok(operations.length >= 10, `the document lists ${operations.length} operations`);
      const tokens = sessions.map((session) => session.token);
      const statuses = new Map<number, number>();
      const covered = new Set<string>();
      let sent = 0;
      let rejected = 0;
      const heartbeat = () =>
        cluster.db.none(
          `INSERT INTO worker_heartbeats (worker_id, hostname, device, model_name, model_version, slots, last_seen)
         VALUES ('fuzz-worker', 'fuzz', 'cpu', 'fuzz', '0', 1, now()) ON CONFLICT (worker_id) DO UPDATE SET last_seen = now()`,
        );
      await heartbeat();

      console.log(`fuzz seed ${SEED} (replay: FUZZ_SEED=${SEED} FUZZ_REQUESTS=${REQUESTS})`);
      await fc.assert(
        fc.asyncProperty(requestArbitrary(operations, tokens), (request) =>
          check(request).catch((error: unknown) => {
            // fast-check reports the counterexample; the reason is printed here.
            console.error(`fuzz failure: ${error instanceof Error ? error.message : String(error)}`);
            throw error;
          }),
        ),
        { numRuns: REQUESTS, seed: SEED, endOnFailure: true },
      );
      /**
       * A rejected request leaves the daily quota and every row as they were. Its hourly request
       * count is taken back for bad input and never taken for 401/429; other refusals (403, 404,
       * 409) count as one request of the hourly rate limit, as the spec's limits count requests.
       * Sign-in before a session is limited per IP address, and every attempt counts there (a
       * guard against guessing), so only the users' counters are compared.
       */
      async function assertNothingCharged(request: FuzzRequest, status: number, before: Snapshot): Promise<void> {
        const what = `${request.method} ${request.path} (${status})`;
        const deadline = Date.now() + REFUND_SETTLE_MS;
        for (;;) {
          const after = await cluster.db.one<Snapshot>(CHARGE_SNAPSHOT);
          const hourlyAllowed = BAD_INPUT.has(status) || status === 401 || status === 429 ? 0 : 1;
          const settled = after.hourly - before.hourly <= hourlyAllowed && after.hourly >= before.hourly - 0;
          if (settled || Date.now() > deadline) {
            assert.deepEqual({ ...after, hourly: 0 }, { ...before, hourly: 0 }, `${what} charged the daily quota or left a row`);
            assert.ok(settled, `${what} left the hourly counter at ${after.hourly}, was ${before.hourly}`);
            return;
          }
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }

      async function check(request: FuzzRequest): Promise<void> {
        if (sent % 50 === 0) {
          await heartbeat();
          // Keep the hourly limits from answering every request with 429 (those are checked too).
          await cluster.db.none('DELETE FROM rate_limit_counters WHERE count > 500');
        }
        sent++;
        covered.add(request.operation);
        const before = await cluster.db.one<Snapshot>(CHARGE_SNAPSHOT);
        let response: HttpResult;
        try {
          response = await httpRequest(`${oracle.url}${request.path}`, {
            method: request.method,
            headers: request.headers,
            ...(request.body === undefined ? {} : { rawBody: request.body }),
            timeoutMs: 30_000,
          });
        } catch (error) {
          throw new Error(`${request.method} ${request.path} got no answer: ${error instanceof Error ? error.message : String(error)}`, {
            cause: error,
          });
        }
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        assert.ok(response.status < 500, `${request.method} ${request.path} answered ${response.status}: ${response.text.slice(0, 500)}`);
        if (response.status >= 400) {
          rejected++;
          assert.ok(
            isDocumentedError(response.body),
            `${request.method} ${request.path} ${response.status} is not a documented error: ${response.text.slice(0, 500)}`,
          );
          await assertNothingCharged(request, response.status, before);
        }
      }
      const uncovered = operations.map((operation) => operation.id).filter((id) => !covered.has(id));
      assert.deepEqual(uncovered, [], 'every operation was fuzzed');
      recordFigure('fuzz', {
        seed: SEED,
        requests: sent,
        operations: operations.length,
        rejected4xx: rejected,
        responses5xx: 0,
        statuses: JSON.stringify(Object.fromEntries(statuses)),
      });
    },
  );
});
