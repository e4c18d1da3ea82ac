/**
 * The caller's webhook signing secret (extension, docs/api.md "Webhooks (extension)"):
 * GET /secret returns it (made on first use), POST /secret/rotate replaces it. Mounted at
 * /api/webhooks behind `authenticate`; each route charges the `general` hourly category.
 */
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { Router } from 'express';
import type { Response } from 'express';
import { z } from 'zod';
import type { RateCategory } from '../../domain/request-charge.ts';
import { rotateWebhookSecret, userWebhookSecret } from '../../webhooks/secrets.ts';
import type { WebhookSecret } from '../../webhooks/secrets.ts';
import { authenticatedUser } from '../auth.ts';
import { chargeAuthenticated } from '../charging.ts';
import type { AppDeps } from '../deps.ts';
import { jobStatusSchema, variantAErrorSchema } from '../schemas.ts';

export const webhookSecretSchema = z
  .strictObject({
    secret: z.string().meta({ description: 'Standard Webhooks secret: `whsec_` and the base64 of 32 random bytes (the HMAC key).', example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' }),
    created_at: z.iso.datetime().meta({ description: 'When this secret was made (by first use or rotation).' }),
  })
  .meta({ id: 'WebhookSecret' });

export const webhookPayloadSchema = z
  .strictObject({
    type: z.enum(['generation.completed', 'generation.failed']),
    timestamp: z.iso.datetime().meta({ description: 'When the job reached this state.' }),
    data: jobStatusSchema.meta({ description: 'The job as GET /api/generate/{job_id} shows it.' }),
  })
  .meta({ id: 'WebhookPayload' });

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

/** The routes and the delivery (an OpenAPI 3.1 `webhooks` entry) in /openapi.json. */
export function registerWebhookPaths(registry: OpenAPIRegistry, security: ReadonlyArray<Record<string, string[]>>): void {
  const secretResponses = {
    200: { description: 'The secret.', content: { 'application/json': { schema: webhookSecretSchema } } },
    401: { description: 'Missing or invalid token (AUTH_ERROR).', content: { 'application/json': { schema: variantAErrorSchema } } },
    429: { description: 'Hourly limit (RATE_002).', content: { 'application/json': { schema: variantAErrorSchema } } },
  };
  registry.registerPath({
    method: 'get',
    path: '/api/webhooks/secret',
    tags: ['webhooks'],
    summary: 'Your webhook signing secret (made on first use; extension of the spec)',
    security: [...security],
    responses: secretResponses,
  });
  registry.registerPath({
    method: 'post',
    path: '/api/webhooks/secret/rotate',
    tags: ['webhooks'],
    summary: 'Replace your webhook signing secret; later attempts, retries included, are signed with the new one',
    security: [...security],
    responses: secretResponses,
  });
  registry.registerWebhook({
    method: 'post',
    path: 'generation',
    tags: ['webhooks'],
    summary: 'A job with a `webhook` finished: generation.completed or generation.failed',
    description:
      'Signed per Standard Webhooks: `webhook-id` (constant across retries), `webhook-timestamp` (unix seconds of the attempt), `webhook-signature: v1,<base64 HMAC-SHA256(secret, id.timestamp.body)>`. Any 2xx acknowledges; anything else (redirects included) or no answer within 10 s is retried with exponential backoff.',
    request: { body: { description: 'The event.', content: { 'application/json': { schema: webhookPayloadSchema } } } },
    responses: { 200: { description: 'Any 2xx acknowledges the delivery.' } },
  });
}
