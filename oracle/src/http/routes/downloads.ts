/**
 * GET /api/generate/{job_id}/download/{format} (docs/api.md "Downloads"; the rules are
 * oracle/src/domain/downloads.ts): the owner's one-hour URL of a song's MP3, WAV or FLAC, saved
 * under the song's name. Charged to the general category with the owner-only job lookup in one
 * statement, as the status route.
 */
import type { Request } from 'express';
import { z } from 'zod';
import { appError, fail, ok } from '../../domain/errors.ts';
import type { Result } from '../../domain/errors.ts';
import type { JobRecord } from '../../domain/jobs.ts';
import { DOWNLOAD_FORMATS, DOWNLOAD_URL_SECONDS, songDownload } from '../../domain/downloads.ts';
import type { DownloadFormat } from '../../domain/downloads.ts';
import type { AppDeps, PreviewServices } from '../deps.ts';
import { sendError } from '../error-response.ts';
import type { RouteDocs, SignedInCall } from '../route.ts';
import { variantAErrorSchema } from '../schemas.ts';
import { jobNotFound } from './generate.ts';

export const downloadLinkSchema = z
  .strictObject({
    job_id: z.string(),
    format: z.enum(DOWNLOAD_FORMATS),
    content_type: z.string().meta({ example: 'audio/flac' }),
    bytes: z.number().int(),
    file_name: z.string().meta({
      description:
        "The name the file is saved under: `<title> - <first 8 hex digits of the job id>.<format>`, the song's name (minted name, title, else its prompt) with characters no file system takes replaced.",
      example: 'Night drive - 3f1c2b9e.flac',
    }),
    url: z.url().meta({
      description: `Presigned GET URL of the file, valid ${DOWNLOAD_URL_SECONDS / 3600} hour; every request issues a fresh one. It answers with \`Content-Disposition: attachment\` naming \`file_name\` (RFC 6266, \`filename*\` in UTF-8), so a browser saves the file.`,
    }),
    expires_at: z.iso.datetime().meta({ description: 'When `url` stops working (UTC).' }),
  })
  .meta({ id: 'SongDownload' });

export interface DownloadInput {
  jobId: string;
  format: DownloadFormat;
}

/** The path's job id (a malformed one finds no job: 404) and format (anything but mp3, wav or flac: 400, before the charge). */
export function downloadInput(req: Request): Result<DownloadInput> {
  const format = z.enum(DOWNLOAD_FORMATS).safeParse(req.params.format);
  if (!format.success) {
    return fail(appError('VALIDATION_ERROR', 'Unknown download format', { details: `format: one of ${DOWNLOAD_FORMATS.join(', ')}` }));
  }
  return ok({ jobId: typeof req.params.job_id === 'string' ? req.params.job_id : '', format: format.data });
}

/** GET /api/generate/{job_id}/download/{format}. */
export function downloadHandler(
  deps: Pick<AppDeps, 'now'> & PreviewServices,
): (call: SignedInCall<DownloadInput, JobRecord>) => Promise<void> {
  return async ({ req, res, input, found: job }) => {
    if (job === null) {
      sendError(req, res, jobNotFound(input.jobId));
      return;
    }
    const link = await songDownload(deps.objectStore, job, input.format, deps.now());
    if (!link.ok) {
      sendError(req, res, link.error);
      return;
    }
    // Each answer carries a freshly signed URL: never cache it.
    res.setHeader('Cache-Control', 'no-store');
    res.json(link.value satisfies z.infer<typeof downloadLinkSchema>);
  };
}

const error = (description: string) => ({ description, content: { 'application/json': { schema: variantAErrorSchema } } });

export const downloadDocs: RouteDocs = {
  tags: ['generation'],
  summary: "A one-hour download URL of a song's MP3, WAV or FLAC, saved under the song's name (owner only; extension of the spec)",
  description:
    "The MP3 is the published file (`audio_url`, the one `audio_hash` and the mint signature cover). The WAV and FLAC hold the exact PCM the MP3 was encoded from (24-bit integer, the model's sample rate) and carry the same signed C2PA manifest; they are private. This route answers a presigned GET URL valid one hour whose answer is an attachment named `file_name`.",
  request: {
    params: z.object({
      job_id: z.string().meta({ example: 'gen_3f1c2b9e-7a4d-4e55-9b0a-2d6f8c1e5a70' }),
      format: z.enum(DOWNLOAD_FORMATS),
    }),
  },
  responses: {
    200: { description: 'The download URL.', content: { 'application/json': { schema: downloadLinkSchema } } },
    400: error('The format is not mp3, wav or flac (VALIDATION_ERROR).'),
    401: error('Missing or invalid token (AUTH_ERROR).'),
    404: error(
      'No such job of yours, not completed yet, its lossless files still being made (`retry_after` 2 s), a song without lossless files (made before they were kept, or not made), or whose audio retention deleted (NOT_FOUND).',
    ),
    409: error('The song is in the trash: restore it first (LIBRARY_002).'),
    429: error('Hourly limit (RATE_002).'),
    503: error('Object storage or database unavailable (SERVICE_UNAVAILABLE).'),
  },
};
