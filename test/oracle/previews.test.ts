import { encodeFingerprint, fingerprintFromBytes } from '../../core/src/fingerprint/encoding.ts';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { GENERATION_QUEUE } from '../../core/src/generation-queue.ts';
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
});
