import { Router } from 'express';
import type { Request, RequestHandler, Response } from 'express';
import { JOB_TIME_LIMIT_SECONDS, toPublicJobId } from '../../../../core/src/generation-queue.ts';
import { JOB_STATUS, cancelJob, isFinished } from '../../../../core/src/jobs/job-state.ts';
import { appError } from '../../domain/errors.ts';
import type { AppError } from '../../domain/errors.ts';
import { submitGeneration } from '../../domain/generation.ts';
import type { GenerationRequest } from '../../domain/generation.ts';
import { decodeCursor, listJobs } from '../../domain/job-list.ts';
import { CHARGE_AND_FIND_JOB, findOwnJob, foundJob, parsePublicJobId, viewJob } from '../../domain/jobs.ts';
import type { JobRow, JobView } from '../../domain/jobs.ts';
import { chargeRequest } from '../../domain/request-charge.ts';
import type { RateCategory } from '../../domain/request-charge.ts';
import { authenticatedUser, bearerClaims } from '../auth.ts';
import { admitCharged, answerRefusal, chargeAuthenticated, setRateLimitHeaders } from '../charging.ts';
import type { AppDeps } from '../deps.ts';
import { sendError } from '../error-response.ts';
import { checkWebhookTarget } from '../../webhooks/target-url.ts';
import { bodyEtag, ifNoneMatchHits } from '../etag.ts';
import { idempotent } from '../idempotency.ts';
import { describeIssues, generateRequestSchema, generateRequestVariantBSchema, jobListQuerySchema } from '../schemas.ts';
import type { generateAcceptedSchema, generateVariantBResultSchema, jobCancelledSchema, jobListSchema, jobStatusSchema } from '../schemas.ts';
import type { z } from 'zod';

/**
 * A request is Variant B (synchronous, camelCase response) when it says so with the RFC 7240
 * header `Prefer: wait`; its body then has only `prompt` and `duration`. Without the header the
 * request is Variant A (job based).
 */
export function wantsVariantB(req: Request): boolean {
  const prefer = req.get('prefer');
  return prefer !== undefined && prefer.split(/[,;]/).some((token) => token.trim().toLowerCase() === 'wait');
}

/** Maps schema issues to the spec's codes: prompt → GEN_003, duration above 240 → GEN_004. */
export function generationInputError(error: z.ZodError): AppError {
  const details = describeIssues(error);
  const fields = { issues: error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })) };
  if (error.issues.some((issue) => issue.path[0] === 'prompt')) return appError('GEN_003', 'Invalid prompt', { details, fields });
  if (error.issues.some((issue) => issue.path[0] === 'duration' && issue.code === 'too_big')) {
    return appError('GEN_004', 'Duration exceeds the maximum of 240 seconds', { details, fields });
  }
  return appError('VALIDATION_ERROR', 'Invalid generation request', { details, fields });
}

type GenerateDeps = Pick<AppDeps, 'db' | 'boss' | 'queueCapacity' | 'now' | 'metrics' | 'logger' | 'webhookAllowList'>;

/**
 * Submits a validated Variant A generation and answers it (also POST /v1/music/generate, whose
 * errors take the Variant C shape).
 */
export async function handleGenerate(deps: GenerateDeps, req: Request, res: Response, request: GenerationRequest): Promise<void> {
  let input = request;
  if (input.webhookUrl !== undefined) {
    // Before submit: a refused webhook charges nothing and creates no job.
    const target = checkWebhookTarget(input.webhookUrl, deps.webhookAllowList ?? []);
    if (!target.ok) {
      sendError(req, res, appError('VALIDATION_ERROR', 'Invalid generation request', { details: `webhook: ${target.error.message}` }));
      return;
    }
    input = { ...input, webhookUrl: target.value };
  }
  const user = authenticatedUser(req);
  const result = await submitGeneration(deps, user, input);
  if (!result.ok) {
    answerRefusal(deps, req, res, result.error, 'generation');
    return;
  }
  const accepted = result.value;
  setRateLimitHeaders(res, accepted.limit);
  res.setHeader('Location', `/api/generate/${accepted.publicJobId}`);
  res.status(202).json({
    job_id: accepted.publicJobId,
    status: accepted.status,
    estimated_time: accepted.estimatedTime,
    position: accepted.position,
  } satisfies z.infer<typeof generateAcceptedSchema>);
}

type SongInputFields = Pick<z.infer<typeof generateRequestSchema>, 'prompt' | 'duration' | 'steps' | 'with_lyrics' | 'seed' | 'lyrics'>;

/** The fields a song and a preview share (POST /api/previews takes the same ones). */
export function toSongInput(body: SongInputFields): Omit<GenerationRequest, 'webhookUrl'> {
  return {
    prompt: body.prompt,
    duration: body.duration,
    steps: body.steps,
    withLyrics: body.with_lyrics,
    ...(body.seed === undefined ? {} : { seed: BigInt(body.seed) }),
    ...(body.lyrics === undefined ? {} : { lyrics: body.lyrics }),
  };
}

export function toGenerationRequest(body: z.infer<typeof generateRequestSchema>): GenerationRequest {
  return { ...toSongInput(body), ...(body.webhook === undefined ? {} : { webhookUrl: body.webhook }) };
}

const WAIT_POLL_MS = 250;

/** Polls until the job leaves the queue and processing, the deadline passes or the client leaves. */
async function waitForJob(deps: GenerateDeps, jobId: string, userId: string, deadline: number, gone: () => boolean): Promise<JobView | null> {
  for (;;) {
    const job = await findOwnJob(deps.db, jobId, userId);
    if (job === null) return null;
    if (isFinished(job.status) || Date.now() >= deadline || gone()) {
      return viewJob(deps.db, job, deps.now());
    }
    await new Promise((resolve) => setTimeout(resolve, WAIT_POLL_MS));
  }
}

async function handleGenerateVariantB(deps: GenerateDeps, req: Request, res: Response): Promise<void> {
  const parsed = generateRequestVariantBSchema.safeParse(req.body);
  if (!parsed.success) {
    sendError(req, res, generationInputError(parsed.error));
    return;
  }
  const user = authenticatedUser(req);
  const result = await submitGeneration(deps, user, { ...parsed.data, steps: 27, withLyrics: false });
  if (!result.ok) {
    answerRefusal(deps, req, res, result.error, 'generation');
    return;
  }
  setRateLimitHeaders(res, result.value.limit);
  res.setHeader('Preference-Applied', 'wait');
  let closed = false;
  res.on('close', () => {
    closed = true;
  });
  const deadline = Date.now() + JOB_TIME_LIMIT_SECONDS * 1000;
  const view = await waitForJob(deps, result.value.jobId, user.id, deadline, () => closed);
  if (closed) return;
  if (view === null) throw new Error('job vanished while waiting');
  if (view.status === JOB_STATUS.completed) {
    res.json({
      audioUrl: view.audio_url,
      audioHash: view.audio_hash,
      duration: view.duration,
      lyrics: view.lyrics,
      model: view.model,
    } satisfies z.infer<typeof generateVariantBResultSchema>);
    return;
  }
  if (view.status === JOB_STATUS.failed) {
    sendError(req, res, appError('GEN_005', view.error.message, { details: 'generation failed', jobId: view.job_id, ...(view.error.retry_after === undefined ? {} : { retryAfter: view.error.retry_after }) }));
    return;
  }
  // Still running at the job time limit: hand over to polling.
  res.setHeader('Location', `/api/generate/${view.job_id}`);
  res.status(202).json(view satisfies z.infer<typeof jobStatusSchema>);
}

/** 404 for an unknown, malformed or someone else's job id (the status, cancel and events routes). */
export function jobNotFound(publicId: string): AppError {
  return appError('NOT_FOUND', 'Job not found', { details: 'no job with this id belongs to you', jobId: publicId.slice(0, 64) });
}

/**
 * POST /{job_id}/cancel: the owner cancels a queued or processing job (a processing one stops at
 * the worker's next step); the daily generation is given back. Cancelling a cancelled job answers
 * the same 200 again; a completed or failed one is 409 CONFLICT; anyone else's is 404.
 */
async function handleCancel(deps: GenerateDeps, req: Request, res: Response): Promise<void> {
  const publicId = typeof req.params.job_id === 'string' ? req.params.job_id : '';
  const id = parsePublicJobId(publicId);
  const user = authenticatedUser(req);
  const result = id === null ? null : await cancelJob(deps.db, id, user.id);
  if (id === null || result === null || (!result.ok && result.error.code === 'not_found')) {
    sendError(req, res, jobNotFound(publicId));
    return;
  }
  const jobId = toPublicJobId(id);
  if (!result.ok && result.error.code === 'not_cancellable' && result.error.status !== JOB_STATUS.cancelled) {
    sendError(req, res, appError('CONFLICT', `The job is ${result.error.status} and can no longer be cancelled`, { details: result.error.message, jobId }));
    return;
  }
  res.setHeader('Cache-Control', 'no-store');
  res.json({ job_id: jobId, status: JOB_STATUS.cancelled } satisfies z.infer<typeof jobCancelledSchema>);
}

/**
 * GET /?cursor=&limit=: the caller's jobs, newest first (domain/job-list.ts). The query is
 * validated before the hourly charge, so bad input is never counted.
 */
async function handleList(deps: GenerateDeps, req: Request, res: Response, category: RateCategory): Promise<void> {
  const query = jobListQuerySchema.safeParse(req.query);
  if (!query.success) {
    sendError(req, res, appError('VALIDATION_ERROR', 'Invalid job list query', { details: describeIssues(query.error) }));
    return;
  }
  const after = query.data.cursor === undefined ? null : decodeCursor(query.data.cursor);
  if (query.data.cursor !== undefined && after === null) {
    sendError(req, res, appError('VALIDATION_ERROR', 'Invalid job list query', { details: 'cursor: not a cursor this API issued (pass next_cursor back unchanged)' }));
    return;
  }
  const user = authenticatedUser(req);
  const charge = await chargeRequest({ db: deps.db, chargee: { user }, category, now: deps.now() });
  if (!admitCharged(deps, req, res, charge, category)) return;
  const page = await listJobs(deps.db, user.id, { after, limit: query.data.limit });
  res.setHeader('Cache-Control', 'no-store');
  res.json(page satisfies z.infer<typeof jobListSchema>);
}

/** The hourly categories of the router's routes other than POST / (ROUTE_CHARGES in app.ts). */
export interface GenerateRouterCharges {
  list: RateCategory;
  cancel: RateCategory;
}

/**
 * POST / (Variant A or, with `Prefer: wait`, Variant B), GET / (list) and POST /{job_id}/cancel;
 * mounted at /api/generate behind `authenticate`.
 */
export function generateRouter(deps: GenerateDeps, charges: GenerateRouterCharges): Router {
  const router = Router();
  router.get('/', async (req, res) => {
    await handleList(deps, req, res, charges.list);
  });
  router.post('/:job_id/cancel', chargeAuthenticated(deps, charges.cancel), async (req, res) => {
    await handleCancel(deps, req, res);
  });
  router.post('/', idempotent(deps, { varyOn: ['prefer'] }), async (req, res) => {
    if (wantsVariantB(req)) {
      await handleGenerateVariantB(deps, req, res);
      return;
    }
    const parsed = generateRequestSchema.safeParse(req.body);
    if (!parsed.success) {
      sendError(req, res, generationInputError(parsed.error));
      return;
    }
    await handleGenerate(deps, req, res, toGenerationRequest(parsed.data));
  });
  return router;
}

/**
 * GET /api/generate/{job_id}, the route clients poll: bearer token (401), the user, the hourly
 * charge of `category` (429) and the owner-only job lookup (404 for unknown, malformed and others'
 * ids alike) in one database round trip (`chargeRequest` with `CHARGE_AND_FIND_JOB`). Mounted on the app itself,
 * before the /api/generate router, so it does not also run `authenticate`.
 */
export function jobStatusHandler(deps: GenerateDeps & Pick<AppDeps, 'session'>, category: RateCategory): RequestHandler {
  const claimsOf = bearerClaims(deps);
  return async (req, res) => {
    const claims = await claimsOf(req, res);
    if (claims === null) return;
    const publicId = typeof req.params.job_id === 'string' ? req.params.job_id : '';
    const now = deps.now();
    const charge = await chargeRequest<JobRow>({
      db: deps.db,
      chargee: { session: claims, lookup: { statement: CHARGE_AND_FIND_JOB, values: [parsePublicJobId(publicId)] } },
      category,
      now,
    });
    if (!admitCharged(deps, req, res, charge, category)) return;
    const job = charge.kind === 'charged' ? foundJob(charge.row) : null;
    if (job === null) {
      sendError(req, res, jobNotFound(publicId));
      return;
    }
    const body = JSON.stringify((await viewJob(deps.db, job, now)) satisfies z.infer<typeof jobStatusSchema>);
    const etag = bodyEtag(body);
    // `no-cache`, not `no-store`: a client may keep the view but must revalidate it every time.
    res.setHeader('Cache-Control', 'private, no-cache').setHeader('ETag', etag);
    if (ifNoneMatchHits(req.get('if-none-match'), etag)) {
      res.status(304).end();
      return;
    }
    res.type('application/json').send(body);
  };
}
