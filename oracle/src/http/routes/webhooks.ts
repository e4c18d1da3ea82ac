/**
 * The caller's webhook signing secret (extension, docs/api.md "Webhooks (extension)"):
 * GET /secret returns it (made on first use), POST /secret/rotate replaces it. Mounted at
 * /api/webhooks behind `authenticate`; each route charges the `general` hourly category.
 */
import { Router } from 'express';
import type { Response } from 'express';
import type { z } from 'zod';
import type { RateCategory } from '../../domain/request-charge.ts';
import { rotateWebhookSecret, userWebhookSecret } from '../../webhooks/secrets.ts';
import type { WebhookSecret } from '../../webhooks/secrets.ts';
import { authenticatedUser } from '../auth.ts';
import { chargeAuthenticated } from '../charging.ts';
import type { AppDeps } from '../deps.ts';
import type { webhookSecretSchema } from '../webhooks-openapi.ts';

type WebhookRouteDeps = Pick<AppDeps, 'db' | 'metrics' | 'now'>;

function answerSecret(res: Response, secret: WebhookSecret): void {
  // A credential: never kept by a cache.
  res.setHeader('Cache-Control', 'no-store');
  res.json({ secret: secret.secret, created_at: secret.createdAt.toISOString() } satisfies z.infer<typeof webhookSecretSchema>);
}

export interface WebhookRouterCharges {
  read: RateCategory;
  rotate: RateCategory;
}

export function webhooksRouter(deps: WebhookRouteDeps, charges: WebhookRouterCharges): Router {
  const router = Router();
  router.get('/secret', chargeAuthenticated(deps, charges.read), async (req, res) => {
    answerSecret(res, await userWebhookSecret(deps.db, authenticatedUser(req).id));
  });
  router.post('/secret/rotate', chargeAuthenticated(deps, charges.rotate), async (req, res) => {
    answerSecret(res, await rotateWebhookSecret(deps.db, authenticatedUser(req).id));
  });
  return router;
}
