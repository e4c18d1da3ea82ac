import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { GENERATION_QUEUE, toPublicJobId } from '../../core/src/generation-queue.ts';
import type { GenerationMessage } from '../../core/src/generation-queue.ts';
import { startTestApp } from './helpers/test-app.ts';
import type { LoggedIn, TestApp } from './helpers/test-app.ts';
import { assertVariantAError, assertVariantCError } from './helpers/shapes.ts';
import {
  dailyLimitErrorSchema,
  generateAcceptedSchema,
  generateVariantBResultSchema,
  profileSchema,
  variantAErrorSchema,
  variantCErrorSchema,
} from '../../oracle/src/http/schemas.ts';
import { JOB_STATUS } from '../../core/src/jobs/job-state.ts';

describe('Variant B (Prefer: wait) and Variant C (/v1)', () => {
  let app: TestApp;
  let user: LoggedIn;
  before(async () => {
    app = await startTestApp();
  });
  after(async () => {
    await app.stop();
  });
  beforeEach(async () => {
    // Each test sees only its own queue messages.
    await app.db.none('DELETE FROM pgboss.job');
    await app.addWorkerHeartbeat();
    user = await app.login();
  });

  /** Plays the inference worker's part on the real queue: take the next message, then settle the job row. */
  async function settleNextJob(outcome: typeof JOB_STATUS.completed | typeof JOB_STATUS.failed): Promise<string> {
    for (let i = 0; i < 100; i += 1) {
      const [message] = await app.boss.fetch<GenerationMessage>(GENERATION_QUEUE);
      if (message !== undefined) {
        const id = message.data.jobId;
        await app.db.none(`UPDATE generation_jobs SET status = '${JOB_STATUS.processing}', started_at = now() WHERE id = $1`, [id]);
        if (outcome === JOB_STATUS.completed) {
          await app.db.none(
            `UPDATE generation_jobs SET status = '${JOB_STATUS.completed}', progress = 100, audio_url = $2, audio_hash = $3, actual_duration = 9.96, completed_at = now() WHERE id = $1`,
            [id, `http://storage.test/audio/${toPublicJobId(id)}.mp3`, `0x${'cd'.repeat(32)}`],
          );
          await app.boss.complete(GENERATION_QUEUE, message.id);
        } else {
          await app.db.none(
            `UPDATE generation_jobs SET status = '${JOB_STATUS.failed}', error_code = 'GEN_005', error_message = 'model inference error', completed_at = now() WHERE id = $1`,
            [id],
          );
          await app.boss.fail(GENERATION_QUEUE, message.id);
        }
        return id;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('no job was queued');
  }

  it('Variant B waits for the job and answers {audioUrl, audioHash, duration} (+ lyrics, model, contentCredentials, lossless, editOf)', async () => {
    const pending = app.request('/api/generate', {
      token: user.token,
      headers: { prefer: 'wait' },
      body: { prompt: 'sync please', duration: 10 },
    });
    const id = await settleNextJob(JOB_STATUS.completed);
    const res = await pending;
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('preference-applied'), 'wait');
    generateVariantBResultSchema.parse(res.body);
    assert.deepEqual(res.body, {
      audioUrl: `http://storage.test/audio/${toPublicJobId(id)}.mp3`,
      audioHash: `0x${'cd'.repeat(32)}`,
      duration: 10,
      lyrics: null,
      model: null,
      contentCredentials: null,
      lossless: null,
      editOf: null,
    });
    const counter = await app.db.one('SELECT daily_generations FROM users WHERE id = $1', [user.userId]);
    assert.equal(counter.daily_generations, 1);
  });

  it('Variant B answers a failed job with GEN_005 and the job id', async () => {
    const pending = app.request('/api/generate', {
      token: user.token,
      headers: { prefer: 'respond-async, wait=300' },
      body: { prompt: 'will fail', duration: 10 },
    });
    // `wait=300` alone is not `wait`: this request is Variant A and returns at once.
    const res = await pending;
    assert.equal(res.status, 202);
    const failing = app.request('/api/generate', {
      token: user.token,
      headers: { prefer: 'wait' },
      body: { prompt: 'will fail', duration: 10 },
    });
    await settleNextJob(JOB_STATUS.failed);
    const id = await settleNextJob(JOB_STATUS.failed);
    const failed = await failing;
    assert.equal(failed.status, 500);
    assertVariantAError(failed.body, 'GEN_005');
    assert.equal(variantAErrorSchema.parse(failed.body).error.job_id, toPublicJobId(id));
  });

  it('Variant B is refused like Variant A by the limits', async () => {
    await app.db.none('UPDATE users SET daily_generations = 10 WHERE id = $1', [user.userId]);
    const res = await app.request('/api/generate', { token: user.token, headers: { prefer: 'wait' }, body: { prompt: 'x', duration: 10 } });
    assert.equal(res.status, 429);
    assert.equal(dailyLimitErrorSchema.parse(res.body).error, 'rate_limit_exceeded');
  });

  it('POST /v1/music/generate queues like Variant A; its errors take Variant C shape', async () => {
    const ok = await app.request('/v1/music/generate', { token: user.token, body: { prompt: 'v1 song', duration: 12 } });
    assert.equal(ok.status, 202);
    assert.match(generateAcceptedSchema.parse(ok.body).job_id, /^gen_/);
    const bad = await app.request('/v1/music/generate', { token: user.token, body: { prompt: '', duration: 12 } });
    assert.equal(bad.status, 400);
    assertVariantCError(bad.body, 'GEN_003');
    const long = await app.request('/v1/music/generate', { token: user.token, body: { prompt: 'x', duration: 200 } });
    assertVariantCError(long.body, 'GEN_004');
    assert.equal(variantCErrorSchema.parse(long.body).details.max_duration, 30);
    await app.db.none('UPDATE users SET daily_generations = 10 WHERE id = $1', [user.userId]);
    const limited = await app.request('/v1/music/generate', { token: user.token, body: { prompt: 'x', duration: 12 } });
    assert.equal(limited.status, 429);
    assertVariantCError(limited.body, 'RATE_001');
    assert.equal(variantCErrorSchema.parse(limited.body).details.limit, 10);
  });

  it('GET /v1/user/profile returns the user fields and statistics', async () => {
    await app.request('/api/generate', { token: user.token, body: { prompt: 'one', duration: 10 } });
    await app.request('/api/generate', { token: user.token, body: { prompt: 'two', duration: 10 } });
    await settleNextJob(JOB_STATUS.completed);
    const res = await app.request('/v1/user/profile', { token: user.token });
    assert.equal(res.status, 200);
    const profile = profileSchema.parse(res.body);
    assert.equal(profile.id, user.userId);
    assert.equal(profile.wallet_address, user.address);
    assert.equal(profile.tier, 'free');
    assert.equal(profile.daily_generations, 2);
    assert.equal(profile.daily_limit, 10);
    assert.equal(profile.max_duration, 30);
    assert.equal(profile.total_generations, 2);
    assert.equal(profile.total_minted, 0);
    assert.deepEqual(profile.statistics.jobs, { queued: 1, processing: 0, completed: 1, failed: 0 });
    assert.ok(Math.abs(profile.statistics.audio_seconds_generated - 9.96) < 1e-3);
  });
});
