/**
 * Signed webhooks (issue 15 item 4) over real parts: PostgreSQL with migration 0011's outbox
 * trigger, pg-boss, the oracle app, a real inference worker, and real HTTP receivers on
 * loopback. Signatures are checked with an independent HMAC and with the SDK's verifyWebhook.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { verifyWebhook } from '../../sdk/src/index.ts';
import { closeDatabase, createDatabase } from '../../core/src/db/database.ts';
import type { Database } from '../../core/src/db/database.ts';
import { failAbandonedJobs } from '../../core/src/jobs/job-state.ts';
import { DELIVERY_STATE } from '../../core/src/jobs/webhook-delivery-state.ts';
import { createBoss } from '../../core/src/queue.ts';
import type { WorkerProcess } from '../../inference/src/worker/process.ts';
import { generateAcceptedSchema } from '../../oracle/src/http/schemas.ts';
import { webhookSecretSchema } from '../../oracle/src/http/webhooks-openapi.ts';
import { DEFAULT_WEBHOOK_SETTINGS, WEBHOOK_QUEUE } from '../../oracle/src/webhooks/webhook-queue.ts';
import { ABANDONED_DELIVERY_MESSAGE } from '../../oracle/src/webhooks/deliver.ts';
import type { WebhookSettings } from '../../oracle/src/webhooks/webhook-queue.ts';
import { startWebhookService } from '../../oracle/src/webhooks/service.ts';
import type { WebhookService } from '../../oracle/src/webhooks/service.ts';
import type { LoggedIn } from './helpers/test-app.ts';
import { assertVariantAError } from './helpers/shapes.ts';
import { startStackWorker, startStorageStack } from './storage-stack.ts';
import type { StorageStack } from './storage-stack.ts';
import { waitFor as pollFor } from '../support/wait-for.ts';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/** How a receiver path answers its n-th request (0-based): a status, or `hang` (never answers). */
type Script = (attempt: number) => number | 'hang';

interface Receiver {
  port: number;
  url(path: string): string;
  /** Requests that reached `path`, answered or not. */
  received(path: string): Received[];
  script(path: string, answer: Script): void;
  stop(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  const seen = new Map<string, Received[]>();
  const scripts = new Map<string, Script>();
  const hung: ServerResponse[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = req.url ?? '/';
      const list = seen.get(path) ?? [];
      list.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
      seen.set(path, list);
      const answer = (scripts.get(path) ?? (() => 200))(list.length - 1);
      if (answer === 'hang') {
        hung.push(res);
        return;
      }
      res.statusCode = answer;
      res.end(answer === 200 ? 'ok' : 'nope');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: (path) => `http://127.0.0.1:${port}${path}`,
    received: (path) => seen.get(path) ?? [],
    script: (path, answer) => scripts.set(path, answer),
    async stop() {
      for (const res of hung) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const waitFor = <T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 120_000): Promise<T> =>
  pollFor(what, probe, { timeoutMs });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A completion event is the status route's body at completion: its lossless masters are made
 * after (docs/api.md), so the status read later may list them ready where the event said pending.
 */
function assertSnapshotOf(event: unknown, status: unknown): void {
  const { lossless: eventLossless, ...eventRest } = event as { lossless?: { status: string; files: unknown[] } | null };
  const { lossless: statusLossless, ...statusRest } = status as { lossless?: { status: string; files: unknown[] } | null };
  assert.deepEqual(eventRest, statusRest);
  if (eventLossless?.status === 'pending' && statusLossless?.status === 'ready') {
    assert.deepEqual({ ...eventLossless, status: 'ready', files: statusLossless.files }, statusLossless);
    assert.deepEqual(eventLossless.files, []);
  } else {
    assert.deepEqual(eventLossless, statusLossless);
  }
}

/** Short retries so the schedule is observable in a test; production defaults are in webhook-queue.ts. */
const TEST_SETTINGS: Omit<WebhookSettings, 'allowList'> = {
  ...DEFAULT_WEBHOOK_SETTINGS,
  attemptTimeoutMs: 8000,
  retryLimit: 3,
  retryDelaySeconds: 1,
  retryDelayMaxSeconds: 10,
  concurrency: 4,
  sweepIntervalMs: 500,
  pollingIntervalSeconds: 0.5,
};

interface DeliveryRecord {
  id: string;
  state: string;
  attempts: number;
  last_status: number | null;
  last_error: string | null;
  delivered_at: Date | null;
}

describe('signed webhooks (real PostgreSQL, pg-boss, worker and receivers)', () => {
  let stack: StorageStack;
  let worker: WorkerProcess;
  let receiver: Receiver;
  let service: WebhookService;
  let alice: LoggedIn;
  const allowList = [{ host: '127.0.0.1' }];

  before(async () => {
    receiver = await startReceiver();
    stack = await startStorageStack({ webhookAllowList: allowList });
    service = await startWebhookService({
      db: stack.app.db,
      boss: stack.app.boss,
      logger: stack.app.deps.logger,
      settings: { ...TEST_SETTINGS, allowList },
      now: () => new Date(),
    });
    worker = await startStackWorker(stack, { ENCODER_THREADS: '1', WORKER_CONCURRENCY: '1' });
    alice = await stack.app.login();
  });
  after(async () => {
    await worker.stop();
    await service.stop();
    await receiver.stop();
    await stack.stop();
  });

  const deliveriesOf = (jobId: string) =>
    stack.app.db.any<DeliveryRecord & { event: string }>(
      `SELECT id, event, state, attempts, last_status, last_error, delivered_at FROM webhook_deliveries WHERE job_id = $1`,
      [jobId.replace(/^gen_/, '')],
    );
  const secretOf = async (who: LoggedIn) =>
    webhookSecretSchema.parse((await stack.app.request('/api/webhooks/secret', { token: who.token })).body).secret;

  /**
   * A job of `who` with a webhook, failed by a real writer other than the worker: the sweep that
   * fails jobs whose last attempt's worker stopped responding (`failAbandonedJobs`).
   */
  async function abandonedJob(who: LoggedIn, webhook: string): Promise<string> {
    const row = await stack.app.db.one<{ id: string }>(
      `INSERT INTO generation_jobs (user_id, user_address, prompt, duration, tier, status, attempts, started_at, webhook_url)
       VALUES ($1, $2, 'abandoned song', 10, 'free', 'processing', 3, now() - interval '1 hour', $3) RETURNING id`,
      [who.userId, who.address, webhook],
    );
    return `gen_${row.id}`;
  }
  async function failedJob(who: LoggedIn, webhook: string): Promise<string> {
    const jobId = await abandonedJob(who, webhook);
    assert.ok((await failAbandonedJobs(stack.app.db, 60)) >= 1);
    return jobId;
  }

  function independentSignature(secret: string, received: Received): string {
    const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
    const content = `${String(received.headers['webhook-id'])}.${String(received.headers['webhook-timestamp'])}.${received.body}`;
    return `v1,${createHmac('sha256', key).update(content).digest('base64')}`;
  }

  it('a completed job: one delivery, signed (independent HMAC and the SDK), carrying the status route body', async () => {
    const secret = await secretOf(alice);
    assert.match(secret, /^whsec_[A-Za-z0-9+/]+=*$/);
    assert.equal(Buffer.from(secret.slice(6), 'base64').length, 32);
    assert.equal(await secretOf(alice), secret, 'the secret is made once');
    const res = await stack.app.request('/api/generate', {
      token: alice.token,
      body: { prompt: 'a webhook song', duration: 5, webhook: receiver.url('/hooks/e2e') },
    });
    assert.equal(res.status, 202, res.text);
    const jobId = generateAcceptedSchema.parse(res.body).job_id;
    const [delivery] = await waitFor('the completed delivery', () => {
      const got = receiver.received('/hooks/e2e');
      return got.length > 0 ? got : undefined;
    });
    assert.ok(delivery !== undefined);
    assert.equal(delivery.headers['content-type'], 'application/json');
    assert.match(String(delivery.headers['user-agent']), /Songmint/);
    assert.match(String(delivery.headers['webhook-id']), /^msg_[0-9a-f]{32}$/);
    assert.ok(Math.abs(Number(delivery.headers['webhook-timestamp']) - Date.now() / 1000) < 60);
    assert.equal(delivery.headers['webhook-signature'], independentSignature(secret, delivery));
    const event = await verifyWebhook({ secret, headers: delivery.headers, body: delivery.body });
    assert.equal(event.type, 'generation.completed');
    const status = await stack.app.request(`/api/generate/${jobId}`, { token: alice.token });
    assertSnapshotOf(event.data, status.body);
    assert.equal(event.data.status, 'completed');
    // Tampering and other secrets are refused by the SDK.
    await assert.rejects(verifyWebhook({ secret, headers: delivery.headers, body: delivery.body.replace('completed', 'failed') }), {
      code: 'INVALID_WEBHOOK',
    });
    const bob = await stack.app.login();
    await assert.rejects(verifyWebhook({ secret: await secretOf(bob), headers: delivery.headers, body: delivery.body }), {
      code: 'INVALID_WEBHOOK',
    });
    await assert.rejects(verifyWebhook({ secret, headers: delivery.headers, body: delivery.body, now: new Date(Date.now() + 3600_000) }), {
      code: 'INVALID_WEBHOOK',
    });
    // Once: nothing more arrives, and the outbox records it.
    await sleep(1500);
    assert.equal(receiver.received('/hooks/e2e').length, 1);
    const rows = await deliveriesOf(jobId);
    assert.equal(rows.length, 1);
    assert.deepEqual(
      { event: rows[0]?.event, state: rows[0]?.state, attempts: rows[0]?.attempts, last_status: rows[0]?.last_status },
      {
        event: 'generation.completed',
        state: 'delivered',
        attempts: 1,
        last_status: 200,
      },
    );
    assert.ok(rows[0]?.delivered_at instanceof Date);
  });

  it('a failed job: a generation.failed delivery with the failed view', async () => {
    const secret = await secretOf(alice);
    const jobId = await failedJob(alice, receiver.url('/hooks/failed'));
    const [delivery] = await waitFor('the failed delivery', () => {
      const got = receiver.received('/hooks/failed');
      return got.length > 0 ? got : undefined;
    });
    assert.ok(delivery !== undefined);
    const event = await verifyWebhook({ secret, headers: delivery.headers, body: delivery.body });
    assert.equal(event.type, 'generation.failed');
    assert.deepEqual(event.data, (await stack.app.request(`/api/generate/${jobId}`, { token: alice.token })).body);
    assert.equal(event.data.status, 'failed');
  });

  it('500 twice then 200: delivered on the third attempt, same webhook-id and body, growing gaps', async () => {
    receiver.script('/hooks/flaky', (attempt) => (attempt < 2 ? 500 : 200));
    const secret = await secretOf(alice);
    const jobId = await failedJob(alice, receiver.url('/hooks/flaky'));
    const attempts = await waitFor('three attempts', () => {
      const got = receiver.received('/hooks/flaky');
      return got.length >= 3 ? got : undefined;
    });
    const [first, second, third] = attempts;
    assert.ok(first !== undefined && second !== undefined && third !== undefined);
    assert.equal(new Set(attempts.map((attempt) => attempt.headers['webhook-id'])).size, 1, 'one webhook-id across retries');
    assert.equal(new Set(attempts.map((attempt) => attempt.body)).size, 1, 'the same body on every attempt');
    for (const attempt of attempts) assert.equal(attempt.headers['webhook-signature'], independentSignature(secret, attempt));
    // pg-boss's backoff: the n-th retry waits between retryDelay * 2^(n-1) / 2 and retryDelay * 2^(n-1).
    const gaps = [second.at - first.at, third.at - second.at];
    assert.ok(gaps[0] !== undefined && gaps[0] >= 500, `first retry after ${gaps[0]} ms`);
    assert.ok(gaps[1] !== undefined && gaps[1] >= 1000, `second retry after ${gaps[1]} ms`);
    const row = await waitFor('the delivered record', async () => {
      const [found] = await deliveriesOf(jobId);
      return found?.state === 'delivered' ? found : undefined;
    });
    assert.equal(row.attempts, 3);
    assert.equal(row.last_status, 200);
    await sleep(1000);
    assert.equal(receiver.received('/hooks/flaky').length, 3);
  });

  it('a hanging target and a failing one do not hold up a healthy one; the failing one is given up at the retry limit', async () => {
    receiver.script('/hooks/hang', () => 'hang');
    receiver.script('/hooks/broken', () => 500);
    const hangJob = await failedJob(alice, receiver.url('/hooks/hang'));
    const brokenJob = await failedJob(alice, receiver.url('/hooks/broken'));
    await waitFor('the hanging request', () => (receiver.received('/hooks/hang').length > 0 ? true : undefined));
    await waitFor('the first broken attempt', () => (receiver.received('/hooks/broken').length > 0 ? true : undefined));
    const healthyJob = await failedJob(alice, receiver.url('/hooks/healthy'));
    await waitFor('the healthy delivery', () => (receiver.received('/hooks/healthy').length > 0 ? true : undefined), 30_000);
    // The healthy one arrived while the hanging attempt is still open and the broken one unsettled.
    const [hang] = await deliveriesOf(hangJob);
    const [broken] = await deliveriesOf(brokenJob);
    assert.equal(hang?.state, 'queued');
    assert.equal(hang?.attempts, 0, 'the hanging attempt has not ended');
    assert.equal(broken?.state, 'queued');
    assert.equal((await deliveriesOf(healthyJob))[0]?.state, 'delivered');
    // 1 + retryLimit attempts, then given up and recorded.
    const gaveUp = await waitFor('the broken delivery given up', async () => {
      const [found] = await deliveriesOf(brokenJob);
      return found?.state === DELIVERY_STATE.gave_up ? found : undefined;
    });
    assert.equal(gaveUp.attempts, 1 + TEST_SETTINGS.retryLimit);
    assert.equal(gaveUp.last_status, 500);
    assert.equal(receiver.received('/hooks/broken').length, 1 + TEST_SETTINGS.retryLimit);
    // The hanging attempt ends at its deadline, recorded as no answer.
    const timedOut = await waitFor('the hanging attempt timed out', async () => {
      const [found] = await deliveriesOf(hangJob);
      return found !== undefined && found.attempts >= 1 ? found : undefined;
    });
    assert.match(timedOut.last_error ?? '', /no answer within/);
  });

  it('private and loopback targets: IP literals refused at submit (400, nothing charged); a name resolving to loopback refused at delivery', async () => {
    const daily = async () =>
      (await stack.app.db.one<{ n: number }>('SELECT daily_generations AS n FROM users WHERE id = $1', [alice.userId])).n;
    const jobs = async () =>
      (await stack.app.db.one<{ n: number }>('SELECT count(*)::int AS n FROM generation_jobs WHERE user_id = $1', [alice.userId])).n;
    const hourly = async () =>
      (
        await stack.app.db.oneOrNone<{ n: number }>(
          `SELECT sum(count)::int AS n FROM rate_limit_counters WHERE subject = $1 AND category = 'generation'`,
          [`user:${alice.userId}`],
        )
      )?.n ?? 0;
    const before = { daily: await daily(), jobs: await jobs(), hourly: await hourly() };
    for (const webhook of [
      'https://10.0.0.7/hook',
      'https://[::1]/hook',
      'https://169.254.169.254/latest',
      `https://127.0.0.2:${receiver.port}/hook`,
      'https://[::ffff:7f00:1]/',
    ]) {
      const res = await stack.app.request('/api/generate', { token: alice.token, body: { prompt: 'ssrf', duration: 5, webhook } });
      assert.equal(res.status, 400, webhook);
      assertVariantAError(res.body, 'VALIDATION_ERROR');
    }
    assert.deepEqual({ daily: await daily(), jobs: await jobs(), hourly: await hourly() }, before);

    // `localhost` is not allow-listed here (only 127.0.0.1): it passes submit as a name and is
    // refused when it resolves to loopback, without a request and without retries.
    const jobId = await failedJob(alice, `https://localhost:${receiver.port}/hooks/sneaky`);
    const row = await waitFor('the refused delivery', async () => {
      const [found] = await deliveriesOf(jobId);
      return found?.state === DELIVERY_STATE.gave_up ? found : undefined;
    });
    assert.equal(row.attempts, 1);
    assert.match(row.last_error ?? '', /refused: .*private, loopback or reserved/);
    assert.equal(receiver.received('/hooks/sneaky').length, 0);
  });

  it('two replicas (two relays and two delivery workers on one database) deliver each event exactly once', async () => {
    const boss2 = createBoss(stack.app.pg.url, { supervise: false });
    boss2.on('error', () => undefined);
    await boss2.start();
    const db2: Database = createDatabase(stack.app.pg.url, { max: 10 });
    const replica = await startWebhookService({
      db: db2,
      boss: boss2,
      logger: pino({ level: 'silent' }),
      settings: { ...TEST_SETTINGS, allowList },
      now: () => new Date(),
    });
    try {
      const paths = Array.from({ length: 12 }, (_, index) => `/hooks/replica-${index}`);
      const jobIds: string[] = [];
      for (const path of paths) jobIds.push(await abandonedJob(alice, receiver.url(path)));
      // One statement fails them all: one commit, twelve notifications, both relays racing for the rows.
      assert.equal(await failAbandonedJobs(stack.app.db, 60), paths.length);
      await waitFor('every replica delivery', () => (paths.every((path) => receiver.received(path).length > 0) ? true : undefined), 60_000);
      await sleep(2000);
      for (const path of paths) assert.equal(receiver.received(path).length, 1, path);
      for (const jobId of jobIds) {
        const rows = await deliveriesOf(jobId);
        assert.deepEqual(
          rows.map((row) => [row.state, row.attempts]),
          [['delivered', 1]],
        );
        // Queued once: one pg-boss message per outbox row.
        const messages = await stack.app.db.one<{ n: number }>(
          `SELECT count(*)::int AS n FROM pgboss.job WHERE name = $1 AND data->>'deliveryId' = $2`,
          [WEBHOOK_QUEUE, rows[0]?.id],
        );
        assert.equal(messages.n, 1);
      }
    } finally {
      await replica.stop();
      await boss2.stop({ graceful: false, close: true });
      await closeDatabase(db2);
    }
  });

  it('a delivery whose last attempt never reports back is recorded as given up (pg-boss dead letter)', async () => {
    receiver.script('/hooks/expired', () => 'hang');
    // A job without a webhook (no trigger row) and a hand-made outbox row, queued with a 1 s
    // expiry and no retries: the attempt outlives its pg-boss job, as when an oracle dies mid-attempt.
    const jobId = await abandonedJob(alice, receiver.url('/hooks/unused'));
    await stack.app.db.none('UPDATE generation_jobs SET webhook_url = NULL WHERE id = $1', [jobId.replace(/^gen_/, '')]);
    await failAbandonedJobs(stack.app.db, 60);
    const { id } = await stack.app.db.one<{ id: string }>(
      `INSERT INTO webhook_deliveries (job_id, event, url, state) VALUES ($1, 'generation.failed', $2, 'queued') RETURNING id`,
      [jobId.replace(/^gen_/, ''), receiver.url('/hooks/expired')],
    );
    await stack.app.boss.send(WEBHOOK_QUEUE, { deliveryId: id }, { retryLimit: 0, expireInSeconds: 1 });
    const row = await waitFor(
      'the abandoned delivery',
      async () => {
        const [found] = await deliveriesOf(jobId);
        return found?.state === DELIVERY_STATE.gave_up ? found : undefined;
      },
      60_000,
    );
    assert.equal(row.last_error, ABANDONED_DELIVERY_MESSAGE);
    assert.equal(receiver.received('/hooks/expired').length, 1);
  });

  it('rotating the secret: a new secret, returned from then on', async () => {
    const old = await secretOf(alice);
    const rotated = await stack.app.request('/api/webhooks/secret/rotate', { method: 'POST', token: alice.token });
    assert.equal(rotated.status, 200);
    assert.equal(rotated.headers.get('cache-control'), 'no-store');
    const fresh = webhookSecretSchema.parse(rotated.body).secret;
    assert.notEqual(fresh, old);
    assert.equal(await secretOf(alice), fresh);
  });
});
