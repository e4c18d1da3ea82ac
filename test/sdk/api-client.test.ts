import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
// By path, not '@songmint/sdk' (which resolves to the main checkout's package during parallel work).
import {
  apiErrorFromBody,
  cancelJob,
  coverDataUri,
  createSongmintApi,
  downloadSong,
  generate,
  getMintSignature,
  getWebhookSecret,
  jobEvents,
  deleteSong,
  listJobs,
  predictTokenAddress,
  renameSong,
  restoreSong,
  rotateWebhookSecret,
  songmintAddresses,
  SongmintApiError,
  SongmintClientError,
  uploadMetadata,
  verifyWebhook,
  waitForJob,
  withSession,
} from '../../sdk/src/index.ts';
import type { JobProgress, SongmintApi } from '../../sdk/src/index.ts';

/**
 * The SDK's HTTP side against a loopback server that answers as the oracle does (here a stream can
 * end early or break on purpose). The whole flow against the real oracle runs in
 * test/e2e/npm-start.test.ts; the SDK against the oracle's real job event stream in
 * test/oracle/job-events.test.ts.
 */
type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

const JOB = 'gen_0b5e0e43-4d4c-4f7e-9d7e-3f7a0f6b2a11';
const HASH = `0x${'ab'.repeat(32)}`;
const completed = {
  job_id: JOB,
  status: 'completed',
  audio_url: 'http://127.0.0.1:1/songmint/audio/x.mp3',
  audio_hash: HASH,
  duration: 10,
  created_at: '2026-11-23T00:00:00.000Z',
  lyrics: '[verse]\nla',
  model: { name: 'songmint-builtin-procedural', version: '1.0.0' },
};
const processing = (progress: number) => ({ job_id: JOB, status: 'processing', progress, estimated_remaining: 3 });
const queued = { job_id: JOB, status: 'queued', progress: 0, estimated_remaining: 5, position: 2 };

describe('@songmint/sdk over HTTP', () => {
  let server: Server;
  let handler: Handler = (_req, res) => res.end();
  let requests: Array<{ method: string; url: string; headers: IncomingMessage['headers']; body: string }> = [];
  let api: SongmintApi;

  before(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
        handler(req, res, body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    api = withSession(createSongmintApi({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` }), {
      token: 'session-token',
    });
  });
  after(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const json = (res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(value));
  };
  const serve = (next: Handler) => {
    requests = [];
    handler = next;
  };

  it('generate sends the body in snake_case, the bearer token and an Idempotency-Key (given, or a fresh UUID)', async () => {
    serve((_req, res) => json(res, 202, { job_id: JOB, status: 'queued', estimated_time: 5, position: 1 }));
    const job = await generate(api, { prompt: 'lo-fi', duration: 10, withLyrics: true, idempotencyKey: 'retry-1' });
    assert.deepEqual(job, { jobId: JOB, status: 'queued', estimatedTime: 5, position: 1, idempotencyKey: 'retry-1' });
    const [sent] = requests;
    assert.equal(sent?.url, '/api/generate');
    assert.equal(sent?.headers['idempotency-key'], 'retry-1');
    assert.equal(sent?.headers.authorization, 'Bearer session-token');
    assert.deepEqual(JSON.parse(sent?.body ?? ''), { prompt: 'lo-fi', duration: 10, steps: 27, with_lyrics: true });
    const fresh = await generate(api, { prompt: 'lo-fi', duration: 10 });
    assert.match(fresh.idempotencyKey, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.equal(requests[1]?.headers['idempotency-key'], fresh.idempotencyKey);
  });

  it("cancelJob posts to the job's cancel route; listJobs passes cursor and limit and maps next_cursor", async () => {
    serve((_req, res) => json(res, 200, { job_id: JOB, status: 'cancelled' }));
    assert.deepEqual(await cancelJob(api, { jobId: JOB }), { jobId: JOB, status: 'cancelled' });
    assert.equal(requests[0]?.method, 'POST');
    assert.equal(requests[0]?.url, `/api/generate/${JOB}/cancel`);
    const summary = {
      job_id: JOB,
      status: 'queued',
      progress: 0,
      prompt: 'lo-fi',
      duration: 10,
      created_at: '2026-11-23T00:00:00.000Z',
      audio_url: null,
      audio_hash: null,
      error_code: null,
      edit_of: null,
      title: null,
      nft_token_id: null,
      deleted_at: null,
    };
    serve((_req, res) => json(res, 200, { jobs: [summary], next_cursor: 'next-page', total: 7 }));
    assert.deepEqual(await listJobs(api, { cursor: 'this-page', limit: 1 }), { jobs: [summary], nextCursor: 'next-page', total: 7 });
    assert.equal(requests[0]?.url, '/api/generate?cursor=this-page&limit=1');
    // The library's view and search (a blank search is no search).
    await listJobs(api, { filter: 'trash', search: ' rain drops ' });
    assert.equal(requests.at(-1)?.url, '/api/generate?filter=trash&q=rain%20drops');
    await listJobs(api, { search: '  ' });
    assert.equal(requests.at(-1)?.url, '/api/generate');

    // Rename, trash, restore: each answers the song; a refusal keeps its LIBRARY_ code.
    serve((_req, res) => json(res, 200, { ...summary, title: 'Dune Drive' }));
    assert.equal((await renameSong(api, { jobId: JOB, title: 'Dune Drive' })).title, 'Dune Drive');
    assert.deepEqual(
      [requests.at(-1)?.method, requests.at(-1)?.url, requests.at(-1)?.body],
      ['PATCH', `/api/generate/${JOB}`, '{"title":"Dune Drive"}'],
    );
    await deleteSong(api, { jobId: JOB });
    assert.deepEqual([requests.at(-1)?.method, requests.at(-1)?.url], ['DELETE', `/api/generate/${JOB}`]);
    await restoreSong(api, { jobId: JOB });
    assert.deepEqual([requests.at(-1)?.method, requests.at(-1)?.url], ['POST', `/api/generate/${JOB}/restore`]);
    serve((_req, res) => json(res, 409, { error: { code: 'LIBRARY_001', message: 'A minted song cannot be deleted', details: '' } }));
    await assert.rejects(
      deleteSong(api, { jobId: JOB }),
      (error: unknown) => error instanceof SongmintApiError && error.code === 'LIBRARY_001',
    );
    serve((_req, res) =>
      json(res, 409, { error: { code: 'CONFLICT', message: 'The job is completed and can no longer be cancelled', details: '' } }),
    );
    await assert.rejects(
      cancelJob(api, { jobId: JOB }),
      (error: unknown) => error instanceof SongmintApiError && error.code === 'CONFLICT' && error.status === 409,
    );
  });

  it('uploadMetadata and getMintSignature send an Idempotency-Key only when given one', async () => {
    serve((_req, res) => json(res, 201, { metadata_uri: 'ipfs://bafkrei', metadata_hash: HASH, cid: 'bafkrei' }));
    await uploadMetadata(api, { name: 'n', audioUrl: 'https://a.test/a.mp3', idempotencyKey: 'meta-1' });
    await uploadMetadata(api, { name: 'n', audioUrl: 'https://a.test/a.mp3' });
    assert.deepEqual(
      requests.map((request) => request.headers['idempotency-key']),
      ['meta-1', undefined],
    );
    serve((_req, res) =>
      json(res, 200, { signature: `0x${'11'.repeat(65)}`, audio_hash: HASH, expires_at: '2026-11-23T01:00:00.000Z', job_id: JOB }),
    );
    await getMintSignature(api, {
      jobId: JOB,
      userAddress: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
      metadataUri: 'ipfs://bafkrei',
      idempotencyKey: 'sign-1',
    });
    assert.equal(requests[0]?.headers['idempotency-key'], 'sign-1');
  });

  it("downloadSong asks the API for the file's URL, then fetches it without the token, checking its size", async () => {
    const flac = Buffer.from('fLaC and more bytes');
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    let stated = flac.length;
    serve((req, res) => {
      if (req.url?.startsWith('/lossless/')) {
        res.end(flac);
        return;
      }
      json(res, 200, {
        job_id: JOB,
        format: 'flac',
        content_type: 'audio/flac',
        bytes: stated,
        url: `${base}/lossless/${JOB}.flac?X-Amz-Signature=abc`,
        expires_at: '2026-11-23T01:00:00.000Z',
      });
    });
    assert.deepEqual(Buffer.from(await downloadSong(api, { jobId: JOB, format: 'flac' })), flac);
    assert.deepEqual(
      requests.map((request) => [request.url, request.headers.authorization]),
      [
        [`/api/generate/${JOB}/download/flac`, 'Bearer session-token'],
        [`/lossless/${JOB}.flac?X-Amz-Signature=abc`, undefined],
      ],
    );
    stated = flac.length + 1;
    await assert.rejects(downloadSong(api, { jobId: JOB, format: 'flac' }), { code: 'UNEXPECTED_RESPONSE' });
  });

  it('a rejected request becomes a SongmintApiError with the API code, status and Retry-After', async () => {
    serve((_req, res) =>
      json(
        res,
        429,
        { error: { code: 'RATE_002', message: 'Hourly limit', details: 'generation: 10 per hour' } },
        { 'retry-after': '120' },
      ),
    );
    const error = await generate(api, { prompt: 'x', duration: 10 }).then(
      () => assert.fail('resolved'),
      (caught: unknown) => caught,
    );
    assert.ok(error instanceof SongmintApiError);
    assert.equal(error.code, 'RATE_002');
    assert.equal(error.status, 429);
    assert.equal(error.retryAfter, 120);
    assert.equal(error.details, 'generation: 10 per hour');
  });

  it('calls that need a session refuse to run without one, sending nothing', async () => {
    serve((_req, res) => json(res, 500, {}));
    const anonymous = createSongmintApi({ baseUrl: api.baseUrl });
    await assert.rejects(
      generate(anonymous, { prompt: 'x', duration: 10 }),
      (error: unknown) => error instanceof SongmintClientError && error.code === 'NOT_SIGNED_IN',
    );
    assert.equal(requests.length, 0);
  });

  it('waitForJob follows the job event stream where the API offers it, reporting progress, without polling', async () => {
    serve((req, res) => {
      assert.equal(req.url, `/api/generate/${JOB}/events`);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(`event: status\ndata: ${JSON.stringify(queued)}\n\n`);
      res.write(`data: ${JSON.stringify(processing(40))}\r\n\r\n: keep-alive comment\n\n`);
      res.end(`data: ${JSON.stringify(completed)}\n\n`);
    });
    const progress: JobProgress[] = [];
    const song = await waitForJob(api, { jobId: JOB, onProgress: (report) => progress.push(report) });
    assert.deepEqual(song, {
      jobId: JOB,
      audioUrl: completed.audio_url,
      audioHash: HASH,
      duration: 10,
      createdAt: new Date(completed.created_at),
      lyrics: '[verse]\nla',
      model: completed.model,
    });
    assert.deepEqual(progress, [
      { jobId: JOB, status: 'queued', progress: 0, estimatedRemaining: 5, position: 2 },
      { jobId: JOB, status: 'processing', progress: 40, estimatedRemaining: 3 },
    ]);
    assert.deepEqual(
      requests.map((request) => request.url),
      [`/api/generate/${JOB}/events`],
    );
  });

  it('jobEvents yields named events with their ids, sends Last-Event-ID, and rejects an error answer with its API code', async () => {
    serve((req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('retry: 3000\n\n');
      res.write(`event: status\nid: processing-40\ndata: ${JSON.stringify(processing(40))}\n\n: heartbeat\n\n`);
      res.end(`event: completed\nid: completed\ndata: ${JSON.stringify(completed)}\n\n`);
    });
    const seen: Array<{ event: string; id: string | undefined; status: string }> = [];
    for await (const event of jobEvents(api, { jobId: JOB, lastEventId: 'queued-0' }))
      seen.push({ event: event.event, id: event.id, status: event.job.status });
    assert.deepEqual(seen, [
      { event: 'status', id: 'processing-40', status: 'processing' },
      { event: 'completed', id: 'completed', status: 'completed' },
    ]);
    assert.equal(requests[0]?.headers['last-event-id'], 'queued-0');
    assert.equal(requests[0]?.headers.authorization, 'Bearer session-token');

    serve((_req, res) => json(res, 404, { error: { code: 'NOT_FOUND', message: 'Job not found', details: '' } }));
    const consume = async () => {
      for await (const event of jobEvents(api, { jobId: JOB })) assert.fail(`no event expected, got ${event.event}`);
    };
    await assert.rejects(
      consume(),
      (error: unknown) => error instanceof SongmintApiError && error.code === 'NOT_FOUND' && error.status === 404,
    );
  });

  it('waitForJob resumes a stream the server ended early from its last event id', async () => {
    let streams = 0;
    serve((req, res) => {
      assert.ok(req.url?.endsWith('/events'));
      streams++;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      if (streams === 1) res.end(`event: status\nid: processing-40\ndata: ${JSON.stringify(processing(40))}\n\n`);
      else res.end(`event: completed\nid: completed\ndata: ${JSON.stringify(completed)}\n\n`);
    });
    const song = await waitForJob(api, { jobId: JOB, pollIntervalMs: 5 });
    assert.equal(song.audioHash, HASH);
    assert.deepEqual(
      requests.map((request) => [request.url, request.headers['last-event-id']]),
      [
        [`/api/generate/${JOB}/events`, undefined],
        [`/api/generate/${JOB}/events`, 'processing-40'],
      ],
    );
  });

  it('waitForJob falls back to polling when the stream breaks mid-way', async () => {
    serve((req, res) => {
      if (req.url?.endsWith('/events') === true) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(`event: status\nid: processing-20\ndata: ${JSON.stringify(processing(20))}\n\n`);
        setTimeout(() => res.destroy(), 20);
      } else json(res, 200, completed);
    });
    const progress: number[] = [];
    const song = await waitForJob(api, { jobId: JOB, pollIntervalMs: 5, onProgress: (report) => progress.push(report.progress) });
    assert.equal(song.audioHash, HASH);
    assert.deepEqual(progress, [20]);
    assert.equal(requests.at(-1)?.url, `/api/generate/${JOB}`);
  });

  it('waitForJob rejects with CANCELLED from the stream, without polling', async () => {
    serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(`event: cancelled\nid: cancelled\ndata: ${JSON.stringify({ job_id: JOB, status: 'cancelled' })}\n\n`);
    });
    await assert.rejects(
      waitForJob(api, { jobId: JOB }),
      (error: unknown) => error instanceof SongmintApiError && error.code === 'CANCELLED',
    );
    assert.deepEqual(
      requests.map((request) => request.url),
      [`/api/generate/${JOB}/events`],
    );
  });

  it('waitForJob polls GET /api/generate/{id} with backoff where there is no stream (as today)', async () => {
    const answers = [queued, processing(20), processing(80), completed];
    serve((req, res) => {
      if (req.url?.endsWith('/events') === true) json(res, 404, { error: { code: 'NOT_FOUND', message: 'Not found', details: '' } });
      else json(res, 200, answers.shift());
    });
    const progress: number[] = [];
    const song = await waitForJob(api, { jobId: JOB, pollIntervalMs: 5, onProgress: (report) => progress.push(report.progress) });
    assert.equal(song.audioHash, HASH);
    assert.deepEqual(progress, [0, 20, 80]);
    assert.deepEqual(
      requests.map((request) => request.url),
      [`/api/generate/${JOB}/events`, ...Array<string>(4).fill(`/api/generate/${JOB}`)],
    );
  });

  it('a failed job rejects with its error code and job id', async () => {
    serve((req, res) => {
      if (req.url?.endsWith('/events') === true) json(res, 404, {});
      else json(res, 200, { job_id: JOB, status: 'failed', error: { code: 'GEN_005', message: 'Generation failed', retry_after: 10 } });
    });
    await assert.rejects(
      waitForJob(api, { jobId: JOB }),
      (error: unknown) => error instanceof SongmintApiError && error.code === 'GEN_005' && error.jobId === JOB && error.retryAfter === 10,
    );
  });

  it('the AbortSignal stops waiting with ABORTED', async () => {
    serve((req, res) => {
      if (req.url?.endsWith('/events') === true) json(res, 404, {});
      else json(res, 200, processing(10));
    });
    const controller = new AbortController();
    const waiting = waitForJob(api, { jobId: JOB, pollIntervalMs: 5, signal: controller.signal, onProgress: () => controller.abort() });
    await assert.rejects(waiting, (error: unknown) => error instanceof SongmintClientError && error.code === 'ABORTED');
  });

  it('webhooks: generate sends `webhook`; the secret routes map to { secret, createdAt }', async () => {
    serve((req, res) => {
      if (req.url === '/api/generate') json(res, 202, { job_id: JOB, status: 'queued', estimated_time: 5, position: 1 });
      else json(res, 200, { secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', created_at: '2026-11-24T07:00:00.000Z' });
    });
    await generate(api, { prompt: 'lo-fi', duration: 10, webhook: 'https://hooks.example/x', idempotencyKey: 'k' });
    assert.equal(JSON.parse(requests[0]?.body ?? '').webhook, 'https://hooks.example/x');
    assert.deepEqual(await getWebhookSecret(api), {
      secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      createdAt: new Date('2026-11-24T07:00:00.000Z'),
    });
    await rotateWebhookSecret(api);
    assert.deepEqual(
      requests.slice(1).map((request) => `${request.method} ${request.url}`),
      ['GET /api/webhooks/secret', 'POST /api/webhooks/secret/rotate'],
    );
  });
});

describe('@songmint/sdk helpers', () => {
  it('apiErrorFromBody reads all three error shapes of the API', () => {
    const a = apiErrorFromBody(409, { error: { code: 'SIGN_002', message: 'Already signed', details: 'once', job_id: JOB } });
    assert.deepEqual([a.code, a.status, a.details, a.jobId], ['SIGN_002', 409, 'once', JOB]);
    const daily = apiErrorFromBody(429, {
      error: 'rate_limit_exceeded',
      limit: 10,
      reset_at: '2026-11-24T00:00:00.000Z',
      code: 'RATE_001',
      message: 'Daily limit',
      retry_after: 99,
    });
    assert.deepEqual([daily.code, daily.retryAfter, daily.details], ['RATE_001', 99, { limit: 10, reset_at: '2026-11-24T00:00:00.000Z' }]);
    const c = apiErrorFromBody(404, { error: 'NOT_FOUND', message: 'Token not found', details: { id: '7' } }, '3');
    assert.deepEqual([c.code, c.message, c.details, c.retryAfter], ['NOT_FOUND', 'NOT_FOUND: Token not found', { id: '7' }, 3]);
    assert.equal(apiErrorFromBody(502, 'Bad Gateway').code, 'HTTP_502');
  });

  it('predictTokenAddress is SongVault.tokenOf of the local deployment (read from the chain for songs 1 and 2)', () => {
    assert.equal(predictTokenAddress({ songId: 1n, contracts: songmintAddresses.local }), '0xa87A24c3442FDc3627E930877Ed83AbF3caA696F');
    assert.notEqual(predictTokenAddress({ songId: 2n, contracts: songmintAddresses.local }), '0xa87A24c3442FDc3627E930877Ed83AbF3caA696F');
  });

  it('verifyWebhook: the Standard Webhooks test vector verifies; tampering, other secrets, stale timestamps and missing headers are INVALID_WEBHOOK', async () => {
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const body = '{"test": 2432232314}';
    const now = new Date(1614265330 * 1000);
    const headers = {
      'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek',
      'webhook-timestamp': '1614265330',
      'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    };
    assert.deepEqual(await verifyWebhook({ secret, headers, body, now }), { test: 2432232314 });
    assert.deepEqual(await verifyWebhook({ secret, headers: new Headers(headers), body: new TextEncoder().encode(body), now }), {
      test: 2432232314,
    });
    // Several signatures (a key change): any one that matches is enough.
    await verifyWebhook({ secret, headers: { ...headers, 'webhook-signature': `v1,AAAA ${headers['webhook-signature']}` }, body, now });
    const refused = [
      { secret, headers, body: '{"test": 2432232315}', now },
      { secret: 'whsec_' + Buffer.from('another key of enough length!!').toString('base64'), headers, body, now },
      { secret, headers, body, now: new Date(now.getTime() + 301_000) },
      { secret, headers, body, now: new Date(now.getTime() - 301_000) },
      { secret, headers: { ...headers, 'webhook-id': 'msg_other' }, body, now },
      { secret, headers: { ...headers, 'webhook-signature': 'v2,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=' }, body, now },
      { secret, headers: { 'webhook-id': headers['webhook-id'], 'webhook-timestamp': headers['webhook-timestamp'] }, body, now },
      { secret, headers: { ...headers, 'webhook-timestamp': '1614265330.5' }, body, now },
      { secret: 'not-a-secret', headers, body, now },
    ];
    for (const parameters of refused)
      await assert.rejects(
        verifyWebhook(parameters),
        (error: unknown) => error instanceof SongmintClientError && error.code === 'INVALID_WEBHOOK',
      );
    assert.deepEqual(await verifyWebhook({ secret, headers, body, now: new Date(now.getTime() + 3_000_000), toleranceSeconds: 3600 }), {
      test: 2432232314,
    });
  });

  it('coverDataUri encodes image bytes as a base64 data URI', () => {
    const bytes = new Uint8Array(100_000).map((_, index) => (index * 7) % 256);
    assert.equal(coverDataUri({ bytes, mimeType: 'image/png' }), `data:image/png;base64,${Buffer.from(bytes).toString('base64')}`);
    assert.equal(coverDataUri('data:image/gif;base64,R0lG'), 'data:image/gif;base64,R0lG');
  });
});
