import { Router } from 'express';
import type { RequestHandler } from 'express';
import { appError } from '../../domain/errors.ts';
import { userProfile } from '../../domain/profile.ts';
import { authenticatedUser } from '../auth.ts';
import type { AppDeps } from '../deps.ts';
import type { RateCategory } from '../../domain/request-charge.ts';
import { chargeAuthenticated } from '../charging.ts';
import { sendError } from '../error-response.ts';
import { idempotent } from '../idempotency.ts';
import { generateRequestSchema } from '../schemas.ts';
import type { profileSchema } from '../schemas.ts';
import type { z } from 'zod';
import { generationInputError, handleGenerate, toGenerationRequest } from './generate.ts';

type V1Deps = Pick<AppDeps, 'db' | 'boss' | 'queueCapacity' | 'now' | 'metrics' | 'logger' | 'webhookAllowList'>;

/**
 * Variant C's core operations (mounted at /v1): POST /music/generate with Variant A's semantics
 * and fields, GET /user/profile. Errors take Variant C's shape. `guards` (authentication, body
 * parsing) run on these routes only: the other /v1 routers authenticate on their own.
 */
export function v1CoreRouter(deps: V1Deps, guards: RequestHandler[], profileCategory: RateCategory): Router {
  const router = Router();
  router.post('/music/generate', ...guards, idempotent(deps), async (req, res) => {
    const parsed = generateRequestSchema.safeParse(req.body);
    if (!parsed.success) {
      sendError(req, res, generationInputError(parsed.error));
      return;
    }
    await handleGenerate(deps, req, res, toGenerationRequest(parsed.data));
  });
  router.get('/user/profile', ...guards, chargeAuthenticated(deps, profileCategory), async (req, res) => {
    const user = authenticatedUser(req);
    const today = deps.now().toISOString().slice(0, 10);
    const profile = await userProfile(deps.db, user.id, today);
    if (profile === null) {
      sendError(req, res, appError('NOT_FOUND', 'User not found'));
      return;
    }
    res.setHeader('Cache-Control', 'no-store');
    res.json(profile satisfies z.infer<typeof profileSchema>);
  });
  return router;
}
