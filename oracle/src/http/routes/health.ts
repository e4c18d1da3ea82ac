import { Router } from 'express';
import type { z } from 'zod';
import type { AppDeps } from '../deps.ts';
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

/**
 * GET /health (basic), /health/live (process up), /health/ready (database reachable and at least
 * one inference worker with a fresh heartbeat; 503 naming what it waits for otherwise). No token
 * needed. `npm start` prints its banner only once this answers ready.
 */
export function healthRouter(deps: Pick<AppDeps, 'db'>): Router {
  const router = Router();
  const startedAt = Date.now();
  router.get('/', (_req, res) => {
    res.json({ status: 'ok', service: 'songmint-oracle' } satisfies z.infer<typeof healthSchema>);
  });
  router.get('/live', (_req, res) => {
    res.json({ status: 'alive', uptime_seconds: Math.round((Date.now() - startedAt) / 1000) } satisfies z.infer<typeof livenessSchema>);
  });
  router.get('/ready', async (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    try {
      const capacity = await withTimeout(liveWorkerCapacity(deps.db), READY_CHECK_TIMEOUT_MS);
      const ready = capacity.workers > 0;
      res.status(ready ? 200 : 503).json({
        status: ready ? 'ready' : 'not_ready',
        checks: {
          database: 'up',
          workers: { live: capacity.workers, slots: capacity.slots, devices: capacity.devices, models: capacity.models, status: ready ? 'up' : 'down' },
        },
        ...(ready ? {} : { waiting_for: ['workers' as const] }),
      } satisfies z.infer<typeof readinessSchema>);
    } catch {
      // Whether a worker is live is unknown until the database answers.
      res
        .status(503)
        .json({ status: 'not_ready', checks: { database: 'down', workers: { status: 'unknown' } }, waiting_for: ['database'] } satisfies z.infer<typeof readinessSchema>);
    }
  });
  return router;
}
