import type { z } from 'zod';
import type { AppDeps } from '../deps.ts';
import type { PublicCall } from '../route.ts';
import type { healthSchema, livenessSchema, readinessSchema } from '../schemas.ts';
import { liveWorkerCapacity } from '../../queue/queue-state.ts';

const READY_CHECK_TIMEOUT_MS = 2000;

async function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

type Handler = (call: PublicCall<undefined>) => Promise<void> | void;

/** GET /health: the process answers. */
export function healthHandler(): Handler {
  return ({ res }) => {
    res.json({ status: 'ok', service: 'songmint-oracle' } satisfies z.infer<typeof healthSchema>);
  };
}

/** GET /health/live: the process runs, and for how long. */
export function livenessHandler(): Handler {
  const startedAt = Date.now();
  return ({ res }) => {
    res.json({ status: 'alive', uptime_seconds: Math.round((Date.now() - startedAt) / 1000) } satisfies z.infer<typeof livenessSchema>);
  };
}

/**
 * GET /health/ready: the database reachable and at least one inference worker with a fresh
 * heartbeat; 503 naming what it waits for otherwise. `npm start` prints its banner only once this
 * answers ready.
 */
export function readinessHandler(deps: Pick<AppDeps, 'db' | 'mint'>): Handler {
  // Which backend signs mints: an operator sees that the HSM or KMS is in use (never a key or PIN).
  const signer = deps.mint === undefined ? {} : { signer: { backend: deps.mint.signer.backend, key: deps.mint.signer.keyReference } };
  return async ({ res }) => {
    res.setHeader('Cache-Control', 'no-store');
    try {
      const capacity = await withTimeout(liveWorkerCapacity(deps.db), READY_CHECK_TIMEOUT_MS);
      const ready = capacity.workers > 0;
      res.status(ready ? 200 : 503).json({
        status: ready ? 'ready' : 'not_ready',
        checks: {
          ...signer,
          database: 'up',
          workers: {
            live: capacity.workers,
            slots: capacity.slots,
            devices: capacity.devices,
            models: capacity.models,
            status: ready ? 'up' : 'down',
          },
        },
        ...(ready ? {} : { waiting_for: ['workers' as const] }),
      } satisfies z.infer<typeof readinessSchema>);
    } catch {
      // Whether a worker is live is unknown until the database answers.
      res.status(503).json({
        status: 'not_ready',
        checks: { ...signer, database: 'down', workers: { status: 'unknown' } },
        waiting_for: ['database'],
      } satisfies z.infer<typeof readinessSchema>);
    }
  };
}

/** GET /metrics: the Prometheus text exposition. */
export function metricsHandler(deps: Pick<AppDeps, 'metrics'>): Handler {
  return async ({ res }) => {
    res.type(deps.metrics.registry.contentType).send(await deps.metrics.registry.metrics());
  };
}
