import type { Request, Response } from 'express';
import { HTTP_STATUS, isDailyLimitError } from '../domain/errors.ts';
import type { AppError } from '../domain/errors.ts';
import { retryAfterSeconds } from '../domain/request-charge.ts';
import type { z } from 'zod';
import type { dailyLimitErrorSchema, variantAErrorSchema, variantCErrorSchema } from './schemas.ts';

/** Variant A: `/api/*` and everything not versioned. Variant C: `/v1/*`. */
export type ErrorVariant = 'A' | 'C';

export function errorVariantOf(req: Request): ErrorVariant {
  return req.originalUrl.startsWith('/v1/') || req.originalUrl === '/v1' ? 'C' : 'A';
}

/** The error bodies are the types of the schemas the OpenAPI document shows (./schemas.ts). */
export type VariantAErrorBody = z.infer<typeof variantAErrorSchema>;
export type DailyLimitBody = z.infer<typeof dailyLimitErrorSchema>;
export type VariantCErrorBody = z.infer<typeof variantCErrorSchema>;

export function variantABody(error: AppError): VariantAErrorBody {
  return {
    error: {
      code: error.code,
      message: error.message,
      details: error.details ?? '',
      ...(error.retryAfter === undefined ? {} : { retry_after: error.retryAfter }),
      ...(error.jobId === undefined ? {} : { job_id: error.jobId }),
      ...(error.earlierSong === undefined ? {} : { earlier_song: earlierSongBody(error.earlierSong) }),
    },
  };
}

function earlierSongBody(song: NonNullable<AppError['earlierSong']>): { job_id: string; token_id: string | null } {
  return { job_id: song.jobId, token_id: song.tokenId };
}

export function variantCBody(error: AppError): VariantCErrorBody {
  const details: Record<string, unknown> = { ...error.fields };
  if (error.details !== undefined && error.details !== '') details.reason = error.details;
  if (error.retryAfter !== undefined) details.retry_after = error.retryAfter;
  if (error.jobId !== undefined) details.job_id = error.jobId;
  if (error.earlierSong !== undefined) details.earlier_song = earlierSongBody(error.earlierSong);
  if (isDailyLimitError(error)) {
    details.limit = error.limit;
    details.reset_at = error.resetAt.toISOString();
  }
  return { error: error.code, message: error.message, details };
}

/**
 * Sends `error` with its HTTP status, `Retry-After` when retryable, and the body shape of the
 * request's variant. Variant A's daily-limit rejection uses the spec's dedicated 429 body.
 */
export function sendError(req: Request, res: Response, error: AppError): void {
  const status = HTTP_STATUS[error.code];
  // The charge step reads it: a few codes are given back though they are no bad input.
  (res.locals as { errorCode?: AppError['code'] }).errorCode = error.code;
  if (error.retryAfter !== undefined) res.setHeader('Retry-After', String(error.retryAfter));
  if (errorVariantOf(req) === 'C') {
    res.status(status).json(variantCBody(error));
    return;
  }
  if (isDailyLimitError(error)) {
    const body: DailyLimitBody = {
      error: 'rate_limit_exceeded',
      limit: error.limit,
      reset_at: error.resetAt.toISOString(),
      code: 'RATE_001',
      message: error.message,
      retry_after: error.retryAfter ?? retryAfterSeconds(error.resetAt, new Date()),
    };
    res.status(status).json(body);
    return;
  }
  res.status(status).json(variantABody(error));
}
