import type { z } from 'zod';
import { appError } from '../../domain/errors.ts';
import { userProfile } from '../../domain/profile.ts';
import type { AppDeps } from '../deps.ts';
import { sendError } from '../error-response.ts';
import type { SignedInCall } from '../route.ts';
import type { profileSchema } from '../schemas.ts';

/**
 * GET /v1/user/profile (Variant C): the user and their statistics. Variant C's generate is
 * POST /api/generate's handler (./generate.ts `createJob`); errors take Variant C's shape by path.
 */
export function profileHandler(deps: Pick<AppDeps, 'db' | 'now'>): (call: SignedInCall<undefined, never>) => Promise<void> {
  return async ({ req, res, user }) => {
    const today = deps.now().toISOString().slice(0, 10);
    const profile = await userProfile(deps.db, user.id, today);
    if (profile === null) {
      sendError(req, res, appError('NOT_FOUND', 'User not found'));
      return;
    }
    res.setHeader('Cache-Control', 'no-store');
    res.json(profile satisfies z.infer<typeof profileSchema>);
  };
}
