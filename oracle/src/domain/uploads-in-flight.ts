/**
 * How many uploads this process takes at once (docs/api.md "Upload audio"): each holds its body
 * (up to `MAX_UPLOAD_BYTES`) and a decode thread's turn, so at most `perUser` of one user's and
 * `perProcess` in all are in flight; one more is refused with 429 UPLOAD_006 before its body is
 * read, and nothing is charged. A slot is taken after the bearer token is checked and given back
 * when the answer is sent or the client goes away (oracle/src/http/routes/uploads.ts).
 * Per process, not per deployment: each replica bounds its own memory.
 */
import { appError, fail, ok } from './errors.ts';
import type { Result } from './errors.ts';

export interface UploadsInFlightLimits {
  perUser: number;
  perProcess: number;
}

/** `UPLOADS_IN_FLIGHT_PER_USER` and `UPLOADS_IN_FLIGHT` (oracle/src/config.ts) default to these. */
export const DEFAULT_UPLOADS_IN_FLIGHT: Readonly<UploadsInFlightLimits> = { perUser: 2, perProcess: 4 };

/** Seconds a refused upload is told to wait: about one upload's decode. */
export const UPLOAD_IN_FLIGHT_RETRY_SECONDS = 2;

export interface UploadsInFlight {
  /** A slot for one upload of `userId`, released by calling it (once; later calls do nothing), or UPLOAD_006. */
  take(userId: string): Result<() => void>;
  /** Uploads in flight in this process. */
  count(): number;
}

export function createUploadsInFlight(limits: UploadsInFlightLimits = DEFAULT_UPLOADS_IN_FLIGHT): UploadsInFlight {
  const byUser = new Map<string, number>();
  let total = 0;
  return {
    take(userId) {
      const mine = byUser.get(userId) ?? 0;
      if (mine >= limits.perUser || total >= limits.perProcess) {
        const whose =
          mine >= limits.perUser
            ? `you have ${mine} uploads in flight (at most ${limits.perUser})`
            : `this server has ${total} uploads in flight (at most ${limits.perProcess})`;
        return fail(
          appError('UPLOAD_006', 'Too many uploads in flight', {
            details: `${whose}; retry once one has been answered`,
            retryAfter: UPLOAD_IN_FLIGHT_RETRY_SECONDS,
            fields: { per_user: limits.perUser, per_process: limits.perProcess },
          }),
        );
      }
      byUser.set(userId, mine + 1);
      total += 1;
      let released = false;
      return ok(() => {
        if (released) return;
        released = true;
        total -= 1;
        const left = (byUser.get(userId) ?? 1) - 1;
        if (left === 0) byUser.delete(userId);
        else byUser.set(userId, left);
      });
    },
    count: () => total,
  };
}
