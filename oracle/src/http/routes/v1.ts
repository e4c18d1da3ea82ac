import type { z } from 'zod';
import { appError } from '../../domain/errors.ts';
import { profileOfUser } from '../../domain/creator-profile.ts';
import { userProfile } from '../../domain/profile.ts';
import type { AppDeps } from '../deps.ts';
import { sendError } from '../error-response.ts';
import type { SignedInCall } from '../route.ts';
import type { profileSchema } from '../schemas.ts';

/**
 * GET /v1/user/profile (Variant C): the user and their statistics, and (extension) their public
 * profile as everyone reads it (PATCH /v1/user/profile sets it, ./creator-profile.ts). Variant C's generate is
 * POST /api/generate's handler (./generate.ts `createJob`); errors take Variant C's shape by path.
 */
export function profileHandler(
  deps: Pick<AppDeps, 'db' | 'now' | 'metadata' | 'farcasterUserData'>,
): (call: SignedInCall<undefined, never>) => Promise<void> {
  return async ({ req, res, user }) => {
    const today = deps.now().toISOString().slice(0, 10);
    const [profile, publicProfile] = await Promise.all([
      userProfile(deps.db, user.id, today),
      profileOfUser(deps.db, user.id, { objectStore: deps.metadata?.objectStore, farcaster: deps.farcasterUserData }),
    ]);
    if (profile === null) {
      sendError(req, res, appError('NOT_FOUND', 'User not found'));
      return;
    }
    res.setHeader('Cache-Control', 'no-store');
    res.json({ ...profile, public_profile: publicProfile } satisfies z.infer<typeof profileSchema>);
  };
}
