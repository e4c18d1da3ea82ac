import { encodeFingerprint, fingerprintFromBytes } from '../../core/src/fingerprint/encoding.ts';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { GENERATION_QUEUE } from '../../core/src/generation-queue.ts';
import { queueJob } from '../../core/src/jobs/job-state.ts';
import { JOB_STATUS } from '../../core/src/jobs/job-state.ts';
import { PREVIEW_RECORD_DAYS } from '../../core/src/jobs/preview-state.ts';
import { previewObjectKey } from '../../core/src/previews.ts';
import { sweepRetention } from '../../inference/src/retention/sweep.ts';
import type { WorkerProcess } from '../../inference/src/worker/process.ts';
import { HOURLY_LIMITS } from '../../oracle/src/domain/request-charge.ts';
import { previewAcceptedSchema, previewStatusSchema } from '../../oracle/src/http/routes/previews.ts';
import { assertCbr320, decodeMp3 } from '../inference/helpers/mp3-checks.ts';
import { readC2pa } from '../support/c2pa.ts';
import { assertVariantAError } from './helpers/shapes.ts';
import type { LoggedIn } from './helpers/test-app.ts';
import { startStackWorker, startStorageStack } from './storage-stack.ts';
import type { StorageStack } from './storage-stack.ts';
import type { z } from 'zod';
// By path, not '@songmint/sdk' (which resolves to the main checkout's package during parallel work).
import { createPreview, createSongmintApi, getPreview, SongmintApiError, waitForPreview, withSession } from '../../sdk/src/index.ts';

type PreviewStatus = z.infer<typeof previewStatusSchema>;
type CompletedPreview = Extract<PreviewStatus, { status: 'completed' }>;

describe('previews: POST /api/previews and GET /api/previews/{session_id} (real worker)', () => {
  let stack: StorageStack;
  let worker: WorkerProcess;

  before(async () => {
    stack = await startStorageStack();
    worker = await startStackWorker(stack, { ENCODER_THREADS: '1', WORKER_CONCURRENCY: '1' });
  });
  after(async () => {
    await worker.stop();
    await stack.stop();
  });

  const submit = async (who: LoggedIn, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    stack.app.request('/api/previews', { token: who.token, body, headers });
  const statusOf = async (who: LoggedIn, sessionId: string) => stack.app.request(`/api/previews/${sessionId}`, { token: who.token });
  async function waitForCompleted(who: LoggedIn, sessionId: string): Promise<CompletedPreview> {
    const deadline = Date.now() + 120_000;
    for (;;) {
      const res = await statusOf(who, sessionId);
      assert.equal(res.status, 200, res.text);
      const view = previewStatusSchema.parse(res.body);
      if (view.status === JOB_STATUS.completed) return view;
      assert.notEqual(view.status, JOB_STATUS.failed, res.text);
      assert.ok(Date.now() < deadline, 'timed out waiting for the preview');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  const sweep = () => sweepRetention(stack.app.db, stack.objectStore, { abandonedAfterSeconds: 720 });

  it('makes a private clip of about the asked length on the worker, served only through fresh one-hour signed URLs', async () => {
    const alice = await stack.app.login();
    const res = await submit(alice, { prompt: 'warm lofi piano preview', duration: 6, seed: 7 });
    assert.equal(res.status, 202, res.text);
    const accepted = previewAcceptedSchema.parse(res.body);
    assert.match(accepted.session_id, /^prv_[A-Za-z0-9_-]{24}$/);
    assert.equal(res.headers.get('location'), `/api/previews/${accepted.session_id}`);
    assert.equal(res.headers.get('x-ratelimit-limit'), String(HOURLY_LIMITS.preview.free));
    assert.equal(res.headers.get('x-ratelimit-remaining'), String(HOURLY_LIMITS.preview.free - 1));

    const view = await waitForCompleted(alice, accepted.session_id);
    const signed = new URL(view.preview_url);
    assert.equal(signed.searchParams.get('X-Amz-Expires'), '3600');
    assert.ok(signed.searchParams.get('X-Amz-Signature') !== null, 'a signed URL');
    assert.ok(signed.pathname.endsWith(`/${previewObjectKey(accepted.session_id)}`), signed.pathname);
    const urlExpiry = Date.parse(view.url_expires_at) - Date.now();
    assert.ok(urlExpiry > 3590_000 && urlExpiry <= 3600_000, `url_expires_at in 1 h, got ${urlExpiry} ms`);
    assert.equal(Date.parse(view.expires_at) - Date.parse(view.created_at), 24 * 3600_000);
    assert.equal(view.duration, 6);

    // The clip: a valid 320 kbps MP3 of about 6 s whose hash is the one reported.
    const fetched = await fetch(view.preview_url);
    assert.equal(fetched.status, 200);
    const bytes = new Uint8Array(await fetched.arrayBuffer());
    assert.equal(`0x${createHash('sha256').update(bytes).digest('hex')}`, view.audio_hash);
    assert.ok(assertCbr320(bytes) > 0);
    const decoded = await decodeMp3(bytes);
    assert.equal(decoded.errors, 0);
    assert.ok(Math.abs(decoded.samples / decoded.sampleRate - 6) < 0.1, `${decoded.samples / decoded.sampleRate} s`);
    // Previews carry content credentials too, read back by c2pa-rs: signed, bound, made by AI.
    const credentials = await readC2pa(bytes, stack.c2pa.caPem);
    assert.equal(credentials.validation_state, 'Trusted', JSON.stringify(credentials.validation_status));
    const generation = credentials.manifests[credentials.active_manifest]?.assertions.find((a) => a.label === 'com.songmint.generation')
      ?.data as { kind: string; seed: string; jobId: string; fingerprint: { value: string } };
    assert.deepEqual([generation.kind, generation.seed, generation.jobId], ['preview', '7', accepted.session_id]);
    // Its Chromaprint fingerprint (issue 44): on its row, the one its manifest carries.
    const row = await stack.app.db.one<{ fingerprint: Buffer }>('SELECT fingerprint FROM preview_jobs WHERE session_id = $1', [
      accepted.session_id,
    ]);
    assert.equal(generation.fingerprint.value, encodeFingerprint(fingerprintFromBytes(row.fingerprint)));

    // Stored privately at preview/<session_id>.mp3, nothing under the public audio/ prefix.
    const key = previewObjectKey(accepted.session_id);
    const head = await stack.objectStore.head(key);
    assert.ok(head.ok && head.value.cacheControl === 'private, no-store');
    const audio = await stack.objectStore.list('audio/');
    assert.ok(audio.ok && audio.value.length === 0, 'no public audio object');
    // Unsigned, the object is refused, at the store and at the public base; the body names no public URL.
    const anonymous = await fetch(`${stack.s3.endpoint}/${stack.s3.bucket}/${key}`);
    assert.equal(anonymous.status, 403);
    await anonymous.arrayBuffer();
    assert.ok(!JSON.stringify(view).includes(stack.objectStore.publicUrl('')), 'no public URL in the answer');

    // Each status answer signs a fresh URL.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const again = previewStatusSchema.parse((await statusOf(alice, accepted.session_id)).body) as CompletedPreview;
    assert.notEqual(again.preview_url, view.preview_url);
    assert.ok(Date.parse(again.url_expires_at) > Date.parse(view.url_expires_at));
    assert.equal((await fetch(again.preview_url).then((r) => r.arrayBuffer())).byteLength, bytes.length);

    // Not a generation: daily counter and generation limit untouched, not listed, never signed.
    const user = await stack.app.db.one<{ daily_generations: number; total_generations: number }>(
      'SELECT daily_generations, total_generations FROM users WHERE id = $1',
      [alice.userId],
    );
    assert.deepEqual(user, { daily_generations: 0, total_generations: 0 });
    const counters = await stack.app.db.manyOrNone<{ category: string; count: number }>(
      `SELECT category, count FROM rate_limit_counters WHERE subject = $1 AND category IN ('generation', 'preview') ORDER BY category`,
      [`user:${alice.userId}`],
    );
    assert.deepEqual(counters, [{ category: 'preview', count: 1 }]);
    const list = await stack.app.request('/api/generate', { token: alice.token });
    assert.deepEqual((list.body as { jobs: unknown[] }).jobs, []);
    const { id } = await stack.app.db.one<{ id: string }>('SELECT id FROM preview_jobs WHERE session_id = $1', [accepted.session_id]);
    const byId = await stack.app.request('/api/signature', {
      token: alice.token,
      body: {
        job_id: `gen_${id}`,
        user_address: alice.address,
        metadata_uri: 'ipfs://bafkreidmpgxqzxtj5qouiv7uhohto665lf4iewx2rolgb2z4tgc6kynziy',
      },
    });
    assert.equal(byId.status, 404, byId.text);
    assertVariantAError(byId.body, 'SIGN_001');
    const byHash = await stack.app.request('/api/signature', {
      token: alice.token,
      body: { audioHash: view.audio_hash, metadataURI: 'ipfs://bafkreidmpgxqzxtj5qouiv7uhohto665lf4iewx2rolgb2z4tgc6kynziy' },
    });
    assert.equal(byHash.status, 404, byHash.text);
    const status = await stack.app.request(`/api/generate/gen_${id}`, { token: alice.token });
    assert.equal(status.status, 404);
    const metadata = await stack.app.request('/api/metadata', {
      token: alice.token,
      body: { name: 'Preview', description: 'not a song', audio_url: again.preview_url },
    });
    assert.equal(metadata.status, 400, metadata.text);
    assertVariantAError(metadata.body, 'VALIDATION_ERROR');

    // Owner only: another user's and unknown sessions are 404 alike.
    const mallory = await stack.app.login();
    for (const sessionId of [accepted.session_id, 'prv_AAAAAAAAAAAAAAAAAAAAAAAA', 'not-a-session', '%2e%2e']) {
      const theirs = await statusOf(mallory, sessionId);
      assert.equal(theirs.status, 404, `${sessionId}: ${theirs.text}`);
      assertVariantAError(theirs.body, 'NOT_FOUND');
    }
  });

  it('after 24 hours: 410 PREVIEW_EXPIRED; the sweep deletes the clip and its row; the record goes after 7 days (404)', async () => {
    const bob = await stack.app.login();
    const res = await submit(bob, { prompt: 'short lived preview', duration: 5 });
    assert.equal(res.status, 202, res.text);
    const { session_id: sessionId } = previewAcceptedSchema.parse(res.body);
    const view = await waitForCompleted(bob, sessionId);
    const key = previewObjectKey(sessionId);

    // Only the request moves back: the status, the links and the sweep all count from it (core/src/previews.ts).
    await stack.app.db.none(`UPDATE preview_jobs SET created_at = now() - interval '25 hours' WHERE session_id = $1`, [sessionId]);
    const expired = await statusOf(bob, sessionId);
    assert.equal(expired.status, 410, expired.text);
    assertVariantAError(expired.body, 'PREVIEW_EXPIRED');

    const report = await sweep();
    assert.ok(report.previewsDeleted >= 1);
    assert.equal((await stack.objectStore.head(key)).ok, false, 'the clip is deleted');
    assert.equal(await stack.app.db.oneOrNone('SELECT 1 FROM audio_previews WHERE session_id = $1', [sessionId]), null);
    assert.equal(
      await fetch(view.preview_url).then(async (r) => (await r.arrayBuffer(), r.status)),
      404,
      'an earlier signed URL finds nothing',
    );
    const afterSweep = await statusOf(bob, sessionId);
    assert.equal(afterSweep.status, 410);
    assertVariantAError(afterSweep.body, 'PREVIEW_EXPIRED');

    await stack.app.db.none(`UPDATE preview_jobs SET created_at = now() - make_interval(days => $2 + 1) WHERE session_id = $1`, [
      sessionId,
      PREVIEW_RECORD_DAYS,
    ]);
    await sweep();
    assert.equal((await statusOf(bob, sessionId)).status, 404);
  });

  it('counts its own hourly limit (RATE_002 when exceeded), apart from generation; Idempotency-Key replays without a second preview', async () => {
    const carol = await stack.app.login();
    const limit = HOURLY_LIMITS.preview.free;
    // The window holds all but one of the tier's previews already.
    await stack.app.db.none(
      `INSERT INTO rate_limit_counters (subject, category, window_start, count) VALUES ($1, 'preview', date_trunc('hour', now(), 'UTC'), $2)`,
      [`user:${carol.userId}`, limit - 1],
    );
    const key = 'preview-key-1';
    const last = await submit(carol, { prompt: 'the last preview this hour' }, { 'Idempotency-Key': key });
    assert.equal(last.status, 202, last.text);
    assert.equal(last.headers.get('x-ratelimit-remaining'), '0');
    const replay = await submit(carol, { prompt: 'the last preview this hour' }, { 'Idempotency-Key': key });
    assert.equal(replay.status, 202);
    assert.equal(replay.text, last.text);
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');

    const refused = await submit(carol, { prompt: 'one too many' });
    assert.equal(refused.status, 429, refused.text);
    assertVariantAError(refused.body, 'RATE_002');
    assert.ok(Number(refused.headers.get('retry-after')) >= 1);
    assert.equal(refused.headers.get('x-ratelimit-limit'), String(limit));
    const previews = await stack.app.db.one<{ n: number; duration: number }>(
      'SELECT count(*)::int AS n, max(duration) AS duration FROM preview_jobs WHERE user_id = $1',
      [carol.userId],
    );
    assert.deepEqual(previews, { n: 1, duration: 10 }, 'one preview, of the default 10 s');

    // Generation is untouched by previews: its hourly and daily limits are whole.
    const song = await stack.app.request('/api/generate', { token: carol.token, body: { prompt: 'a full song', duration: 5 } });
    assert.equal(song.status, 202, song.text);
    assert.equal(song.headers.get('x-ratelimit-remaining'), String(HOURLY_LIMITS.generation.free - 1));
    const daily = await stack.app.db.one<{ n: number }>('SELECT daily_generations AS n FROM users WHERE id = $1', [carol.userId]);
    assert.equal(daily.n, 1);
    // Both wait in the one generation queue.
    const messages = await stack.app.db.one<{ previews: number }>(
      `SELECT count(*)::int AS previews FROM pgboss.job WHERE name = $1 AND data ? 'previewId'`,
      [GENERATION_QUEUE],
    );
    assert.ok(messages.previews >= 1);
  });

  it('the SDK: createPreview, waitForPreview and getPreview against the real oracle (PREVIEW_EXPIRED after 24 hours)', async () => {
    const dave = await stack.app.login();
    const api = withSession(createSongmintApi({ baseUrl: stack.app.baseUrl }), { token: dave.token });
    const queued = await createPreview(api, { prompt: 'sdk preview', duration: 5, idempotencyKey: 'sdk-preview-1' });
    assert.equal(queued.status, 'queued');
    const done = await waitForPreview(api, { sessionId: queued.sessionId, pollIntervalMs: 100 });
    assert.equal(done.duration, 5);
    const clip = await fetch(done.previewUrl);
    assert.equal(clip.status, 200);
    assert.equal(
      `0x${createHash('sha256')
        .update(new Uint8Array(await clip.arrayBuffer()))
        .digest('hex')}`,
      done.audioHash,
    );
    assert.equal((await getPreview(api, { sessionId: queued.sessionId })).status, 'completed');
    await stack.app.db.none(`UPDATE preview_jobs SET created_at = now() - interval '25 hours' WHERE session_id = $1`, [queued.sessionId]);
    await assert.rejects(
      getPreview(api, { sessionId: queued.sessionId }),
      (error: unknown) => error instanceof SongmintApiError && error.code === 'PREVIEW_EXPIRED' && error.status === 410,
    );
  });

  // Issue 49 item 7: the worker measures its model at start and publishes the longest song it
  // finishes; the oracle refuses longer requests before anything is charged. The stack's worker is
  // replaced by one whose model waits 1.5 s per second of audio within a 20 s job limit: a 5 s
  // calibration clip takes 7.5 s and more, so it finishes at most floor(20 x 0.75 / 1.5) = 10 s
  // (less on a loaded machine, where the clip's render and encode take seconds more).
  it('a slow model: longer songs, edits and previews are refused GEN_004 naming its measured limit, nothing charged; a short song completes', async () => {
    await worker.stop();
    worker = await startStackWorker(stack, {
      ENCODER_THREADS: '1',
      WORKER_CONCURRENCY: '1',
      JOB_TIME_LIMIT_MS: '20000',
      INFERENCE_TEST_MODEL_MS_PER_AUDIO_SECOND: '1500',
    });
    const beat = await stack.app.db.one<{ model_speed: Record<string, { secondsPerAudioSecond: number; maxDuration: number }> }>(
      'SELECT model_speed FROM worker_heartbeats',
    );
    const measured = beat.model_speed['27']!;
    assert.ok(measured.secondsPerAudioSecond >= 1.5, `the pace is measured: ${measured.secondsPerAudioSecond} s per audio second`);
    const limit = measured.maxDuration;
    assert.equal(limit, Math.floor((20 * 0.75) / measured.secondsPerAudioSecond));
    assert.ok(limit >= 5 && limit <= 10, `a limit below the preview's 15 s and the free tier's 30 s: ${limit}`);

    const erin = await stack.app.login();
    const profile = async () => {
      const res = await stack.app.request('/v1/user/profile', { token: erin.token });
      assert.equal(res.status, 200, res.text);
      return res.body as {
        daily_generations: number;
        max_duration: number;
        limits: { songs: { hourly: { used: number } }; previews: { hourly: { used: number } } };
        models: { max_duration: { '27': number | null; '60': number | null }; live: { max_duration: { '27': number | null } }[] };
      };
    };
    const before = await profile();
    assert.equal(before.models.max_duration['27'], limit, 'the profile shows the measured limit');
    assert.equal(before.models.live[0]?.max_duration['27'], limit);
    assert.equal(before.max_duration, 30, "the tier's own maximum is unchanged");

    const key = 'slow-model-song-1';
    for (const duration of [limit + 1, 30, 40]) {
      const refused = await stack.app.request('/api/generate', {
        token: erin.token,
        body: { prompt: 'a song too long for this worker', duration },
        headers: { 'Idempotency-Key': key },
      });
      assert.equal(refused.status, 400, refused.text);
      assertVariantAError(refused.body, 'GEN_004');
      const error = (refused.body as { error: { message: string } }).error;
      // 40 s is above the free tier's 30 s too: the tighter limit, the model's, is the one named.
      assert.match(error.message, new RegExp(`running model's maximum of ${limit} s`), error.message);
      assert.match(error.message, /free tier allows 30 s/);
    }
    const previewRefused = await submit(erin, { prompt: 'a preview too long for this worker', duration: 15 });
    assert.equal(previewRefused.status, 400, previewRefused.text);
    assertVariantAError(previewRefused.body, 'GEN_004');
    assert.match((previewRefused.body as { error: { message: string } }).error.message, new RegExp(`maximum of ${limit} s`));
    const variantC = await stack.app.request('/v1/music/generate', { token: erin.token, body: { prompt: 'too long', duration: 30 } });
    assert.equal(variantC.status, 400, variantC.text);
    assert.equal((variantC.body as { error: string }).error, 'GEN_004');
    assert.equal((variantC.body as { details: { max_duration: number; limited_by: string } }).details.max_duration, limit);
    assert.equal((variantC.body as { details: { limited_by: string } }).details.limited_by, 'model');

    const after = await profile();
    assert.equal(after.daily_generations, before.daily_generations, 'no daily generation charged');
    assert.equal(after.limits.songs.hourly.used, before.limits.songs.hourly.used, 'no hourly generation charged');
    assert.equal(after.limits.previews.hourly.used, before.limits.previews.hourly.used, 'no hourly preview charged');
    assert.equal(
      (await stack.app.db.one<{ n: number }>('SELECT count(*)::int AS n FROM generation_jobs WHERE user_id = $1', [erin.userId])).n,
      0,
      'no job written',
    );

    // The same Idempotency-Key with another body is no IDEM_001: the refusals recorded nothing.
    const accepted = await stack.app.request('/api/generate', {
      token: erin.token,
      body: { prompt: 'a short song this worker finishes', duration: 5 },
      headers: { 'Idempotency-Key': key },
    });
    assert.equal(accepted.status, 202, accepted.text);
    const job = accepted.body as { job_id: string; estimated_time: number };
    // The estimate follows the measured pace (the fallback would say 4 s for 5 s of audio).
    assert.ok(job.estimated_time >= 5 * measured.secondsPerAudioSecond, `estimated_time ${job.estimated_time}`);
    const done = await stack.app.request(`/api/generate/${job.job_id}`, { token: erin.token });
    assert.equal(done.status, 200);
    const deadline = Date.now() + 120_000;
    for (let view = done.body as { status: string }; view.status !== 'completed';) {
      assert.notEqual(view.status, 'failed', JSON.stringify(view));
      assert.ok(Date.now() < deadline, 'timed out waiting for the short song');
      await new Promise((resolve) => setTimeout(resolve, 200));
      view = (await stack.app.request(`/api/generate/${job.job_id}`, { token: erin.token })).body as { status: string };
    }
    const charged = await profile();
    assert.equal(charged.daily_generations, before.daily_generations + 1, 'the accepted song is charged once');
    // Its files count for erin's storage quota at their exact sizes (issue 49 item 4): the MP3
    // and kept latents with the completion, the WAV and FLAC once the masters are stored.
    const keys = [`audio/${job.job_id}.mp3`, `lossless/${job.job_id}.wav`, `lossless/${job.job_id}.flac`];
    let counted: { object_key: string; bytes: string }[] = [];
    for (const until = Date.now() + 60_000; counted.length < 3;) {
      assert.ok(Date.now() < until, `the masters were counted: ${JSON.stringify(counted)}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
      counted = await stack.app.db.any('SELECT object_key, bytes FROM stored_objects WHERE object_key = ANY($1)', [keys]);
    }
    for (const row of counted) {
      const head = await stack.objectStore.head(row.object_key);
      assert.ok(head.ok, row.object_key);
      assert.equal(Number(row.bytes), head.value.size, `${row.object_key} counted at its stored size`);
    }
    const total = await stack.app.db.one<{ counter: string; objects: string }>(
      `SELECT stored_bytes AS counter, (SELECT sum(bytes) FROM stored_objects WHERE user_id = $1) AS objects FROM users WHERE id = $1`,
      [erin.userId],
    );
    assert.equal(total.counter, total.objects);
    const edit = await stack.app.request('/api/generate', {
      token: erin.token,
      body: { prompt: 'longer', duration: limit + 1, edit: { source_job_id: job.job_id, task: 'extend' } },
    });
    assert.equal(edit.status, 400, edit.text);
    assertVariantAError(edit.body, 'GEN_004');
    assert.match((edit.body as { error: { message: string } }).error.message, new RegExp(`running model's maximum of ${limit} s`));
    assert.equal((await profile()).limits.songs.hourly.used, charged.limits.songs.hourly.used, 'the refused edit charged nothing');

    // A job longer than the worker finishes, queued past the oracle: the worker does not run it
    // for 20 s; with no other live worker it fails at once (GEN_005), naming the limit.
    const direct = await stack.app.db.tx((tx) =>
      queueJob(tx, stack.app.boss, {
        userId: erin.userId,
        userAddress: erin.address,
        prompt: 'queued past the oracle',
        duration: limit + 10,
        steps: 27,
        withLyrics: false,
        tier: 'free',
      }),
    );
    const started = Date.now();
    let failed: { status: string; error_message: string | null; attempts: number } | null = null;
    while (failed === null || failed.status !== 'failed') {
      assert.ok(Date.now() - started < 15_000, `not run for the job limit: ${JSON.stringify(failed)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
      failed = await stack.app.db.one('SELECT status, error_message, attempts FROM generation_jobs WHERE id = $1', [direct.id]);
    }
    assert.match(failed.error_message ?? '', new RegExp(`finishes at most ${limit} s at 27 steps`));

    // Workers live but none able to make even the shortest song: GEN_002 (503, Retry-After 60), nothing charged.
    const settled = await profile();
    await worker.stop();
    await stack.app.addWorkerHeartbeat('too-slow');
    await stack.app.db.none(`UPDATE worker_heartbeats SET model_speed = $1 WHERE worker_id = 'too-slow'`, [
      JSON.stringify({ '27': { secondsPerAudioSecond: 90, maxDuration: 2 }, '60': { secondsPerAudioSecond: 200, maxDuration: 1 } }),
    ]);
    const unavailable = await stack.app.request('/api/generate', { token: erin.token, body: { prompt: 'any song', duration: 5 } });
    assert.equal(unavailable.status, 503, unavailable.text);
    assertVariantAError(unavailable.body, 'GEN_002');
    assert.equal(unavailable.headers.get('retry-after'), '60');
    const last = await profile();
    assert.equal(last.daily_generations, settled.daily_generations, 'GEN_002 charged no daily generation');
    assert.equal(last.limits.songs.hourly.used, settled.limits.songs.hourly.used, 'nor an hourly one');
    await stack.app.db.none(`DELETE FROM worker_heartbeats WHERE worker_id = 'too-slow'`);
  });
});
