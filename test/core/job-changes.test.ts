import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { PgBoss } from 'pg-boss';
import { listenOnChannel } from '../../core/src/db/channel-listener.ts';
import type { ChannelListener } from '../../core/src/db/channel-listener.ts';
import type { Database } from '../../core/src/db/database.ts';
import { JOB_CHANGED_CHANNEL, parseJobChange } from '../../core/src/jobs/job-changes.ts';
import type { JobChange } from '../../core/src/jobs/job-changes.ts';
import { JOB_STATUS, cancelJob, claimJob, failJob, queueJob, reportProgress } from '../../core/src/jobs/job-state.ts';
import { ensureGenerationQueue } from '../../core/src/queue.ts';
import { startQueueDatabase } from '../support/queue-database.ts';
import type { QueueDatabase } from '../support/queue-database.ts';

describe('core: every job status/progress change is announced on PostgreSQL NOTIFY (migration 0009)', () => {
  let services: QueueDatabase;
  let db: Database;
  let boss: PgBoss;
  const heard: JobChange[] = [];
  let listener: ChannelListener | undefined;

  before(async () => {
    services = await startQueueDatabase();
    ({ db, boss } = services);
    await ensureGenerationQueue(boss);
    listener = await listenOnChannel(db, {
      channel: JOB_CHANGED_CHANNEL,
      onNotification: (payload) => {
        const change = parseJobChange(payload);
        if (change !== null) heard.push(change);
      },
      onLost: () => undefined,
    });
  });
  after(async () => {
    await listener?.close();
    await services.stop();
  });

  async function owner(): Promise<{ id: string; address: string }> {
    const address = `0x${randomBytes(20).toString('hex')}`;
    const row = await db.one<{ id: string }>(
      'INSERT INTO users (wallet_address, tier, daily_generations, last_generation_reset) VALUES ($1, $2, 1, CURRENT_DATE) RETURNING id',
      [address, 'free'],
    );
    return { id: row.id, address };
  }
  const queue = async (user: { id: string; address: string }) =>
    db.tx((tx) =>
      queueJob(tx, boss, {
        userId: user.id,
        userAddress: user.address,
        prompt: 'notify',
        duration: 10,
        steps: 27,
        withLyrics: false,
        tier: 'free',
      }),
    );

  /** Waits (bounded by the test timeout) until `count` announcements for `jobId` arrived. */
  async function heardFor(jobId: string, count: number): Promise<JobChange[]> {
    for (;;) {
      const mine = heard.filter((change) => change.id === jobId);
      if (mine.length >= count) return mine;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  it('announces queue, claim, each progress step and failure from the job-state writers, in order', async () => {
    const job = await queue(await owner());
    const claimed = await claimJob(db, job.id, 1n);
    assert.ok(claimed !== undefined);
    await reportProgress(db, claimed, 30);
    await reportProgress(db, claimed, 30); // no change: no announcement
    await reportProgress(db, claimed, 60);
    await failJob(db, claimed, 'model inference error');
    const changes = await heardFor(job.id, 5);
    assert.deepEqual(
      changes.map(({ status, progress }) => `${status}:${progress}`),
      [
        `${JOB_STATUS.queued}:0`,
        `${JOB_STATUS.processing}:0`,
        `${JOB_STATUS.processing}:30`,
        `${JOB_STATUS.processing}:60`,
        `${JOB_STATUS.failed}:60`,
      ],
    );
  });

  it('announces a cancel and a direct SQL write alike, and stays silent for columns it does not watch', async () => {
    const user = await owner();
    const cancelled = await queue(user);
    const cancel = await cancelJob(db, cancelled.id, user.id);
    assert.ok(cancel.ok);
    const other = await queue(user);
    await db.none(`UPDATE generation_jobs SET prompt = 'renamed' WHERE id = $1`, [other.id]);
    await db.none(`UPDATE generation_jobs SET status = '${JOB_STATUS.processing}', progress = 10, started_at = now() WHERE id = $1`, [
      other.id,
    ]);
    assert.deepEqual(
      (await heardFor(cancelled.id, 2)).map((change) => change.status),
      [JOB_STATUS.queued, JOB_STATUS.cancelled],
    );
    assert.deepEqual(
      (await heardFor(other.id, 2)).map(({ status, progress }) => `${status}:${progress}`),
      [`${JOB_STATUS.queued}:0`, `${JOB_STATUS.processing}:10`],
    );
  });

  it('parses only well-formed announcements', () => {
    assert.equal(parseJobChange(undefined), null);
    assert.equal(parseJobChange('not json'), null);
    assert.equal(parseJobChange('{"id":"x","status":"queued","progress":0}'), null);
    assert.equal(parseJobChange('{"id":"6f1c0b7e-1d2a-4c3b-9a8e-0f1e2d3c4b5a","status":"queued","progress":0,"extra":1}'), null);
    assert.deepEqual(parseJobChange('{"id":"6f1c0b7e-1d2a-4c3b-9a8e-0f1e2d3c4b5a","status":"queued","progress":0}'), {
      id: '6f1c0b7e-1d2a-4c3b-9a8e-0f1e2d3c4b5a',
      status: 'queued',
      progress: 0,
    });
  });
});
