import type { Request, Response } from 'express';
import { JOB_TIME_LIMIT_SECONDS, toPublicJobId } from '../../../../core/src/generation-queue.ts';
import { JOB_STATUS, cancelJob, isFinished } from '../../../../core/src/jobs/job-state.ts';
import { appError, fail, ok } from '../../domain/errors.ts';
import type { AppError, Result } from '../../domain/errors.ts';
import { durationRefusal, submitGeneration } from '../../domain/generation.ts';
import type { AdmissionCharge, GenerationRequest } from '../../domain/generation.ts';
import { jobCursor, listJobs } from '../../domain/job-list.ts';
import type { JobListQuery } from '../../domain/job-list.ts';
import { findOwnJob, parsePublicJobId, viewJob } from '../../domain/jobs.ts';
import type { JobRecord, JobView } from '../../domain/jobs.ts';
import type { SessionUser } from '../../domain/request-charge.ts';
import type { EditRequest } from '../../domain/song-edits.ts';
import { DEFAULT_REMIX_STRENGTH } from '../../../../core/src/song-edits.ts';
import type { EditTask } from '../../../../core/src/song-edits.ts';
import { answerRefusal, setRateLimitHeaders } from '../charging.ts';
import type { AppDeps } from '../deps.ts';
import { sendError } from '../error-response.ts';
import { checkWebhookTarget } from '../../webhooks/target-url.ts';
import { bodyEtag, ifNoneMatchHits } from '../etag.ts';
import { editOfVariantB } from '../../domain/edit-of.ts';
import { losslessVariantB } from '../../domain/lossless.ts';
import type { SignedInCall } from '../route.ts';
import { describeIssues, generateRequestSchema, generateRequestVariantBSchema, jobListQuerySchema } from '../schemas.ts';
import type {
  generateAcceptedSchema,
  generateVariantBResultSchema,
  jobCancelledSchema,
  jobListSchema,
  jobStatusSchema,
} from '../schemas.ts';
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

/** Maps schema issues to the spec's codes: prompt → GEN_003, duration above the schema's bound → GEN_004 (`durationRefusal`). */
export function generationInputError(error: z.ZodError, body: unknown): AppError {
  const details = describeIssues(error);
  const fields = { issues: error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })) };
  if (error.issues.some((issue) => issue.path[0] === 'prompt')) return appError('GEN_003', 'Invalid prompt', { details, fields });
  const tooLong = error.issues.find((issue) => issue.path[0] === 'duration' && issue.code === 'too_big');
  if (tooLong !== undefined && tooLong.code === 'too_big') {
    const refusal = durationRefusal(Number((body as { duration?: unknown }).duration), { max: Number(tooLong.maximum), of: 'song' });
    if (refusal !== null) return refusal;
  }
  return appError('VALIDATION_ERROR', 'Invalid generation request', { details, fields });
}

type GenerateDeps = Pick<AppDeps, 'db' | 'boss' | 'queueCapacity' | 'now' | 'metrics' | 'logger' | 'webhookAllowList'>;

/** A song's request, as POST /api/generate (either variant) and POST /v1/music/generate take it. */
export type GenerateInput = { variant: 'A'; request: GenerationRequest } | { variant: 'B'; request: GenerationRequest };

/** POST /v1/music/generate and POST /api/generate without `Prefer: wait`: Variant A's body. */
export function variantAInput(req: Request): Result<GenerateInput> {
  const parsed = generateRequestSchema.safeParse(req.body);
  return parsed.success
    ? ok({ variant: 'A', request: toGenerationRequest(parsed.data) })
    : fail(generationInputError(parsed.error, req.body));
}

/** POST /api/generate: Variant B's body with `Prefer: wait`, Variant A's otherwise. */
export function generateInput(req: Request): Result<GenerateInput> {
  if (!wantsVariantB(req)) return variantAInput(req);
  const parsed = generateRequestVariantBSchema.safeParse(req.body);
  if (!parsed.success) return fail(generationInputError(parsed.error, req.body));
  const { edit, ...song } = parsed.data;
  return ok({
    variant: 'B',
    request: {
      ...song,
      steps: 27,
      withLyrics: false,
      ...(edit === undefined ? {} : { edit: toEditRequest({ jobId: edit.sourceJobId, uploadId: edit.sourceUploadId }, edit) }),
    },
  });
}

function admissionOf(call: { admission: AdmissionCharge | null }): AdmissionCharge {
  if (call.admission === null) throw new Error('a generation route without an admission charge');
  return call.admission;
}

/**
 * Submits a validated Variant A generation and answers it (also POST /v1/music/generate, whose
 * errors take the Variant C shape).
 */
async function handleGenerate(
  deps: GenerateDeps,
  req: Request,
  res: Response,
  user: SessionUser,
  request: GenerationRequest,
  charge: AdmissionCharge,
): Promise<void> {
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
  const result = await submitGeneration(deps, user, input, charge);
  if (!result.ok) {
    answerRefusal(deps, req, res, result.error, charge.category);
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
  return {
    ...toSongInput(body),
    ...(body.webhook === undefined ? {} : { webhookUrl: body.webhook }),
    ...(body.edit === undefined
      ? {}
      : { edit: toEditRequest({ jobId: body.edit.source_job_id, uploadId: body.edit.source_upload_id }, body.edit) }),
  };
}

/** An edit's source and parameters per task (the schema checked there is one source and which fields each task takes). */
function toEditRequest(
  ids: { jobId?: string | undefined; uploadId?: string | undefined },
  edit: { task: EditTask; start?: number | undefined; end?: number | undefined; strength?: number | undefined },
): EditRequest {
  const source: EditRequest['source'] = ids.uploadId === undefined ? { jobId: ids.jobId ?? '' } : { uploadId: ids.uploadId };
  switch (edit.task) {
    case 'extend':
      return { source, parameters: { task: 'extend' } };
    case 'repaint':
      return { source, parameters: { task: 'repaint', start: edit.start ?? 0, end: edit.end ?? 0 } };
    case 'remix':
      return { source, parameters: { task: 'remix', strength: edit.strength ?? DEFAULT_REMIX_STRENGTH } };
  }
}

const WAIT_POLL_MS = 250;

/** Polls until the job leaves the queue and processing, the deadline passes or the client leaves. */
async function waitForJob(
  deps: GenerateDeps,
  jobId: string,
  userId: string,
  deadline: number,
  gone: () => boolean,
): Promise<JobView | null> {
  for (;;) {
    const job = await findOwnJob(deps.db, jobId, userId);
    if (job === null) return null;
    if (isFinished(job.status) || Date.now() >= deadline || gone()) {
      return viewJob(deps.db, job, deps.now());
    }
    await new Promise((resolve) => setTimeout(resolve, WAIT_POLL_MS));
  }
}

async function handleGenerateVariantB(
  deps: GenerateDeps,
  req: Request,
  res: Response,
  user: SessionUser,
  request: GenerationRequest,
  charge: AdmissionCharge,
): Promise<void> {
  const result = await submitGeneration(deps, user, request, charge);
  if (!result.ok) {
    answerRefusal(deps, req, res, result.error, charge.category);
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
      contentCredentials: view.content_credentials,
      lossless: losslessVariantB(view.lossless),
      editOf: editOfVariantB(view.edit_of),
    } satisfies z.infer<typeof generateVariantBResultSchema>);
    return;
  }
  if (view.status === JOB_STATUS.failed) {
    sendError(
      req,
      res,
      appError('GEN_005', view.error.message, {
        details: 'generation failed',
        jobId: view.job_id,
        ...(view.error.retry_after === undefined ? {} : { retryAfter: view.error.retry_after }),
      }),
    );
    return;
  }
  // Still running at the job time limit: hand over to polling.
  res.setHeader('Location', `/api/generate/${view.job_id}`);
  res.status(202).json(view satisfies z.infer<typeof jobStatusSchema>);
}

/** POST /api/generate (Variant A, or Variant B with `Prefer: wait`) and POST /v1/music/generate. */
export function createJob(deps: GenerateDeps): (call: SignedInCall<GenerateInput, never>) => Promise<void> {
  return async (call) => {
    const { req, res, user, input } = call;
    if (input.variant === 'B') await handleGenerateVariantB(deps, req, res, user, input.request, admissionOf(call));
    else await handleGenerate(deps, req, res, user, input.request, admissionOf(call));
  };
}

/** 404 for an unknown, malformed or someone else's job id (the status, cancel and events routes). */
export function jobNotFound(publicId: string): AppError {
  return appError('NOT_FOUND', 'Job not found', { details: 'no job with this id belongs to you', jobId: publicId.slice(0, 64) });
}

/** The `{job_id}` path parameter as given (a malformed one finds no job: 404, never 400). */
export function jobIdInput(req: Request): Result<string> {
  return ok(typeof req.params.job_id === 'string' ? req.params.job_id : '');
}

/**
 * POST /{job_id}/cancel: the owner cancels a queued or processing job (a processing one stops at
 * the worker's next step); the daily generation is given back. Cancelling a cancelled job answers
 * the same 200 again; a completed or failed one is 409 CONFLICT; anyone else's is 404.
 */
export function cancelJobHandler(deps: Pick<AppDeps, 'db'>): (call: SignedInCall<string, never>) => Promise<void> {
  return async ({ req, res, user, input: publicId }) => {
    const id = parsePublicJobId(publicId);
    const result = id === null ? null : await cancelJob(deps.db, id, user.id);
    if (id === null || result === null || (!result.ok && result.error.code === 'not_found')) {
      sendError(req, res, jobNotFound(publicId));
      return;
    }
    const jobId = toPublicJobId(id);
    if (!result.ok && result.error.code === 'not_cancellable' && result.error.status !== JOB_STATUS.cancelled) {
      sendError(
        req,
        res,
        appError('CONFLICT', `The job is ${result.error.status} and can no longer be cancelled`, { details: result.error.message, jobId }),
      );
      return;
    }
    res.setHeader('Cache-Control', 'no-store');
    res.json({ job_id: jobId, status: JOB_STATUS.cancelled } satisfies z.infer<typeof jobCancelledSchema>);
  };
}

type JobListInput = JobListQuery;

/** GET /api/generate's query: a bad cursor or limit is 400 before the charge. */
export function jobListInput(req: Request): Result<JobListInput> {
  const query = jobListQuerySchema.safeParse(req.query);
  if (!query.success) return fail(appError('VALIDATION_ERROR', 'Invalid job list query', { details: describeIssues(query.error) }));
  const after = query.data.cursor === undefined ? null : jobCursor.decode(query.data.cursor);
  if (query.data.cursor !== undefined && after === null) {
    return fail(
      appError('VALIDATION_ERROR', 'Invalid job list query', {
        details: 'cursor: not a cursor this API issued (pass next_cursor back unchanged)',
      }),
    );
  }
  return ok({ after, limit: query.data.limit, filter: query.data.filter, ...(query.data.q === undefined ? {} : { search: query.data.q }) });
}

/** GET /?cursor=&limit=&filter=&q=: the caller's jobs, newest first (domain/job-list.ts). */
export function listJobsHandler(deps: Pick<AppDeps, 'db'>): (call: SignedInCall<JobListInput, never>) => Promise<void> {
  return async ({ res, user, input }) => {
    const page = await listJobs(deps.db, user.id, input);
    res.setHeader('Cache-Control', 'no-store');
    res.json(page satisfies z.infer<typeof jobListSchema>);
  };
}

/**
 * GET /api/generate/{job_id}, the route clients poll: the route table charges it with the
 * owner-only job lookup (`ownJobLookup`) in one statement, so an answer is one database round
 * trip (404 for unknown, malformed and others' ids alike).
 */
export function jobStatusHandler(deps: Pick<AppDeps, 'db' | 'now'>): (call: SignedInCall<string, JobRecord>) => Promise<void> {
  return async ({ req, res, input: publicId, found: job }) => {
    if (job === null) {
      sendError(req, res, jobNotFound(publicId));
      return;
    }
    const body = JSON.stringify((await viewJob(deps.db, job, deps.now())) satisfies z.infer<typeof jobStatusSchema>);
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
