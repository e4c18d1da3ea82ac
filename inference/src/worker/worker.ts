/**
 * The inference worker: claims generation jobs from the pg-boss queue in tier priority order,
 * within the fleet-wide slot cap, runs the pipeline under the job time limit, publishes the
 * audio and completes the job in one transaction, and retries or fails it per the spec.
 */
import { hostname } from 'node:os';
import type { JobWithMetadata, PgBoss } from 'pg-boss';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { Database } from '../../../core/src/db/database.ts';
import { GENERATION_QUEUE, HEARTBEAT_INTERVAL_SECONDS, audioObjectKey, toPublicJobId } from '../../../core/src/generation-queue.ts';
import type { QueueMessage } from '../../../core/src/generation-queue.ts';
import type { ObjectStore } from '../../../core/src/object-store.ts';
import { attemptCancelled, claimJob, completeJob, failJob, lockForPublish, reportProgress, retryJob } from '../../../core/src/jobs/job-state.ts';
import type { ClaimedJob } from '../../../core/src/jobs/job-state.ts';
import { seedFromJobId } from '../model/seed.ts';
import { tryAcquireSlot } from './fleet-slots.ts';
import type { HeartbeatInfo } from './heartbeat.ts';
import { beat, removeHeartbeat } from './heartbeat.ts';
import type { PipelineDeps, PipelineStep, Song } from './pipeline.ts';
import { generateSong } from './pipeline.ts';
import { runPreviewAttempt } from './preview-runner.ts';

export interface WorkerSettings {
  workerId: string;
  /** Jobs this process runs at once. */
  concurrency: number;
  /** Fleet-wide parallel jobs (advisory-lock slots). */
  fleetSlots: number;
  jobTimeLimitMs: number;
  pollIntervalMs: number;
  heartbeatIntervalMs: number;
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

export interface WorkerDeps {
  db: Database;
  boss: PgBoss;
  store: ObjectStore;
  pipeline: PipelineDeps;
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

const Message = z.object({ jobId: z.uuid() });
/** A preview job on the same queue (core/src/jobs/preview-state.ts). */
const PreviewMessage = z.object({ previewId: z.uuid() });

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
  const { db, boss, store } = deps;
  const model = deps.pipeline.model;
  const heartbeatInfo: HeartbeatInfo = {
    workerId: settings.workerId,
    hostname: hostname(),
    device: model.device,
    modelName: model.name,
    modelVersion: model.version,
    slots: settings.concurrency,
  };
  const running = new Set<AbortController>();
  const loops: Promise<void>[] = [];
  const stopping = new AbortController();
  let heartbeatTimer: NodeJS.Timeout | undefined;

  const sendHeartbeat = (): void => {
    beat(db, heartbeatInfo, running.size).catch((err: unknown) => deps.logger.warn({ err }, 'heartbeat failed'));
  };

  async function publish(job: ClaimedJob, song: Song, signal: AbortSignal): Promise<boolean> {
    const key = audioObjectKey(job.id);
    // Lock, upload and complete in one transaction: a competing attempt waits on the row lock and
    // then finds the job no longer its own, so it neither uploads nor completes.
    return db.tx(async (tx) => {
      if (!(await lockForPublish(tx, job))) return false;
      await deps.pipeline.enterStage?.('upload', signal);
      // The audio hash goes along as the S3 SHA-256 checksum: the store refuses bytes that do not
      // match it and keeps it, so the signature check can read it back without downloading.
      const put = await store.put(key, song.bytes, {
        contentType: 'audio/mpeg',
        cacheControl: 'public, max-age=31536000, immutable',
        sha256: song.audioHash.replace(/^0x/, ''),
      });
      if (!put.ok) throw new Error(`upload of ${key} failed: ${put.error.code} ${put.error.message}`);
      await deps.pipeline.enterStage?.('completion', signal);
      return completeJob(tx, job, {
        audioKey: key,
        audioUrl: store.publicUrl(key),
        audioHash: song.audioHash,
        actualDuration: song.actualDuration,
        modelName: model.name,
        modelVersion: model.version,
        device: model.device,
        usedLyrics: song.usedLyrics,
        lyricsTokens: song.lyricsTokens,
        modelLicence: model.licence.spdx,
        modelCommercialUse: model.licence.commercial_use,
        contentCredentials: { standard: 'c2pa', manifest: song.credentials.manifestLabel, signer: deps.pipeline.signingIdentity.subject },
      });
    });
  }

  async function runJob(message: JobWithMetadata<QueueMessage>): Promise<void> {
    const attempt = { id: message.id, retryCount: message.retryCount };
    const preview = PreviewMessage.safeParse(message.data);
    if (preview.success) {
      await runPreviewAttempt(
        {
          db,
          boss,
          store,
          pipeline: deps.pipeline,
          logger: deps.logger,
          jobTimeLimitMs: settings.jobTimeLimitMs,
          track: (controller) => {
            running.add(controller);
            return () => running.delete(controller);
          },
          timeLimitError: (limitMs) => new JobTimeLimitError(limitMs),
          ...(deps.onJobSettled === undefined ? {} : { onSettled: deps.onJobSettled }),
        },
        message,
        preview.data.previewId,
      );
      return;
    }
    const parsed = Message.safeParse(message.data);
    if (!parsed.success) {
      deps.logger.error({ id: message.id }, 'malformed queue message');
      await boss.fail(GENERATION_QUEUE, attempt, { message: 'malformed message' });
      return;
    }
    const jobId = parsed.data.jobId;
    const job = await claimJob(db, jobId, seedFromJobId(jobId));
    if (job === undefined) {
      // Finished already (a duplicate delivery) or unknown: nothing to do.
      await boss.complete(GENERATION_QUEUE, attempt);
      deps.onJobSettled?.('skipped', undefined);
      return;
    }
    const controller = new AbortController();
    running.add(controller);
    const limit = setTimeout(() => controller.abort(new JobTimeLimitError(settings.jobTimeLimitMs)), settings.jobTimeLimitMs);
    const touch =
      message.heartbeatSeconds === null
        ? undefined
        : setInterval(() => {
            boss.touch(GENERATION_QUEUE, attempt).catch((err: unknown) => deps.logger.warn({ err }, 'job heartbeat failed'));
          }, (message.heartbeatSeconds * 1000) / 2);
    let lastProgress = 0;
    const progress = (percent: number): void => {
      if (percent <= lastProgress) return;
      lastProgress = percent;
      reportProgress(db, job, percent).catch((err: unknown) => deps.logger.warn({ err }, 'progress update failed'));
    };
    // Between steps: has the owner cancelled the job? (POST /api/generate/{job_id}/cancel)
    const checkpoint = async (step: PipelineStep): Promise<void> => {
      if (await attemptCancelled(db, job)) throw new JobCancelledError(step);
    };
    try {
      const song = await generateSong(
        { prompt: job.prompt, durationSeconds: job.duration, seed: job.seed, steps: job.steps, lyrics: job.lyrics, withLyrics: job.withLyrics, jobId: toPublicJobId(jobId), kind: 'song' },
        deps.pipeline,
        controller.signal,
        progress,
        checkpoint,
      );
      controller.signal.throwIfAborted();
      await checkpoint('upload');
      const completed = await publish(job, song, controller.signal);
      await boss.complete(GENERATION_QUEUE, attempt);
      deps.logger.info({ jobId, attempts: job.attempts, hash: song.audioHash }, completed ? 'job completed' : 'job attempt superseded');
      deps.onJobSettled?.(completed ? 'completed' : 'skipped', song);
    } catch (err) {
      if (err instanceof JobCancelledError) {
        // Cancelled: neither a retry nor a failure. The queue message is done; the row is the owner's.
        await boss.complete(GENERATION_QUEUE, attempt);
        deps.logger.info({ jobId, step: err.step }, 'job cancelled by its owner');
        deps.onJobSettled?.('cancelled', undefined);
        return;
      }
      const reason = controller.signal.aborted && controller.signal.reason instanceof Error ? controller.signal.reason : err;
      const text = describe(reason);
      const final = message.retryCount >= message.retryLimit;
      try {
        if (final) await failJob(db, job, `generation failed after ${job.attempts} attempts: ${text}`);
        else await retryJob(db, job, text);
      } finally {
        // pg-boss must hear of the failure even when the row update did not go through (the next
        // attempt claims a row left `processing`), or the job would wait for its heartbeat to lapse.
        await boss.fail(GENERATION_QUEUE, attempt, { message: text });
      }
      if (final) deps.logger.error({ jobId, attempts: job.attempts, error: text }, 'job failed');
      else deps.logger.warn({ jobId, attempts: job.attempts, error: text }, 'job attempt failed, will retry');
      deps.onJobSettled?.(final ? 'failed' : 'retry', undefined);
    } finally {
      clearTimeout(limit);
      if (touch !== undefined) clearInterval(touch);
      running.delete(controller);
    }
  }

  async function loop(): Promise<void> {
    while (!stopping.signal.aborted) {
      let idle = true;
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
      deps.logger.info({ ...heartbeatInfo, format: model.format, licence: model.licence.spdx, fallbackReason: model.fallbackReason }, 'worker started');
    },
    async stop(graceMs) {
      stopping.abort();
      const grace = setTimeout(() => {
        for (const controller of running) controller.abort(new Error('worker shutting down'));
      }, graceMs);
      await Promise.all(loops);
      clearTimeout(grace);
      if (heartbeatTimer !== undefined) clearInterval(heartbeatTimer);
      await removeHeartbeat(db, settings.workerId).catch((err: unknown) => deps.logger.warn({ err }, 'heartbeat removal failed'));
      deps.logger.info({ workerId: settings.workerId }, 'worker stopped');
    },
  };
}

export const DEFAULT_HEARTBEAT_INTERVAL_MS = HEARTBEAT_INTERVAL_SECONDS * 1000;
