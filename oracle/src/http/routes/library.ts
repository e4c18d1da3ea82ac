/**
 * The library's writes (docs/api.md "Manage your library"; the rules are
 * oracle/src/domain/library.ts): PATCH /api/generate/{job_id} renames an unminted song, DELETE
 * moves a song to the trash, POST /{job_id}/restore takes it back out. Each answers the song as
 * the list shows it; refusals come in the error shape with a LIBRARY_ code.
 */
import type { Request } from 'express';
import { z } from 'zod';
import { appError, fail, ok } from '../../domain/errors.ts';
import type { AppError, Result } from '../../domain/errors.ts';
import type { JobSummary } from '../../domain/job-list.ts';
import { renameSong, restoreSong, trashSong } from '../../domain/library.ts';
import type { AppDeps } from '../deps.ts';
import { json } from '../core-docs.ts';
import { sendError } from '../error-response.ts';
import type { RouteDocs, SignedInCall } from '../route.ts';
import { describeIssues, jobSummarySchema, renameJobSchema, variantAErrorSchema } from '../schemas.ts';

export interface RenameInput {
  jobId: string;
  title: string;
}

const pathJobId = (req: Request) => (typeof req.params.job_id === 'string' ? req.params.job_id : '');

/** PATCH's path and body: a title of 1 to 200 characters (400 before the charge). */
export function renameInput(req: Request): Result<RenameInput> {
  const body = renameJobSchema.safeParse(req.body);
  if (!body.success) return fail(appError('VALIDATION_ERROR', 'Invalid title', { details: describeIssues(body.error) }));
  return ok({ jobId: pathJobId(req), title: body.data.title });
}

type LibraryWrite<Input> = (deps: Pick<AppDeps, 'db'>) => (call: SignedInCall<Input, never>) => Promise<void>;

function answering<Input>(
  act: (deps: Pick<AppDeps, 'db'>, userId: string, input: Input) => Promise<Result<JobSummary, AppError>>,
): LibraryWrite<Input> {
  return (deps) =>
    async ({ req, res, user, input }) => {
      const result = await act(deps, user.id, input);
      if (!result.ok) {
        sendError(req, res, result.error);
        return;
      }
      res.setHeader('Cache-Control', 'no-store');
      res.json(result.value satisfies z.infer<typeof jobSummarySchema>);
    };
}

export const renameJobHandler = answering<RenameInput>((deps, userId, input) => renameSong(deps.db, userId, input.jobId, input.title));
export const deleteJobHandler = answering<string>((deps, userId, jobId) => trashSong(deps.db, userId, jobId));
export const restoreJobHandler = answering<string>((deps, userId, jobId) => restoreSong(deps.db, userId, jobId));

const jobIdParams = z.object({ job_id: z.string().meta({ example: 'gen_0b5e0e43-4d4c-4f7e-9d7e-3f7a0f6b2a11' }) });
const errorA = (description: string) => json(variantAErrorSchema, description);
const common = {
  401: errorA('Missing or invalid token (AUTH_ERROR).'),
  404: errorA('No such job of yours (NOT_FOUND).'),
  429: errorA('Hourly limit (RATE_002).'),
};

export const renameJobDocs: RouteDocs = {
  tags: ['generation'],
  summary: 'Rename one of your songs that is not minted (extension of the spec)',
  description:
    "The library's name of the song (the job list's `title`): it names the song's downloads and is the mint form's suggestion. A minted song's name is the one in its metadata for good.",
  request: { params: jobIdParams, body: { content: { 'application/json': { schema: renameJobSchema } } } },
  responses: {
    200: json(jobSummarySchema, 'The song, renamed.'),
    400: errorA('A title empty, longer than 200 characters or with a NUL (VALIDATION_ERROR).'),
    ...common,
    409: errorA('The song is minted (LIBRARY_001) or in the trash (LIBRARY_002).'),
  },
};

export const deleteJobDocs: RouteDocs = {
  tags: ['generation'],
  summary: 'Move one of your songs to the trash (extension of the spec)',
  description:
    'The song leaves every view of the library but the trash (`GET /api/generate?filter=trash`); it cannot be downloaded, signed for minting or edited until restored. Its files stay until retention deletes them, 30 days after it was trashed (or 90 days after it was made, whichever is first); until then `POST /api/generate/{job_id}/restore` brings it back. A mint signature issued before still mints, and the song then leaves the trash. Deleting does not give back the generation. Deleting a trashed song answers 200 again.',
  request: { params: jobIdParams },
  responses: {
    200: json(jobSummarySchema, 'The song, in the trash (`deleted_at` set).'),
    ...common,
    409: errorA('The song is minted (LIBRARY_001), or still queued or processing: cancel it first (LIBRARY_004).'),
  },
};

export const restoreJobDocs: RouteDocs = {
  tags: ['generation'],
  summary: 'Take one of your songs out of the trash (extension of the spec)',
  description: 'Restoring a song in the library answers 200 again.',
  request: { params: jobIdParams },
  responses: {
    200: json(jobSummarySchema, 'The song, back in the library (`deleted_at` null).'),
    ...common,
    410: errorA('Retention deleted the song’s audio: it can no longer be restored (LIBRARY_003).'),
  },
};
