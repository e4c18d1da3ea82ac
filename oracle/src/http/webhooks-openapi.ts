/**
 * The webhook routes and the delivery (an OpenAPI 3.1 `webhooks` entry) as /openapi.json shows
 * them. Apart from the router (./routes/webhooks.ts) so the document's builder imports no route
 * code (no cycle through the app's dependencies).
 */
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { jobStatusSchema, variantAErrorSchema } from './schemas.ts';

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
