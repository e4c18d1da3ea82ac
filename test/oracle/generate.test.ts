import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { GENERATION_QUEUE, TIER_PRIORITY } from '../../core/src/generation-queue.ts';
import { startTestApp } from './helpers/test-app.ts';
import type { LoggedIn, TestApp } from './helpers/test-app.ts';
import { assertVariantAError } from './helpers/shapes.ts';
import { generateAcceptedSchema, jobListSchema, jobStatusSchema } from '../../oracle/src/http/schemas.ts';
import { JOB_STATUS } from '../../core/src/jobs/job-state.ts';
import { createSongmintApi, editSong, SongmintApiError, withSession } from '../../sdk/src/index.ts';

describe('POST /api/generate and GET /api/generate/{job_id}', () => {
  let app: TestApp;
  let free: LoggedIn;

  before(async () => {
    app = await startTestApp();
  });
  after(async () => {
    await app.stop();
  });
  beforeEach(async () => {
    await app.addWorkerHeartbeat();
    free = await app.login();
  });

  it('queues a job, charges the daily counter and enqueues it on pg-boss with the tier priority', async () => {
    const res = await app.request('/api/generate', {
      token: free.token,
      body: { prompt: 'lofi beat', duration: 30, seed: 42, steps: 60, with_lyrics: true },
    });
    assert.equal(res.status, 202);
    const body = generateAcceptedSchema.parse(res.body);
    assert.match(body.job_id, /^gen_[0-9a-f-]{36}$/);
    assert.equal(body.status, JOB_STATUS.queued);
    assert.ok(body.estimated_time > 0);
    assert.ok(body.position >= 1);
    assert.equal(res.headers.get('location'), `/api/generate/${body.job_id}`);
    const id = body.job_id.slice(4);
    const job = await app.db.one(
      'SELECT status, prompt, duration, seed::text AS seed, steps, with_lyrics, tier, user_id FROM generation_jobs WHERE id = $1',
      [id],
    );
    assert.deepEqual(job, {
      status: JOB_STATUS.queued,
      prompt: 'lofi beat',
      duration: 30,
      seed: '42',
      steps: 60,
      with_lyrics: true,
      tier: 'free',
      user_id: free.userId,
    });
    const user = await app.db.one('SELECT daily_generations, total_generations FROM users WHERE id = $1', [free.userId]);
    assert.deepEqual(user, { daily_generations: 1, total_generations: 1 });
    const queued = await app.db.one(`SELECT priority, data FROM pgboss.job WHERE name = $1 AND data->>'jobId' = $2`, [
      GENERATION_QUEUE,
      id,
    ]);
    assert.deepEqual(queued, { priority: TIER_PRIORITY.free, data: { jobId: id } });
  });

  it('sets X-RateLimit headers from the tighter limit', async () => {
    const res = await app.request('/api/generate', { token: free.token, body: { prompt: 'a', duration: 5 } });
    assert.equal(res.status, 202);
    assert.equal(res.headers.get('x-ratelimit-limit'), '10');
    assert.equal(res.headers.get('x-ratelimit-remaining'), '9');
    const reset = Number(res.headers.get('x-ratelimit-reset'));
    assert.ok(reset > Date.now() / 1000 && reset <= Date.now() / 1000 + 24 * 3600);
  });

  it('shows a queued job to its owner with progress, position and estimated_remaining; 404 to others', async () => {
    const created = await app.request('/api/generate', { token: free.token, body: { prompt: 'jazz', duration: 10 } });
    const { job_id } = generateAcceptedSchema.parse(created.body);
    const own = await app.request(`/api/generate/${job_id}`, { token: free.token });
    assert.equal(own.status, 200);
    const view = jobStatusSchema.parse(own.body);
    assert.equal(view.job_id, job_id);
    assert.ok(view.status === JOB_STATUS.queued, `expected a queued job, got ${view.status}`);
    assert.equal(view.progress, 0);
    assert.ok(view.estimated_remaining > 0);
    const other = await app.login();
    const theirs = await app.request(`/api/generate/${job_id}`, { token: other.token });
    assert.equal(theirs.status, 404);
    assertVariantAError(theirs.body, 'NOT_FOUND');
    const bogus = await app.request('/api/generate/gen_nope', { token: free.token });
    assert.equal(bogus.status, 404);
    assertVariantAError(bogus.body, 'NOT_FOUND');
  });

  it('shows processing, completed and failed jobs in their shapes', async () => {
    const created = await app.request('/api/generate', { token: free.token, body: { prompt: 'rock', duration: 20 } });
    const { job_id } = generateAcceptedSchema.parse(created.body);
    const id = job_id.slice(4);
    await app.db.none(`UPDATE generation_jobs SET status = '${JOB_STATUS.processing}', progress = 40, started_at = now() WHERE id = $1`, [
      id,
    ]);
    const running = await app.request(`/api/generate/${job_id}`, { token: free.token });
    const runningView = jobStatusSchema.parse(running.body);
    assert.ok(runningView.status === JOB_STATUS.processing, `expected a processing job, got ${runningView.status}`);
    assert.equal(runningView.progress, 40);

    const hash = `0x${'ab'.repeat(32)}`;
    await app.db.none(
      `UPDATE generation_jobs SET status = '${JOB_STATUS.completed}', progress = 100, audio_url = $2, audio_hash = $3, actual_duration = 20.4, completed_at = now() WHERE id = $1`,
      [id, `http://storage.test/audio/${job_id}.mp3`, hash],
    );
    const done = await app.request(`/api/generate/${job_id}`, { token: free.token });
    const completed = jobStatusSchema.parse(done.body);
    assert.ok(completed.status === JOB_STATUS.completed, `expected a completed job, got ${completed.status}`);
    assert.equal(completed.audio_url, `http://storage.test/audio/${job_id}.mp3`);
    assert.equal(completed.audio_hash, hash);
    assert.equal(completed.duration, 20);
    assert.match(completed.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    const second = await app.request('/api/generate', { token: free.token, body: { prompt: 'metal', duration: 20 } });
    const failedId = generateAcceptedSchema.parse(second.body).job_id;
    await app.db.none(
      `UPDATE generation_jobs SET status = '${JOB_STATUS.failed}', error_code = 'GEN_005', error_message = 'model inference error' WHERE id = $1`,
      [failedId.slice(4)],
    );
    const failed = await app.request(`/api/generate/${failedId}`, { token: free.token });
    jobStatusSchema.parse(failed.body);
    assert.deepEqual(failed.body, {
      job_id: failedId,
      status: JOB_STATUS.failed,
      error: { code: 'GEN_005', message: 'model inference error', retry_after: 10 },
    });
  });

  it('edits: refuses a bad source, range or task in the documented shape and charges nothing; queues a valid edit', async () => {
    const other = await app.login();
    const song = async (owner: LoggedIn, duration: number, fields = ''): Promise<string> => {
      const created = await app.request('/api/generate', { token: owner.token, body: { prompt: 'source song', duration } });
      const { job_id } = generateAcceptedSchema.parse(created.body);
      if (fields !== '') await app.db.none(`UPDATE generation_jobs SET ${fields} WHERE id = $1`, [job_id.slice(4)]);
      return job_id;
    };
    const completed = (id: string) =>
      `status = 'completed', progress = 100, audio_url = 'http://storage.test/a.mp3', audio_hash = '0x${'cd'.repeat(32)}', actual_duration = 10,
       completed_at = now(), model_name = 'test-model', model_version = '0', latents_key = 'latents/${id}.bin'`;
    const source = await song(free, 10);
    await app.db.none(`UPDATE generation_jobs SET ${completed(source)} WHERE id = $1`, [source.slice(4)]);
    const queued = await song(free, 10);
    const purged = await song(free, 10);
    await app.db.none(`UPDATE generation_jobs SET ${completed(purged)}, purged_at = now() WHERE id = $1`, [purged.slice(4)]);
    const unkept = await song(free, 10);
    await app.db.none(
      `UPDATE generation_jobs SET ${completed(unkept).replace(/latents_key = '[^']*'/, 'latents_key = NULL')} WHERE id = $1`,
      [unkept.slice(4)],
    );
    const others = await song(other, 10);
    await app.db.none(`UPDATE generation_jobs SET ${completed(others)} WHERE id = $1`, [others.slice(4)]);
    const trashed = await song(free, 10);
    await app.db.none(`UPDATE generation_jobs SET ${completed(trashed)}, deleted_at = now() WHERE id = $1`, [trashed.slice(4)]);
    // The source's name and the lyrics it was sung with: what its edits take (issue 45, items 7 and 8).
    await app.db.none(`UPDATE generation_jobs SET title = 'Night rain', used_lyrics = $2 WHERE id = $1`, [
      source.slice(4),
      '[verse]\nrain on the glass',
    ]);
    await app.db.none(`UPDATE worker_heartbeats SET edit_tasks = $1`, [
      JSON.stringify({ extend: null, repaint: null, remix: 'the model directory has no audio_tokenizer graph' }),
    ]);

    const counters = () => app.db.one('SELECT daily_generations, total_generations FROM users WHERE id = $1', [free.userId]);
    const jobs = () => app.db.one<{ n: number }>('SELECT count(*)::int AS n FROM generation_jobs');
    const before = { counters: await counters(), jobs: await jobs() };
    const refusals: [string, number, Record<string, unknown>, number][] = [
      ['EDIT_001', 404, { source_job_id: 'gen_00000000-0000-4000-8000-000000000000', task: 'extend' }, 20],
      ['EDIT_001', 404, { source_job_id: others, task: 'extend' }, 20],
      ['EDIT_001', 404, { source_job_id: 'not-a-job', task: 'extend' }, 20],
      ['EDIT_002', 409, { source_job_id: queued, task: 'extend' }, 20],
      ['EDIT_003', 410, { source_job_id: purged, task: 'extend' }, 20],
      ['LIBRARY_002', 409, { source_job_id: trashed, task: 'extend' }, 20],
      ['EDIT_003', 410, { source_job_id: unkept, task: 'extend' }, 20],
      ['EDIT_004', 400, { source_job_id: source, task: 'extend' }, 10],
      ['EDIT_004', 400, { source_job_id: source, task: 'repaint', start: 8, end: 12 }, 10],
      ['EDIT_004', 400, { source_job_id: source, task: 'remix' }, 12],
      ['GEN_004', 400, { source_job_id: source, task: 'extend' }, 40],
      ['EDIT_005', 422, { source_job_id: source, task: 'remix' }, 10],
      ['VALIDATION_ERROR', 400, { source_job_id: source, task: 'repaint' }, 10],
      ['VALIDATION_ERROR', 400, { source_job_id: source, task: 'extend', start: 1 }, 20],
      ['VALIDATION_ERROR', 400, { source_job_id: source, task: 'repaint', start: 4, end: 4.5 }, 10],
      ['VALIDATION_ERROR', 400, { source_job_id: source, task: 'stems' }, 10],
    ];
    for (const [code, status, edit, duration] of refusals) {
      const res = await app.request('/api/generate', { token: free.token, body: { prompt: 'edit', duration, edit } });
      assert.equal(res.status, status, `${JSON.stringify(edit)}: ${JSON.stringify(res.body)}`);
      assertVariantAError(res.body, code);
    }
    const lacking = await app.request('/api/generate', {
      token: free.token,
      body: { prompt: 'edit', duration: 10, edit: { source_job_id: source, task: 'remix' } },
    });
    assert.match((lacking.body as { error: { message: string } }).error.message, /no audio_tokenizer graph/);
    assert.deepEqual({ counters: await counters(), jobs: await jobs() }, before, 'a refused edit charges nothing and writes no job');

    // The SDK's editSong against this oracle: a refusal as SongmintApiError, an accepted repaint queued with its source.
    const api = withSession(createSongmintApi({ baseUrl: app.baseUrl }), { token: free.token });
    await assert.rejects(
      editSong(api, { sourceJobId: source, sourceDuration: 10, task: 'repaint', start: 8, end: 12, prompt: 'edit' }),
      (error: unknown) => error instanceof SongmintApiError && error.code === 'EDIT_004' && error.status === 400,
    );
    const accepted = await editSong(api, {
      sourceJobId: source,
      sourceDuration: 10,
      task: 'repaint',
      start: 4,
      end: 6,
      prompt: 'a brighter bridge',
    });
    assert.equal(accepted.status, 'queued');
    const edit = await app.db.one('SELECT edit, edit_source_id, duration FROM generation_jobs WHERE id = $1', [accepted.jobId.slice(4)]);
    assert.deepEqual(edit, { edit: { task: 'repaint', start: 4, end: 6 }, edit_source_id: source.slice(4), duration: 10 });
    const extension = await editSong(api, { sourceJobId: source, sourceDuration: 10, task: 'extend', seconds: 10, prompt: 'an outro' });
    assert.equal(
      (await app.db.one<{ duration: number }>('SELECT duration FROM generation_jobs WHERE id = $1', [extension.jobId.slice(4)])).duration,
      20,
    );
    assert.equal((await counters()).daily_generations, before.counters.daily_generations + 2, 'an edit is charged as a generation');
    // Each edit is named after its source and what was done, and keeps the lyrics the source was made with.
    const inherited = await app.db.map(
      'SELECT title, lyrics FROM generation_jobs WHERE id = ANY($1::uuid[]) ORDER BY created_at',
      [[accepted.jobId.slice(4), extension.jobId.slice(4)]],
      (row: { title: string; lyrics: string }) => [row.title, row.lyrics],
    );
    assert.deepEqual(inherited, [
      ['Night rain (repainted 4–6 s)', '[verse]\nrain on the glass'],
      ['Night rain (extended +10 s)', '[verse]\nrain on the glass'],
    ]);

    // Where each edit came from: `edit_of` on the job status and in the job list, null for a song that is no edit.
    await app.db.none(`UPDATE generation_jobs SET ${completed(accepted.jobId)} WHERE id = $1`, [accepted.jobId.slice(4)]);
    const repainted = jobStatusSchema.parse((await app.request(`/api/generate/${accepted.jobId}`, { token: free.token })).body);
    assert.ok(repainted.status === JOB_STATUS.completed);
    assert.deepEqual(repainted.edit_of, { job_id: source, upload_id: null, task: 'repaint', start: 4, end: 6, strength: null });
    const original = jobStatusSchema.parse((await app.request(`/api/generate/${source}`, { token: free.token })).body);
    assert.ok(original.status === JOB_STATUS.completed && original.edit_of === null);
    const listAnswer = await app.request('/api/generate?limit=100', { token: free.token });
    assert.equal(listAnswer.status, 200, listAnswer.text);
    const listed = jobListSchema.parse(listAnswer.body).jobs;
    const editOf = (id: string) => listed.find((job) => job.job_id === id)?.edit_of;
    assert.deepEqual(editOf(extension.jobId), { job_id: source, upload_id: null, task: 'extend', start: null, end: null, strength: null });
    assert.deepEqual(editOf(accepted.jobId), repainted.edit_of);
    assert.equal(editOf(source), null);
  });

  it('edits of an upload: EDIT_001 not yours, EDIT_003 expired, EDIT_004 range, EDIT_005 naming the import lack; then queued with its upload', async () => {
    const other = await app.login();
    const upload = async (owner: LoggedIn, duration: number, expired = false): Promise<string> => {
      const row = await app.db.one<{ id: string }>(
        `INSERT INTO uploads (user_id, object_key, format, bytes, sha256, sample_rate, channels, duration, rights_statement,
                              rights_confirmed_at, expires_at)
         VALUES ($1, 'uploads/' || gen_random_uuid() || '.wav', 'wav', 100, $2, 44100, 2, $3, 'v1', now(),
                 now() + make_interval(days => $4)) RETURNING id`,
        [owner.userId, `0x${'ab'.repeat(32)}`, duration, expired ? -1 : 30],
      );
      return `upl_${row.id}`;
    };
    const mine = await upload(free, 10.4);
    const expired = await upload(free, 10, true);
    const theirs = await upload(other, 10);
    const counters = () => app.db.one('SELECT daily_generations, total_generations FROM users WHERE id = $1', [free.userId]);
    const before = await counters();
    const refusals: [string, number, Record<string, unknown>, number][] = [
      ['EDIT_001', 404, { source_upload_id: theirs, task: 'remix' }, 10],
      ['EDIT_001', 404, { source_upload_id: 'upl_nope', task: 'remix' }, 10],
      ['EDIT_003', 410, { source_upload_id: expired, task: 'remix' }, 10],
      // An upload of 10.4 s is edited on its 10 whole seconds.
      ['EDIT_004', 400, { source_upload_id: mine, task: 'repaint', start: 9, end: 10.4 }, 10],
      ['EDIT_004', 400, { source_upload_id: mine, task: 'remix' }, 11],
      ['EDIT_005', 422, { source_upload_id: mine, task: 'remix' }, 10],
      ['VALIDATION_ERROR', 400, { task: 'remix' }, 10],
    ];
    for (const [code, status, edit, duration] of refusals) {
      const res = await app.request('/api/generate', { token: free.token, body: { prompt: 'edit', duration, edit } });
      assert.equal(res.status, status, `${JSON.stringify(edit)}: ${JSON.stringify(res.body)}`);
      assertVariantAError(res.body, code);
      if (code === 'EDIT_005') assert.match((res.body as { error: { message: string } }).error.message, /cannot import uploaded audio/);
    }
    // Variant B spells it sourceUploadId.
    const variantB = await app.request('/api/generate', {
      token: free.token,
      headers: { prefer: 'wait' },
      body: { prompt: 'edit', duration: 10, edit: { sourceUploadId: theirs, task: 'remix' } },
    });
    assert.equal(variantB.status, 404, variantB.text);
    assertVariantAError(variantB.body, 'EDIT_001');
    assert.deepEqual(await counters(), before, 'a refused edit charges nothing');

    // A worker whose model imports uploads: the edit is queued with its upload as source (Variant B spelling too).
    await app.db.none(`UPDATE worker_heartbeats SET import_lack = NULL, edit_tasks = $1`, [
      JSON.stringify({ extend: null, repaint: null, remix: null }),
    ]);
    const accepted = await app.request('/api/generate', {
      token: free.token,
      body: { prompt: 'a brighter take', duration: 10, edit: { source_upload_id: mine, task: 'repaint', start: 4, end: 6 } },
    });
    assert.equal(accepted.status, 202, accepted.text);
    const job = await app.db.one('SELECT edit, edit_source_id, edit_upload_id, duration FROM generation_jobs WHERE id = $1', [
      generateAcceptedSchema.parse(accepted.body).job_id.slice(4),
    ]);
    assert.deepEqual(job, {
      edit: { task: 'repaint', start: 4, end: 6 },
      edit_source_id: null,
      edit_upload_id: mine.slice(4),
      duration: 10,
    });
    assert.equal((await counters()).daily_generations, before.daily_generations + 1, 'an edit of an upload is charged as a generation');
  });

  it('refuses a completed job without audio at the database (constraint)', async () => {
    const created = await app.request('/api/generate', { token: free.token, body: { prompt: 'x', duration: 5 } });
    const id = (created.body as { job_id: string }).job_id.slice(4);
    await assert.rejects(
      app.db.none(`UPDATE generation_jobs SET status = '${JOB_STATUS.completed}' WHERE id = $1`, [id]),
      /completed_has_audio/,
    );
  });
});
