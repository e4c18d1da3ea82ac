/**
 * POST /api/uploads (docs/api.md "Upload audio"; the rules are oracle/src/domain/uploads.ts): the
 * caller's own audio, the file itself as the body, kept privately so that an edit can start from
 * it (`edit.source_upload_id`). Charged to the general hourly category; every refusal (400, 413,
 * 415, a 429 UPLOAD_006 after the body) gives the charge back and stores nothing; an upload whose
 * decode ran past its time budget (422 UPLOAD_007), or whose client left before the answer, keeps
 * it. Before the body is read (`uploadBeforeBody`): a body with a `Content-Encoding` is refused
 * (415 UPLOAD_001: an upload is the file as it is, and a compressed body would be a bomb to
 * inflate), and so is one upload more than the caller may have in flight (429 UPLOAD_006); neither
 * is charged. The body must arrive at `UPLOAD_BODY_RATE` or faster (408 BODY_TOO_SLOW, uncharged),
 * and only once it is all here does the upload take one of the process's slots.
 */
import type { Request } from 'express';
import { z } from 'zod';
import { MAX_UPLOAD_CHANNELS, UPLOAD_FORMATS } from '../../../../core/src/audio/uploaded-audio.ts';
import { MAX_UPLOAD_BYTES, MIN_UPLOAD_SECONDS, UPLOAD_RETENTION_DAYS } from '../../../../core/src/uploads.ts';
import { DEFAULT_UPLOADS_IN_FLIGHT } from '../../domain/uploads-in-flight.ts';
import { DEFAULT_DECODE_SECONDS } from '../../../../core/src/audio/audio-prober.ts';
import { fail, ok } from '../../domain/errors.ts';
import type { Result } from '../../domain/errors.ts';
import { appError } from '../../domain/errors.ts';
import { normalizeShownLine, shownTextProblem } from '../../domain/shown-text.ts';
import { RIGHTS_STATEMENT, takeUpload } from '../../domain/uploads.ts';
import type { UploadDeps } from '../../domain/uploads.ts';
import type { UploadSlot, UploadsInFlight } from '../../domain/uploads-in-flight.ts';
import { sendError } from '../error-response.ts';
import type { BeforeBody, RouteDocs, SignedInCall } from '../route.ts';
import type { BodyRate } from '../raw-body.ts';
import { rateLimitHeaders } from '../core-docs.ts';
import { variantAErrorSchema } from '../schemas.ts';

/**
 * The least rate an upload's body arrives at (../raw-body.ts): 100 KiB/s after the first 5 s,
 * so a whole 100 MiB body has about 17 minutes (a slow home link of 1 Mbit/s is 122 KiB/s) and a
 * body that stalls is cut off within seconds of falling behind. A slow body holds only its
 * sender's own upload slots meanwhile, never one of the process's.
 */
export const UPLOAD_BODY_RATE: Readonly<BodyRate> = { bytesPerSecond: 100 * 1024, graceSeconds: 5 };

/** The header by which the uploader confirms `RIGHTS_STATEMENT`. */
export const RIGHTS_HEADER = 'Songmint-Rights-Confirmed';
/** The optional header naming the upload (the file's name, percent-encoded UTF-8): its edits are titled after it. */
export const UPLOAD_NAME_HEADER = 'Songmint-Upload-Name';
/** The longest upload name kept, in characters. */
export const MAX_UPLOAD_NAME_LENGTH = 200;

/**
 * The upload's name from its header: percent-decoded, a path's last part only (a browser may send
 * one), in the form of every text shown to others (../../domain/shown-text.ts: its edits are
 * titled after it on public song pages); undefined when absent or blank. Refused when it does not
 * decode, holds what such a text may not (control, bidi or invisible characters) or is longer than
 * `MAX_UPLOAD_NAME_LENGTH`.
 */
export function uploadName(header: string | undefined): Result<string | undefined> {
  if (header === undefined) return ok(undefined);
  let decoded: string | undefined;
  try {
    decoded = decodeURIComponent(header);
  } catch {
    decoded = undefined;
  }
  const name = decoded === undefined ? undefined : normalizeShownLine(decoded.split(/[\\/]/).at(-1) ?? '');
  const problem =
    name === undefined
      ? 'must be percent-encoded UTF-8 (encodeURIComponent)'
      : (shownTextProblem(name, { lineBreaks: false }) ??
        ([...name].length > MAX_UPLOAD_NAME_LENGTH ? `must be at most ${MAX_UPLOAD_NAME_LENGTH} characters` : null));
  if (problem !== null) {
    return fail(
      appError('VALIDATION_ERROR', 'Invalid upload name', {
        details: `${UPLOAD_NAME_HEADER} is the file's name, percent-encoded UTF-8 (encodeURIComponent): it ${problem}`,
        fields: { header: UPLOAD_NAME_HEADER },
      }),
    );
  }
  return ok(name === '' ? undefined : name);
}

export const uploadSchema = z
  .strictObject({
    upload_id: z.string().meta({ example: 'upl_5b0e7a52-3c1d-4f0e-9a51-0d2a7c9e4b13' }),
    name: z
      .string()
      .nullable()
      .meta({
        description: `The name sent with it (${UPLOAD_NAME_HEADER}); its edits are titled after it. Null when none was sent.`,
        example: 'chord.wav',
      }),
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
  name: string | undefined;
}

/** The body as sent (the route reads it raw) and the rights header; the checks are the domain's. */
export function uploadInput(req: Request): Result<UploadInput> {
  const body: unknown = req.body;
  const bytes = Buffer.isBuffer(body) ? new Uint8Array(body.buffer, body.byteOffset, body.byteLength) : new Uint8Array(0);
  const name = uploadName(req.get(UPLOAD_NAME_HEADER));
  if (!name.ok) return name;
  return ok({ bytes, rightsConfirmed: req.get(RIGHTS_HEADER)?.trim().toLowerCase() === 'true', name: name.value });
}

/** The request's `Content-Encoding` codings other than `identity` (none: the body is the file as sent). */
function contentCodings(req: Request): string[] {
  return (req.get('content-encoding') ?? '')
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
}

/** Where the route keeps the upload's slot between `uploadBeforeBody` and the handler. */
interface UploadLocals {
  uploadSlot?: UploadSlot;
}

/**
 * Refuses an encoded body and takes the caller's slot for the upload: given back when the answer
 * has closed and the work it admitted has ended; the client closing before its answer cancels
 * that work (its decode, queued or running).
 */
export function uploadBeforeBody(inFlight: UploadsInFlight): BeforeBody {
  return ({ req, res, claims }) => {
    const codings = contentCodings(req);
    if (codings.length > 0) {
      return appError('UPLOAD_001', 'Send the file as it is, without a Content-Encoding', {
        details: `Content-Encoding: ${codings.join(', ')} is not taken on uploads (nothing was inflated); WAV, FLAC and MP3 are compressed enough`,
      });
    }
    const slot = inFlight.take(claims.userId);
    if (!slot.ok) return slot.error;
    (res.locals as UploadLocals).uploadSlot = slot.value;
    res.once('close', () => slot.value.close(res.writableFinished));
    return null;
  };
}

/**
 * POST /api/uploads. The body is here: the upload takes one of the process's slots (UPLOAD_006,
 * given back, when all are held) and holds it until its decode and store have ended. A client
 * that left is not answered and its hourly charge stands: its decode was cancelled, but receiving
 * and starting it cost the server, and a loop of aborted uploads meets the hourly limit.
 */
export function uploadHandler(deps: UploadDeps): (call: SignedInCall<UploadInput, never>) => Promise<void> {
  return async ({ req, res, user, input }) => {
    const slot = (res.locals as UploadLocals).uploadSlot;
    if (slot === undefined) throw new Error('POST /api/uploads: no slot was taken before its body');
    const admitted = slot.admit();
    if (!admitted.ok) {
      sendError(req, res, admitted.error);
      return;
    }
    const taken = await slot.hold(takeUpload(deps, user, input.bytes, input.rightsConfirmed, slot.signal, input.name));
    if (slot.signal.aborted) return;
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
  description: `The file itself is the body, as it is (no \`Content-Encoding\`): WAV (16, 24 or 32-bit integer PCM, 32-bit float), FLAC (16 or 24-bit) or MP3, 8 to 192 kHz, 1 to ${MAX_UPLOAD_CHANNELS} channels, at most ${MAX_UPLOAD_BYTES} bytes, at least ${MIN_UPLOAD_SECONDS} s and at most your tier's maximum song duration (free 30 s, pro 120 s, enterprise 240 s). The body must arrive at ${UPLOAD_BODY_RATE.bytesPerSecond / 1024} KiB/s or faster after its first ${UPLOAD_BODY_RATE.graceSeconds} s (408 BODY_TOO_SLOW, connection closed, not charged). It is decoded on arrival, in turn with other accounts' uploads, and decoding stops as soon as it passes your tier's maximum or ${DEFAULT_DECODE_SECONDS} s of decoding (422 UPLOAD_007: the hourly charge stands); a free-format MP3 is refused at once (415 UPLOAD_001). At most ${DEFAULT_UPLOADS_IN_FLIGHT.perUser} of your uploads are taken at once (the operator may change it); closing the connection before the answer cancels the upload's decode and keeps its hourly charge; what is taken is kept privately, exactly as uploaded, for ${UPLOAD_RETENTION_DAYS} days, then deleted. Audio that contains a song made for another account, signed or not, however re-encoded, is refused (409 UPLOAD_005; docs/fingerprints.md), unless that song itself holds an earlier song of yours. Use its \`upload_id\` as \`edit.source_upload_id\` of POST /api/generate to extend, repaint or remix it; the edit's content credentials name the upload (its SHA-256 and format) as their parent ingredient. The header \`${RIGHTS_HEADER}: true\` confirms, and the upload records, this statement: "${RIGHTS_STATEMENT}" Charged to the general hourly limit; a refusal is given back and stores nothing.`,
  request: {
    headers: z.object({
      [RIGHTS_HEADER]: z.literal('true').meta({ description: 'Confirms the rights statement above (required).' }),
      [UPLOAD_NAME_HEADER]: z
        .string()
        .optional()
        .meta({
          description: `The file's name, percent-encoded UTF-8 (encodeURIComponent), at most ${MAX_UPLOAD_NAME_LENGTH} characters (optional): the upload's \`name\`, after which its edits are titled. A name that does not decode, or too long, is 400 VALIDATION_ERROR.`,
          example: 'chord.wav',
        }),
    }),
    body: {
      required: true,
      content: { 'audio/wav': audio, 'audio/flac': audio, 'audio/mpeg': audio, 'application/octet-stream': audio },
    },
  },
  responses: {
    201: { description: 'Upload taken.', content: { 'application/json': { schema: uploadSchema } }, headers: rateLimitHeaders },
    400: error(
      `VALIDATION_ERROR a ${UPLOAD_NAME_HEADER} that does not decode or is too long; UPLOAD_004 rights not confirmed; UPLOAD_002 the audio does not decode (a FLAC frame that contradicts its STREAMINFO included); UPLOAD_003 no audio or shorter than ${MIN_UPLOAD_SECONDS} s; GEN_004 longer than your tier allows.`,
    ),
    401: error('Missing or invalid token (AUTH_ERROR).'),
    409: error(
      'UPLOAD_005: the audio contains a song made for another account (signed or not), however re-encoded, filtered, overlaid, cut, sped up or transposed (by its landmark fingerprint; named in `error.earlier_song`), or, where the operator configured an AcoustID-compatible lookup, a recording that service knows. Nothing stored; the hourly charge is given back. STORAGE_001: the file (every byte of it, metadata chunks included) would pass your storage quota; refused before it is decoded or stored, the hourly charge given back.',
    ),
    408: error(
      `BODY_TOO_SLOW: the body fell behind ${UPLOAD_BODY_RATE.bytesPerSecond / 1024} KiB/s after its first ${UPLOAD_BODY_RATE.graceSeconds} s; the connection is closed and nothing is charged.`,
    ),
    413: error(`The file is larger than ${MAX_UPLOAD_BYTES} bytes (PAYLOAD_TOO_LARGE).`),
    415: error(
      'UPLOAD_001: not WAV, FLAC or MP3, or an encoding, sample rate (8-192 kHz) or channel count of them not taken, a free-format MP3 frame, an MP3 whose rate or channels change mid-stream, or a body sent with a Content-Encoding (gzip or any other: refused unread, never inflated).',
    ),
    422: error(
      `UPLOAD_007: decoding it took longer than ${DEFAULT_DECODE_SECONDS} s (the decode is stopped there); the time was spent, so the hourly charge stands.`,
    ),
    429: error(
      "UPLOAD_006: too many of your uploads in flight (refused before the body is read), or of this server's or its decode queue's (refused once the body is here); never charged; see Retry-After. RATE_002: hourly limit.",
    ),
    503: error('Object storage or database unavailable (SERVICE_UNAVAILABLE).'),
  },
};
