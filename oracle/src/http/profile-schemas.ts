/**
 * The shapes of a creator's profile in the API (issue 51 item 5, issue 53 item 5): what anyone
 * reads (`PublicProfile`, in GET /v1/user/profile and GET /v1/public/creators/{address}) and what
 * the signed-in account sends to change it (`ProfileChange`, PATCH /v1/user/profile). The rules
 * are oracle/src/domain/profile-text.ts and cover-image.ts; this file only names them.
 */
import { z } from 'zod';
import { COVER_MAX_BYTES } from '../domain/cover-image.ts';
import { BIO_MAX, DISPLAY_NAME_MAX, bioProblem, displayNameProblem, normalizeBio, normalizeDisplayName } from '../domain/profile-text.ts';

export const farcasterUserDataSchema = z
  .strictObject({
    fid: z.string().meta({ description: 'The linked Farcaster fid (`social_fid`).', example: '6833' }),
    username: z.string().nullable().meta({ description: 'USER_DATA_TYPE_USERNAME: the fname or ENS name.', example: 'alice' }),
    display_name: z.string().nullable().meta({ description: 'USER_DATA_TYPE_DISPLAY, when our name rules take it.' }),
    pfp_url: z.string().nullable().meta({ description: 'USER_DATA_TYPE_PFP, when it is an https URL.' }),
  })
  .meta({ id: 'FarcasterUserData' });

export const publicProfileSchema = z
  .strictObject({
    name: z.string().nullable().meta({
      description:
        'What to call the creator: `display_name`, else the Farcaster display name, else the Farcaster username; null: show the address.',
      example: 'Alice',
    }),
    avatar_url: z
      .string()
      .nullable()
      .meta({ description: "The picture to show: the creator's avatar, else the Farcaster picture; null: none." }),
    display_name: z
      .string()
      .nullable()
      .meta({ description: `The creator's own display name (1 to ${DISPLAY_NAME_MAX} characters); not unique.` }),
    bio: z
      .string()
      .nullable()
      .meta({ description: `The creator's own bio (at most ${BIO_MAX} characters, line breaks kept).` }),
    avatar: z
      .strictObject({
        url: z.string().meta({ description: 'Public URL in the object store (the `covers/` prefix).' }),
        ipfs: z.string().meta({ description: '`ipfs://<cid>` of the same bytes.' }),
        content_type: z.string().meta({ example: 'image/png' }),
      })
      .nullable()
      .meta({ description: "The creator's own avatar." }),
    farcaster: farcasterUserDataSchema.nullable().meta({
      description:
        "The linked fid's user data from the operator's Farcaster hub (FARCASTER_HUB_URL), read only where the creator set no name or no avatar of their own; null without a linked fid, without a hub, or when the hub did not answer in time.",
    }),
  })
  .meta({ id: 'PublicProfile' });

const displayName = z
  .string()
  .max(DISPLAY_NAME_MAX * 8)
  .superRefine((value, ctx) => {
    const problem = displayNameProblem(normalizeDisplayName(value));
    if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
  })
  .nullable()
  .optional()
  .meta({
    description: `1 to ${DISPLAY_NAME_MAX} characters after trimming (runs of spaces become one; Unicode NFC): letters, numbers, punctuation, symbols and spaces; no control, bidi-override or invisible characters. Null or empty clears it. Not unique.`,
    example: 'Alice',
  });
const bio = z
  .string()
  .max(BIO_MAX * 8)
  .superRefine((value, ctx) => {
    const problem = bioProblem(normalizeBio(value));
    if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
  })
  .nullable()
  .optional()
  .meta({
    description: `At most ${BIO_MAX} characters after trimming; line breaks kept (at most one empty line in a row). Null or empty clears it.`,
    example: 'Synthwave at night.',
  });
const avatar = z
  .string()
  .nullable()
  .optional()
  .meta({
    description: `Base64 data URI of a PNG, JPEG, WebP or GIF image, at most ${COVER_MAX_BYTES} bytes decoded, checked as covers are (its bytes must be the type it declares). Null removes it.`,
  });

export const profileChangeSchema = z
  .strictObject({ display_name: displayName, bio, avatar })
  .refine((body) => body.display_name !== undefined || body.bio !== undefined || body.avatar !== undefined, {
    message: 'name at least one of display_name, bio, avatar',
  })
  .meta({ id: 'ProfileChange' });
