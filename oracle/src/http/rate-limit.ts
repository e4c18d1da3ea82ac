import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { appError } from '../domain/errors.ts';
import { ANONYMOUS_HOURLY_LIMIT, HOURLY_LIMITS, chargeHourly } from '../domain/limits.ts';
import type { LimitState, RateCategory } from '../domain/limits.ts';
import { authenticatedUser } from './auth.ts';
import type { AppDeps } from './deps.ts';
import { sendError } from './error-response.ts';

export function setRateLimitHeaders(res: Response, state: LimitState): void {
  res.setHeader('X-RateLimit-Limit', String(state.limit));
  res.setHeader('X-RateLimit-Remaining', String(state.remaining));
  res.setHeader('X-RateLimit-Reset', String(Math.ceil(state.resetAt.getTime() / 1000)));
}

export function hourlyLimitError(category: RateCategory, state: LimitState, now: Date) {
  return appError('RATE_002', `Hourly limit of ${state.limit} requests for ${category} reached`, {
    details: `the limit resets at ${state.resetAt.toISOString()}`,
    fields: { category, limit: state.limit, reset_at: state.resetAt.toISOString() },
    retryAfter: Math.max(1, Math.ceil((state.resetAt.getTime() - now.getTime()) / 1000)),
  });
}

type LimitDeps = Pick<AppDeps, 'db' | 'metrics' | 'now'>;

async function charge(deps: LimitDeps, req: Request, res: Response, next: NextFunction, subject: string, category: RateCategory, limit: number) {
  const now = deps.now();
  const result = await chargeHourly(deps.db, subject, category, limit, now);
  setRateLimitHeaders(res, result.state);
  if (!result.allowed) {
    deps.metrics.limitRejections.inc({ limit: 'hourly', category });
    sendError(req, res, hourlyLimitError(category, result.state, now));
    return;
  }
  next();
}

/** Hourly per-category limit of the authenticated user (mount after `authenticate`). */
export function hourlyLimit(deps: LimitDeps, category: RateCategory): RequestHandler {
  return async (req, res, next) => {
    const user = authenticatedUser(req);
    await charge(deps, req, res, next, `user:${user.id}`, category, HOURLY_LIMITS[category][user.tier]);
  };
}

/** Hourly limit per client IP address, for endpoints that precede sign-in. */
export function anonymousHourlyLimit(deps: LimitDeps): RequestHandler {
  return async (req, res, next) => {
    await charge(deps, req, res, next, `ip:${req.ip ?? 'unknown'}`, 'general', ANONYMOUS_HOURLY_LIMIT);
  };
}
