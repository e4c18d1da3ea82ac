/**
 * The pg-boss queue of webhook deliveries and its settings. pg-boss keeps the retry schedule:
 * a failed attempt is retried after `retryDelaySeconds`, doubling (with jitter) per attempt up to
 * `retryDelayMaxSeconds`, at most `retryLimit` times.
 */
import type { PgBoss } from 'pg-boss';
import type { AllowList } from './address-policy.ts';

export const WEBHOOK_QUEUE = 'webhook-delivery';
/**
 * Where pg-boss moves a delivery whose last attempt never reported back (the oracle running it
 * stopped, or the database failed mid-attempt); ./service.ts records those as given up. An
 * attempt that ends normally records its own give-up and never lands here.
 */
export const WEBHOOK_DEAD_LETTER_QUEUE = 'webhook-delivery-dead';

/** Defaults (docs/api.md "Webhooks (extension)"): about 42 minutes of retries in all. */
export const WEBHOOK_ATTEMPT_TIMEOUT_MS = 10_000;
export const WEBHOOK_RETRY_LIMIT = 8;
export const WEBHOOK_RETRY_DELAY_SECONDS = 10;
export const WEBHOOK_RETRY_DELAY_MAX_SECONDS = 3600;
/** Deliveries one oracle runs at once: a hanging target holds one slot, never the queue. */
export const WEBHOOK_CONCURRENCY = 20;

export interface WebhookSettings {
  allowList: AllowList;
  attemptTimeoutMs: number;
  retryLimit: number;
  retryDelaySeconds: number;
  retryDelayMaxSeconds: number;
  concurrency: number;
  /** How often the relay looks for outbox rows a missed notification left behind. */
  sweepIntervalMs: number;
  /** How often each idle delivery worker asks pg-boss for work (>= 0.5). */
  pollingIntervalSeconds: number;
}

export const DEFAULT_WEBHOOK_SETTINGS: WebhookSettings = {
  allowList: [],
  attemptTimeoutMs: WEBHOOK_ATTEMPT_TIMEOUT_MS,
  retryLimit: WEBHOOK_RETRY_LIMIT,
  retryDelaySeconds: WEBHOOK_RETRY_DELAY_SECONDS,
  retryDelayMaxSeconds: WEBHOOK_RETRY_DELAY_MAX_SECONDS,
  concurrency: WEBHOOK_CONCURRENCY,
  sweepIntervalMs: 5000,
  // Every slot polls on its own while idle: 2 s keeps 20 idle slots at 10 small queries a second.
  pollingIntervalSeconds: 2,
};

/** What the relay puts in the queue: the outbox row to deliver. */
export interface WebhookMessage {
  deliveryId: string;
}

/** Creates or updates the queue (idempotent; every replica runs it at start). */
export async function ensureWebhookQueue(boss: PgBoss, settings: WebhookSettings): Promise<void> {
  if ((await boss.getQueue(WEBHOOK_DEAD_LETTER_QUEUE)) === null) await boss.createQueue(WEBHOOK_DEAD_LETTER_QUEUE, { policy: 'standard' });
  const options = {
    policy: 'standard' as const,
    deadLetter: WEBHOOK_DEAD_LETTER_QUEUE,
    retryLimit: settings.retryLimit,
    retryDelay: settings.retryDelaySeconds,
    retryBackoff: true,
    retryDelayMax: settings.retryDelayMaxSeconds,
    // An attempt ends at its own deadline; this only catches an oracle that died mid-attempt.
    expireInSeconds: Math.ceil(settings.attemptTimeoutMs / 1000) + 60,
    retentionSeconds: 7 * 24 * 60 * 60,
  };
  const existing = await boss.getQueue(WEBHOOK_QUEUE);
  if (existing === null) {
    await boss.createQueue(WEBHOOK_QUEUE, options);
  } else {
    const { policy: _policy, ...updatable } = options;
    await boss.updateQueue(WEBHOOK_QUEUE, updatable);
  }
}
