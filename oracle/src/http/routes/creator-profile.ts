/**
 * PATCH /v1/user/profile (extension of the spec's Variant C profile, issue 51 item 5): the
 * signed-in account sets its display name, bio and avatar; the answer is its public profile as
 * everyone reads it (GET /v1/public/creators/{address}). The rules are
 * ../../domain/profile-text.ts and ../../domain/cover-image.ts; storing is
 * ../../domain/creator-profile.ts. Errors take Variant C's shape (the path is /v1).
 */
import type { Request } from 'express';
import type { z } from 'zod';
import { changeProfile, profileOfUser } from '../../domain/creator-profile.ts';
import type { ProfileChange, ProfileDeps } from '../../domain/creator-profile.ts';
import { appError, fail, ok } from '../../domain/errors.ts';
import type { Result } from '../../domain/errors.ts';
import type { FarcasterUserDataReader } from '../../domain/farcaster-user-data.ts';
import { normalizeBio, normalizeDisplayName } from '../../domain/profile-text.ts';
import { json } from '../core-docs.ts';
import { sendError } from '../error-response.ts';
import { profileChangeSchema, publicProfileSchema } from '../profile-schemas.ts';
import type { RouteDocs, SignedInCall } from '../route.ts';
import { describeIssues, variantCErrorSchema } from '../schemas.ts';
import { METADATA_BODY_LIMIT } from './metadata.ts';

/** An avatar is as large as a cover may be: the same 5 MB as ~7 MB of base64, under the metadata route's limit. */
export const PROFILE_BODY_LIMIT = METADATA_BODY_LIMIT;

/** An empty text clears the field as null does. */
const cleared = (value: string) => (value === '' ? null : value);

/** The body, checked and normalized (400 VALIDATION_ERROR before the charge). */
export function profileChangeInput(req: Request): Result<ProfileChange> {
  const parsed = profileChangeSchema.safeParse(req.body);
  if (!parsed.success) return fail(appError('VALIDATION_ERROR', 'Invalid profile', { details: describeIssues(parsed.error) }));
  const { display_name, bio, avatar } = parsed.data;
  return ok({
    ...(display_name === undefined ? {} : { displayName: display_name === null ? null : cleared(normalizeDisplayName(display_name)) }),
    ...(bio === undefined ? {} : { bio: bio === null ? null : cleared(normalizeBio(bio)) }),
    ...(avatar === undefined ? {} : { avatar }),
  });
}

export function changeProfileHandler(
  deps: ProfileDeps & { farcaster?: FarcasterUserDataReader | undefined },
): (call: SignedInCall<ProfileChange, never>) => Promise<void> {
  return async ({ req, res, user, input }) => {
    const changed = await changeProfile(deps, user.id, input);
    if (!changed.ok) {
      sendError(req, res, changed.error);
      return;
    }
    res.setHeader('Cache-Control', 'no-store');
    res.json((await profileOfUser(deps.db, user.id, deps)) satisfies z.infer<typeof publicProfileSchema>);
  };
}

const error = (description: string) => json(variantCErrorSchema, description);

export const changeProfileDocs: RouteDocs = {
  tags: ['v1'],
  summary: 'Extension: set your display name, bio and avatar',
  description:
    'Each field is optional: an absent one stays as it is, null (or an empty text) clears it. The avatar is checked exactly as a cover is (POST /api/metadata): a base64 data URI whose bytes are the PNG, JPEG, WebP or GIF it declares, at most 5 MB; it is stored in the object store (counted for your storage quota), added to IPFS and pinned when pinning is configured, and the avatar it replaces is deleted. A refused request changes nothing. Display names are not unique: pages show the address beside them. Where you set no name or no avatar, profiles show those of your linked Farcaster fid when the operator configures a hub.',
  request: { body: { content: { 'application/json': { schema: profileChangeSchema } } } },
  responses: {
    200: json(publicProfileSchema, 'Your profile as everyone reads it.'),
    400: error(
      'VALIDATION_ERROR: a display name or bio with control, bidi-override or invisible characters, too long, an unknown field, no field at all, or an avatar that is not a base64 data URI of a PNG, JPEG, WebP or GIF image matching its declared type.',
    ),
    401: error('AUTH_ERROR: missing or invalid token.'),
    409: error('STORAGE_001: the avatar does not fit your storage quota; nothing was stored.'),
    413: error('PAYLOAD_TOO_LARGE: an avatar over 5 MB decoded, or a body over 8 MB.'),
    429: error('RATE_002: the hourly limit.'),
    503: error('SERVICE_UNAVAILABLE: object storage or IPFS pinning failed; nothing was changed.'),
  },
};
