/**
 * POST /api/previews and GET /api/previews/{session_id} (docs/api.md "Previews (extension)";
 * the rules are oracle/src/domain/previews.ts). POST is charged the `preview` category in its
 * admission transaction; GET its category in one statement with the owner-only lookup (the
 * route table, ./route-table.ts).
 */
import type { Request } from 'express';
import { z } from 'zod';
import { JOB_STATUS } from '../../../../core/src/jobs/job-state.ts';
import { PREVIEW_RETENTION_HOURS, PREVIEW_URL_SECONDS } from '../../../../core/src/previews.ts';
import { appError, fail, ok } from '../../domain/errors.ts';
import type { AppError, Result } from '../../domain/errors.ts';
import { durationRefusal } from '../../domain/generation.ts';
import type { GenerationRequest } from '../../domain/generation.ts';
import { PREVIEW_DEFAULT_SECONDS, PREVIEW_MAX_SECONDS, PREVIEW_MIN_SECONDS, submitPreview, viewPreview } from '../../domain/previews.ts';
import type { PreviewRow } from '../../domain/previews.ts';
import { answerRefusal, setRateLimitHeaders } from '../charging.ts';
import type { AppDeps, PreviewServices } from '../deps.ts';
import { sendError } from '../error-response.ts';
import type { RouteDocs, SignedInCall } from '../route.ts';
import { describeIssues, errorCodeSchema, generateRequestSchema, idempotencyKeyHeaderSchema, variantAErrorSchema } from '../schemas.ts';
import { toSongInput } from './generate.ts';

export const previewRequestSchema = z
  .strictObject({
    prompt: generateRequestSchema.shape.prompt,
    duration: z
      .number()
      .int()
      .min(PREVIEW_MIN_SECONDS)
      .max(PREVIEW_MAX_SECONDS)
      .default(PREVIEW_DEFAULT_SECONDS)
      .meta({
        description: `Seconds of the clip, ${PREVIEW_MIN_SECONDS} to ${PREVIEW_MAX_SECONDS} (default ${PREVIEW_DEFAULT_SECONDS}).`,
        example: PREVIEW_DEFAULT_SECONDS,
      }),
    seed: generateRequestSchema.shape.seed,
    lyrics: generateRequestSchema.shape.lyrics,
    steps: generateRequestSchema.shape.steps,
    with_lyrics: generateRequestSchema.shape.with_lyrics,
  })
  .meta({ id: 'PreviewRequest' });

const sessionIdSchema = z.string().meta({ description: 'Server-generated preview session id.', example: 'prv_Jm3v0yq0cVd3mS2k1nQ1Xw8a' });
const expiresAtSchema = z.iso.datetime().meta({
  description: `When the preview is deleted: its request + ${PREVIEW_RETENTION_HOURS} hours (UTC). From then on the status answers 410 PREVIEW_EXPIRED.`,
});

export const previewAcceptedSchema = z
  .strictObject({
    session_id: sessionIdSchema,
    status: z.literal(JOB_STATUS.queued),
    estimated_time: z.number().int().meta({ description: 'Seconds until the preview is expected to complete.' }),
    position: z.number().int().meta({ description: 'Place in the generation queue; 1 starts next.' }),
  })
  .meta({ id: 'PreviewAccepted' });

export const previewStatusSchema = z
  .union([
    z.strictObject({
      session_id: sessionIdSchema,
      status: z.literal(JOB_STATUS.queued),
      progress: z.number().int(),
      estimated_remaining: z.number().int().meta({ description: 'Seconds.' }),
      position: z.number().int(),
      expires_at: expiresAtSchema,
    }),
    z.strictObject({
      session_id: sessionIdSchema,
      status: z.literal(JOB_STATUS.processing),
      progress: z.number().int(),
      estimated_remaining: z.number().int().meta({ description: 'Seconds.' }),
      expires_at: expiresAtSchema,
    }),
    z.strictObject({
      session_id: sessionIdSchema,
      status: z.literal(JOB_STATUS.completed),
      preview_url: z.url().meta({
        description: `Presigned GET URL of the private clip, valid ${PREVIEW_URL_SECONDS / 3600} hour; every status request issues a fresh one.`,
      }),
      url_expires_at: z.iso.datetime().meta({ description: 'When `preview_url` stops working (UTC).' }),
      expires_at: expiresAtSchema,
      audio_hash: z.string().meta({ description: '`0x` + SHA-256 of the clip bytes.' }),
      duration: z.number().int().meta({ description: 'Seconds of the clip.' }),
      created_at: z.iso.datetime(),
    }),
    z.strictObject({
      session_id: sessionIdSchema,
      status: z.literal(JOB_STATUS.failed),
      error: z.strictObject({ code: errorCodeSchema, message: z.string(), retry_after: z.number().int().optional() }),
      expires_at: expiresAtSchema,
    }),
  ])
  .meta({ id: 'PreviewStatus' });

export type PreviewRouterDeps = Pick<AppDeps, 'db' | 'boss' | 'queueCapacity' | 'now' | 'metrics' | 'logger'> & PreviewServices;

/** Schema issues to codes as for POST /api/generate: prompt → GEN_003, too long → GEN_004 (`durationRefusal`). */
function previewInputError(error: z.ZodError, body: unknown): AppError {
  const details = describeIssues(error);
  if (error.issues.some((issue) => issue.path[0] === 'prompt')) return appError('GEN_003', 'Invalid prompt', { details });
  if (error.issues.some((issue) => issue.path[0] === 'duration' && issue.code === 'too_big')) {
    const refusal = durationRefusal(Number((body as { duration?: unknown }).duration), { max: PREVIEW_MAX_SECONDS, of: 'preview' });
    if (refusal !== null) return refusal;
  }
  return appError('VALIDATION_ERROR', 'Invalid preview request', { details });
}

function previewNotFound(): AppError {
  // Unknown, malformed and others' session ids answer alike: no preview existence leaks.
  return appError('NOT_FOUND', 'Preview not found', { details: 'no preview with this session id belongs to you' });
}

export type PreviewInput = Omit<GenerationRequest, 'webhookUrl'>;

/** POST /api/previews's body. */
export function previewInput(req: Request): Result<PreviewInput> {
  const parsed = previewRequestSchema.safeParse(req.body);
  return parsed.success ? ok(toSongInput(parsed.data)) : fail(previewInputError(parsed.error, req.body));
}

/** POST /api/previews: admitted and charged in its admission transaction (`submitPreview`). */
export function createPreviewHandler(deps: PreviewRouterDeps): (call: SignedInCall<PreviewInput, never>) => Promise<void> {
  return async ({ req, res, user, input, admission }) => {
    if (admission === null) throw new Error('POST /api/previews without an admission charge');
    const result = await submitPreview(deps, user, input, admission);
    if (!result.ok) {
      answerRefusal(deps, req, res, result.error, admission.category);
      return;
    }
    const accepted = result.value;
    setRateLimitHeaders(res, accepted.limit);
    res.setHeader('Location', `/api/previews/${accepted.sessionId}`);
    res.status(202).json({
      session_id: accepted.sessionId,
      status: accepted.status,
      estimated_time: accepted.estimatedTime,
      position: accepted.position,
    } satisfies z.infer<typeof previewAcceptedSchema>);
  };
}

/** The `{session_id}` path parameter as given (a malformed one finds no preview: 404). */
export function sessionIdInput(req: Request): Result<string> {
  return ok(typeof req.params.session_id === 'string' ? req.params.session_id : '');
}

/** GET /api/previews/{session_id}: charged with the owner-only lookup (`ownPreviewLookup`) in one statement. */
export function previewHandler(deps: PreviewRouterDeps): (call: SignedInCall<string, PreviewRow>) => Promise<void> {
  return async ({ req, res, found: preview }) => {
    if (preview === null) {
      sendError(req, res, previewNotFound());
      return;
    }
    const view = await viewPreview(deps, preview);
    if (!view.ok) {
      sendError(req, res, view.error);
      return;
    }
    // Each answer carries a freshly signed URL: never cache it.
    res.setHeader('Cache-Control', 'no-store');
    res.json(view.value satisfies z.infer<typeof previewStatusSchema>);
  };
}

const error = (description: string) => ({ description, content: { 'application/json': { schema: variantAErrorSchema } } });
const rateLimitHeaders = z.object({
  'X-RateLimit-Limit': z.string().meta({ description: 'Hourly preview limit of the tier.' }),
  'X-RateLimit-Remaining': z.string().meta({ description: 'Remaining in the window.' }),
  'X-RateLimit-Reset': z.string().meta({ description: 'Unix timestamp (seconds) of the reset.' }),
});
export const createPreviewDocs: RouteDocs = {
  tags: ['previews'],
  summary: 'Queue a short preview of a prompt before a full generation (extension of the spec)',
  description: `A ${PREVIEW_MIN_SECONDS}-${PREVIEW_MAX_SECONDS} s clip (default ${PREVIEW_DEFAULT_SECONDS} s) made by the generation workers and stored privately at preview/<session_id>.mp3, reachable only through presigned URLs valid ${PREVIEW_URL_SECONDS / 3600} hour, deleted after ${PREVIEW_RETENTION_HOURS} hours. Charges the hourly \`preview\` limit (free 30, pro 300, enterprise 3000), never the daily generation counter. A preview is never mintable and is not a job of GET /api/generate.`,
  request: {
    headers: z.object({ 'Idempotency-Key': idempotencyKeyHeaderSchema }),
    body: { content: { 'application/json': { schema: previewRequestSchema } } },
  },
  responses: {
    202: {
      description: 'Preview queued; poll Location.',
      content: { 'application/json': { schema: previewAcceptedSchema } },
      headers: rateLimitHeaders,
    },
    400: error('Invalid input (VALIDATION_ERROR, GEN_003 prompt, GEN_004 duration above 15 s).'),
    401: error('Missing or invalid token (AUTH_ERROR).'),
    409: error('IDEM_002: a request with this Idempotency-Key is still running.'),
    422: error('IDEM_001: Idempotency-Key reused with a different request.'),
    429: error('Hourly preview limit (RATE_002).'),
    503: error('GEN_001 queue full, GEN_002 no GPU worker, or database unavailable.'),
  },
};

export const previewDocs: RouteDocs = {
  tags: ['previews'],
  summary: 'Preview status; when completed, a fresh one-hour signed URL of the clip (owner only)',
  request: { params: z.object({ session_id: sessionIdSchema }) },
  responses: {
    200: { description: 'Queued/processing, completed or failed.', content: { 'application/json': { schema: previewStatusSchema } } },
    401: error('Missing or invalid token (AUTH_ERROR).'),
    404: error('No such preview of yours (NOT_FOUND).'),
    410: error(`PREVIEW_EXPIRED: the preview is past its ${PREVIEW_RETENTION_HOURS} hours and its clip is deleted.`),
    429: error('Hourly limit (RATE_002).'),
    503: error('Object storage or database unavailable (SERVICE_UNAVAILABLE).'),
  },
};
