/**
 * What /openapi.json says of the core routes (sign-in, generation, Variant C's generate and
 * profile, health, metrics): the route table (./route-table.ts) pairs each with its method, path,
 * operationId, security and handler.
 */
import { z } from 'zod';
import {
  dailyLimitErrorSchema,
  generateAcceptedSchema,
  generateRequestSchema,
  generateRequestVariantBSchema,
  generateVariantBResultSchema,
  healthSchema,
  idempotencyKeyHeaderSchema,
  jobCancelledSchema,
  jobListQuerySchema,
  jobListSchema,
  jobStatusSchema,
  livenessSchema,
  nonceResponseSchema,
  profileSchema,
  readinessSchema,
  sessionTokenSchema,
  variantAErrorSchema,
  variantCErrorSchema,
  verifyRequestSchema,
} from './schemas.ts';
import type { RouteDocs } from './route.ts';

export const json = <T extends z.ZodType>(schema: T, description: string) => ({ description, content: { 'application/json': { schema } } });

export const rateLimitHeaders = z.object({
  'X-RateLimit-Limit': z.string().meta({ description: 'Maximum allowed in the window (the tighter of the daily and hourly limits).' }),
  'X-RateLimit-Remaining': z.string().meta({ description: 'Remaining in the window.' }),
  'X-RateLimit-Reset': z.string().meta({ description: 'Unix timestamp (seconds) of the reset.' }),
});

/** The answers `idempotent` adds to a route (./idempotency.ts). */
export function idempotencyErrors(schema: z.ZodType) {
  return {
    409: json(schema, 'IDEM_002: a request with this Idempotency-Key is still running (Retry-After: 1).'),
    422: json(schema, 'IDEM_001: Idempotency-Key reused with a different request.'),
  };
}

const jobViewHeaders = z.object({
  ETag: z.string().meta({ description: 'Strong tag of the response body (SHA-256 prefix); send it back as `If-None-Match`.' }),
  'Cache-Control': z.string().meta({ description: '`private, no-cache`: keep the view, revalidate it each time.' }),
});

const idempotencyErrorsA = idempotencyErrors(variantAErrorSchema);
const errorsA = {
  400: json(
    variantAErrorSchema,
    'Invalid input (VALIDATION_ERROR, GEN_003, GEN_004: longer than the tighter of your tier and the running model allow, the message names which).',
  ),
  401: json(variantAErrorSchema, 'Missing or invalid token (AUTH_ERROR).'),
  429: json(z.union([dailyLimitErrorSchema, variantAErrorSchema]), 'Daily tier limit (RATE_001 body) or hourly limit (RATE_002).'),
  503: json(variantAErrorSchema, 'GEN_001 queue full, GEN_002 no GPU worker, or database unavailable.'),
};

export const signInNonceDocs: RouteDocs = {
  tags: ['auth'],
  summary: 'Issue a single-use Sign-In with Ethereum nonce',
  responses: {
    200: json(nonceResponseSchema, 'Nonce and the domain, URI and chain the message must name.'),
    429: json(variantAErrorSchema, 'Hourly limit of the client IP address (RATE_002).'),
  },
};

export const signInVerifyDocs: RouteDocs = {
  tags: ['auth'],
  summary: 'Exchange a signed EIP-4361 message for a session JWT',
  description:
    'EOA signatures are checked locally; smart-wallet signatures (ERC-1271 deployed, ERC-6492 counterfactual) on the chain of CHAIN_RPC_URL. Without that RPC a smart-wallet signature is refused (401 AUTH_ERROR naming CHAIN_RPC_URL); while the chain cannot be read it is 503 with Retry-After and the nonce stays usable.',
  request: { body: json(verifyRequestSchema, 'The message and its personal_sign signature (EOA or smart wallet).') },
  responses: {
    200: json(sessionTokenSchema, 'Session token.'),
    400: errorsA[400],
    401: json(variantAErrorSchema, 'Sign-in refused (AUTH_ERROR): wrong domain, URI, chain, time window, signature or nonce.'),
    429: json(variantAErrorSchema, 'Hourly limit of the client IP address (RATE_002).'),
    503: json(
      variantAErrorSchema,
      'SERVICE_UNAVAILABLE: the database, or the chain a smart-wallet signature is checked on, cannot be read now.',
    ),
  },
};

export const createJobDocs: RouteDocs = {
  tags: ['generation'],
  summary: 'Start a generation job (Variant A), or generate synchronously with `Prefer: wait` (Variant B)',
  request: {
    headers: z.object({
      Prefer: z.string().optional().meta({
        description:
          '`wait` selects Variant B: body {prompt, duration}, response {audioUrl, audioHash, duration, lyrics, model} when the job ends (at most 300 s).',
      }),
      'Idempotency-Key': idempotencyKeyHeaderSchema,
    }),
    body: {
      description: 'Variant A body, or Variant B body with `Prefer: wait`.',
      content: { 'application/json': { schema: z.union([generateRequestSchema, generateRequestVariantBSchema]) } },
    },
  },
  responses: {
    200: json(generateVariantBResultSchema, 'Variant B: the finished song.'),
    202: {
      ...json(
        z.union([generateAcceptedSchema, jobStatusSchema]),
        'Variant A: job queued (Variant B: still running at the time limit; poll Location).',
      ),
      headers: rateLimitHeaders,
    },
    ...errorsA,
    ...idempotencyErrorsA,
    409: json(
      variantAErrorSchema,
      'IDEM_002: a request with this Idempotency-Key is still running (Retry-After: 1); STORAGE_001: the song would pass your storage quota (nothing stored or charged); EDIT_002 and LIBRARY_002 for an edit.',
    ),
  },
};

export const listJobsDocs: RouteDocs = {
  tags: ['generation'],
  summary: "The caller's jobs, newest first, cursor-paginated; the library's filters and search (extension of the spec)",
  request: { query: jobListQuerySchema },
  responses: {
    200: json(jobListSchema, 'One page; pass `next_cursor` back as `cursor` for the next.'),
    400: json(variantAErrorSchema, 'Bad cursor, limit, filter or search text, or an unknown parameter (VALIDATION_ERROR).'),
    401: errorsA[401],
    429: json(variantAErrorSchema, 'Hourly limit (RATE_002).'),
  },
};

export const cancelJobDocs: RouteDocs = {
  tags: ['generation'],
  summary: 'Cancel a queued or processing job (owner only; extension of the spec)',
  description:
    'A queued job is cancelled at once; a processing one is marked cancelled at once and its worker stops before its next step (lyrics, model, encode, upload), publishing nothing. The daily generation is given back. Cancelling a cancelled job answers 200 again.',
  request: { params: z.object({ job_id: z.string().meta({ example: 'gen_0b5e0e43-4d4c-4f7e-9d7e-3f7a0f6b2a11' }) }) },
  responses: {
    200: json(jobCancelledSchema, 'Cancelled.'),
    401: errorsA[401],
    404: json(variantAErrorSchema, 'No such job of yours (NOT_FOUND).'),
    409: json(variantAErrorSchema, 'The job is completed or failed (CONFLICT).'),
    429: json(variantAErrorSchema, 'Hourly limit (RATE_002).'),
  },
};

export const jobStatusDocs: RouteDocs = {
  tags: ['generation'],
  summary: 'Job status (owner only)',
  request: {
    params: z.object({ job_id: z.string().meta({ example: 'gen_0b5e0e43-4d4c-4f7e-9d7e-3f7a0f6b2a11' }) }),
    headers: z.object({
      'If-None-Match': z
        .string()
        .optional()
        .meta({ description: 'The `ETag` of a view the client holds: 304 while the job shows the same view.' }),
    }),
  },
  responses: {
    200: { ...json(jobStatusSchema, 'Queued/processing, completed or failed.'), headers: jobViewHeaders },
    304: {
      description: 'Not modified: the view matching `If-None-Match` is current (no body; still counts as a request).',
      headers: jobViewHeaders,
    },
    401: errorsA[401],
    404: json(variantAErrorSchema, 'No such job of yours.'),
    429: json(variantAErrorSchema, 'Hourly limit (RATE_002).'),
  },
};

// Issue 15 item 3 (oracle/src/http/routes/job-events.ts).
export const jobEventsDocs: RouteDocs = {
  tags: ['generation'],
  summary: "The job's progress as Server-Sent Events (owner only; extension of the spec)",
  description:
    "A `text/event-stream`. It opens with `retry:`, then sends the current view as an event, and each later change of status or progress. Events are named `status` while the job is queued or processing, and `completed`, `failed` or `cancelled` for the final one, after which the server ends the stream. Each event's `data` is the body of GET /api/generate/{job_id}; its `id` is the view's version (opaque): reconnect with `Last-Event-ID` to be sent only what changed after it. Heartbeat comments keep an idle stream open; a stream ends after JOB_EVENTS_MAX_STREAM_SECONDS (reconnect with `Last-Event-ID`). Charged once per connection in the general hourly category.",
  request: {
    params: z.object({ job_id: z.string().meta({ example: 'gen_0b5e0e43-4d4c-4f7e-9d7e-3f7a0f6b2a11' }) }),
    headers: z.object({
      'Last-Event-ID': z.string().optional().meta({ description: 'The `id` of the last event received: only later changes are sent.' }),
    }),
  },
  responses: {
    200: {
      description: 'The event stream (`event:` status|completed|failed|cancelled, `id:` version, `data:` JobStatus JSON).',
      headers: rateLimitHeaders,
      content: { 'text/event-stream': { schema: z.string() } },
    },
    401: errorsA[401],
    404: json(variantAErrorSchema, 'No such job of yours (NOT_FOUND).'),
    429: json(variantAErrorSchema, 'Hourly limit (RATE_002).'),
    503: json(variantAErrorSchema, 'This replica serves its maximum of streams (Retry-After), or the database is unavailable.'),
  },
};

export const createJobV1Docs: RouteDocs = {
  tags: ['v1'],
  summary: 'Variant C: start a generation job (same fields as POST /api/generate)',
  request: {
    headers: z.object({ 'Idempotency-Key': idempotencyKeyHeaderSchema }),
    body: json(generateRequestSchema, 'Generation request.'),
  },
  responses: {
    202: json(generateAcceptedSchema, 'Job queued.'),
    409: json(
      variantCErrorSchema,
      'IDEM_002: a request with this Idempotency-Key is still running; STORAGE_001: the song would pass your storage quota (nothing stored or charged).',
    ),
    422: json(variantCErrorSchema, 'IDEM_001: Idempotency-Key reused with a different request.'),
    400: json(variantCErrorSchema, 'Invalid input; GEN_004 longer than the tighter of your tier and the running model allow.'),
    401: json(variantCErrorSchema, 'Missing or invalid token.'),
    429: json(variantCErrorSchema, 'Daily (RATE_001) or hourly (RATE_002) limit.'),
    503: json(variantCErrorSchema, 'GEN_001, GEN_002 or database unavailable.'),
  },
};

export const profileDocs: RouteDocs = {
  tags: ['v1'],
  summary: 'Variant C: the user profile and statistics',
  responses: {
    200: json(profileSchema, 'Profile.'),
    401: json(variantCErrorSchema, 'Missing or invalid token.'),
    429: json(variantCErrorSchema, 'Hourly limit (RATE_002).'),
  },
};

export const healthDocs: RouteDocs = {
  tags: ['health'],
  summary: 'Basic health check',
  responses: { 200: json(healthSchema, 'Healthy.') },
};

export const livenessDocs: RouteDocs = {
  tags: ['health'],
  summary: 'Liveness: the process runs',
  responses: { 200: json(livenessSchema, 'Alive.') },
};

export const readinessDocs: RouteDocs = {
  tags: ['health'],
  summary: 'Readiness: database and a live GPU/CPU worker (503 otherwise)',
  responses: {
    200: json(readinessSchema, 'Ready.'),
    503: json(readinessSchema, 'Not ready: the database is down or no worker has a fresh heartbeat.'),
  },
};

export const metricsDocs: RouteDocs = {
  tags: ['health'],
  summary: 'Prometheus text exposition',
  responses: { 200: { description: 'Metrics.', content: { 'text/plain': { schema: z.string() } } } },
};
