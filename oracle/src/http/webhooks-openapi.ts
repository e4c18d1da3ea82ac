/**
 * The webhook secret routes and the delivery (an OpenAPI 3.1 `webhooks` entry) as /openapi.json
 * shows them; the handlers are ./routes/webhooks.ts.
 */
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { jobStatusSchema, variantAErrorSchema } from './schemas.ts';
import type { RouteDocs } from './route.ts';

export const webhookSecretSchema = z
  .strictObject({
    secret: z.string().meta({
      description: 'Standard Webhooks secret: `whsec_` and the base64 of 32 random bytes (the HMAC key).',
      example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    }),
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

const secretResponses = {
  200: { description: 'The secret.', content: { 'application/json': { schema: webhookSecretSchema } } },
  401: { description: 'Missing or invalid token (AUTH_ERROR).', content: { 'application/json': { schema: variantAErrorSchema } } },
  429: { description: 'Hourly limit (RATE_002).', content: { 'application/json': { schema: variantAErrorSchema } } },
};

export const webhookSecretDocs: RouteDocs = {
  tags: ['webhooks'],
  summary: 'Your webhook signing secret (made on first use; extension of the spec)',
  responses: secretResponses,
};

export const rotateWebhookSecretDocs: RouteDocs = {
  tags: ['webhooks'],
  summary: 'Replace your webhook signing secret; later attempts, retries included, are signed with the new one',
  responses: secretResponses,
};

/** The delivery, an OpenAPI 3.1 `webhooks` entry of /openapi.json. */
export function registerWebhookDelivery(registry: OpenAPIRegistry): void {
  registry.registerWebhook({
    method: 'post',
    path: 'generation',
    operationId: 'generationWebhook',
    tags: ['webhooks'],
    // Sent by the oracle to the job's webhook URL: authenticated by its signature headers, no scheme of this API.
    security: [],
    summary: 'A job with a `webhook` finished: generation.completed or generation.failed',
    description:
      'Signed per Standard Webhooks: `webhook-id` (constant across retries), `webhook-timestamp` (unix seconds of the attempt), `webhook-signature: v1,<base64 HMAC-SHA256(secret, id.timestamp.body)>`. Any 2xx acknowledges; anything else (redirects included) or no answer within 10 s is retried with exponential backoff.',
    request: { body: { description: 'The event.', content: { 'application/json': { schema: webhookPayloadSchema } } } },
    responses: { 200: { description: 'Any 2xx acknowledges the delivery.' } },
  });
}
