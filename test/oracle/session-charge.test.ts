import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { toPublicJobId } from '../../core/src/generation-queue.ts';
import { chargeRequest } from '../../oracle/src/domain/request-charge.ts';
import { DEFAULT_BODY_LIMIT, bearerRoute } from '../../oracle/src/http/route.ts';
import { startTestApp } from './helpers/test-app.ts';
import type { TestApp } from './helpers/test-app.ts';
import { assertVariantAError } from './helpers/shapes.ts';
import { JOB_STATUS } from '../../core/src/jobs/job-state.ts';

/** The one-statement session check: user, hourly charge and (for polling) the owned job. */
describe('session charge: authentication and the hourly limit in one statement', () => {
  let app: TestApp;
  before(async () => {
    // A probe route of the metadata_nft category whose handler refuses `bad` bodies after the charge.
    const probe = bearerRoute({
      method: 'post',
      path: '/api/probe',
      operationId: 'probe',
      charge: { by: 'session', category: 'metadata_nft' },
      body: { limit: DEFAULT_BODY_LIMIT },
      handle:
        () =>
        ({ res, user, req }) => {
          if ((req.body as { bad?: boolean }).bad === true) {
            res.status(400).json({ error: { code: 'VALIDATION_ERROR', message: 'Invalid request', details: 'bad' } });
            return;
          }
          res.json({ user_id: user.id, tier: user.tier });
        },
      docs: { responses: { 200: { description: 'The caller.' } } },
    });
    app = await startTestApp({ extraRoutes: [probe] });
  });
  after(async () => {
    await app.stop();
  });

  const counter = async (userId: string, category: string) =>
    (
      await app.db.oneOrNone<{ count: number }>('SELECT count FROM rate_limit_counters WHERE subject = $1 AND category = $2', [
        `user:${userId}`,
        category,
      ])
    )?.count ?? null;

  async function completedJob(userId: string, address: string): Promise<string> {
    const id = randomUUID();
    await app.db.none(
      `INSERT INTO generation_jobs (id, user_id, user_address, prompt, duration, tier, status, progress, audio_key, audio_url, audio_hash, actual_duration, completed_at)
       VALUES ($1, $2, $3, 'song', 5, 'free', '${JOB_STATUS.completed}', 100, $4, $5, $6, 5.0, now())`,
      [id, userId, address.toLowerCase(), `audio/gen_${id}.mp3`, `https://cdn.test/audio/gen_${id}.mp3`, `0x${'ab'.repeat(32)}`],
    );
    return toPublicJobId(id);
  }

  it('polling charges the general counter on every answer (200 and 404 alike) and refuses at the limit without counting', async () => {
    const owner = await app.login();
    const other = await app.login();
    const jobId = await completedJob(owner.userId, owner.address);

    const first = await app.request(`/api/generate/${jobId}`, { token: owner.token });
    assert.equal(first.status, 200);
    assert.equal((first.body as { status: string }).status, JOB_STATUS.completed);
    assert.equal(first.headers.get('x-ratelimit-limit'), '1000');
    assert.equal(first.headers.get('x-ratelimit-remaining'), '999');
    assert.equal(first.headers.get('cache-control'), 'private, no-cache');

    const foreign = await app.request(`/api/generate/${jobId}`, { token: other.token });
    assert.equal(foreign.status, 404);
    assertVariantAError(foreign.body, 'NOT_FOUND');
    assert.equal(foreign.headers.get('x-ratelimit-remaining'), '999');
    const malformed = await app.request('/api/generate/gen_not-a-uuid', { token: other.token });
    assert.equal(malformed.status, 404);
    assert.equal(await counter(other.userId, 'general'), 2);

    await app.db.none(`UPDATE rate_limit_counters SET count = 1000 WHERE subject = $1 AND category = 'general'`, [`user:${owner.userId}`]);
    const refused = await app.request(`/api/generate/${jobId}`, { token: owner.token });
    assert.equal(refused.status, 429);
    assertVariantAError(refused.body, 'RATE_002');
    assert.equal(refused.headers.get('x-ratelimit-remaining'), '0');
    assert.ok(Number(refused.headers.get('retry-after')) >= 1);
    assert.equal(await counter(owner.userId, 'general'), 1000);
  });

  it('a deleted user gets 401 on polling and on session-charged routes, and nothing is charged', async () => {
    const user = await app.login();
    const jobId = await completedJob(user.userId, user.address);
    await app.db.none('DELETE FROM generation_jobs WHERE user_id = $1', [user.userId]);
    await app.db.none('DELETE FROM users WHERE id = $1', [user.userId]);
    const poll = await app.request(`/api/generate/${jobId}`, { token: user.token });
    assert.equal(poll.status, 401);
    assertVariantAError(poll.body, 'AUTH_ERROR');
    const probe = await app.request('/api/probe', { token: user.token, body: {} });
    assert.equal(probe.status, 401);
    assert.equal(await counter(user.userId, 'general'), null);
    assert.equal(await counter(user.userId, 'metadata_nft'), null);
  });

  it('session-charged routes get the caller and their category limit (metadata_nft: 100/h)', async () => {
    const user = await app.login();
    const ok = await app.request('/api/probe', { token: user.token, body: {} });
    assert.equal(ok.status, 200);
    assert.deepEqual(ok.body, { user_id: user.userId, tier: 'free' });
    assert.equal(ok.headers.get('x-ratelimit-limit'), '100');
    assert.equal(ok.headers.get('x-ratelimit-remaining'), '99');
    await app.db.none(`UPDATE rate_limit_counters SET count = 100 WHERE subject = $1 AND category = 'metadata_nft'`, [
      `user:${user.userId}`,
    ]);
    const refused = await app.request('/api/probe', { token: user.token, body: {} });
    assert.equal(refused.status, 429);
    assertVariantAError(refused.body, 'RATE_002');
    assert.equal(await counter(user.userId, 'metadata_nft'), 100);
  });

  it('takes back the charge of a request refused for bad input (validation, malformed JSON, oversized body)', async () => {
    const user = await app.login();
    assert.equal((await app.request('/api/probe', { token: user.token, body: {} })).status, 200);
    assert.equal(await counter(user.userId, 'metadata_nft'), 1);
    const invalid = await app.request('/api/probe', { token: user.token, body: { bad: true } });
    assert.equal(invalid.status, 400);
    const malformed = await fetch(`${app.baseUrl}/api/probe`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
      body: '{"unterminated":',
    });
    assert.equal(malformed.status, 400);
    const oversized = await fetch(`${app.baseUrl}/api/probe`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ padding: 'x'.repeat(200_000) }),
    });
    assert.equal(oversized.status, 413);
    // The refund runs when each response has gone out; wait for it to land.
    let count = await counter(user.userId, 'metadata_nft');
    for (let tries = 0; count !== 1 && tries < 50; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      count = await counter(user.userId, 'metadata_nft');
    }
    assert.equal(count, 1);
    assert.equal((await app.request('/api/probe', { token: user.token, body: {} })).status, 200);
    assert.equal(await counter(user.userId, 'metadata_nft'), 2);
  });

  it('applies the limit of the tier read in the same statement, so a tier change counts at once', async () => {
    const user = await app.login();
    const claims = { userId: user.userId, walletAddress: user.address.toLowerCase() };
    await app.db.none(
      `INSERT INTO rate_limit_counters (subject, category, window_start, count) VALUES ($1, 'generation', date_trunc('hour', now(), 'UTC'), 10)`,
      [`user:${user.userId}`],
    );
    const free = await chargeRequest({ db: app.db, chargee: { session: claims }, category: 'generation' });
    assert.equal(free.kind, 'refused');
    await app.setTier(user.userId, 'pro');
    const pro = await chargeRequest({ db: app.db, chargee: { session: claims }, category: 'generation' });
    assert.equal(pro.kind, 'charged');
    assert.equal(pro.kind === 'charged' ? pro.state.remaining : null, 89);
    assert.equal(pro.kind === 'charged' ? pro.user?.tier : null, 'pro');
    const wrongWallet = await chargeRequest({
      db: app.db,
      chargee: { session: { ...claims, walletAddress: '0x0000000000000000000000000000000000000001' } },
      category: 'generation',
    });
    assert.equal(wrongWallet.kind, 'no_user');
  });
});
