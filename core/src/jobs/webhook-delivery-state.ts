/**
 * The webhook delivery state machine: every state of `webhook_deliveries.state` and every
 * transition between them (docs/api.md "Webhooks (extension)"). A job with a webhook that
 * reaches `completed` or `failed` gets one delivery row per event, written by migration 0011's
 * trigger in the transaction that moved the job, whoever moved it (a durable outbox). No other
 * module writes a delivery's state or names one in SQL.
 *
 *   job completed/failed ──trigger──▶ pending ──relay──▶ queued ──2xx──▶ delivered
 *                                                        │  ▲
 *                                                        │  └──attempt failed, retries left (attempts + 1)
 *                                                        └──refused / retry limit spent / attempt abandoned──▶ gave_up
 *
 * Every transition is one statement guarded by the states it may leave: the relay claims only
 * `pending` rows (`FOR UPDATE SKIP LOCKED`, so replicas never queue one twice) and the attempt
 * transitions only rows not yet settled, so a repeated queue message or a late attempt cannot
 * move a delivered or given-up row again. The oracle runs it (oracle/src/webhooks/).
 */
import type { DatabaseTask, Queryable } from '../db/database.ts';

export const DELIVERY_STATES = ['pending', 'queued', 'delivered', 'gave_up'] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

/** The states by name: code compares with these, never with string literals. */
export const DELIVERY_STATE = {
  pending: 'pending',
  queued: 'queued',
  delivered: 'delivered',
  gave_up: 'gave_up',
} as const satisfies { readonly [S in DeliveryState]: S };

/** A delivery in one of these is never attempted again. */
export function isSettled(state: DeliveryState): boolean {
  return state === DELIVERY_STATE.delivered || state === DELIVERY_STATE.gave_up;
}

/** Where one attempt leaves its delivery: the 2xx ends it, a failure retries or gives up. */
export type AttemptEnd = typeof DELIVERY_STATE.delivered | typeof DELIVERY_STATE.queued | typeof DELIVERY_STATE.gave_up;

/** Stored `last_error` texts are cut to this many characters. */
export const DELIVERY_ERROR_MAX = 1000;

const S = Object.fromEntries(DELIVERY_STATES.map((state) => [state, `'${state}'`])) as { readonly [K in DeliveryState]: string };
const UNSETTLED = `state NOT IN (${S.delivered}, ${S.gave_up})`;

// ---------------------------------------------------------------------------------------------
// relay: pending -> queued

/**
 * Locks up to `limit` `pending` deliveries, oldest first, skipping rows another replica holds;
 * the caller queues them and marks them `queued` (`markQueued`) in the same transaction.
 */
export async function claimPendingDeliveries(tx: DatabaseTask, limit: number): Promise<string[]> {
  return tx.map(
    `SELECT id FROM webhook_deliveries WHERE state = ${S.pending} ORDER BY created_at LIMIT $1 FOR UPDATE SKIP LOCKED`,
    [limit],
    (row: { id: string }) => row.id,
  );
}

/** The claimed deliveries are in the delivery queue now. */
export async function markQueued(tx: DatabaseTask, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await tx.none(`UPDATE webhook_deliveries SET state = ${S.queued} WHERE id IN ($1:csv) AND state = ${S.pending}`, [ids]);
}

// ---------------------------------------------------------------------------------------------
// attempts: queued -> queued | delivered | gave_up

export interface RecordedAttempt {
  at: Date;
  /** Where the attempt leaves the delivery. */
  end: AttemptEnd;
  /** The HTTP status the target answered, if it answered. */
  httpStatus: number | null;
  /** What went wrong (null when delivered). */
  error: string | null;
}

/** Records one attempt: attempts + 1, its answer, and the state it leaves the delivery in. */
export async function recordAttempt(db: Queryable, deliveryId: string, attempt: RecordedAttempt): Promise<void> {
  await db.none(
    `UPDATE webhook_deliveries
        SET attempts = attempts + 1, last_attempt_at = $2, last_status = $3, last_error = $4, state = $5,
            delivered_at = CASE WHEN $5 = ${S.delivered} THEN $2 ELSE delivered_at END
      WHERE id = $1 AND ${UNSETTLED}`,
    [deliveryId, attempt.at, attempt.httpStatus, attempt.error?.slice(0, DELIVERY_ERROR_MAX) ?? null, attempt.end],
  );
}

/** Gives up a delivery that never recorded an end (the queue's dead letter); false when it had one. */
export async function giveUpDelivery(db: Queryable, deliveryId: string, message: string): Promise<boolean> {
  const settled = await db.result(`UPDATE webhook_deliveries SET state = ${S.gave_up}, last_error = $2 WHERE id = $1 AND ${UNSETTLED}`, [
    deliveryId,
    message.slice(0, DELIVERY_ERROR_MAX),
  ]);
  return settled.rowCount === 1;
}
