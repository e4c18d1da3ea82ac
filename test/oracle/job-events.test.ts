/**
 * GET /api/generate/{job_id}/events (issue 15 item 3): a job's progress as Server-Sent Events fed
 * by PostgreSQL LISTEN/NOTIFY. Real PostgreSQL throughout; the first suite runs a real worker,
 * the second writes job rows as a worker (or another replica) would.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { closeDatabase, createDatabase } from '../../core/src/db/database.ts';
import { JOB_STATUS } from '../../core/src/jobs/job-state.ts';
import type { WorkerProcess } from '../../inference/src/worker/process.ts';
import { DEFAULT_JOB_STREAM_LIMITS, createJobEventsHub } from '../../oracle/src/domain/job-events-hub.ts';
import type { JobEventsHub } from '../../oracle/src/domain/job-events-hub.ts';
import { createApp } from '../../oracle/src/http/app.ts';
import { generateAcceptedSchema, jobStatusSchema } from '../../oracle/src/http/schemas.ts';
import { createSongmintApi, waitForJob, withSession } from '../../sdk/src/index.ts';
import type { JobProgress } from '../../sdk/src/index.ts';
import { assertVariantAError } from './helpers/shapes.ts';
import { openEventStream } from './helpers/sse-client.ts';
import type { SseBlock, SseConnection } from './helpers/sse-client.ts';
import { startTestApp } from './helpers/test-app.ts';
import type { LoggedIn, TestApp } from './helpers/test-app.ts';
import { startStackWorker, startStorageStack } from './storage-stack.ts';
import type { StorageStack } from './storage-stack.ts';
import { waitUntil as waitUntilHolds } from '../support/wait-for.ts';

const AUDIO_HASH = `0x${'ab'.repeat(32)}`;

function dataOf(block: SseBlock | null): Record<string, unknown> {
  assert.ok(block !== null, 'an event, not the end of the stream');
  assert.ok(block.data !== undefined, `an event with data: ${JSON.stringify(block)}`);
  return jobStatusSchema.parse(JSON.parse(block.data)) as Record<string, unknown>;
}

/** Polls `holds` every 25 ms for at most 20 s (unless told otherwise). */
const waitUntil = (what: string, holds: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<void> =>
  waitUntilHolds(what, holds, { timeoutMs, intervalMs: 25 });

describe('job events with a real worker', () => {
  let stack: StorageStack;
  let worker: WorkerProcess;
  before(async () => {
    stack = await startStorageStack();
    worker = await startStackWorker(stack, { ENCODER_THREADS: '1', WORKER_CONCURRENCY: '1' });
  });
  after(async () => {
    await worker?.stop();
    await stack?.stop();
  });

  it('streams a job from queued to completed: status events, then `completed` with the final body, then the end', async () => {
    const user = await stack.app.login();
    const created = await stack.app.request('/api/generate', { token: user.token, body: { prompt: 'sse lo-fi piano', duration: 5 } });
    assert.equal(created.status, 202, created.text);
    const { job_id } = generateAcceptedSchema.parse(created.body);
    const stream = await openEventStream(`${stack.app.baseUrl}/api/generate/${job_id}/events`, { token: user.token });
    try {
      assert.equal(stream.status, 200);
      assert.match(stream.headers.get('content-type') ?? '', /^text\/event-stream/);
      assert.equal(stream.headers.get('cache-control'), 'no-cache, no-transform');
      assert.equal(stream.headers.get('x-accel-buffering'), 'no');
      assert.match((await stack.app.request('/metrics')).text, /job_event_streams_open 1/);
      const first = await stream.next();
      assert.ok(first !== null && first.retry !== undefined && first.retry > 0, 'the stream opens with retry:');

      const events: SseBlock[] = [];
      for (;;) {
        const event = await stream.nextEvent(120_000);
        if (event === null) break;
        events.push(event);
      }
      assert.ok(events.length >= 2, `status events and a final one, got ${events.length}`);
      const last = events.at(-1);
      assert.equal(last?.event, 'completed');
      assert.equal(last?.id, 'completed');
      const final = dataOf(last ?? null);
      const polled = await stack.app.request(`/api/generate/${job_id}`, { token: user.token });
      assert.deepEqual(final, polled.body, 'the final event carries the status route body');
      assert.match(String(final.audio_url), /\.mp3$/);
      assert.match(String(final.audio_hash), /^0x[0-9a-f]{64}$/);
      for (const event of events.slice(0, -1)) {
        assert.equal(event.event, 'status');
        const view = dataOf(event);
        assert.ok(view.status === JOB_STATUS.queued || view.status === JOB_STATUS.processing);
        assert.equal(event.id, `${String(view.status)}-${String(view.progress)}`);
      }
      assert.equal(new Set(events.map((event) => event.id)).size, events.length, 'no view is sent twice');
      assert.ok(
        events.some((event) => dataOf(event).status === JOB_STATUS.processing),
        'processing was seen',
      );
    } finally {
      stream.close();
    }
    await waitUntil('the stream to be released', () => stack.app.deps.jobEvents.stats().streams === 0);
    const metrics = (await stack.app.request('/metrics')).text;
    assert.match(metrics, /job_event_streams_open 0/);
    assert.doesNotMatch(
      metrics,
      /http_request_duration_seconds_count\{[^}]*route="\/api\/generate\/:job_id\/events"[^}]*status="200"/,
      'a stream is not a latency sample',
    );
  });

  it("the SDK's waitForJob follows the stream to the song, without polling", async () => {
    const user = await stack.app.login();
    const urls: string[] = [];
    const counting: typeof fetch = (input, init) => {
      urls.push(input instanceof Request ? input.url : String(input));
      return fetch(input, init);
    };
    const api = withSession(createSongmintApi({ baseUrl: stack.app.baseUrl, fetch: counting }), { token: user.token });
    const created = await stack.app.request('/api/generate', { token: user.token, body: { prompt: 'sse sdk song', duration: 5 } });
    const { job_id } = generateAcceptedSchema.parse(created.body);
    const progress: JobProgress[] = [];
    const song = await waitForJob(api, { jobId: job_id, timeoutMs: 120_000, onProgress: (report) => progress.push(report) });
    assert.equal(song.jobId, job_id);
    assert.match(song.audioHash, /^0x[0-9a-f]{64}$/);
    assert.ok(progress.length >= 1);
    assert.deepEqual(urls, [`${stack.app.baseUrl}/api/generate/${job_id}/events`], 'one stream, no poll');
  });
});

describe('job events: resume, heartbeats, replicas, limits and leaks', () => {
  let app: TestApp;
  let owner: LoggedIn;
  const HEARTBEAT_MS = 300;
  const MAX_STREAMS = 6;
  before(async () => {
    // Its own server: tests below stop and restart it, and terminate its LISTEN backends (pg_stat_activity spans the whole server).
    app = await startTestApp({ jobStreams: { heartbeatMs: HEARTBEAT_MS, maxStreams: MAX_STREAMS }, ownPostgres: true });
    await app.addWorkerHeartbeat('sse-worker', 8);
    owner = await app.login();
    await app.setTier(owner.userId, 'enterprise');
  });
  after(async () => {
    await app?.stop();
  });

  const eventsUrl = (jobId: string, base = app.baseUrl) => `${base}/api/generate/${jobId}/events`;
  const newJob = async (who: LoggedIn = owner): Promise<{ jobId: string; id: string }> => {
    // The worker stays live as a real one would (a heartbeat every few seconds): on a loaded
    // machine this suite outlasts the 20 s in which the one from \`before\` counts.
    await app.addWorkerHeartbeat('sse-worker', 8);
    const created = await app.request('/api/generate', { token: who.token, body: { prompt: 'sse test', duration: 5 } });
    assert.equal(created.status, 202, created.text);
    const { job_id } = generateAcceptedSchema.parse(created.body);
    return { jobId: job_id, id: job_id.slice(4) };
  };
  // As a worker writes them: straight to the row; the trigger announces each change.
  const setProgress = (id: string, progress: number) =>
    app.db.none(`UPDATE generation_jobs SET status = 'processing', progress = $2, started_at = coalesce(started_at, now()) WHERE id = $1`, [
      id,
      progress,
    ]);
  const complete = (id: string) =>
    app.db.none(
      `UPDATE generation_jobs SET status = 'completed', progress = 100, audio_url = 'https://cdn.songmint.test/audio/x.mp3', audio_hash = $2,
              actual_duration = 5, completed_at = now() WHERE id = $1`,
      [id, AUDIO_HASH],
    );
  const open = async (jobId: string, headers: Record<string, string> = {}): Promise<SseConnection> => {
    const stream = await openEventStream(eventsUrl(jobId), { token: owner.token, headers });
    assert.equal(stream.status, 200, JSON.stringify(stream.errorBody));
    return stream;
  };

  it('sends the current view first, then each change written by a worker, and ends after the final event', async () => {
    const { jobId, id } = await newJob();
    const stream = await open(jobId);
    try {
      const first = await stream.nextEvent();
      assert.equal(first?.event, 'status');
      assert.equal(first?.id, 'queued-0');
      assert.equal(dataOf(first).status, JOB_STATUS.queued);
      await setProgress(id, 10);
      const processing = await stream.nextEvent();
      assert.equal(processing?.id, 'processing-10');
      assert.equal(dataOf(processing).progress, 10);
      await setProgress(id, 55);
      assert.equal((await stream.nextEvent())?.id, 'processing-55');
      await complete(id);
      const final = await stream.nextEvent();
      assert.equal(final?.event, 'completed');
      assert.equal(dataOf(final).audio_hash, AUDIO_HASH);
      assert.equal(await stream.next(), null, 'the server ends the stream');
    } finally {
      stream.close();
    }
  });

  it('resumes with Last-Event-ID: the view the client has is not sent again, only later changes', async () => {
    const { jobId, id } = await newJob();
    await setProgress(id, 20);
    const firstVisit = await open(jobId);
    const seen = await firstVisit.nextEvent();
    firstVisit.close();
    assert.equal(seen?.id, 'processing-20');

    const resumed = await open(jobId, { 'last-event-id': 'processing-20' });
    try {
      // Heartbeats come; no event until something changes.
      const idle = await resumed.next();
      assert.ok(idle?.retry !== undefined);
      const heartbeat = await resumed.next(HEARTBEAT_MS * 10);
      assert.deepEqual(heartbeat, { comments: ['heartbeat'] }, 'a heartbeat comment, not the same view again');
      await setProgress(id, 30);
      assert.equal((await resumed.nextEvent())?.id, 'processing-30');
    } finally {
      resumed.close();
    }

    // A stale id gets the current view.
    const stale = await open(jobId, { 'last-event-id': 'processing-20' });
    assert.equal((await stale.nextEvent())?.id, 'processing-30');
    stale.close();

    // A finished job: its final event, or just the end for a client that has seen it.
    await complete(id);
    const late = await open(jobId);
    assert.equal((await late.nextEvent())?.event, 'completed');
    assert.equal(await late.next(), null);
    const done = await open(jobId, { 'last-event-id': 'completed' });
    const blocks: SseBlock[] = [];
    for (let block = await done.next(); block !== null; block = await done.next()) blocks.push(block);
    assert.deepEqual(
      blocks.filter((block) => block.event !== undefined),
      [],
      'nothing but the end for a finished job already seen',
    );
  });

  it('heartbeats every heartbeatMs on an idle stream', async () => {
    const { jobId } = await newJob();
    const stream = await open(jobId);
    try {
      await stream.nextEvent();
      const started = Date.now();
      const heartbeat = await stream.next(HEARTBEAT_MS * 10);
      assert.deepEqual(heartbeat, { comments: ['heartbeat'] });
      // Loose: the machine is shared; the point is that it comes on an idle stream at all.
      assert.ok(Date.now() - started < HEARTBEAT_MS * 10);
    } finally {
      stream.close();
    }
  });

  it("401 without a token, 404 for malformed, unknown and others' ids, in the error shape", async () => {
    const { jobId } = await newJob();
    const anonymous = await openEventStream(eventsUrl(jobId));
    assert.equal(anonymous.status, 401);
    assertVariantAError(anonymous.errorBody, 'AUTH_ERROR');
    const stranger = await app.login();
    for (const [who, id] of [
      [stranger, jobId],
      [owner, 'gen_not-a-uuid'],
      [owner, 'gen_00000000-0000-4000-8000-000000000000'],
      [owner, 'nope'],
    ] as const) {
      const res = await openEventStream(eventsUrl(id), { token: who.token });
      assert.equal(res.status, 404, id);
      assertVariantAError(res.errorBody, 'NOT_FOUND');
    }
    assert.equal(app.deps.jobEvents.stats().streams, 0, 'refused streams hold no slot');
  });

  it('a cancelled job ends its stream with a `cancelled` event', async () => {
    const { jobId } = await newJob();
    const stream = await open(jobId);
    try {
      assert.equal((await stream.nextEvent())?.id, 'queued-0');
      const cancelled = await app.request(`/api/generate/${jobId}/cancel`, { method: 'POST', token: owner.token });
      assert.equal(cancelled.status, 200, cancelled.text);
      const final = await stream.nextEvent();
      assert.equal(final?.event, 'cancelled');
      assert.deepEqual(dataOf(final), { job_id: jobId, status: JOB_STATUS.cancelled });
      assert.equal(await stream.next(), null);
    } finally {
      stream.close();
    }
  });

  it('charges the general category once per connection, however many events it carries', async () => {
    const { jobId, id } = await newJob();
    const stream = await open(jobId);
    try {
      const remaining = Number(stream.headers.get('x-ratelimit-remaining'));
      assert.ok(Number.isInteger(remaining) && remaining > 0);
      await stream.nextEvent();
      for (const progress of [10, 20, 30]) {
        await setProgress(id, progress);
        assert.equal((await stream.nextEvent())?.id, `processing-${progress}`);
      }
      const polled = await app.request(`/api/generate/${jobId}`, { token: owner.token });
      assert.equal(Number(polled.headers.get('x-ratelimit-remaining')), remaining - 1, 'one request for the stream, one for the poll');
    } finally {
      stream.close();
    }
  });

  it('serves changes written through another replica: two app instances on one database', async () => {
    const db = createDatabase(app.pg.url, { max: 5 });
    const hub: JobEventsHub = createJobEventsHub({ db, logger: app.deps.logger, limits: DEFAULT_JOB_STREAM_LIMITS });
    const server: Server = await new Promise((resolve) => {
      const listening = createApp({ ...app.deps, db, jobEvents: hub }).listen(0, '127.0.0.1', () => resolve(listening));
    });
    const replica = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const { jobId, id } = await newJob();
      const stream = await openEventStream(eventsUrl(jobId, replica), { token: owner.token });
      assert.equal(stream.status, 200);
      try {
        assert.equal((await stream.nextEvent())?.id, 'queued-0');
        await waitUntil('the replica to listen', () => hub.stats().listening);
        await setProgress(id, 40);
        assert.equal((await stream.nextEvent())?.id, 'processing-40');
        // Cancelled through the first replica's API.
        const cancelled = await app.request(`/api/generate/${jobId}/cancel`, { method: 'POST', token: owner.token });
        assert.equal(cancelled.status, 200);
        assert.equal((await stream.nextEvent())?.event, 'cancelled');
      } finally {
        stream.close();
      }
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await hub.close();
      await closeDatabase(db);
    }
  });

  it('closing while its liveness probe is in flight leaves no unhandled rejection (the probe released a released connection)', async () => {
    const db = createDatabase(app.pg.url, { max: 2 });
    const rejections: unknown[] = [];
    const onRejection = (reason: unknown) => rejections.push(reason);
    process.on('unhandledRejection', onRejection);
    try {
      // A probe every millisecond, closed at a random moment after it listens: before the fix
      // about half of these closes landed while a probe's SELECT was in flight.
      for (let i = 0; i < 100; i += 1) {
        const hub = createJobEventsHub({ db, logger: app.deps.logger, limits: DEFAULT_JOB_STREAM_LIMITS, probeMs: 1 });
        while (!hub.stats().listening) await new Promise((resolve) => setTimeout(resolve, 1));
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 3));
        await hub.close();
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.deepEqual(
        rejections.map((reason) => (reason instanceof Error ? reason.message : String(reason))),
        [],
      );
    } finally {
      process.off('unhandledRejection', onRejection);
      await closeDatabase(db);
    }
  });

  it('reconnects when its LISTEN connection is killed, and a change made during the gap still arrives', async () => {
    const hub = app.deps.jobEvents;
    await waitUntil('the hub to listen', () => hub.stats().listening);
    const { jobId, id } = await newJob();
    const stream = await open(jobId);
    try {
      assert.equal((await stream.nextEvent())?.id, 'queued-0');
      const connects = hub.stats().connects;
      const killed = await app.db.one<{ n: number }>(
        `SELECT count(*)::int AS n FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity
          WHERE query ILIKE 'LISTEN%generation_job_changed%' AND pid <> pg_backend_pid()) AS terminated`,
      );
      assert.ok(killed.n >= 1, 'the listener backend was found and terminated');
      await waitUntil('the hub to notice', () => !hub.stats().listening || hub.stats().connects > connects);
      await setProgress(id, 15);
      assert.equal((await stream.nextEvent())?.id, 'processing-15', 'the change made while the hub was away');
      await waitUntil('the hub to reconnect', () => hub.stats().listening && hub.stats().connects > connects);
      await setProgress(id, 25);
      assert.equal((await stream.nextEvent())?.id, 'processing-25', 'and the next one through the new connection');
    } finally {
      stream.close();
    }
  });

  it(`refuses a stream past the per-process cap with 503 and Retry-After, charging nothing`, async () => {
    await waitUntil('earlier streams to be released', () => app.deps.jobEvents.stats().streams === 0);
    const { jobId } = await newJob();
    const streams: SseConnection[] = [];
    try {
      for (let i = 0; i < MAX_STREAMS; i++) streams.push(await open(jobId));
      const hourly = () =>
        app.db.one<{ n: number }>(`SELECT coalesce(sum(count), 0)::int AS n FROM rate_limit_counters WHERE subject = $1`, [
          `user:${owner.userId}`,
        ]);
      const before = await hourly();
      const refused = await openEventStream(eventsUrl(jobId), { token: owner.token });
      assert.equal(refused.status, 503);
      assert.ok(Number(refused.headers.get('retry-after')) > 0);
      assertVariantAError(refused.errorBody, 'SERVICE_UNAVAILABLE');
      assert.equal((await hourly()).n, before.n, 'a refused stream is not charged');
      streams.shift()?.close();
      await waitUntil('a slot to free', () => app.deps.jobEvents.stats().streams < MAX_STREAMS);
      streams.push(await open(jobId));
    } finally {
      for (const stream of streams) stream.close();
    }
  });

  it('200 connect/disconnect cycles leak nothing: no stream, watcher or timer left, the pool not grown', async () => {
    const hub = app.deps.jobEvents;
    const pool = app.db.$pool;
    const { jobId } = await newJob();
    const cycle = async (waitForEvent: boolean) => {
      const stream = await open(jobId);
      if (waitForEvent) await stream.nextEvent();
      stream.close();
    };
    for (let i = 0; i < 10; i++) await cycle(true);
    await waitUntil('warm-up streams to close', () => hub.stats().streams === 0);
    const poolBefore = pool.totalCount;
    const backends = () => app.db.one<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database()');
    const backendsBefore = (await backends()).n;
    // Half leave after their first event, half at once (while the stream may still be reading).
    for (let i = 0; i < 200; i++) await cycle(i % 2 === 0);
    await waitUntil('every stream to close', () => {
      const stats = hub.stats();
      return stats.streams === 0 && stats.watchers === 0 && stats.watchedJobs === 0 && stats.timers === 0;
    });
    assert.deepEqual({ ...hub.stats(), connects: 0 }, { streams: 0, watchedJobs: 0, watchers: 0, timers: 0, listening: true, connects: 0 });
    await waitUntil('pooled clients to be returned', () => pool.totalCount === pool.idleCount && pool.waitingCount === 0);
    assert.ok(pool.totalCount <= poolBefore + 2, `pool ${poolBefore} -> ${pool.totalCount}`);
    const backendsAfter = (await backends()).n;
    assert.ok(backendsAfter <= backendsBefore + 2, `database backends ${backendsBefore} -> ${backendsAfter}`);
  });

  it('ends a stream at its maximum lifetime', async () => {
    const short = await startTestApp({ jobStreams: { maxStreamMs: 600, heartbeatMs: 100 } });
    try {
      await short.addWorkerHeartbeat();
      const who = await short.login();
      const created = await short.request('/api/generate', { token: who.token, body: { prompt: 'short stream', duration: 5 } });
      const { job_id } = generateAcceptedSchema.parse(created.body);
      const stream = await openEventStream(`${short.baseUrl}/api/generate/${job_id}/events`, { token: who.token });
      const started = Date.now();
      assert.equal((await stream.nextEvent())?.id, 'queued-0');
      while ((await stream.next(5000)) !== null);
      assert.ok(Date.now() - started < 5000, 'ended near maxStreamMs, not at a job end');
      await waitUntil('the slot to free', () => short.deps.jobEvents.stats().timers === 0 && short.deps.jobEvents.stats().streams === 0);
    } finally {
      await short.stop();
    }
  });

  it('503 in the error shape while the database is down at connect; a stream open across a database restart still gets the next change', async () => {
    const { jobId, id } = await newJob();
    const stream = await open(jobId);
    try {
      assert.equal((await stream.nextEvent())?.id, 'queued-0');
      await app.pg.suspend();
      try {
        const down = await openEventStream(eventsUrl(jobId), { token: owner.token });
        assert.equal(down.status, 503);
        assertVariantAError(down.errorBody, 'SERVICE_UNAVAILABLE');
      } finally {
        await app.pg.resume();
      }
      await waitUntil('the hub to listen again', () => app.deps.jobEvents.stats().listening, 60_000);
      await setProgress(id, 70);
      assert.equal((await stream.nextEvent(30_000))?.id, 'processing-70');
    } finally {
      stream.close();
    }
  });
});
