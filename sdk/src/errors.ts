/**
 * Errors the SDK throws. Every one has a `code`: the API's own code (`GEN_003`, `SIGN_002`,
 * `RATE_001`, ...) for a rejected request, or one of the SDK's codes below for what happened on the
 * client or the chain.
 */

/** Codes the API answers with (docs/api.md), plus any it adds later. */
export type ApiErrorCode =
  | 'GEN_001'
  | 'GEN_002'
  | 'GEN_003'
  | 'GEN_004'
  | 'GEN_005'
  | 'SIGN_001'
  | 'SIGN_002'
  | 'SIGN_003'
  | 'SIGN_004'
  | 'RATE_001'
  | 'RATE_002'
  | 'PREVIEW_EXPIRED'
  | 'VALIDATION_ERROR'
  | 'PAYLOAD_TOO_LARGE'
  | 'AUTH_ERROR'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'SERVICE_UNAVAILABLE'
  | 'INTERNAL_ERROR'
  | (string & {});

/** Codes of failures the SDK detects itself. */
export type ClientErrorCode =
  /** The server answered something that is not the documented shape. */
  | 'UNEXPECTED_RESPONSE'
  /** The request never got an answer (network down, server gone). */
  | 'NETWORK_ERROR'
  /** The caller's AbortSignal fired. */
  | 'ABORTED'
  /** The job did not end within `timeoutMs`. */
  | 'TIMEOUT'
  /** A call needs a session token and the client has none: call `signIn` first. */
  | 'NOT_SIGNED_IN'
  /** The wallet client has no account to sign or send with. */
  | 'NO_ACCOUNT'
  /** A mined transaction lacks the event that carries its result. */
  | 'EVENT_NOT_FOUND'
  /** A bad argument, caught before anything was sent. */
  | 'INVALID_ARGUMENT'
  /** A webhook delivery whose signature, timestamp or body does not check out (verifyWebhook). */
  | 'INVALID_WEBHOOK';

export abstract class SongmintError extends Error {
  abstract readonly code: string;
}

/** The API refused a request; `code`, `status` and `details` are the API's. */
export class SongmintApiError extends SongmintError {
  override readonly name = 'SongmintApiError';
  readonly code: ApiErrorCode;
  readonly status: number;
  /** Variant A: a string; Variant C: an object. */
  readonly details: string | Readonly<Record<string, unknown>>;
  /** Seconds to wait before retrying, when the API says. */
  readonly retryAfter: number | undefined;
  readonly jobId: string | undefined;

  constructor(args: {
    code: ApiErrorCode;
    message: string;
    status: number;
    details?: string | Readonly<Record<string, unknown>>;
    retryAfter?: number;
    jobId?: string;
  }) {
    super(`${args.code}: ${args.message}`);
    this.code = args.code;
    this.status = args.status;
    this.details = args.details ?? '';
    this.retryAfter = args.retryAfter;
    this.jobId = args.jobId;
  }
}

/** A failure on the client side or on the chain, with one of the SDK's codes. */
export class SongmintClientError extends SongmintError {
  override readonly name = 'SongmintClientError';
  readonly code: ClientErrorCode;

  constructor(code: ClientErrorCode, message: string, options?: { cause?: unknown }) {
    super(`${code}: ${message}`, options);
    this.code = code;
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const optionalNumber = (value: unknown) => (typeof value === 'number' ? value : undefined);
const optionalString = (value: unknown) => (typeof value === 'string' ? value : undefined);

/**
 * The error in an API error body of any of its three shapes: Variant A
 * `{error:{code,message,details}}`, the daily limit `{error:"rate_limit_exceeded",code:"RATE_001",...}`
 * and Variant C `{error:"CODE",message,details:{}}`.
 */
export function apiErrorFromBody(status: number, body: unknown, retryAfterHeader?: string | null): SongmintApiError {
  const headerRetry = retryAfterHeader === undefined || retryAfterHeader === null ? undefined : Number(retryAfterHeader);
  const fallbackRetry = headerRetry !== undefined && Number.isFinite(headerRetry) ? headerRetry : undefined;
  if (isRecord(body) && isRecord(body.error)) {
    const inner = body.error;
    return new SongmintApiError({
      code: optionalString(inner.code) ?? `HTTP_${status}`,
      message: optionalString(inner.message) ?? `HTTP ${status}`,
      status,
      details: optionalString(inner.details) ?? '',
      ...withDefined('retryAfter', optionalNumber(inner.retry_after) ?? fallbackRetry),
      ...withDefined('jobId', optionalString(inner.job_id)),
    });
  }
  if (isRecord(body) && body.error === 'rate_limit_exceeded') {
    return new SongmintApiError({
      code: 'RATE_001',
      message: optionalString(body.message) ?? 'Daily generation limit reached',
      status,
      details: { limit: body.limit, reset_at: body.reset_at },
      ...withDefined('retryAfter', optionalNumber(body.retry_after) ?? fallbackRetry),
    });
  }
  if (isRecord(body) && typeof body.error === 'string') {
    const details = isRecord(body.details) ? body.details : {};
    return new SongmintApiError({
      code: body.error,
      message: optionalString(body.message) ?? `HTTP ${status}`,
      status,
      details,
      ...withDefined('retryAfter', optionalNumber(details.retry_after) ?? fallbackRetry),
      ...withDefined('jobId', optionalString(details.job_id)),
    });
  }
  return new SongmintApiError({ code: `HTTP_${status}`, message: `HTTP ${status} without an error body`, status });
}

function withDefined<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}
