/**
 * The inference worker: claims generation jobs of every kind (songs and previews, ./job-kinds.ts)
 * from the pg-boss queue in tier priority order, within the fleet-wide slot cap, runs the
 * pipeline under the job time limit, publishes the audio and completes the job in one
 * transaction, and retries or fails it per the spec: one attempt runner for all kinds.
 */
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import type { JobWithMetadata, PgBoss } from 'pg-boss';
import type { Logger } from 'pino';
import type { Database } from '../../../core/src/db/database.ts';
import {
  GENERATION_QUEUE,
  HEARTBEAT_INTERVAL_SECONDS,
  HEARTBEAT_STALE_SECONDS,
  LOSSLESS_MASTERS_DEADLINE_SECONDS,
} from '../../../core/src/generation-queue.ts';
import type { QueueMessage } from '../../../core/src/generation-queue.ts';
import type { ClaimedJob } from '../../../core/src/jobs/job-state.ts';
import type { ModelSpeed } from '../../../core/src/model-speed.ts';
import { bossDbFromTask } from '../../../core/src/queue.ts';
import { isOutOfSpace } from '../../../core/src/resource-exhausted.ts';
import { maxDurationOf } from './calibration.ts';
import { tryAcquireSlot } from './fleet-slots.ts';
import type { HeartbeatInfo } from './heartbeat.ts';
import { beat, removeHeartbeat } from './heartbeat.ts';
import { UploadFailedError, previewJobKind, songJobKind } from './job-kinds.ts';
import type { JobKindDeps } from './job-kinds.ts';
import type { JobKind } from './job-kinds.ts';
import type { PipelineStep, Song } from './pipeline.ts';
import { generateSong } from './pipeline.ts';

export interface WorkerSettings {
  workerId: string;
  /** Jobs this process runs at once. */
  concurrency: number;
  /** Fleet-wide parallel jobs (advisory-lock slots). */
  fleetSlots: number;
  jobTimeLimitMs: number;
  pollIntervalMs: number;
  heartbeatIntervalMs: number;
  /** What the calibration at start measured (./calibration.ts): the worker takes no longer song than it says. */
  modelSpeed: ModelSpeed;
}

/** The pino levels the worker logs at. */
export type WorkerLogger = Pick<Logger, 'info' | 'warn' | 'error'>;

/** The owner cancelled the job while it ran: the worker stops before `step` and leaves nothing behind. */
export class JobCancelledError extends Error {
  constructor(readonly step: PipelineStep) {
    super(`job cancelled by its owner before the ${step} step`);
    this.name = 'JobCancelledError';
  }
}

/** Waits between publishing tries while a disk is full: doubled from the first up to the cap. */
export const OUT_OF_SPACE_WAIT_MS = { first: 1000, cap: 10_000 } as const;

/** The store's or the database's disk is full (core/src/resource-exhausted.ts): space comes back, a retry would be spent for nothing. */
function outOfSpace(err: unknown): boolean {
  return isOutOfSpace(err) || (err instanceof UploadFailedError && err.storeError.code === 'storage_full');
}

/**
 * Runs `step` (claiming a job, publishing it) again while it fails for want of space, until
 * `signal` aborts (the job's time limit): a full disk under the store or the database makes the
 * attempt wait, where spending its retries in seconds would fail the job (GEN_005) for a fault an
 * operator fixes in minutes. The store wrote nothing on such a failure and the transaction rolled
 * back, so a try leaves nothing behind.
 */
async function whenSpace<T>(step: () => Promise<T>, signal: AbortSignal, onWait: (err: unknown) => void): Promise<T> {
  for (let waitMs: number = OUT_OF_SPACE_WAIT_MS.first; ; waitMs = Math.min(waitMs * 2, OUT_OF_SPACE_WAIT_MS.cap)) {
    try {
      return await step();
    } catch (err) {
      if (!outOfSpace(err) || signal.aborted) throw err;
      onWait(err);
      await sleep(waitMs, undefined, { signal });
    }
  }
}

export interface WorkerDeps extends JobKindDeps {
  db: Database;
  boss: PgBoss;
  /** pino, as in the oracle: structured fields first, then the message; errors under `err`. */
  logger: WorkerLogger;
  /** Called after every settled job (metrics). */
  onJobSettled?: (outcome: 'completed' | 'retry' | 'failed' | 'skipped' | 'cancelled', song: Song | undefined) => void;
}

export interface Worker {
  start(): Promise<void>;
  /** Stops claiming, lets running jobs finish (or aborts them after `graceMs`), removes the heartbeat. */
  stop(graceMs: number): Promise<void>;
}

export class JobTimeLimitError extends Error {
  constructor(limitMs: number) {
    super(`job exceeded the ${limitMs / 1000} s time limit`);
    this.name = 'JobTimeLimitError';
  }
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export function createWorker(settings: WorkerSettings, deps: WorkerDeps): Worker {
  const { db, boss } = deps;
  const model = deps.pipeline.model;
  const heartbeatInfo: HeartbeatInfo = {
    workerId: settings.workerId,
    hostname: hostname(),
    device: model.device,
    modelName: model.name,
    modelVersion: model.version,
    slots: settings.concurrency,
    editTasks: model.editSupport,
    importLack: model.importSupport,
    sings: model.sings,
    speed: settings.modelSpeed,
  };
  const running = new Set<AbortController>();
  /** Work following completed jobs (a song's masters), each with what aborts it. */
  const following = new Map<Promise<void>, AbortController>();
  const loops: Promise<void>[] = [];
  const stopping = new AbortController();
  let heartbeatTimer: NodeJS.Timeout | undefined;

  const sendHeartbeat = (): void => {
    beat(db, heartbeatInfo, running.size).catch((err: unknown) => deps.logger.warn({ err }, 'heartbeat failed'));
  };

  const route = <Claimed extends ClaimedJob>(kind: JobKind<Claimed>) => ({
    rowId: kind.rowId,
    run: (message: JobWithMetadata<QueueMessage>, rowId: string) => runAttempt(kind, message, rowId),
  });
  const routes = [route(songJobKind(deps)), route(previewJobKind(deps))];

  /** Hands a queue message to the runner with its kind; a message of no kind is failed at once. */
  async function runJob(message: JobWithMetadata<QueueMessage>): Promise<void> {
    for (const { rowId: rowIdOf, run } of routes) {
      const rowId = rowIdOf(message.data);
      if (rowId !== undefined) {
        await run(message, rowId);
        return;
      }
    }
    deps.logger.error({ id: message.id }, 'malformed queue message');
    await boss.fail(GENERATION_QUEUE, { id: message.id, retryCount: message.retryCount }, { message: 'malformed message' });
  }

  /**
   * One attempt of one job of any kind: claim the row, run the pipeline under the job time limit
   * (keeping the queue message alive and the progress rising), publish in one transaction with
   * the row locked, and settle the queue message: completed, or failed for pg-boss to retry after
   * the row went back to `queued` (or, on the last attempt, to `failed`).
   */
  async function runAttempt<Claimed extends ClaimedJob>(
    kind: JobKind<Claimed>,
    message: JobWithMetadata<QueueMessage>,
    rowId: string,
  ): Promise<void> {
    const queued = { id: message.id, retryCount: message.retryCount };
    // The claim writes the row: on a full database disk it waits too, keeping the message alive
    // (a message left untouched would expire and spend a retry).
    const attempt = await whenSpace(
      () => kind.claim(db, rowId),
      AbortSignal.timeout(settings.jobTimeLimitMs),
      (err) => {
        deps.logger.warn({ err, rowId }, `${kind.name} waits for space to start (disk full)`);
        boss.touch(GENERATION_QUEUE, queued).catch(() => undefined);
      },
    );
    if (attempt === undefined) {
      // Finished already (a duplicate delivery), cancelled, or unknown: nothing to do.
      await boss.complete(GENERATION_QUEUE, queued);
      deps.onJobSettled?.('skipped', undefined);
      return;
    }
    const fields = kind.logFields(attempt);
    const max = maxDurationOf(settings.modelSpeed, attempt.steps);
    if (attempt.duration > max) {
      await handBack(kind, attempt, message, max, fields);
      return;
    }
    const controller = new AbortController();
    running.add(controller);
    const limit = setTimeout(() => controller.abort(new JobTimeLimitError(settings.jobTimeLimitMs)), settings.jobTimeLimitMs);
    const touch =
      message.heartbeatSeconds === null
        ? undefined
        : setInterval(
            () => {
              boss
                .touch(GENERATION_QUEUE, queued)
                .catch((err: unknown) => deps.logger.warn({ err, ...fields }, `${kind.name} queue heartbeat failed`));
            },
            (message.heartbeatSeconds * 1000) / 2,
          );
    let lastProgress = 0;
    const progress = (percent: number): void => {
      if (percent <= lastProgress) return;
      lastProgress = percent;
      kind
        .raiseProgress(db, attempt, percent)
        .catch((err: unknown) => deps.logger.warn({ err, ...fields }, `${kind.name} progress update failed`));
    };
    // Between steps: has the owner cancelled the job? (POST /api/generate/{job_id}/cancel)
    const cancelled = kind.cancelled;
    const checkpoint =
      cancelled === undefined
        ? undefined
        : async (step: PipelineStep): Promise<void> => {
            if (await cancelled(db, attempt)) throw new JobCancelledError(step);
          };
    try {
      const edit = await kind.editInput?.(db, attempt);
      const song = await generateSong(
        {
          prompt: attempt.prompt,
          durationSeconds: attempt.duration,
          seed: attempt.seed,
          steps: attempt.steps,
          lyrics: attempt.lyrics,
          withLyrics: attempt.withLyrics,
          jobId: kind.publicId(attempt),
          kind: kind.name,
          ...(edit === undefined ? {} : { edit }),
          ...(attempt.outside === undefined ? {} : { outside: attempt.outside }),
        },
        deps.pipeline,
        controller.signal,
        progress,
        checkpoint,
      );
      controller.signal.throwIfAborted();
      await checkpoint?.('upload');
      // Lock, store and complete in one transaction: a competing attempt waits on the row lock and
      // then finds the row no longer its own, so it neither stores nor completes.
      const completed = await whenSpace(
        () => db.tx(async (tx) => (await kind.lock(tx, attempt)) && kind.publish(tx, attempt, song, controller.signal)),
        controller.signal,
        (err) => deps.logger.warn({ err, ...fields }, `${kind.name} waits for space to publish (disk full)`),
      );
      await boss.complete(GENERATION_QUEUE, queued);
      deps.logger.info({ ...fields, hash: song.audioHash }, completed ? `${kind.name} completed` : `${kind.name} attempt superseded`);
      deps.onJobSettled?.(completed ? 'completed' : 'skipped', song);
      const after = kind.afterCompletion;
      if (completed && after !== undefined) follow((signal) => after(db, attempt, song, signal), fields, kind.name);
    } catch (err) {
      if (err instanceof JobCancelledError) {
        // Cancelled: neither a retry nor a failure. The queue message is done; the row is the owner's.
        await boss.complete(GENERATION_QUEUE, queued);
        deps.logger.info({ ...fields, step: err.step }, `${kind.name} cancelled by its owner`);
        deps.onJobSettled?.('cancelled', undefined);
        return;
      }
      const reason = controller.signal.aborted && controller.signal.reason instanceof Error ? controller.signal.reason : err;
      const text = describe(reason);
      const final = message.retryCount >= message.retryLimit;
      try {
        if (final) await kind.fail(db, attempt, kind.failureMessage(attempt, text));
        else await kind.retry(db, attempt, text);
      } finally {
        // pg-boss must hear of the failure even when the row update did not go through (the next
        // attempt claims a row left `processing`), or the job would wait for its heartbeat to lapse.
        await boss.fail(GENERATION_QUEUE, queued, { message: text });
      }
      if (final) deps.logger.error({ ...fields, error: text }, `${kind.name} failed`);
      else deps.logger.warn({ ...fields, error: text }, `${kind.name} attempt failed, will retry`);
      deps.onJobSettled?.(final ? 'failed' : 'retry', undefined);
    } finally {
      clearTimeout(limit);
      if (touch !== undefined) clearInterval(touch);
      running.delete(controller);
    }
  }

  /**
   * A job longer than this worker's measured limit (the oracle admitted it for another live
   * worker, or this one's limit is lower than the one it replaced): it is not run, where it would
   * fail after the user waited. While another live worker publishes a limit that fits (or none,
   * from before the measurement), the row goes back to `queued` and the message is sent again for
   * it, a heartbeat later, without spending a retry; otherwise it fails at once, its daily
   * generation given back, with a message naming the limit.
   */
  async function handBack<Claimed extends ClaimedJob>(
    kind: JobKind<Claimed>,
    attempt: Claimed,
    message: JobWithMetadata<QueueMessage>,
    max: number,
    fields: Record<string, string | number>,
  ): Promise<void> {
    const queued = { id: message.id, retryCount: message.retryCount };
    const text = `the live worker's model (${model.name}@${model.version} on ${model.device}) finishes at most ${max} s at ${attempt.steps} steps within the ${settings.jobTimeLimitMs / 1000} s job limit; ${attempt.duration} s asked`;
    const other = await db.oneOrNone<{ worker_id: string }>(
      `SELECT worker_id FROM worker_heartbeats
        WHERE worker_id <> $1 AND last_seen > now() - make_interval(secs => $2)
          AND (model_speed IS NULL OR (model_speed -> $3 ->> 'maxDuration')::int >= $4)
        LIMIT 1`,
      [settings.workerId, HEARTBEAT_STALE_SECONDS, String(attempt.steps), attempt.duration],
    );
    if (other === null) {
      await kind.fail(db, attempt, kind.failureMessage(attempt, text));
      await boss.complete(GENERATION_QUEUE, queued);
      deps.logger.warn({ ...fields, max }, `${kind.name} longer than any live worker can finish: failed at once`);
      deps.onJobSettled?.('failed', undefined);
      return;
    }
    await kind.retry(db, attempt, text);
    await db.tx(async (tx) => {
      const options = { db: bossDbFromTask(tx) };
      await boss.send(GENERATION_QUEUE, message.data, { ...options, priority: message.priority, startAfter: HEARTBEAT_INTERVAL_SECONDS });
      await boss.complete(GENERATION_QUEUE, queued, null, options);
    });
    deps.logger.info({ ...fields, max, to: other.worker_id }, `${kind.name} longer than this worker finishes: handed back`);
    deps.onJobSettled?.('skipped', undefined);
  }

  /**
   * Runs `work` after a completed job, beside the next job, under its own deadline: its failure is
   * logged (the work undid itself), never the job's.
   */
  function follow(work: (signal: AbortSignal) => Promise<void>, fields: Record<string, string | number>, kindName: string): void {
    const controller = new AbortController();
    const signal = AbortSignal.any([controller.signal, AbortSignal.timeout(LOSSLESS_MASTERS_DEADLINE_SECONDS * 1000)]);
    const task = work(signal)
      .then(() => deps.logger.info(fields, `${kindName} masters stored`))
      .catch((err: unknown) => deps.logger.warn({ err, ...fields }, `${kindName} masters given up`))
      .finally(() => following.delete(task));
    following.set(task, controller);
  }

  /** Before claiming another job: at most `concurrency` jobs' follow-up work in flight. */
  async function followingBelowConcurrency(): Promise<void> {
    while (following.size >= settings.concurrency) await Promise.race(following.keys());
  }

  async function loop(): Promise<void> {
    while (!stopping.signal.aborted) {
      let idle = true;
      await followingBelowConcurrency();
      try {
        const slot = await tryAcquireSlot(db, settings.fleetSlots);
        if (slot !== undefined) {
          try {
            if (!stopping.signal.aborted) {
              const [message] = await boss.fetch<QueueMessage>(GENERATION_QUEUE, { batchSize: 1, includeMetadata: true });
              if (message !== undefined) {
                idle = false;
                await runJob(message);
              }
            }
          } finally {
            await slot.release();
          }
        }
      } catch (err) {
        deps.logger.error({ err }, 'worker loop error');
      }
      if (idle) await sleepUnlessStopped(settings.pollIntervalMs);
    }
  }

  function sleepUnlessStopped(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done(): void {
        clearTimeout(timer);
        stopping.signal.removeEventListener('abort', done);
        resolve();
      }
      stopping.signal.addEventListener('abort', done, { once: true });
    });
  }

  return {
    async start() {
      await beat(db, heartbeatInfo, 0);
      heartbeatTimer = setInterval(sendHeartbeat, settings.heartbeatIntervalMs);
      for (let i = 0; i < settings.concurrency; i += 1) loops.push(loop());
      deps.logger.info(
        { ...heartbeatInfo, format: model.format, licence: model.licence.spdx, fallbackReason: model.fallbackReason },
        'worker started',
      );
    },
    async stop(graceMs) {
      stopping.abort();
      const grace = setTimeout(() => {
        for (const controller of [...running, ...following.values()]) controller.abort(new Error('worker shutting down'));
      }, graceMs);
      await Promise.all(loops);
      await Promise.all(following.keys());
      clearTimeout(grace);
      if (heartbeatTimer !== undefined) clearInterval(heartbeatTimer);
      await removeHeartbeat(db, settings.workerId).catch((err: unknown) => deps.logger.warn({ err }, 'heartbeat removal failed'));
      deps.logger.info({ workerId: settings.workerId }, 'worker stopped');
    },
  };
}

export const DEFAULT_HEARTBEAT_INTERVAL_MS = HEARTBEAT_INTERVAL_SECONDS * 1000;
