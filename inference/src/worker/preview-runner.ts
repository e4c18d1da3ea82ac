/**
 * One attempt of a preview job (core/src/jobs/preview-state.ts) on the generation workers: the
 * same pipeline, time limit and retries as a song, but the clip is stored privately at
 * `preview/<session_id>.mp3` (core/src/previews.ts) and never under the public `audio/` prefix.
 */
import type { JobWithMetadata, PgBoss } from 'pg-boss';
import type { Logger } from 'pino';
import type { Database } from '../../../core/src/db/database.ts';
import { GENERATION_QUEUE } from '../../../core/src/generation-queue.ts';
import type { QueueMessage } from '../../../core/src/generation-queue.ts';
import type { ObjectStore } from '../../../core/src/object-store.ts';
import { createPreview } from '../../../core/src/previews.ts';
import {
  claimPreview,
  completePreview,
  failPreview,
  lockPreviewForPublish,
  reportPreviewProgress,
  retryPreview,
} from '../../../core/src/jobs/preview-state.ts';
import type { ClaimedPreview } from '../../../core/src/jobs/preview-state.ts';
import { seedFromJobId } from '../model/seed.ts';
import type { PipelineDeps, Song } from './pipeline.ts';
import { generateSong } from './pipeline.ts';

export interface PreviewRunnerDeps {
  db: Database;
  boss: PgBoss;
  store: ObjectStore;
  pipeline: PipelineDeps;
  logger: Pick<Logger, 'info' | 'warn' | 'error'>;
  jobTimeLimitMs: number;
  /** Registers the attempt's controller with the worker (stop aborts it); returns its removal. */
  track: (controller: AbortController) => () => void;
  /** Makes the time-limit error of the worker (one error type for songs and previews). */
  timeLimitError: (limitMs: number) => Error;
  onSettled?: (outcome: 'completed' | 'retry' | 'failed' | 'skipped', song: Song | undefined) => void;
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export async function runPreviewAttempt(deps: PreviewRunnerDeps, message: JobWithMetadata<QueueMessage>, previewId: string): Promise<void> {
  const { db, boss } = deps;
  const attempt = { id: message.id, retryCount: message.retryCount };
  const preview = await claimPreview(db, previewId, seedFromJobId(previewId));
  if (preview === undefined) {
    await boss.complete(GENERATION_QUEUE, attempt);
    deps.onSettled?.('skipped', undefined);
    return;
  }
  const controller = new AbortController();
  const untrack = deps.track(controller);
  const limit = setTimeout(() => controller.abort(deps.timeLimitError(deps.jobTimeLimitMs)), deps.jobTimeLimitMs);
  const touch =
    message.heartbeatSeconds === null
      ? undefined
      : setInterval(() => {
          boss.touch(GENERATION_QUEUE, attempt).catch((err: unknown) => deps.logger.warn({ err }, 'preview heartbeat failed'));
        }, (message.heartbeatSeconds * 1000) / 2);
  let lastProgress = 0;
  const progress = (percent: number): void => {
    if (percent <= lastProgress) return;
    lastProgress = percent;
    reportPreviewProgress(db, preview, percent).catch((err: unknown) => deps.logger.warn({ err }, 'preview progress update failed'));
  };
  try {
    const song = await generateSong(
      { prompt: preview.prompt, durationSeconds: preview.duration, seed: preview.seed, steps: preview.steps, lyrics: preview.lyrics, withLyrics: preview.withLyrics, jobId: preview.sessionId, kind: 'preview' },
      deps.pipeline,
      controller.signal,
      progress,
    );
    controller.signal.throwIfAborted();
    const completed = await storeClip(deps, preview, song);
    await boss.complete(GENERATION_QUEUE, attempt);
    deps.logger.info({ previewId, sessionId: preview.sessionId, attempts: preview.attempts }, completed ? 'preview completed' : 'preview attempt superseded');
    deps.onSettled?.(completed ? 'completed' : 'skipped', song);
  } catch (err) {
    const reason = controller.signal.aborted && controller.signal.reason instanceof Error ? controller.signal.reason : err;
    const text = describe(reason);
    const final = message.retryCount >= message.retryLimit;
    try {
      if (final) await failPreview(db, preview, `preview failed after ${preview.attempts} attempts: ${text}`);
      else await retryPreview(db, preview, text);
    } finally {
      await boss.fail(GENERATION_QUEUE, attempt, { message: text });
    }
    deps.logger[final ? 'error' : 'warn']({ previewId, attempts: preview.attempts, error: text }, final ? 'preview failed' : 'preview attempt failed, will retry');
    deps.onSettled?.(final ? 'failed' : 'retry', undefined);
  } finally {
    clearTimeout(limit);
    if (touch !== undefined) clearInterval(touch);
    untrack();
  }

}

/** Lock, store privately and complete in one transaction, as a song's publish. */
async function storeClip(deps: PreviewRunnerDeps, preview: ClaimedPreview, song: Song): Promise<boolean> {
  return deps.db.tx(async (tx) => {
    if (!(await lockPreviewForPublish(tx, preview))) return false;
    const stored = await createPreview(tx, deps.store, preview.sessionId, song.bytes);
    if (!stored.ok) throw new Error(`storing preview ${preview.sessionId} failed: ${stored.error.code} ${stored.error.message}`);
    return completePreview(tx, preview, { audioHash: stored.value.audioHash, actualDuration: song.actualDuration });
  });
}
