/**
 * How many uploads this process takes at once (docs/api.md "Upload audio"). Two counts:
 *
 * - per user (`perUser`), from the moment the bearer token is checked, before the body is read:
 *   one more is refused with 429 UPLOAD_006 unread and uncharged. A body that arrives slowly
 *   holds only its sender's own slots (and is cut off under the minimum rate:
 *   oracle/src/http/raw-body.ts).
 * - per process (`perProcess`), taken only once the whole body has arrived (`admit`), so that no
 *   client can hold one by sending slowly: each admitted upload holds its body (up to
 *   `MAX_UPLOAD_BYTES`) and a decode thread's turn. One more is refused with 429 UPLOAD_006 and
 *   its hourly charge given back.
 *
 * Both are held until the work they admitted has ended, not merely until the client has gone: a
 * client that leaves aborts the slot's `signal`, which cancels its decode (queued or running:
 * core/src/audio/audio-prober.ts), and the slot is given back when that decode has answered.
 * Per process, not per deployment: each replica bounds its own memory.
 */
import { appError, fail, ok } from './errors.ts';
import type { AppError, Result } from './errors.ts';

export interface UploadsInFlightLimits {
  perUser: number;
  perProcess: number;
}

/** `UPLOADS_IN_FLIGHT_PER_USER` and `UPLOADS_IN_FLIGHT` (oracle/src/config.ts) default to these. */
export const DEFAULT_UPLOADS_IN_FLIGHT: Readonly<UploadsInFlightLimits> = { perUser: 2, perProcess: 4 };

/** Seconds a refused upload is told to wait: about one upload's decode. */
export const UPLOAD_IN_FLIGHT_RETRY_SECONDS = 2;

/** One upload's hold on the counts, from before its body is read until its work has ended. */
export interface UploadSlot {
  /** Aborted when the client leaves before its answer has been sent: the work it started is cancelled. */
  readonly signal: AbortSignal;
  /** Takes one of the process's slots, now that the body is here (UPLOAD_006 when all are held). */
  admit(): Result<void>;
  /** Holds the slots until `work` has settled, even when the client leaves before. */
  hold<T>(work: Promise<T>): Promise<T>;
  /** The request's answer has closed (`answered`: sent in full): the slots are given back once no work holds them. */
  close(answered: boolean): void;
}

export interface UploadsInFlight {
  /** A slot for one upload of `userId` (UPLOAD_006 when the user has `perUser`). */
  take(userId: string): Result<UploadSlot>;
  /** Uploads in flight in this process: taken (`users`: summed over them) and admitted. */
  count(): { taken: number; admitted: number };
}

const busy = (whose: string, limits: UploadsInFlightLimits): AppError =>
  appError('UPLOAD_006', 'Too many uploads in flight', {
    details: `${whose}; retry once one has been answered`,
    retryAfter: UPLOAD_IN_FLIGHT_RETRY_SECONDS,
    fields: { per_user: limits.perUser, per_process: limits.perProcess },
  });

export function createUploadsInFlight(limits: UploadsInFlightLimits = DEFAULT_UPLOADS_IN_FLIGHT): UploadsInFlight {
  const byUser = new Map<string, number>();
  let taken = 0;
  let admitted = 0;
  return {
    take(userId) {
      const mine = byUser.get(userId) ?? 0;
      if (mine >= limits.perUser) return fail(busy(`you have ${mine} uploads in flight (at most ${limits.perUser})`, limits));
      byUser.set(userId, mine + 1);
      taken += 1;
      const controller = new AbortController();
      let isAdmitted = false;
      let holding = 0;
      let closed = false;
      let released = false;
      const release = () => {
        if (released || !closed || holding > 0) return;
        released = true;
        taken -= 1;
        if (isAdmitted) admitted -= 1;
        const left = (byUser.get(userId) ?? 1) - 1;
        if (left === 0) byUser.delete(userId);
        else byUser.set(userId, left);
      };
      return ok({
        signal: controller.signal,
        admit() {
          if (isAdmitted) return ok(undefined);
          if (admitted >= limits.perProcess) {
            return fail(busy(`this server has ${admitted} uploads in flight (at most ${limits.perProcess})`, limits));
          }
          admitted += 1;
          isAdmitted = true;
          return ok(undefined);
        },
        async hold(work) {
          holding += 1;
          try {
            return await work;
          } finally {
            holding -= 1;
            release();
          }
        },
        close(answered) {
          if (closed) return;
          closed = true;
          if (!answered) controller.abort(new Error('the client left before the upload was answered'));
          release();
        },
      });
    },
    count: () => ({ taken, admitted }),
  };
}
