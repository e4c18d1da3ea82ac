/**
 * One attempt of one outbox row, as the pg-boss worker runs it: the payload (fixed at the first
 * attempt, so retries carry the same bytes under the same `webhook-id`), the owner's signature,
 * the guarded POST, and the record of the attempt. A failed attempt is reported back to pg-boss
 * (which schedules the retry) until the retry limit, when the row is marked `gave_up` (the states:
 * core/src/jobs/webhook-delivery-state.ts).
 */
import type { Database } from '../../../core/src/db/database.ts';
import { DELIVERY_STATE, giveUpDelivery, isSettled, recordAttempt } from '../../../core/src/jobs/webhook-delivery-state.ts';
import type { DeliveryState } from '../../../core/src/jobs/webhook-delivery-state.ts';
import { JOB_COLUMNS, toJobRecord, viewJob } from '../domain/jobs.ts';
import type { JobRow, JobView } from '../domain/jobs.ts';
import { attemptDelivery, isDelivered } from './delivery.ts';
import type { AttemptOutcome } from './delivery.ts';
import { userWebhookSecret } from './secrets.ts';
import { signMessage } from './signing.ts';
import type { WebhookSettings } from './webhook-queue.ts';

export const WEBHOOK_USER_AGENT = 'Songmint-Webhooks/1.0 (+https://github.com/songmint)';

export type WebhookEvent = 'generation.completed' | 'generation.failed';

/** The JSON body of a delivery (docs/api.md "Webhooks (extension)"). */
export interface WebhookPayload {
  type: WebhookEvent;
  /** When the job reached the event's state (the outbox row's time), ISO 8601. */
  timestamp: string;
  /** The job as GET /api/generate/{job_id} shows it. */
  data: JobView;
}

/** What one attempt came to; `retry` asks pg-boss for another attempt. */
export type AttemptResult =
  | { kind: 'delivered'; status: number }
  | { kind: 'retry'; message: string }
  | { kind: 'gave_up'; message: string }
  /** Already delivered or given up (a repeated queue message): nothing was sent. */
  | { kind: 'settled' };

interface DeliveryRow {
  id: string;
  event: WebhookEvent;
  url: string;
  state: DeliveryState;
  body: string | null;
  created_at: Date;
}

export interface DeliverDeps {
  db: Database;
  settings: WebhookSettings;
  now: () => Date;
}

function describe(outcome: AttemptOutcome): string {
  switch (outcome.kind) {
    case 'answered':
      return `HTTP ${outcome.status}${outcome.snippet === undefined || outcome.snippet === '' ? '' : `: ${outcome.snippet}`}`;
    case 'refused':
      return `refused: ${outcome.message}`;
    case 'no_answer':
      return outcome.message;
  }
}

async function fixedBody(deps: DeliverDeps, delivery: DeliveryRow, job: JobRow): Promise<string> {
  if (delivery.body !== null) return delivery.body;
  const payload: WebhookPayload = {
    type: delivery.event,
    timestamp: delivery.created_at.toISOString(),
    data: await viewJob(deps.db, toJobRecord(job), deps.now()),
  };
  // A concurrent first attempt (an expired pg-boss job run twice) keeps whichever body came first.
  const row = await deps.db.one<{ body: string }>('UPDATE webhook_deliveries SET body = COALESCE(body, $2) WHERE id = $1 RETURNING body', [
    delivery.id,
    JSON.stringify(payload),
  ]);
  return row.body;
}

/**
 * Attempt `retryCount` (0 for the first) of delivery `deliveryId`. Throws only on a database
 * fault; pg-boss then retries the attempt like a failed one.
 */
export async function deliverOnce(deps: DeliverDeps, deliveryId: string, retryCount: number): Promise<AttemptResult> {
  const found = await deps.db.oneOrNone<DeliveryRow & { job_id: string }>(
    'SELECT id, job_id, event, url, state, body, created_at FROM webhook_deliveries WHERE id = $1',
    [deliveryId],
  );
  if (found === null || isSettled(found.state)) return { kind: 'settled' };
  const job = await deps.db.one<JobRow>(`SELECT ${JOB_COLUMNS} FROM generation_jobs WHERE id = $1`, [found.job_id]);
  const body = await fixedBody(deps, found, job);
  const { secret } = await userWebhookSecret(deps.db, job.user_id);
  const attemptedAt = deps.now();
  const outcome = await attemptDelivery({
    url: found.url,
    headers: {
      ...signMessage(secret, found.id, attemptedAt, body),
      'content-type': 'application/json',
      'user-agent': WEBHOOK_USER_AGENT,
    },
    body,
    timeoutMs: deps.settings.attemptTimeoutMs,
    allowList: deps.settings.allowList,
  });
  const delivered = isDelivered(outcome);
  // A refused target stays refused: the guard's verdict does not improve with retries.
  const giveUp = !delivered && (outcome.kind === 'refused' || retryCount >= deps.settings.retryLimit);
  const message = describe(outcome);
  await recordAttempt(deps.db, found.id, {
    at: attemptedAt,
    end: delivered ? DELIVERY_STATE.delivered : giveUp ? DELIVERY_STATE.gave_up : DELIVERY_STATE.queued,
    httpStatus: outcome.kind === 'answered' ? outcome.status : null,
    error: delivered ? null : message,
  });
  if (delivered && outcome.kind === 'answered') return { kind: 'delivered', status: outcome.status };
  return giveUp ? { kind: 'gave_up', message } : { kind: 'retry', message };
}

export const ABANDONED_DELIVERY_MESSAGE = 'the last attempt never finished (the delivering oracle stopped or the database failed)';

/** A delivery pg-boss gave up on without a recorded end (./webhook-queue.ts, the dead-letter queue). */
export async function markAbandoned(db: Database, deliveryId: string): Promise<boolean> {
  return giveUpDelivery(db, deliveryId, ABANDONED_DELIVERY_MESSAGE);
}
