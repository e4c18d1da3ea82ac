/**
 * GET /api/generate/{job_id}/events: a job's progress as Server-Sent Events, so clients need not
 * poll. The caller, the hourly charge and the owner-only lookup are those of the status route
 * (one statement, charged once per connection); the events carry the status route's body.
 *
 * Events: `status` while the job is queued or processing, then one named for the final state
 * (`completed`, `failed`, `cancelled`) with the final body, after which the server ends the
 * stream. Each event's `id` is the view's version (`viewVersion`): a client reconnecting with
 * `Last-Event-ID` is sent only what changed after it, and nothing but the end for a finished job
 * it has seen finish.
 */
import type { Request, Response } from 'express';
import { isFinished } from '../../../../core/src/jobs/job-state.ts';
import { isResourceExhausted } from '../../../../core/src/resource-exhausted.ts';
import { appError, isDatabaseUnavailable } from '../../domain/errors.ts';
import type { JobStream } from '../../domain/job-events-hub.ts';
import { findOwnJob, viewJob } from '../../domain/jobs.ts';
import type { JobRecord, JobView } from '../../domain/jobs.ts';
import type { AppDeps } from '../deps.ts';
import type { SignedInCall } from '../route.ts';
import { sendError } from '../error-response.ts';
import type { jobStatusSchema } from '../schemas.ts';
import { jobNotFound } from './generate.ts';
import type { z } from 'zod';

type JobEventsDeps = Pick<AppDeps, 'db' | 'now' | 'logger' | 'jobEvents'>;

/** Seconds a client refused for the stream cap is asked to wait. */
export const STREAMS_FULL_RETRY_SECONDS = 5;

/** Longer `Last-Event-ID`s are not ids this API sent: treated as absent. */
const MAX_EVENT_ID_LENGTH = 64;

/**
 * The version of a view: its status and progress, which are what the database announces. The
 * estimates are left out on purpose: they move with the clock, and a client that has seen a
 * state should not be sent it again because time passed.
 */
export function viewVersion(view: JobView): string {
  return 'progress' in view ? `${view.status}-${view.progress}` : view.status;
}

/** `status` while the job runs; the final state's name once it has ended. */
export function eventName(view: JobView): string {
  return isFinished(view.status) ? view.status : 'status';
}

/** One SSE event; `data` is JSON (no line breaks), so one `data:` line carries it. */
function sseEvent(name: string, id: string, data: string): string {
  return `event: ${name}\nid: ${id}\ndata: ${data}\n\n`;
}

function lastEventIdOf(req: Request): string | undefined {
  const header = req.get('last-event-id')?.trim();
  return header === undefined || header === '' || header.length > MAX_EVENT_ID_LENGTH ? undefined : header;
}

interface StreamTarget {
  jobId: string;
  userId: string;
  lastEventId: string | undefined;
}

/**
 * Streams the job's views until it ends, the stream's lifetime passes or the client leaves.
 * Reads are serialized: a change that arrives during a read makes one more read after it.
 */
function serveStream(deps: JobEventsDeps, res: Response, stream: JobStream, target: StreamTarget): void {
  const { heartbeatMs, maxStreamMs, retryMs } = deps.jobEvents.limits;
  let seen = target.lastEventId;
  let ended = false;
  let reading = false;
  let again = false;

  const end = () => {
    if (ended) return;
    ended = true;
    stream.close();
    res.end();
  };
  res.on('close', () => {
    ended = true;
    stream.close();
  });

  const readOnce = async (): Promise<void> => {
    const job = await findOwnJob(deps.db, target.jobId, target.userId);
    if (ended) return;
    if (job === null) {
      end();
      return;
    }
    const view = (await viewJob(deps.db, job, deps.now())) satisfies z.infer<typeof jobStatusSchema>;
    if (ended) return;
    const version = viewVersion(view);
    if (version !== seen) {
      res.write(sseEvent(eventName(view), version, JSON.stringify(view)));
      seen = version;
    }
    if (isFinished(view.status)) end();
  };

  const refresh = async (): Promise<void> => {
    if (reading) {
      again = true;
      return;
    }
    reading = true;
    try {
      do {
        again = false;
        await readOnce();
      } while (again && !ended);
    } catch (error) {
      // The database is away: keep the stream; the hub signals every job again once it is back.
      if (isDatabaseUnavailable(error) || isResourceExhausted(error)) {
        deps.logger.warn({ err: error }, 'job event stream could not read its job; waiting for the database');
      } else {
        deps.logger.error({ err: error }, 'job event stream failed');
        end();
      }
    } finally {
      reading = false;
    }
  };

  res.status(200);
  res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
  // `no-transform`: a compressing proxy would hold events back to fill its buffers.
  res.setHeader('Cache-Control', 'no-cache, no-transform');
  // nginx buffers proxied responses unless told not to.
  res.setHeader('X-Accel-Buffering', 'no');
  res.flushHeaders();
  res.write(`retry: ${retryMs}\n\n`);

  stream.watch(target.jobId, () => void refresh());
  stream.every(heartbeatMs, () => {
    if (!ended) res.write(': heartbeat\n\n');
  });
  stream.after(maxStreamMs, end);
  void refresh();
}

/**
 * The route's handler. The route table charges the stream as the status route (one statement
 * with the owner-only lookup): 401 without a valid token, 429 past the hourly limit. Here: 404 for
 * unknown, malformed and others' ids; 503 + Retry-After when this process already serves its cap
 * of streams (a 503 is taken back, so a refused stream costs the caller nothing); 503 when the
 * database is unreachable at connect (the error handler).
 */
export function jobEventsHandler(deps: JobEventsDeps): (call: SignedInCall<string, JobRecord>) => void {
  return ({ req, res, input: publicId, found: job }) => {
    if (job === null) {
      sendError(req, res, jobNotFound(publicId));
      return;
    }
    const stream = deps.jobEvents.open();
    if (stream === null) {
      sendError(
        req,
        res,
        appError('SERVICE_UNAVAILABLE', 'Too many open event streams, retry shortly or poll GET /api/generate/{job_id}', {
          retryAfter: STREAMS_FULL_RETRY_SECONDS,
        }),
      );
      return;
    }
    serveStream(deps, res, stream, { jobId: job.id, userId: job.userId, lastEventId: lastEventIdOf(req) });
  };
}
