import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Logger } from 'pino';
import { isResourceExhausted } from '../../../core/src/resource-exhausted.ts';
import { DATABASE_RETRY_SECONDS, STORAGE_FULL_RETRY_SECONDS, appError, isDatabaseUnavailable } from '../domain/errors.ts';
import { BodyTooSlowError } from './raw-body.ts';
import { sendError } from './error-response.ts';

interface BodyParserError {
  type: string;
  status?: number;
  limit?: number;
}

function isBodyParserError(error: unknown): error is BodyParserError {
  return typeof error === 'object' && error !== null && typeof (error as { type?: unknown }).type === 'string' && 'status' in error;
}

/** Unknown paths: 404 in the variant's error shape. */
export function notFound(): RequestHandler {
  return (req, res) => {
    sendError(req, res, appError('NOT_FOUND', 'No such endpoint', { details: `${req.method} ${req.path}` }));
  };
}

/**
 * Last resort: malformed bodies become 400/413; an unreachable database, or a full disk under the
 * database or this process's files, 503 (the pool reconnects by itself once the database is back,
 * and nothing has to be repaired once space is freed); anything else a logged 500 without
 * internals in the body.
 */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    if (res.headersSent) {
      next(error);
      return;
    }
    if (error instanceof BodyTooSlowError) {
      const perSecond = Math.round(error.rate.bytesPerSecond / 1024);
      sendError(
        req,
        res,
        appError('BODY_TOO_SLOW', 'The request body arrived too slowly', {
          details: `${error.message}: a body must arrive at ${perSecond} KiB/s or more after its first ${error.rate.graceSeconds} s; the connection is closed`,
          fields: { min_bytes_per_second: error.rate.bytesPerSecond, grace_seconds: error.rate.graceSeconds },
        }),
      );
      return;
    }
    if (isBodyParserError(error)) {
      if (error.type === 'entity.too.large') {
        const limit = typeof error.limit === 'number' ? { details: `the limit is ${error.limit} bytes` } : {};
        sendError(req, res, appError('PAYLOAD_TOO_LARGE', 'Request body too large', limit));
      } else if (error.type === 'entity.parse.failed') {
        sendError(req, res, appError('VALIDATION_ERROR', 'Request body is not valid JSON'));
      } else {
        sendError(req, res, appError('VALIDATION_ERROR', 'Request body could not be read', { details: error.type }));
      }
      return;
    }
    // The router could not percent-decode a path parameter (e.g. `/v1/nft/%E0%A4%A`).
    if (error instanceof URIError) {
      sendError(req, res, appError('VALIDATION_ERROR', 'Malformed percent-encoding in the path', { details: req.path.slice(0, 200) }));
      return;
    }
    if (isResourceExhausted(error)) {
      // An operator must act (free space): logged as an error, not as a passing outage.
      logger.error({ err: error, path: req.path }, 'out of resources (disk full?)');
      sendError(req, res, appError('SERVICE_UNAVAILABLE', 'Storage is full, retry later', { retryAfter: STORAGE_FULL_RETRY_SECONDS }));
      return;
    }
    if (isDatabaseUnavailable(error)) {
      logger.warn({ err: error }, 'database unavailable');
      sendError(req, res, appError('SERVICE_UNAVAILABLE', 'Database unavailable, retry shortly', { retryAfter: DATABASE_RETRY_SECONDS }));
      return;
    }
    logger.error({ err: error, path: req.path }, 'unhandled error');
    sendError(req, res, appError('INTERNAL_ERROR', 'Internal server error'));
  };
}
