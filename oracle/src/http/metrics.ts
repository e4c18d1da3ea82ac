import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Database } from '../../../core/src/db/database.ts';
import { HEARTBEAT_STALE_SECONDS } from '../../../core/src/generation-queue.ts';
import { JOB_STATUS, JOB_STATUSES, sqlStatus } from '../../../core/src/jobs/job-state.ts';
import { DELIVERY_STATES } from '../../../core/src/jobs/webhook-delivery-state.ts';

export interface OracleMetrics {
  registry: Registry;
  httpDuration: Histogram<'method' | 'route' | 'status'>;
  /** Incremented by POST /api/signature for each signature issued. */
  signaturesIssued: Counter<never>;
  /** Requests refused by a limit: `limit` is `daily` or `hourly`, `category` the endpoint category. */
  limitRejections: Counter<'limit' | 'category'>;
}

const TIERS = ['free', 'pro', 'enterprise'] as const;
/** `preview_jobs.status` (migration 0012): the job statuses without `cancelled`. */
const PREVIEW_STATUSES = [JOB_STATUS.queued, JOB_STATUS.processing, JOB_STATUS.completed, JOB_STATUS.failed] as const;

/** What the process reports of itself beside the fleet-wide numbers read from the database. */
export interface ProcessGauges {
  /** Job event streams this process holds open (oracle/src/domain/job-events-hub.ts). */
  openJobEventStreams?: () => number;
  /** Which backend holds the mint key and which key it is (never a key or PIN): `mint_signer_info`. */
  signer?: { backend: string; key: string };
}

/**
 * The oracle's Prometheus metrics in their own registry. Queue depth and job counts are read from
 * the database at scrape time, so every replica reports the same fleet-wide numbers.
 */
export function createMetrics(db: Database, gauges: ProcessGauges = {}): OracleMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by route template, method and status code.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 120, 300],
    registers: [registry],
  });
  const signaturesIssued = new Counter({
    name: 'mint_signatures_issued_total',
    help: 'Mint signatures issued.',
    registers: [registry],
  });
  const limitRejections = new Counter({
    name: 'rate_limit_rejections_total',
    help: 'Requests refused by the daily tier counter or an hourly category limit.',
    labelNames: ['limit', 'category'] as const,
    registers: [registry],
  });
  if (gauges.signer !== undefined) {
    new Gauge({
      name: 'mint_signer_info',
      help: 'The platform mint signer: backend (pkcs11, awskms, or libsecp256k1/noble for a key in the environment) and key reference without PIN.',
      labelNames: ['backend', 'key'] as const,
      registers: [registry],
    }).set({ backend: gauges.signer.backend, key: gauges.signer.key }, 1);
  }
  new Gauge({
    name: 'generation_queue_depth',
    help: 'Generation jobs waiting in the queue, by tier.',
    labelNames: ['tier'] as const,
    registers: [registry],
    async collect() {
      const rows = await readOrEmpty(
        db,
        `SELECT tier AS key, count(*)::int AS n FROM generation_jobs WHERE status = ${sqlStatus(JOB_STATUS.queued)} GROUP BY tier`,
      );
      for (const tier of TIERS) this.set({ tier }, rows.find((row) => row.key === tier)?.n ?? 0);
    },
  });
  new Gauge({
    name: 'generation_jobs',
    help: 'Generation jobs by status.',
    labelNames: ['status'] as const,
    registers: [registry],
    async collect() {
      const rows = await readOrEmpty(db, 'SELECT status AS key, count(*)::int AS n FROM generation_jobs GROUP BY status');
      for (const status of JOB_STATUSES) this.set({ status }, rows.find((row) => row.key === status)?.n ?? 0);
    },
  });
  new Gauge({
    name: 'generation_workers_live',
    help: 'Inference workers with a fresh heartbeat.',
    registers: [registry],
    async collect() {
      const rows = await readOrEmpty(
        db,
        `SELECT 'all' AS key, count(*)::int AS n FROM worker_heartbeats WHERE last_seen > now() - make_interval(secs => $1)`,
        [HEARTBEAT_STALE_SECONDS],
      );
      this.set(rows[0]?.n ?? 0);
    },
  });
  new Gauge({
    name: 'webhook_deliveries',
    help: 'Webhook deliveries by state (pending in the outbox, queued for an attempt, delivered, gave_up).',
    labelNames: ['state'] as const,
    registers: [registry],
    async collect() {
      const rows = await readOrEmpty(db, 'SELECT state AS key, count(*)::int AS n FROM webhook_deliveries GROUP BY state');
      for (const state of DELIVERY_STATES) this.set({ state }, rows.find((row) => row.key === state)?.n ?? 0);
    },
  });
  new Gauge({
    name: 'preview_jobs',
    help: 'Preview jobs by status.',
    labelNames: ['status'] as const,
    registers: [registry],
    async collect() {
      const rows = await readOrEmpty(db, 'SELECT status AS key, count(*)::int AS n FROM preview_jobs GROUP BY status');
      for (const status of PREVIEW_STATUSES) this.set({ status }, rows.find((row) => row.key === status)?.n ?? 0);
    },
  });
  const openStreams = gauges.openJobEventStreams;
  if (openStreams !== undefined) {
    new Gauge({
      name: 'job_event_streams_open',
      help: 'Job event streams (SSE) this process holds open; their durations are not in http_request_duration_seconds.',
      registers: [registry],
      collect() {
        this.set(openStreams());
      },
    });
  }
  return { registry, httpDuration, signaturesIssued, limitRejections };
}

/** A scrape during a database outage reports zeros rather than failing the whole exposition. */
async function readOrEmpty(db: Database, sql: string, params: unknown[] = []): Promise<Array<{ key: string; n: number }>> {
  try {
    return await db.any<{ key: string; n: number }>(sql, params);
  } catch {
    return [];
  }
}
