import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { JOB_STATUS } from '../../core/src/jobs/job-state.ts';
import { bodyEtag, ifNoneMatchHits } from '../../oracle/src/http/etag.ts';
import { generateAcceptedSchema, jobStatusSchema } from '../../oracle/src/http/schemas.ts';
import { startTestApp } from './helpers/test-app.ts';
import type { TestApp } from './helpers/test-app.ts';

describe('ETag and If-None-Match on GET /api/generate/{job_id}', () => {
  let app: TestApp;

  before(async () => {
    app = await startTestApp();
  });
  after(async () => {
    await app.stop();
  });

  it('answers 304 with no body while the view is unchanged, and 200 with a new tag once it changes', async () => {
    await app.addWorkerHeartbeat();
    const owner = await app.login();
    const created = await app.request('/api/generate', { token: owner.token, body: { prompt: 'etag jazz', duration: 10 } });
    const { job_id } = generateAcceptedSchema.parse(created.body);
    const id = job_id.slice(4);
    await app.db.none(`UPDATE generation_jobs SET status = '${JOB_STATUS.processing}', progress = 40, started_at = now() WHERE id = $1`, [
      id,
    ]);

    const first = await app.request(`/api/generate/${job_id}`, { token: owner.token });
    assert.equal(first.status, 200);
    jobStatusSchema.parse(first.body);
    const etag = first.headers.get('etag');
    assert.ok(etag !== null);
    assert.equal(etag, bodyEtag(first.text), 'the tag is derived from the body sent');
    assert.equal(first.headers.get('cache-control'), 'private, no-cache');

    const unchanged = await app.request(`/api/generate/${job_id}`, { token: owner.token, headers: { 'if-none-match': etag } });
    assert.equal(unchanged.status, 304);
    assert.equal(unchanged.text, '');
    assert.equal(unchanged.headers.get('etag'), etag);
    const weakInList = await app.request(`/api/generate/${job_id}`, {
      token: owner.token,
      headers: { 'if-none-match': `"other", W/${etag}` },
    });
    assert.equal(weakInList.status, 304);
    const stale = await app.request(`/api/generate/${job_id}`, { token: owner.token, headers: { 'if-none-match': '"stale"' } });
    assert.equal(stale.status, 200);
    assert.equal(stale.headers.get('etag'), etag);

    await app.db.none('UPDATE generation_jobs SET progress = 70 WHERE id = $1', [id]);
    const moved = await app.request(`/api/generate/${job_id}`, { token: owner.token, headers: { 'if-none-match': etag } });
    assert.equal(moved.status, 200);
    assert.equal(jobStatusSchema.parse(moved.body).status, JOB_STATUS.processing);
    assert.equal((moved.body as { progress: number }).progress, 70);
    assert.notEqual(moved.headers.get('etag'), etag);
  });

  it("still authenticates, charges and hides other users' jobs behind a matching tag", async () => {
    await app.addWorkerHeartbeat();
    const owner = await app.login();
    const other = await app.login();
    const created = await app.request('/api/generate', { token: owner.token, body: { prompt: 'etag owner', duration: 10 } });
    const { job_id } = generateAcceptedSchema.parse(created.body);
    const first = await app.request(`/api/generate/${job_id}`, { token: owner.token });
    const etag = first.headers.get('etag') ?? '';

    const anonymous = await app.request(`/api/generate/${job_id}`, { headers: { 'if-none-match': etag } });
    assert.equal(anonymous.status, 401);
    const foreign = await app.request(`/api/generate/${job_id}`, { token: other.token, headers: { 'if-none-match': '*' } });
    assert.equal(foreign.status, 404);
    const revalidated = await app.request(`/api/generate/${job_id}`, { token: owner.token, headers: { 'if-none-match': etag } });
    assert.equal(revalidated.status, 304);
    assert.equal(
      revalidated.headers.get('x-ratelimit-remaining'),
      String(Number(first.headers.get('x-ratelimit-remaining')) - 1),
      'a 304 counts as a request',
    );
  });

  it('matches If-None-Match as RFC 9110 says: *, lists, weak comparison; never an empty or missing header', () => {
    const tag = bodyEtag('{"a":1}');
    assert.equal(ifNoneMatchHits(undefined, tag), false);
    assert.equal(ifNoneMatchHits('', tag), false);
    assert.equal(ifNoneMatchHits('*', tag), true);
    assert.equal(ifNoneMatchHits(tag, tag), true);
    assert.equal(ifNoneMatchHits(`W/${tag}`, tag), true);
    assert.equal(ifNoneMatchHits(`"x" , ${tag}`, tag), true);
    assert.equal(ifNoneMatchHits('"x", "y"', tag), false);
    assert.notEqual(bodyEtag('{"a":2}'), tag);
  });
});
