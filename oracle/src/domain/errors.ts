/**
 * Application errors as values. Domain code returns `Result`s (core/src/result.ts) whose errors
 * are `AppError`s; the HTTP layer renders them in the body shape of the API variant the request
 * used (see oracle/src/http/error-response.ts).
 */
import type { Result as CoreResult } from '../../../core/src/result.ts';

export { fail, ok } from '../../../core/src/result.ts';

/** The spec's Variant A codes, plus the generic ones every API needs. */
export const ERROR_CODES = [
  'GEN_001',
  'GEN_002',
  'GEN_003',
  'GEN_004',
  'GEN_005',
  'SIGN_001',
  'SIGN_002',
  // Signature checks the spec leaves uncoded: (2) job not completed, (4) audio hash mismatch.
  'SIGN_003',
  'SIGN_004',
  // The audio's model is licensed for non-commercial use only (model-licence.ts).
  'SIGN_005',
  // The same sound (PCM hash) was already signed for another job (signatures.ts, "one mint per sound").
  'SIGN_006',
  // The song (one carrying uploaded audio) contains a sound made for another account before it:
  // the same song however re-encoded, or a stretch of at least 10 s of it (signatures.ts,
  // docs/fingerprints.md).
  'SIGN_007',
  // More of the song than MINT_MAX_OUTSIDE_SHARE is uploaded audio kept verbatim (signatures.ts).
  'SIGN_008',
  'RATE_001',
  // Hourly per-category request limit (the spec's RATE_001 is the daily tier counter).
  'RATE_002',
  // Idempotency-Key (oracle/src/domain/idempotency.ts): the key was used with another request
  // (IDEM_001), or its first request is still running (IDEM_002).
  'IDEM_001',
  'IDEM_002',
  // A preview past its 24 hours: the clip is deleted (oracle/src/domain/previews.ts).
  'PREVIEW_EXPIRED',
  // Song edits (oracle/src/domain/song-edits.ts): the source is not the caller's song (EDIT_001),
  // not completed (EDIT_002), deleted by retention or without kept latents (EDIT_003), the range
  // or length does not fit it (EDIT_004), no live worker's model can run the task (EDIT_005).
  'EDIT_001',
  'EDIT_002',
  'EDIT_003',
  'EDIT_004',
  'EDIT_005',
  // Uploads (oracle/src/domain/uploads.ts): not audio or a format not taken (UPLOAD_001), a taken
  // format that does not decode (UPLOAD_002), empty or shorter than 1 s (UPLOAD_003), the
  // uploader did not confirm they hold the rights to it (UPLOAD_004), too many of the caller's or
  // of this process's uploads in flight (UPLOAD_006, uploads-in-flight.ts), the audio contains a
  // sound made for another account (UPLOAD_005, docs/fingerprints.md).
  'UPLOAD_001',
  'UPLOAD_002',
  'UPLOAD_003',
  'UPLOAD_004',
  'UPLOAD_005',
  'UPLOAD_006',
  // An upload whose decode went past its wall-clock budget (core/src/audio/audio-prober.ts): the
  // server spent that time, so the hourly charge stands (422, not a refunded 400).
  'UPLOAD_007',
  // The library (oracle/src/domain/library.ts): a minted song cannot be renamed or deleted
  // (LIBRARY_001), the song is in the trash (LIBRARY_002), retention deleted a trashed song's
  // audio so it cannot be restored (LIBRARY_003), the song is still being made (LIBRARY_004).
  'LIBRARY_001',
  'LIBRARY_002',
  'LIBRARY_003',
  'LIBRARY_004',
  // Storage (core/src/storage-quota.ts, ./storage.ts): what the request would store passes the
  // account's storage quota; nothing was stored (STORAGE_001).
  'STORAGE_001',
  'VALIDATION_ERROR',
  'PAYLOAD_TOO_LARGE',
  // A body that arrives below its route's minimum rate (oracle/src/http/raw-body.ts): cut off.
  'BODY_TOO_SLOW',
  'AUTH_ERROR',
  'FORBIDDEN',
  'NOT_FOUND',
  'CONFLICT',
  'SERVICE_UNAVAILABLE',
  'INTERNAL_ERROR',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** HTTP status per code (docs/spec-map.md, "Errors, authentication, variants"). */
export const HTTP_STATUS: Readonly<Record<ErrorCode, number>> = {
  GEN_001: 503,
  GEN_002: 503,
  GEN_003: 400,
  GEN_004: 400,
  GEN_005: 500,
  SIGN_001: 404,
  SIGN_002: 409,
  SIGN_003: 409,
  SIGN_004: 409,
  SIGN_005: 403,
  SIGN_006: 409,
  SIGN_007: 409,
  SIGN_008: 403,
  RATE_001: 429,
  RATE_002: 429,
  IDEM_001: 422,
  IDEM_002: 409,
  PREVIEW_EXPIRED: 410,
  EDIT_001: 404,
  EDIT_002: 409,
  EDIT_003: 410,
  EDIT_004: 400,
  EDIT_005: 422,
  UPLOAD_001: 415,
  UPLOAD_002: 400,
  UPLOAD_003: 400,
  UPLOAD_004: 400,
  UPLOAD_005: 409,
  UPLOAD_006: 429,
  UPLOAD_007: 422,
  LIBRARY_001: 409,
  LIBRARY_002: 409,
  LIBRARY_003: 410,
  LIBRARY_004: 409,
  STORAGE_001: 409,
  VALIDATION_ERROR: 400,
  PAYLOAD_TOO_LARGE: 413,
  BODY_TOO_SLOW: 408,
  AUTH_ERROR: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  SERVICE_UNAVAILABLE: 503,
  INTERNAL_ERROR: 500,
};

export interface AppError {
  code: ErrorCode;
  message: string;
  /** Human-readable detail (Variant A `details` is a string). */
  details?: string;
  /** Structured detail (Variant C `details` is an object). */
  fields?: Readonly<Record<string, unknown>>;
  /** Seconds until a retry may succeed; also sent as the `Retry-After` header. */
  retryAfter?: number;
  /** Public id (`gen_<uuid>`) of the job the error concerns. */
  jobId?: string;
  /** SIGN_007, UPLOAD_005: the registered song the refused audio contains (docs/fingerprints.md). */
  earlierSong?: EarlierSong;
}

/** A registered song named in a refusal: its public job id and its token once the mint is seen on chain. */
export interface EarlierSong {
  jobId: string;
  /** Decimal token id, or null while no mint of it is recorded. */
  tokenId: string | null;
}

/**
 * Refusals whose hourly charge is given back although they are no bad input (a 409, a 429): an
 * upload refused for containing another account's song did nothing for the caller (issue 44), nor
 * did one refused because this process already holds all the uploads it takes (issue 49).
 */
export const REFUNDED_CODES: ReadonlySet<ErrorCode> = new Set<ErrorCode>(['UPLOAD_005', 'UPLOAD_006', 'STORAGE_001']);

/** Daily tier counter rejection: its 429 body is fixed by the spec. */
export interface DailyLimitError extends AppError {
  code: 'RATE_001';
  limit: number;
  /** Next UTC midnight. */
  resetAt: Date;
}

/** The core result type with the oracle's errors. */
export type Result<T, E extends AppError = AppError> = CoreResult<T, E>;

export function appError(code: ErrorCode, message: string, extra: Omit<AppError, 'code' | 'message'> = {}): AppError {
  return { code, message, ...extra };
}

/**
 * The code a failed job carries in its status: the one stored with it (the workers write
 * GEN_005), or GEN_005 for none or one this API does not list.
 */
export function jobFailureCode(stored: string | null): ErrorCode {
  return (ERROR_CODES as ReadonlyArray<string>).includes(stored ?? '') ? (stored as ErrorCode) : 'GEN_005';
}

export function isDailyLimitError(error: AppError): error is DailyLimitError {
  return error.code === 'RATE_001' && 'limit' in error && 'resetAt' in error;
}

/** Spec retry guidance: GEN_002 "after 1 minute". */
export const GPU_UNAVAILABLE_RETRY_SECONDS = 60;
/** GEN_001 "with backoff": the first wait we suggest. */
export const QUEUE_FULL_RETRY_SECONDS = 30;
/** How long to suggest waiting while the database is unreachable. */
export const DATABASE_RETRY_SECONDS = 5;
/** How long to suggest waiting while a disk is full: space comes back when an operator frees it. */
export const STORAGE_FULL_RETRY_SECONDS = 30;

const UNAVAILABLE_SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'EAI_AGAIN']);

/**
 * True when `error` means the database cannot be reached right now (connection refused or lost,
 * server shutting down or starting), as opposed to a bad query. Such errors become 503s.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as Error & { code?: unknown }).code;
  if (typeof code === 'string') {
    if (UNAVAILABLE_SOCKET_CODES.has(code)) return true;
    // SQLSTATE class 08 (connection exception), 57P01-57P03 (admin/crash shutdown, cannot connect
    // now), 57014 (cancelled by statement_timeout), 25P03 (idle_in_transaction_session_timeout):
    // the database did not answer within the deadlines of core/src/db/database.ts.
    if (code.startsWith('08') || ['57P01', '57P02', '57P03', '57014', '25P03'].includes(code)) return true;
  }
  const message = error.message;
  if (
    /Connection terminated|connection timeout|timeout exceeded when trying to connect|Query read timeout|timeout expired|Client has encountered a connection error|the database system is (shutting down|starting up)|terminating connection/i.test(
      message,
    )
  ) {
    return true;
  }
  const cause = (error as Error & { cause?: unknown }).cause;
  if (cause !== undefined && cause !== error) return isDatabaseUnavailable(cause);
  if (error instanceof AggregateError) return error.errors.some(isDatabaseUnavailable);
  return false;
}
