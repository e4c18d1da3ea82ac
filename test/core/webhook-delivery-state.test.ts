/**
 * The webhook delivery state machine (core/src/jobs/webhook-delivery-state.ts) on a real
 * PostgreSQL: the schema allows exactly its states, each transition moves a row once, and a
 * settled delivery never moves again. The end-to-end deliveries are test/oracle/webhooks.test.ts.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import {
  DELIVERY_ERROR_MAX,
  DELIVERY_STATE,
  DELIVERY_STATES,
  claimPendingDeliveries,
  giveUpDelivery,
  isSettled,
  markQueued,
  recordAttempt,
} from '../../core/src/jobs/webhook-delivery-state.ts';
import { databaseOfSuite } from '../support/queue-database.ts';

interface DeliveryRow {
  state: string;
  attempts: number;
  last_status: number | null;
  last_error: string | null;
  delivered_at: Date | null;
}

describe('core: the webhook delivery state machine', () => {
  const database = databaseOfSuite();

  /** A job with a webhook that failed: migration 0011's trigger writes its `pending` delivery. */
  async function failedJobDelivery(): Promise<string> {
    const address = `0x${randomBytes(20).toString('hex')}`;
    const user = await database.db.one<{ id: string }>('INSERT INTO users (wallet_address) VALUES ($1) RETURNING id', [address]);
    const job = await database.db.one<{ id: string }>(
      `INSERT INTO generation_jobs (user_id, user_address, prompt, duration, steps, with_lyrics, tier, status, error_code, error_message, webhook_url)
       VALUES ($1, $2, 'p', 10, 27, false, 'free', 'failed', 'GEN_005', 'model error', 'https://hooks.example/x') RETURNING id`,
      [user.id, address],
    );
    return (await database.db.one<{ id: string }>('SELECT id FROM webhook_deliveries WHERE job_id = $1', [job.id])).id;
  }
  const row = (id: string) =>
    database.db.one<DeliveryRow>('SELECT state, attempts, last_status, last_error, delivered_at FROM webhook_deliveries WHERE id = $1', [
      id,
    ]);

  it("the schema allows exactly the module's states", async () => {
    const { definition } = await database.db.one<{ definition: string }>(
      `SELECT pg_get_constraintdef(oid) AS definition FROM pg_constraint WHERE conname = 'webhook_deliveries_state_check'`,
    );
    const allowed = [...definition.matchAll(/'([a-z_]+)'::text/g)].map((match) => match[1]);
    assert.deepEqual([...allowed].sort(), [...DELIVERY_STATES].sort());
    assert.deepEqual(DELIVERY_STATES.filter(isSettled), [DELIVERY_STATE.delivered, DELIVERY_STATE.gave_up]);
  });

  it('pending -> queued once: a second relay skips the rows the first holds, and finds none once they are queued', async () => {
    const id = await failedJobDelivery();
    assert.equal((await row(id)).state, DELIVERY_STATE.pending);
    let releaseFirst: () => void = () => undefined;
    const firstHolds = new Promise<void>((resolve) => {
      releaseFirst = resolve;
    });
    let claimedByFirst: string[] = [];
    const first = database.db.tx(async (tx) => {
      claimedByFirst = await claimPendingDeliveries(tx, 100);
      await firstHolds;
      await markQueued(tx, claimedByFirst);
    });
    // Wait until the first relay holds its rows, then run a second one beside it.
    while (!claimedByFirst.includes(id)) await new Promise((resolve) => setTimeout(resolve, 10));
    const claimedBySecond = await database.db.tx((tx) => claimPendingDeliveries(tx, 100));
    assert.ok(!claimedBySecond.includes(id), 'the row the first relay holds is skipped');
    releaseFirst();
    await first;
    assert.equal((await row(id)).state, DELIVERY_STATE.queued);
    assert.ok(!(await database.db.tx((tx) => claimPendingDeliveries(tx, 100))).includes(id), 'a queued row is not claimed again');
  });

  it('a failed attempt keeps it queued, a 2xx delivers it; a delivered row never moves again', async () => {
    const id = await failedJobDelivery();
    await database.db.tx(async (tx) => markQueued(tx, await claimPendingDeliveries(tx, 100)));
    await recordAttempt(database.db, id, {
      at: new Date(),
      end: DELIVERY_STATE.queued,
      httpStatus: 500,
      error: 'x'.repeat(DELIVERY_ERROR_MAX + 50),
    });
    const retried = await row(id);
    assert.deepEqual(
      [retried.state, retried.attempts, retried.last_status, retried.last_error?.length],
      [DELIVERY_STATE.queued, 1, 500, DELIVERY_ERROR_MAX],
    );
    const at = new Date();
    await recordAttempt(database.db, id, { at, end: DELIVERY_STATE.delivered, httpStatus: 204, error: null });
    const delivered = await row(id);
    assert.deepEqual(
      [delivered.state, delivered.attempts, delivered.last_status, delivered.last_error],
      [DELIVERY_STATE.delivered, 2, 204, null],
    );
    assert.equal(delivered.delivered_at?.getTime(), at.getTime());

    // A late attempt (a repeated queue message) and the dead letter change nothing.
    await recordAttempt(database.db, id, { at: new Date(), end: DELIVERY_STATE.gave_up, httpStatus: 500, error: 'late' });
    assert.equal(await giveUpDelivery(database.db, id, 'abandoned'), false);
    assert.deepEqual(await row(id), delivered);
  });

  it('an attempt that never reported back is given up once', async () => {
    const id = await failedJobDelivery();
    await database.db.tx(async (tx) => markQueued(tx, await claimPendingDeliveries(tx, 100)));
    assert.equal(await giveUpDelivery(database.db, id, 'the last attempt never finished'), true);
    assert.deepEqual([(await row(id)).state, (await row(id)).last_error], [DELIVERY_STATE.gave_up, 'the last attempt never finished']);
    assert.equal(await giveUpDelivery(database.db, id, 'again'), false);
    await recordAttempt(database.db, id, { at: new Date(), end: DELIVERY_STATE.delivered, httpStatus: 200, error: null });
    assert.equal((await row(id)).state, DELIVERY_STATE.gave_up);
  });
});
