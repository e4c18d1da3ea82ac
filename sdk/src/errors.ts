/**
 * Errors the SDK throws. Every one has a `code`: the API's own code (`GEN_003`, `SIGN_002`,
 * `RATE_001`, ...) for a rejected request, or one of the SDK's codes below for what happened on the
 * client or the chain.
 */

import { BaseError, UserRejectedRequestError } from 'viem';
import { API_ERROR_CODES } from './generated/error-codes.ts';
import type { ApiErrorCode } from './generated/error-codes.ts';

export type { ApiErrorCode };

/**
 * `HTTP_<status>`: an answer that carries no code the SDK knows (a body without the documented
 * shape, or a code added by a newer server, whose text stays in the error's message).
 * `CANCELLED`: the job `waitForJob` waited for was cancelled.
 */
export type UnlistedErrorCode = `HTTP_${number}` | 'CANCELLED';

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
  /** The wallet holds less than the trade needs (the message says how much it holds); nothing was sent. */
  | 'INSUFFICIENT_BALANCE'
  /** The pool cannot fill the trade (too large for its liquidity, or the song is not launched); nothing was sent. */
  | 'QUOTE_FAILED'
  /** The quote pays nothing (a sale the pool would pay 0 ETH for, a buy that gets 0 tokens); nothing was sent. */
  | 'ZERO_QUOTE'
  /** A webhook delivery whose signature, timestamp or body does not check out (verifyWebhook). */
  | 'INVALID_WEBHOOK'
  /** The wallet's owner refused the request (EIP-1193 error 4001): nothing was signed or sent. */
  | 'WALLET_REJECTED'
  /** The chain or the wallet failed the call (a revert, with the contract's reason in the message; an RPC error). */
  | 'CHAIN_ERROR';

export abstract class SongmintError extends Error {
  abstract readonly code: string;
}

/** A registered song named by a refusal (SIGN_007, UPLOAD_005): its job, and its token once its mint is seen on chain. */
export interface EarlierSong {
  jobId: string;
  tokenId: string | null;
}

/** The API refused a request; `code`, `status` and `details` are the API's. */
export class SongmintApiError extends SongmintError {
  override readonly name = 'SongmintApiError';
  readonly code: ApiErrorCode | UnlistedErrorCode;
  readonly status: number;
  /** Variant A: a string; Variant C: an object. */
  readonly details: string | Readonly<Record<string, unknown>>;
  /** Seconds to wait before retrying, when the API says. */
  readonly retryAfter: number | undefined;
  readonly jobId: string | undefined;
  /** SIGN_007, UPLOAD_005: the song made earlier for another account that the refused audio contains. */
  readonly earlierSong: EarlierSong | undefined;

  constructor(args: {
    code: ApiErrorCode | UnlistedErrorCode;
    message: string;
    status: number;
    details?: string | Readonly<Record<string, unknown>>;
    retryAfter?: number;
    jobId?: string;
    earlierSong?: EarlierSong;
  }) {
    super(`${args.code}: ${args.message}`);
    this.code = args.code;
    this.status = args.status;
    this.details = args.details ?? '';
    this.retryAfter = args.retryAfter;
    this.jobId = args.jobId;
    this.earlierSong = args.earlierSong;
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
const KNOWN_CODES: ReadonlySet<string> = new Set(API_ERROR_CODES);
const isApiErrorCode = (value: unknown): value is ApiErrorCode => typeof value === 'string' && KNOWN_CODES.has(value);

/** The body's code when the SDK knows it; otherwise `HTTP_<status>` with the body's code kept in the message. */
function codeAndMessage(status: number, code: unknown, message: unknown): { code: ApiErrorCode | UnlistedErrorCode; message: string } {
  const text = optionalString(message) ?? `HTTP ${status}`;
  if (isApiErrorCode(code)) return { code, message: text };
  return { code: `HTTP_${status}`, message: typeof code === 'string' ? `${code}: ${text}` : text };
}

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
      ...codeAndMessage(status, inner.code, inner.message),
      status,
      details: optionalString(inner.details) ?? '',
      ...withDefined('retryAfter', optionalNumber(inner.retry_after) ?? fallbackRetry),
      ...withDefined('jobId', optionalString(inner.job_id)),
      ...withDefined('earlierSong', earlierSongOf(inner.earlier_song)),
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
      ...codeAndMessage(status, body.error, body.message),
      status,
      details,
      ...withDefined('retryAfter', optionalNumber(details.retry_after) ?? fallbackRetry),
      ...withDefined('jobId', optionalString(details.job_id)),
      ...withDefined('earlierSong', earlierSongOf(details.earlier_song)),
    });
  }
  return new SongmintApiError({ code: `HTTP_${status}`, message: `HTTP ${status} without an error body`, status });
}

function earlierSongOf(value: unknown): EarlierSong | undefined {
  if (!isRecord(value) || typeof value.job_id !== 'string') return undefined;
  return { jobId: value.job_id, tokenId: typeof value.token_id === 'string' ? value.token_id : null };
}

function withDefined<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

/**
 * Any failure as a SongmintError: SDK errors as they are; a request the wallet's owner refused as
 * WALLET_REJECTED; another viem error (a revert, an RPC failure) as CHAIN_ERROR with viem's short
 * message; anything else as UNEXPECTED_RESPONSE. The original stays the `cause`.
 */
export function asSongmintError(error: unknown): SongmintError {
  if (error instanceof SongmintError) return error;
  if (error instanceof BaseError) {
    const rejected = error.walk((inner) => inner instanceof UserRejectedRequestError);
    if (rejected !== null) return new SongmintClientError('WALLET_REJECTED', 'the wallet refused the request', { cause: error });
    return new SongmintClientError('CHAIN_ERROR', error.shortMessage, { cause: error });
  }
  if (error instanceof Error && error.name === 'AbortError') return new SongmintClientError('ABORTED', error.message, { cause: error });
  return new SongmintClientError('UNEXPECTED_RESPONSE', error instanceof Error ? error.message : String(error), { cause: error });
}
