/**
 * GET /api/uploads and DELETE /api/uploads/{upload_id} (docs/api.md "Upload audio"; the rules are
 * oracle/src/domain/upload-list.ts): the caller's live uploads, newest first, cursor-paginated,
 * with the rights statement an upload confirms; and deleting one of them. Both are charged to
 * the general hourly category (a 400 or 503 is given back; 404 and 409 count, as on every route).
 */
import type { Request } from 'express';
import { z } from 'zod';
import { appError, fail, ok } from '../../domain/errors.ts';
import type { Result } from '../../domain/errors.ts';
import { RIGHTS_STATEMENT } from '../../domain/uploads.ts';
import { UPLOAD_LIST_DEFAULT_LIMIT, UPLOAD_LIST_MAX_LIMIT, uploadCursor, deleteUpload, listUploads } from '../../domain/upload-list.ts';
import type { KeysetPosition } from '../../domain/keyset-cursor.ts';
import type { Database } from '../../../../core/src/db/database.ts';
import type { ObjectStore } from '../../../../core/src/object-store.ts';
import { PUBLIC_UPLOAD_ID_PREFIX, uploadObjectKey } from '../../../../core/src/uploads.ts';
import { sendError } from '../error-response.ts';
import type { RouteDocs, SignedInCall } from '../route.ts';
import { rateLimitHeaders } from '../core-docs.ts';
import { pageQueryFields } from '../schema-parts.ts';
import { describeIssues, variantAErrorSchema } from '../schemas.ts';
import { RIGHTS_HEADER, uploadSchema } from './uploads.ts';

export const uploadListQuerySchema = z
  .strictObject(pageQueryFields('Uploads', UPLOAD_LIST_MAX_LIMIT, UPLOAD_LIST_DEFAULT_LIMIT))
  .meta({ id: 'UploadListQuery' });

/** How long a listed upload's `audio_url` plays (the page asks for the list again after that). */
export const UPLOAD_AUDIO_URL_SECONDS = 3600;

export const listedUploadSchema = uploadSchema
  .extend({
    audio_url: z
      .url()
      .nullable()
      .meta({
        description: `Presigned GET URL of the file as uploaded, valid ${UPLOAD_AUDIO_URL_SECONDS / 3600} hour, for its owner to play (issue 51); every list issues fresh ones. Null when the store could not sign one.`,
      }),
  })
  .meta({ id: 'ListedUpload' });

export const uploadListSchema = z
  .strictObject({
    uploads: z.array(listedUploadSchema).meta({ description: 'Newest first; deleted and expired uploads are not listed.' }),
    next_cursor: z.string().nullable().meta({ description: 'Cursor of the next page; null on the last page.' }),
    rights_statement: z.string().meta({
      description: `The statement an upload confirms with the header \`${RIGHTS_HEADER}: true\`, versioned (it starts with its version) and recorded with each upload: show it in full beside an upload control.`,
      example: RIGHTS_STATEMENT,
    }),
  })
  .meta({ id: 'UploadList' });

export const uploadDeletedSchema = z.strictObject({ upload_id: z.string(), status: z.literal('deleted') }).meta({ id: 'UploadDeleted' });

type UploadListInput = { after: KeysetPosition | null; limit: number };

/** The query, checked before the charge: a cursor this route did not issue is 400. */
export function uploadListInput(req: Request): Result<UploadListInput> {
  const query = uploadListQuerySchema.safeParse(req.query);
  if (!query.success) return fail(appError('VALIDATION_ERROR', 'Invalid upload list query', { details: describeIssues(query.error) }));
  const after = query.data.cursor === undefined ? null : uploadCursor.decode(query.data.cursor);
  if (query.data.cursor !== undefined && after === null) {
    return fail(
      appError('VALIDATION_ERROR', 'Invalid upload list query', {
        details: 'cursor: not a cursor this route issued (pass next_cursor back unchanged)',
        fields: { cursor: query.data.cursor.slice(0, 200) },
      }),
    );
  }
  return ok({ after, limit: query.data.limit });
}

/** GET /api/uploads?cursor=&limit=: each upload with a fresh URL its owner plays it by (the file is private). */
export function listUploadsHandler(deps: {
  db: Database;
  objectStore: Pick<ObjectStore, 'presignedGetUrl'>;
}): (call: SignedInCall<UploadListInput, never>) => Promise<void> {
  return async ({ res, user, input }) => {
    const page = await listUploads(deps.db, user.id, input);
    const uploads = await Promise.all(
      page.uploads.map(async (upload) => {
        const key = uploadObjectKey(upload.upload_id.slice(PUBLIC_UPLOAD_ID_PREFIX.length), upload.format);
        const url = await deps.objectStore.presignedGetUrl(key, UPLOAD_AUDIO_URL_SECONDS);
        return { ...upload, audio_url: url.ok ? url.value : null };
      }),
    );
    res.setHeader('Cache-Control', 'no-store');
    res.json({ ...page, uploads, rights_statement: RIGHTS_STATEMENT } satisfies z.infer<typeof uploadListSchema>);
  };
}

export function uploadIdInput(req: Request): Result<string> {
  return ok(typeof req.params.upload_id === 'string' ? req.params.upload_id : '');
}

/** DELETE /api/uploads/{upload_id}. */
export function deleteUploadHandler(deps: {
  db: Database;
  objectStore: Pick<ObjectStore, 'delete'>;
}): (call: SignedInCall<string, never>) => Promise<void> {
  return async ({ req, res, user, input: publicId }) => {
    const deleted = await deleteUpload(deps, user.id, publicId);
    if (!deleted.ok) {
      sendError(req, res, deleted.error);
      return;
    }
    res.setHeader('Cache-Control', 'no-store');
    res.json(deleted.value satisfies z.infer<typeof uploadDeletedSchema>);
  };
}

const error = (description: string) => ({ description, content: { 'application/json': { schema: variantAErrorSchema } } });

export const listUploadsDocs: RouteDocs = {
  tags: ['generation'],
  summary: "The caller's uploads, newest first, cursor-paginated (extension of the spec)",
  description:
    'Live uploads only (not deleted, not expired), each as POST /api/uploads answered it, and the rights statement an upload confirms, as recorded with each.',
  request: { query: uploadListQuerySchema },
  responses: {
    200: {
      description: 'One page; pass `next_cursor` back as `cursor` for the next.',
      content: { 'application/json': { schema: uploadListSchema } },
      headers: rateLimitHeaders,
    },
    400: error('Bad cursor or limit, or an unknown parameter (VALIDATION_ERROR).'),
    401: error('Missing or invalid token (AUTH_ERROR).'),
    429: error('Hourly limit (RATE_002).'),
  },
};

export const deleteUploadDocs: RouteDocs = {
  tags: ['generation'],
  summary: 'Delete an upload of yours (extension of the spec)',
  description:
    'Deletes the stored file now (retention would after 30 days). Edits already made from it stay: they are songs of their own, and their content credentials keep naming the upload by its SHA-256 and format (the record of the upload is kept for that, unlisted). Refused while an edit of it is queued or running (409, naming the job): let it finish or cancel it first. After the delete, an edit naming the upload is refused as one of an expired upload is (EDIT_003).',
  request: { params: z.object({ upload_id: z.string().meta({ example: 'upl_5b0e7a52-3c1d-4f0e-9a51-0d2a7c9e4b13' }) }) },
  responses: {
    200: { description: 'Deleted.', content: { 'application/json': { schema: uploadDeletedSchema } }, headers: rateLimitHeaders },
    401: error('Missing or invalid token (AUTH_ERROR).'),
    404: error("No such upload of yours: unknown, malformed, someone else's, already deleted or expired (NOT_FOUND)."),
    409: error('An edit of this upload is queued or running (CONFLICT, with its `job_id`).'),
    429: error('Hourly limit (RATE_002).'),
    503: error('Object storage or database unavailable (SERVICE_UNAVAILABLE); nothing was deleted.'),
  },
};
