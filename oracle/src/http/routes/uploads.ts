/**
 * POST /api/uploads (docs/api.md "Upload audio"; the rules are oracle/src/domain/uploads.ts): the
 * caller's own audio, the file itself as the body, kept privately so that an edit can start from
 * it (`edit.source_upload_id`). Charged to the general hourly category; every refusal (400, 413,
 * 415) gives the charge back and stores nothing.
 */
import type { Request } from 'express';
import { z } from 'zod';
import { MAX_UPLOAD_CHANNELS, UPLOAD_FORMATS } from '../../../../core/src/audio/uploaded-audio.ts';
import { MAX_UPLOAD_BYTES, MIN_UPLOAD_SECONDS, UPLOAD_RETENTION_DAYS } from '../../../../core/src/uploads.ts';
import { ok } from '../../domain/errors.ts';
import type { Result } from '../../domain/errors.ts';
import { RIGHTS_STATEMENT, takeUpload } from '../../domain/uploads.ts';
import type { UploadDeps } from '../../domain/uploads.ts';
import { sendError } from '../error-response.ts';
import type { RouteDocs, SignedInCall } from '../route.ts';
import { rateLimitHeaders } from '../core-docs.ts';
import { variantAErrorSchema } from '../schemas.ts';

/** The header by which the uploader confirms `RIGHTS_STATEMENT`. */
export const RIGHTS_HEADER = 'Songmint-Rights-Confirmed';

export const uploadSchema = z
  .strictObject({
    upload_id: z.string().meta({ example: 'upl_5b0e7a52-3c1d-4f0e-9a51-0d2a7c9e4b13' }),
    format: z.enum(UPLOAD_FORMATS),
    duration: z.number().meta({ description: 'Seconds, as decoded (to the millisecond). An edit works on its whole seconds.' }),
    sample_rate: z.number().int(),
    channels: z.number().int().min(1).max(MAX_UPLOAD_CHANNELS),
    bytes: z.number().int(),
    sha256: z
      .string()
      .regex(/^0x[0-9a-f]{64}$/)
      .meta({ description: 'SHA-256 of the file as uploaded; edits made from it name it.' }),
    rights_confirmed_at: z.iso.datetime().meta({ description: 'When the uploader confirmed the rights statement (recorded with it).' }),
    created_at: z.iso.datetime(),
    expires_at: z.iso.datetime().meta({ description: `When retention deletes the file (${UPLOAD_RETENTION_DAYS} days after the upload).` }),
  })
  .meta({ id: 'Upload' });

export interface UploadInput {
  bytes: Uint8Array;
  rightsConfirmed: boolean;
}

/** The body as sent (the route reads it raw) and the rights header; the checks are the domain's. */
export function uploadInput(req: Request): Result<UploadInput> {
  const body: unknown = req.body;
  const bytes = Buffer.isBuffer(body) ? new Uint8Array(body.buffer, body.byteOffset, body.byteLength) : new Uint8Array(0);
  return ok({ bytes, rightsConfirmed: req.get(RIGHTS_HEADER)?.trim().toLowerCase() === 'true' });
}

/** POST /api/uploads. */
export function uploadHandler(deps: UploadDeps): (call: SignedInCall<UploadInput, never>) => Promise<void> {
  return async ({ req, res, user, input }) => {
    const taken = await takeUpload(deps, user, input.bytes, input.rightsConfirmed);
    if (!taken.ok) {
      sendError(req, res, taken.error);
      return;
    }
    res.setHeader('Cache-Control', 'no-store');
    res.status(201).json(taken.value satisfies z.infer<typeof uploadSchema>);
  };
}

const error = (description: string) => ({ description, content: { 'application/json': { schema: variantAErrorSchema } } });
const audio = { schema: z.string().meta({ format: 'binary' }) };

export const uploadDocs: RouteDocs = {
  tags: ['generation'],
  summary: 'Upload audio of your own to edit (extension of the spec)',
  description: `The file itself is the body: WAV (16, 24 or 32-bit integer PCM, 32-bit float), FLAC (16 or 24-bit) or MP3, at most ${MAX_UPLOAD_BYTES} bytes, at least ${MIN_UPLOAD_SECONDS} s and at most your tier's maximum song duration (free 30 s, pro 120 s, enterprise 240 s). It is decoded on arrival; what is taken is kept privately, exactly as uploaded, for ${UPLOAD_RETENTION_DAYS} days, then deleted. Use its \`upload_id\` as \`edit.source_upload_id\` of POST /api/generate to extend, repaint or remix it; the edit's content credentials name the upload (its SHA-256 and format) as their parent ingredient. The header \`${RIGHTS_HEADER}: true\` confirms, and the upload records, this statement: "${RIGHTS_STATEMENT}" Charged to the general hourly limit; a refusal is given back and stores nothing.`,
  request: {
    headers: z.object({
      [RIGHTS_HEADER]: z.literal('true').meta({ description: 'Confirms the rights statement above (required).' }),
    }),
    body: {
      required: true,
      content: { 'audio/wav': audio, 'audio/flac': audio, 'audio/mpeg': audio, 'application/octet-stream': audio },
    },
  },
  responses: {
    201: { description: 'Upload taken.', content: { 'application/json': { schema: uploadSchema } }, headers: rateLimitHeaders },
    400: error(
      `UPLOAD_004 rights not confirmed; UPLOAD_002 the audio does not decode; UPLOAD_003 no audio or shorter than ${MIN_UPLOAD_SECONDS} s; GEN_004 longer than your tier allows.`,
    ),
    401: error('Missing or invalid token (AUTH_ERROR).'),
    413: error(`The file is larger than ${MAX_UPLOAD_BYTES} bytes (PAYLOAD_TOO_LARGE).`),
    415: error('UPLOAD_001: not WAV, FLAC or MP3, or an encoding of them not taken.'),
    429: error('Hourly limit (RATE_002).'),
    503: error('Object storage or database unavailable (SERVICE_UNAVAILABLE).'),
  },
};
