/**
 * The HTTP side of request charging (oracle/src/domain/request-charge.ts): `chargeFor`, the one
 * step of every route's pipeline (./route.ts) that charges what the route table says, the
 * `X-RateLimit-*` headers, and the answers to a charge that does not admit the request (401 for
 * a token naming no user, 429 when a limit refused it).
 */
import type { Request, Response } from 'express';
import { chargeRequest, refundHourly } from '../domain/request-charge.ts';
import { REFUNDED_CODES } from '../domain/errors.ts';
import type { ErrorCode } from '../domain/errors.ts';
import type { GenerationRefusal } from '../domain/generation.ts';
import type { ChargeOutcome, ChargedLookup, LimitState, RateCategory, SessionUser } from '../domain/request-charge.ts';
import type { SessionClaims } from '../domain/session-token.ts';
import { currentUser, unauthorizedUser } from './auth.ts';
import type { AppDeps } from './deps.ts';
import { sendError } from './error-response.ts';

/**
 * What a route charges, as the route table states it:
 * - `nothing`: health, metrics and the like;
 * - `ip`: the hourly `category` per client IP address (sign-in, before there is a user);
 * - `session`: the token's user and the hourly `category` in one statement, with the route's
 *   `lookup` of the caller's data when it has one; taken back when the answer is bad input
 *   (400, 413, 415) or 503, which did nothing for the caller;
 * - `admission`: the queue admission charges the hourly `category` (and for a song the daily
 *   counter) in the transaction that writes the job (`admitToQueue`), so a refused request
 *   writes nothing and a failed write charges nothing; here the user is only read.
 */
export type ChargeRule =
  | { by: 'nothing' }
  | { by: 'ip'; category: RateCategory }
  | { by: 'session'; category: RateCategory }
  | { by: 'admission'; category: RateCategory; daily: boolean };

/** What admitted a request: its caller and, for a `session` charge with a lookup, what it found. */
export interface Charged<Found> {
  user: SessionUser | null;
  found: Found | null;
}

type ChargeDeps = Pick<AppDeps, 'db' | 'metrics' | 'logger'>;

/**
 * Charges one request as `rule` says. Returns null after answering a request it does not admit;
 * otherwise the caller, with the limit headers set. `claims` are the verified bearer token's
 * (null on public routes); `lookup` is read in a `session` charge's statement.
 */
export async function chargeFor<Found>(
  deps: ChargeDeps,
  rule: ChargeRule,
  call: { req: Request; res: Response; claims: SessionClaims | null; lookup?: ChargedLookup<Found> | undefined },
): Promise<Charged<Found> | null> {
  const { req, res, claims } = call;
  switch (rule.by) {
    case 'nothing':
      return { user: null, found: null };
    case 'ip': {
      const charge = await chargeRequest({ db: deps.db, chargee: { ip: req.ip ?? 'unknown' }, category: rule.category });
      return admitCharged(deps, req, res, charge, rule.category) ? { user: null, found: null } : null;
    }
    case 'admission': {
      const user = claims === null ? null : await currentUser(deps.db, claims);
      if (user === null) {
        unauthorizedUser(req, res);
        return null;
      }
      return { user, found: null };
    }
    case 'session': {
      if (claims === null) throw new Error('a session charge on a route without a bearer token');
      const charge = await chargeRequest({
        db: deps.db,
        chargee: { session: claims, ...(call.lookup === undefined ? {} : { lookup: call.lookup }) },
        category: rule.category,
      });
      if (!admitCharged(deps, req, res, charge, rule.category)) return null;
      // Bad input found after the charge (a cover that is no image) is taken back, so it never
      // uses up the caller's limit (other answers, 404 and 409 included, count as requests, but
      // an upload refused as another account's song, UPLOAD_005). A 503
      // (the database or a service unavailable) did nothing for the caller and is taken back too:
      // a client retrying it meets the same limit (test/faults/long/multi-replica.test.ts).
      refundBeforeAnswer(
        res,
        charge.state,
        () => refundHourly(deps.db, claims.userId, rule.category, charge.windowStart),
        (error) => deps.logger.warn({ err: error, category: rule.category }, 'hourly limit refund failed'),
      );
      return { user: charge.user, found: charge.found as Found | null };
    }
  }
}

export function setRateLimitHeaders(res: Response, state: LimitState): void {
  res.setHeader('X-RateLimit-Limit', String(state.limit));
  res.setHeader('X-RateLimit-Remaining', String(state.remaining));
  res.setHeader('X-RateLimit-Reset', String(Math.ceil(state.resetAt.getTime() / 1000)));
}

/**
 * Answers a charge that does not admit the request (401 for no user, 429 when refused) and
 * returns false; otherwise sets the limit headers and returns true.
 */
function admitCharged(
  deps: Pick<AppDeps, 'metrics'>,
  req: Request,
  res: Response,
  charge: ChargeOutcome,
  category: RateCategory,
): charge is Extract<ChargeOutcome, { kind: 'charged' }> {
  if (charge.kind === 'no_user') {
    unauthorizedUser(req, res);
    return false;
  }
  setRateLimitHeaders(res, charge.state);
  if (charge.kind === 'refused') {
    deps.metrics.limitRejections.inc({ limit: charge.limit, category });
    sendError(req, res, charge.error);
    return false;
  }
  return true;
}

/**
 * Answers a refused queue admission (`admitToQueue`: GEN_001, GEN_002, a limit), with the limit
 * headers and the rejection metric when a limit refused it.
 */
export function answerRefusal(
  deps: Pick<AppDeps, 'metrics'>,
  req: Request,
  res: Response,
  refusal: GenerationRefusal,
  category: RateCategory,
): void {
  if (refusal.limitState !== undefined) setRateLimitHeaders(res, refusal.limitState);
  if (refusal.refusedBy !== undefined) deps.metrics.limitRejections.inc({ limit: refusal.refusedBy, category });
  sendError(req, res, refusal);
}

/**
 * 400 (validation, malformed JSON), 413 (body too large), 415 (not JSON), 503 (unavailable), and
 * the codes `REFUNDED_CODES` names (UPLOAD_005).
 */
function isRefunded(status: number, code: ErrorCode | undefined): boolean {
  return status === 400 || status === 413 || status === 415 || status === 503 || (code !== undefined && REFUNDED_CODES.has(code));
}

/**
 * Holds the end of a refunded answer until the refund has committed (the way express-session
 * saves a session before `res.end`): a client that retries at once, on any replica, must find its
 * charge already given back, not race the refund. The `X-RateLimit-Remaining` header then counts
 * the request given back. A failed refund is logged and the answer still goes out.
 */
function refundBeforeAnswer(res: Response, state: LimitState, refund: () => Promise<void>, onError: (error: unknown) => void): void {
  const end = res.end;
  res.end = function endAfterRefund(this: Response, ...args: unknown[]) {
    res.end = end;
    if (!isRefunded(res.statusCode, (res.locals as { errorCode?: ErrorCode }).errorCode)) return Reflect.apply(end, this, args) as Response;
    refund()
      .then(() => {
        if (!res.headersSent) res.setHeader('X-RateLimit-Remaining', String(Math.min(state.limit, state.remaining + 1)));
      }, onError)
      .finally(() => Reflect.apply(end, this, args));
    return this;
  } as Response['end'];
}
