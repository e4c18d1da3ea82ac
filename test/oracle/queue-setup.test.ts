import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { migrate } from '../../core/src/db/migrate.ts';
import { GENERATION_QUEUE, JOB_TIME_LIMIT_SECONDS, WORKER_RETRY_LIMIT } from '../../core/src/generation-queue.ts';
import { GENERATION_HEARTBEAT_SECONDS, bossDbFromTask, createBoss, ensureGenerationQueue } from '../../core/src/queue.ts';
import { databaseOfSuite } from '../support/queue-database.ts';

describe('core: migrations and the generation queue', () => {
  const database = databaseOfSuite();

  it('applies every migration once and is idempotent', async () => {
    const applied = await database.db.map('SELECT name FROM pgmigrations ORDER BY name', [], (row: { name: string }) => row.name);
    assert.ok(applied.includes('0001_users_and_jobs'));
    assert.ok(applied.includes('0002_auth_and_rate_limits'));
    await migrate(database.url);
    const again = await database.db.one('SELECT count(*)::int AS n FROM pgmigrations');
    assert.equal(again.n, applied.length);
    // Replicas starting together: the advisory lock makes the second wait, not fail.
    await Promise.all([migrate(database.url), migrate(database.url)]);
    assert.equal((await database.db.one('SELECT count(*)::int AS n FROM pgmigrations')).n, applied.length);
  });

  it('sessions run in UTC so CURRENT_DATE is the UTC day', async () => {
    const row = await database.db.one(
      `SELECT current_setting('TimeZone') AS tz, CURRENT_DATE::text = to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS same`,
    );
    assert.deepEqual(row, { tz: 'UTC', same: true });
  });

  it('creates the queue with retry limit 2 with backoff and the 300 s limit; enqueue is transactional', async () => {
    const boss = createBoss(database.url, { supervise: false });
    boss.on('error', () => undefined);
    await boss.start();
    try {
      await ensureGenerationQueue(boss);
      await ensureGenerationQueue(boss);
      const queue = await boss.getQueue(GENERATION_QUEUE);
      assert.ok(queue !== null);
      assert.equal(queue.retryLimit, WORKER_RETRY_LIMIT);
      assert.equal(queue.retryBackoff, true);
      assert.equal(queue.expireInSeconds, JOB_TIME_LIMIT_SECONDS);
      assert.equal(queue.heartbeatSeconds, GENERATION_HEARTBEAT_SECONDS);
      await assert.rejects(
        database.db.tx(async (tx) => {
          await boss.send(GENERATION_QUEUE, { jobId: 'rolled-back' }, { db: bossDbFromTask(tx) });
          throw new Error('abort');
        }),
        /abort/,
      );
      await database.db.tx(async (tx) => boss.send(GENERATION_QUEUE, { jobId: 'committed' }, { db: bossDbFromTask(tx), priority: 3 }));
      const rows = await database.db.any(`SELECT data->>'jobId' AS job, priority FROM pgboss.job WHERE name = $1`, [GENERATION_QUEUE]);
      assert.deepEqual(rows, [{ job: 'committed', priority: 3 }]);
    } finally {
      await boss.stop({ graceful: false, close: true });
    }
  });
});
