/**
 * The caller's webhook signing secret (extension, docs/api.md "Webhooks (extension)"):
 * GET /api/webhooks/secret returns it (made on first use), POST /api/webhooks/secret/rotate
 * replaces it.
 */
import type { Response } from 'express';
import type { z } from 'zod';
import { rotateWebhookSecret, userWebhookSecret } from '../../webhooks/secrets.ts';
import type { WebhookSecret } from '../../webhooks/secrets.ts';
import type { AppDeps } from '../deps.ts';
import type { SignedInCall } from '../route.ts';
import type { webhookSecretSchema } from '../webhooks-openapi.ts';

type SecretHandler = (call: SignedInCall<undefined, never>) => Promise<void>;

function answerSecret(res: Response, secret: WebhookSecret): void {
  // A credential: never kept by a cache.
  res.setHeader('Cache-Control', 'no-store');
  res.json({ secret: secret.secret, created_at: secret.createdAt.toISOString() } satisfies z.infer<typeof webhookSecretSchema>);
}

export function webhookSecretHandler(deps: Pick<AppDeps, 'db'>): SecretHandler {
  return async ({ res, user }) => answerSecret(res, await userWebhookSecret(deps.db, user.id));
}

export function rotateWebhookSecretHandler(deps: Pick<AppDeps, 'db'>): SecretHandler {
  return async ({ res, user }) => answerSecret(res, await rotateWebhookSecret(deps.db, user.id));
}
