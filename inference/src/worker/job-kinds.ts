/**
 * The kinds of generation job the workers run from the one queue, as descriptors of what differs
 * between them; the attempt itself (claim, time limit, queue heartbeat, monotonic progress,
 * publish, retry or fail) is one runner for all kinds (./worker.ts `runAttempt`).
 * - song: `generation_jobs` (core/src/jobs/job-state.ts), published at the public
 *   `audio/<job_id>.mp3`, cancellable by its owner between steps, its daily generation given back
 *   when it fails;
 * - preview: `preview_jobs` (core/src/jobs/preview-state.ts), stored privately at
 *   `preview/<session_id>.mp3` (core/src/previews.ts), never cancelled, never charged daily.
 */
import { z } from 'zod';
import { contentHash, sha256OfContentHash } from '../../../core/src/content-hash.ts';
import type { DatabaseTask, Queryable } from '../../../core/src/db/database.ts';
import { audioObjectKey, toPublicJobId } from '../../../core/src/generation-queue.ts';
import type { GenerationMessage, PreviewMessage } from '../../../core/src/generation-queue.ts';
import {
  attemptCancelled,
  claimJob,
  completeJob,
  failJob,
  lockForPublish,
  reportProgress,
  retryJob,
} from '../../../core/src/jobs/job-state.ts';
import type { ClaimedJob } from '../../../core/src/jobs/job-state.ts';
import {
  claimPreview,
  completePreview,
  failPreview,
  lockPreviewForPublish,
  reportPreviewProgress,
  retryPreview,
} from '../../../core/src/jobs/preview-state.ts';
import type { ClaimedPreview } from '../../../core/src/jobs/preview-state.ts';
import type { ObjectStore, ObjectStoreError } from '../../../core/src/object-store.ts';
import { createPreview } from '../../../core/src/previews.ts';
import { publishObject } from '../../../core/src/publish-object.ts';
import { readSourceCredentials } from '../audio/source-credentials.ts';
import { seedFromJobId } from '../model/seed.ts';
import { latentsObjectKey } from '../../../core/src/song-edits.ts';
import type { EditParameters } from '../../../core/src/song-edits.ts';
import { UPLOAD_CONTENT_TYPES } from '../../../core/src/audio/uploaded-audio.ts';
import type { AudioProber } from '../../../core/src/audio/audio-prober.ts';
import type { UploadFormat } from '../../../core/src/audio/uploaded-audio.ts';
import { editableSeconds, toPublicUploadId } from '../../../core/src/uploads.ts';
import { recordJobStorage } from '../../../core/src/storage-quota.ts';
import { pendingLossless, storeLosslessMasters } from './masters.ts';
import type { PipelineDeps, Song, SongRequest } from './pipeline.ts';
import { PipelineError } from './pipeline.ts';

/** An upload the store refused; `storeError.code` says why (`storage_full`: the store's disk is full). */
export class UploadFailedError extends Error {
  constructor(
    what: string,
    readonly storeError: ObjectStoreError,
  ) {
    super(`${what} failed: ${storeError.code} ${storeError.message}`);
    this.name = 'UploadFailedError';
  }
}

/** An upload an edit starts from is decoded to stereo (the models' inputs take one or two channels). */
export const EDIT_WORKING_CHANNELS = 2;

/** What the kinds' publishing needs of the worker. */
export interface JobKindDeps {
  store: ObjectStore;
  pipeline: PipelineDeps;
  /** Decodes an edit's uploaded source in a bounded thread (core/src/audio/audio-prober.ts), off the worker's event loop. */
  uploadDecoder: Pick<AudioProber, 'decode'>;
}

/** One kind of job: everything the attempt runner does differently for it. */
export interface JobKind<Claimed extends ClaimedJob = ClaimedJob> {
  /** Names the kind in logs ("song completed", "preview attempt failed, will retry"). */
  readonly name: 'song' | 'preview';
  /** The row id a queue message of this kind names; undefined for a message of another kind. */
  rowId(data: unknown): string | undefined;
  /** Starts an attempt (seed derived from the row id when none was given); undefined when finished or unknown. */
  claim(db: Queryable, rowId: string): Promise<Claimed | undefined>;
  raiseProgress(db: Queryable, attempt: Claimed, percent: number): Promise<void>;
  /** True once the owner cancelled the row (checked between steps); absent where a kind cannot be cancelled. */
  cancelled?: (db: Queryable, attempt: Claimed) => Promise<boolean>;
  /** Locks the row for the publishing transaction; false when this attempt no longer owns it. */
  lock(tx: DatabaseTask, attempt: Claimed): Promise<boolean>;
  /** Inside that transaction: stores the audio and completes the row; false when superseded. */
  publish(tx: DatabaseTask, attempt: Claimed, song: Song, signal: AbortSignal): Promise<boolean>;
  retry(db: Queryable, attempt: Claimed, message: string): Promise<void>;
  /** The last attempt failed: the row is failed (GEN_005) with `message`. */
  fail(db: Queryable, attempt: Claimed, message: string): Promise<void>;
  /** The stored error message of a row whose last attempt failed with `reason`. */
  failureMessage(attempt: Claimed, reason: string): string;
  /** The id the public knows the row by (`gen_…`, a preview's session id): named in its content credentials. */
  publicId(attempt: Claimed): string;
  /** The fields that name an attempt of this kind in logs. */
  logFields(attempt: Claimed): Record<string, string | number>;
  /**
   * Work that follows a completed job, once its queue message is settled (a song's lossless
   * masters): the worker runs it beside its next job, within `LOSSLESS_MASTERS_DEADLINE_SECONDS`.
   * It throws after undoing what it did; the job stays completed.
   */
  afterCompletion?: (db: Queryable, attempt: Claimed, song: Song, signal: AbortSignal) => Promise<void>;
  /** An edit's source, read before the model runs; absent for a kind that never edits. */
  editInput?: (db: Queryable, attempt: Claimed) => Promise<SongRequest['edit']>;
}

/**
 * An edit's source as the model needs it: its kept latents from the store, and what names it in
 * the edit's provenance, with its published MP3's checked content credentials (the edit's
 * parent ingredient). The oracle checked the source at admission; one purged since, or without
 * kept latents or audio, fails the attempt (`EDIT_SOURCE_GONE`), one whose MP3 is not the file
 * its job completed with or does not validate fails it with `EDIT_SOURCE_INVALID`.
 */
async function readEditSource(db: Queryable, deps: JobKindDeps, attempt: ClaimedJob): Promise<SongRequest['edit']> {
  const { store } = deps;
  const edit = attempt.edit;
  if (edit === undefined) return undefined;
  if (edit.uploadId !== undefined) return readUploadSource(db, deps, edit, edit.uploadId);
  if (edit.sourceId === undefined) return undefined;
  const source = await db.oneOrNone<{ latents_key: string | null; audio_hash: string | null; manifest: string | null; purged: boolean }>(
    `SELECT latents_key, audio_hash, content_credentials->>'manifest' AS manifest, purged_at IS NOT NULL AS purged
       FROM generation_jobs WHERE id = $1`,
    [edit.sourceId],
  );
  const sourceId = toPublicJobId(edit.sourceId);
  if (source === null || source.purged || source.latents_key === null || source.audio_hash === null) {
    throw new PipelineError('EDIT_SOURCE_GONE', `the source song ${sourceId} no longer has kept latents`);
  }
  const kept = await store.get(source.latents_key);
  if (!kept.ok)
    throw new PipelineError(
      'EDIT_SOURCE_GONE',
      `the source song's latents ${source.latents_key}: ${kept.error.code} ${kept.error.message}`,
    );
  // The source's published MP3: its manifest store becomes the edit's parent ingredient.
  const audioKey = audioObjectKey(edit.sourceId);
  const audio = await store.get(audioKey);
  if (!audio.ok)
    throw new PipelineError('EDIT_SOURCE_GONE', `the source song's audio ${audioKey}: ${audio.error.code} ${audio.error.message}`);
  const credentials = await readSourceCredentials(audio.value.bytes, { audioHash: source.audio_hash, manifestLabel: source.manifest });
  if (!credentials.ok) throw new PipelineError(credentials.error.code, `the source song ${sourceId}: ${credentials.error.message}`);
  return {
    parameters: edit,
    sourceKept: kept.value.bytes,
    source: {
      jobId: sourceId,
      audioHash: source.audio_hash,
      manifest: source.manifest,
      task: edit.task,
      parameters: editNumbers(edit),
      credentials: credentials.value,
    },
  };
}

/** The numbers an edit's provenance records: a repaint's range, a remix's strength. */
function editNumbers(edit: EditParameters): Record<string, number> {
  if (edit.task === 'repaint') return { start: edit.start, end: edit.end };
  if (edit.task === 'remix') return { strength: edit.strength };
  return {};
}

/**
 * An edit of an upload (core/src/uploads.ts): the file as uploaded, checked against the SHA-256
 * recorded at upload, decoded by the decoder the oracle checked it with, cut to its whole
 * seconds; the model imports it in the pipeline. One deleted by retention since admission fails
 * the attempt (`EDIT_SOURCE_GONE`), one that no longer matches or decodes `EDIT_SOURCE_INVALID`.
 */
async function readUploadSource(db: Queryable, deps: JobKindDeps, edit: EditParameters, id: string): Promise<SongRequest['edit']> {
  const { store } = deps;
  const upload = await db.oneOrNone<{ object_key: string; format: UploadFormat; sha256: string; duration: number; gone: boolean }>(
    `SELECT object_key, format, sha256, duration, deleted_at IS NOT NULL OR expires_at <= now() AS gone FROM uploads WHERE id = $1`,
    [id],
  );
  const uploadId = toPublicUploadId(id);
  if (upload === null || upload.gone) throw new PipelineError('EDIT_SOURCE_GONE', `the upload ${uploadId} was deleted by retention`);
  const file = await store.get(upload.object_key);
  if (!file.ok) throw new PipelineError('EDIT_SOURCE_GONE', `the upload ${upload.object_key}: ${file.error.code} ${file.error.message}`);
  const sha256 = contentHash(file.value.bytes);
  if (sha256 !== upload.sha256) {
    throw new PipelineError('EDIT_SOURCE_INVALID', `the upload ${uploadId} hashes to ${sha256}, it was recorded as ${upload.sha256}`);
  }
  // The budget is the duration the oracle measured (rounded up): the same decoder must find no
  // more; only the whole seconds an edit works on are kept.
  const seconds = editableSeconds(upload.duration);
  // Decoded straight into the edit's working format (stereo at the model's rate) in the decode
  // thread: what the worker holds is what the edit's seconds cost, whatever the file's rate and
  // channels (core/src/audio/working-format-sink.ts; docs/inference.md "Uploaded source audio").
  const working = { sampleRate: deps.pipeline.model.sampleRate, channels: EDIT_WORKING_CHANNELS, keepSeconds: seconds };
  const decoded = await deps.uploadDecoder.decode(file.value.bytes, { maxSeconds: Math.ceil(upload.duration) }, working);
  if (!decoded.ok) throw new PipelineError('EDIT_SOURCE_INVALID', `the upload ${uploadId}: ${decoded.error.message}`);
  const frames = Math.min(seconds * decoded.value.sampleRate, decoded.value.frames);
  return {
    parameters: edit,
    sourceAudio: { sampleRate: decoded.value.sampleRate, channels: decoded.value.channels.map((channel) => channel.subarray(0, frames)) },
    source: {
      task: edit.task,
      parameters: editNumbers(edit),
      upload: { uploadId, sha256: upload.sha256, format: UPLOAD_CONTENT_TYPES[upload.format] },
    },
  };
}

const SongMessage = z.object({ jobId: z.uuid() }) satisfies z.ZodType<GenerationMessage>;
const PreviewQueueMessage = z.object({ previewId: z.uuid() }) satisfies z.ZodType<PreviewMessage>;

/** Songs: published at `audio/<job_id>.mp3` with the model's name and licence on the row. */
export function songJobKind(deps: JobKindDeps): JobKind {
  const model = deps.pipeline.model;
  return {
    name: 'song',
    rowId: (data) => SongMessage.safeParse(data).data?.jobId,
    claim: (db, jobId) => claimJob(db, jobId, seedFromJobId(jobId)),
    raiseProgress: reportProgress,
    cancelled: attemptCancelled,
    lock: lockForPublish,
    async publish(tx, job, song, signal) {
      const key = audioObjectKey(job.id);
      // The kept latents first (private): a song completes only with what its edits start from.
      const latentsKey = song.kept === null ? null : latentsObjectKey(job.id);
      if (latentsKey !== null && song.kept !== null) {
        const kept = await publishObject(deps.store, latentsKey, song.kept, { contentType: 'application/octet-stream', private: true });
        if (!kept.ok) throw new UploadFailedError(`upload of ${latentsKey}`, kept.error);
      }
      // A competing attempt waits on the row lock taken before this, then finds the job no longer
      // its own, so it neither uploads nor completes.
      await deps.pipeline.enterStage?.('upload', signal);
      // The audio hash goes along as the S3 SHA-256 checksum: the store refuses bytes that do not
      // match it and keeps it, so the signature check can read it back without downloading.
      const put = await publishObject(deps.store, key, song.bytes, {
        contentType: 'audio/mpeg',
        cacheControl: 'public, max-age=31536000, immutable',
        sha256: sha256OfContentHash(song.audioHash),
      });
      if (!put.ok) throw new UploadFailedError(`upload of ${key}`, put.error);
      // The masters are made after completion (./masters.ts): the row says they are coming.
      const lossless = song.lossless;
      if (lossless === null || song.pcmHash === null) throw new Error('a song without its lossless masters');
      await deps.pipeline.enterStage?.('completion', signal);
      // Counted for the owner's storage quota in the same transaction (admitted with its estimate).
      await recordJobStorage(tx, job.id, [
        { key, bytes: song.bytes.length },
        ...(latentsKey === null || song.kept === null ? [] : [{ key: latentsKey, bytes: song.kept.length }]),
      ]);
      return completeJob(tx, job, {
        audioKey: key,
        audioUrl: deps.store.publicUrl(key),
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
        latentsKey,
        lossless: pendingLossless(lossless),
        pcmHash: song.pcmHash,
        fingerprint: song.fingerprint,
        landmarks: song.landmarks,
      });
    },
    async afterCompletion(db, job, song, signal) {
      if (song.lossless === null || song.pcmHash === null) return;
      await storeLosslessMasters({ db, store: deps.store }, job.id, song.lossless, song.pcmHash, signal);
    },
    retry: retryJob,
    fail: failJob,
    failureMessage: (job, reason) => `generation failed after ${job.attempts} attempts: ${reason}`,
    publicId: (job) => toPublicJobId(job.id),
    logFields: (job) => ({ jobId: job.id, attempts: job.attempts }),
    editInput: (db, job) => readEditSource(db, deps, job),
  };
}

/** Previews: stored privately under their session id, never under the public `audio/` prefix. */
export function previewJobKind(deps: JobKindDeps): JobKind<ClaimedPreview> {
  return {
    name: 'preview',
    rowId: (data) => PreviewQueueMessage.safeParse(data).data?.previewId,
    claim: (db, previewId) => claimPreview(db, previewId, seedFromJobId(previewId)),
    raiseProgress: reportPreviewProgress,
    lock: lockPreviewForPublish,
    async publish(tx, preview, song) {
      const stored = await createPreview(tx, deps.store, preview.sessionId, song.bytes);
      if (!stored.ok) throw new Error(`storing preview ${preview.sessionId} failed: ${stored.error.code} ${stored.error.message}`);
      return completePreview(tx, preview, {
        audioHash: stored.value.audioHash,
        actualDuration: song.actualDuration,
        fingerprint: song.fingerprint,
      });
    },
    retry: retryPreview,
    fail: failPreview,
    failureMessage: (preview, reason) => `preview failed after ${preview.attempts} attempts: ${reason}`,
    publicId: (preview) => preview.sessionId,
    logFields: (preview) => ({ previewId: preview.id, sessionId: preview.sessionId, attempts: preview.attempts }),
  };
}
