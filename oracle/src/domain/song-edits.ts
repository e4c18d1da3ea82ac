/**
 * Admission of a song edit (issue 35, docs/api.md "Edit a song"): the checks an edit request
 * passes before it is charged, in this order, each refusal charging nothing.
 *
 * 1. EDIT_001 (404): the source is not a job of the caller (unknown, malformed, or another's);
 * 2. EDIT_002 (409): the source has not completed;
 * 3. EDIT_003 (410): retention deleted the source's audio, or it keeps no latents (made by a model
 *    that keeps none, or before songs kept them);
 * 4. EDIT_004 (400): the result's length or range does not fit the source (extend: longer than
 *    it; repaint: as long, the range inside it; remix: as long);
 * 5. EDIT_005 (422): no live worker runs the model that made the source, or its model cannot
 *    run the task (the message names what it lacks).
 * The tier's maximum duration (GEN_004) applies to the result as to any song.
 *
 * An edit of an upload (core/src/uploads.ts) passes the same codes where they fit: EDIT_001 the
 * upload is not the caller's; EDIT_003 retention deleted it or it expired; EDIT_004 against its
 * whole seconds; EDIT_005 when no live worker's model can import uploaded audio (the message
 * names what it lacks) and run the task.
 */
import type { Queryable } from '../../../core/src/db/database.ts';
import { HEARTBEAT_STALE_SECONDS, toPublicJobId } from '../../../core/src/generation-queue.ts';
import { JOB_STATUS, editParameters } from '../../../core/src/jobs/job-state.ts';
import type { JobStatus } from '../../../core/src/jobs/job-state.ts';
import { MIN_REPAINT_SECONDS } from '../../../core/src/song-edits.ts';
import type { EditParameters, SongEdit } from '../../../core/src/song-edits.ts';
import { outsideAfterEdit, uploadedSource } from '../../../core/src/outside-audio.ts';
import type { OutsideAudio, OutsideSpan } from '../../../core/src/outside-audio.ts';
import { UPLOAD_RETENTION_DAYS, editableSeconds, parsePublicUploadId } from '../../../core/src/uploads.ts';
import { appError, fail, ok } from './errors.ts';
import type { AppError, Result } from './errors.ts';
import { parsePublicJobId } from './jobs.ts';
import { trashedRefusal } from './library.ts';
import { MINTED_NAME_OF_JOB, editTitle, songTitle } from './song-title.ts';

/** An edit as the API takes it: the source's public id (a song's `gen_…` or an upload's `upl_…`) and the parameters. */
export interface EditRequest {
  source: { jobId: string } | { uploadId: string };
  parameters: EditParameters;
}

interface SourceRow {
  id: string;
  status: JobStatus;
  trashed: boolean;
  duration: number;
  purged: boolean;
  latents_key: string | null;
  model: string | null;
}

function rangeError(message: string, sourceSeconds: number): AppError {
  return appError('EDIT_004', message, {
    details: `the source song is ${sourceSeconds} s long`,
    fields: { source_duration: sourceSeconds },
  });
}

/** EDIT_004: the result's `duration` and the range against the source's length. */
export function checkEditRange(parameters: EditParameters, duration: number, sourceSeconds: number): AppError | null {
  switch (parameters.task) {
    case 'extend':
      return duration > sourceSeconds
        ? null
        : rangeError(
            `An extended song must be longer than its source: duration ${duration} s is not above ${sourceSeconds} s`,
            sourceSeconds,
          );
    case 'remix':
      return duration === sourceSeconds
        ? null
        : rangeError(`A remix is as long as its source: duration must be ${sourceSeconds} s`, sourceSeconds);
    case 'repaint':
      if (duration !== sourceSeconds)
        return rangeError(`A repainted song is as long as its source: duration must be ${sourceSeconds} s`, sourceSeconds);
      if (parameters.end > sourceSeconds) {
        return rangeError(`The range ${parameters.start} s to ${parameters.end} s ends after the song (${sourceSeconds} s)`, sourceSeconds);
      }
      return parameters.end - parameters.start >= MIN_REPAINT_SECONDS
        ? null
        : rangeError(`A repainted range is at least ${MIN_REPAINT_SECONDS} s long`, sourceSeconds);
  }
}

/** Checks an edit of `userId`'s song (the order above); the edit as the job stores it. */
export async function checkEdit(db: Queryable, userId: string, edit: EditRequest, duration: number): Promise<Result<SongEdit>> {
  if ('uploadId' in edit.source) return checkUploadEdit(db, userId, edit.source.uploadId, edit.parameters, duration);
  const publicId = edit.source.jobId.slice(0, 64);
  const id = parsePublicJobId(edit.source.jobId);
  const source =
    id === null
      ? null
      : await db.oneOrNone<SourceRow>(
          `SELECT id, status, duration, purged_at IS NOT NULL AS purged, latents_key, model_name || '@' || model_version AS model,
                  deleted_at IS NOT NULL AS trashed
             FROM generation_jobs WHERE id = $1 AND user_id = $2`,
          [id, userId],
        );
  if (source === null) {
    return fail(
      appError('EDIT_001', 'Source song not found', {
        details: 'edit.source_job_id: no song with this id belongs to you',
        jobId: publicId,
      }),
    );
  }
  const jobId = toPublicJobId(source.id);
  if (source.trashed) return fail(trashedRefusal(jobId));
  if (source.status !== JOB_STATUS.completed) {
    return fail(
      appError('EDIT_002', `The source song is ${source.status}; only a completed song can be edited`, {
        details: 'wait for it to complete',
        jobId,
      }),
    );
  }
  if (source.purged) {
    return fail(
      appError('EDIT_003', 'The source song was deleted by retention', { details: 'unminted songs are deleted after 90 days', jobId }),
    );
  }
  if (source.latents_key === null) {
    return fail(
      appError('EDIT_003', 'The source song keeps no latents to edit', {
        details: `it was made by ${source.model ?? 'a model'} without kept latents; only songs with kept latents can be edited`,
        jobId,
      }),
    );
  }
  const range = checkEditRange(edit.parameters, duration, source.duration);
  if (range !== null) return fail({ ...range, jobId });
  const lack = await editLack(db, source.model ?? '', edit.parameters.task);
  if (lack !== null) {
    return fail(
      appError('EDIT_005', `No live worker can ${edit.parameters.task} this song: ${lack}`, {
        details: lack,
        fields: { task: edit.parameters.task },
        jobId,
      }),
    );
  }
  return ok({ ...edit.parameters, sourceId: source.id });
}

/** What a live worker's heartbeat says of its model and one edit task. */
interface LiveWorkerEdit {
  model: string;
  /** Null when the model can run the task (and `declared`), else what it lacks. */
  lack: string | null;
  /** Whether the heartbeat names the task at all (a worker from before edits does not). */
  declared: boolean;
  /** Null when the model can import uploaded audio, else what it lacks. */
  import_lack: string | null;
}

/** The live workers (a fresh heartbeat) and what each says of `task`. */
function liveWorkerEdits(db: Queryable, task: string): Promise<LiveWorkerEdit[]> {
  return db.any<LiveWorkerEdit>(
    `SELECT model_name || '@' || model_version AS model, edit_tasks->>$2 AS lack, edit_tasks ? $2 AS declared, import_lack
       FROM worker_heartbeats WHERE last_seen > now() - make_interval(secs => $1)`,
    [HEARTBEAT_STALE_SECONDS, task],
  );
}

/** Null when a live worker runs `model` and can run `task`; else what they lack. */
async function editLack(db: Queryable, model: string, task: string): Promise<string | null> {
  const workers = await liveWorkerEdits(db, task);
  const same = workers.filter((worker) => worker.model === model);
  if (same.some((worker) => worker.declared && worker.lack === null)) return null;
  if (same.length === 0) {
    const running = [...new Set(workers.map((worker) => worker.model))].join(', ') || 'none';
    return `the song was made by ${model}; the live workers run ${running}`;
  }
  return (
    same.map((worker) => (worker.declared ? worker.lack : `the worker does not say it can ${task}`)).find((text) => text !== null) ??
    `cannot ${task}`
  );
}

interface UploadRow {
  id: string;
  duration: number;
  gone: boolean;
}

/** The checks of an edit of an upload (EDIT_001, EDIT_003, EDIT_004, EDIT_005 as above). */
async function checkUploadEdit(
  db: Queryable,
  userId: string,
  publicUploadId: string,
  parameters: EditParameters,
  duration: number,
): Promise<Result<SongEdit>> {
  const id = parsePublicUploadId(publicUploadId);
  const upload =
    id === null
      ? null
      : await db.oneOrNone<UploadRow>(
          `SELECT id, duration, deleted_at IS NOT NULL OR expires_at <= now() AS gone FROM uploads WHERE id = $1 AND user_id = $2`,
          [id, userId],
        );
  const fields = { source_upload_id: publicUploadId.slice(0, 64) };
  if (upload === null) {
    return fail(
      appError('EDIT_001', 'Source upload not found', { details: 'edit.source_upload_id: no upload with this id belongs to you', fields }),
    );
  }
  if (upload.gone) {
    return fail(
      appError('EDIT_003', 'The source upload was deleted', {
        details: `its owner deleted it, or retention did (${UPLOAD_RETENTION_DAYS} days after it was made); upload the audio again`,
        fields,
      }),
    );
  }
  const range = checkEditRange(parameters, duration, editableSeconds(upload.duration));
  if (range !== null) return fail(range);
  const lack = await importLack(db, parameters.task);
  if (lack !== null) {
    return fail(
      appError('EDIT_005', `No live worker can ${parameters.task} uploaded audio: ${lack}`, {
        details: lack,
        fields: { task: parameters.task, ...fields },
      }),
    );
  }
  return ok({ ...parameters, uploadId: upload.id });
}

/** Null when a live worker's model can import uploaded audio and run `task`; else what they lack. */
async function importLack(db: Queryable, task: string): Promise<string | null> {
  const workers = await liveWorkerEdits(db, task);
  if (workers.some((worker) => worker.import_lack === null && worker.declared && worker.lack === null)) return null;
  const worker = workers.find((w) => w.import_lack !== null) ?? workers[0];
  if (worker === undefined) return 'no worker is live';
  if (worker.import_lack !== null) return `${worker.model} cannot import uploaded audio: ${worker.import_lack}`;
  return `${worker.model} ${worker.declared ? (worker.lack ?? `cannot ${task}`) : `does not say it can ${task}`}`;
}

/** What an edit takes from its source besides the audio: its name with what was done, its lyrics, its outside audio. */
export interface EditInheritance {
  /** "Night drive (extended +4 s)": the edit's own title (./song-title.ts). */
  title: string;
  /** The lyrics the source was made with (a fact of its generation record), or null. */
  lyrics: string | null;
  /** The uploaded audio the result keeps (core/src/outside-audio.ts): an upload's whole seconds, composed through the chain. */
  outside: OutsideAudio;
}

/**
 * What an upload's edits are titled after: its name without an audio file's extension ("chord.wav":
 * "chord"); for one without a name (taken before uploads kept them, or sent without one: the stored
 * object's key is its id, so the file's name is nowhere to recover) the day it was uploaded, as the
 * web app's upload card shows it: "Upload of 28 Nov 2026" (UTC), which tells two such uploads apart
 * where a fixed "Uploaded audio" did not.
 */
export function uploadTitle(upload: { name: string | null; createdAt: Date }): string {
  const bare = upload.name?.replace(/\.(wav|wave|flac|mp3)$/i, '').trim() ?? '';
  if (bare !== '') return bare;
  const day = upload.createdAt.toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
  return `Upload of ${day}`;
}

/**
 * The title, lyrics and outside audio of an edit of `edit` (admitted by `checkEdit`) whose result
 * lasts `duration` seconds: the source song's name and lyrics, or for an upload its name
 * (`uploadTitle`) and none; the outside audio of the source (an upload is all outside) through the edit.
 */
export async function editInheritance(db: Queryable, edit: SongEdit, duration: number): Promise<EditInheritance> {
  const parameters = editParameters(edit);
  if (edit.sourceId === undefined) {
    const upload = await db.oneOrNone<{ duration: number; name: string | null; created_at: Date }>(
      'SELECT duration, name, created_at FROM uploads WHERE id = $1',
      [edit.uploadId],
    );
    const seconds = editableSeconds(upload?.duration ?? duration);
    return {
      title: editTitle(
        uploadTitle({ name: upload?.name ?? null, createdAt: upload?.created_at ?? new Date() }),
        parameters,
        duration - seconds,
      ),
      lyrics: null,
      outside: outsideAfterEdit(parameters, uploadedSource(seconds)),
    };
  }
  const source = await db.one<{
    prompt: string;
    title: string | null;
    minted_name: string | null;
    used_lyrics: string | null;
    duration: number;
    outside_material: boolean;
    outside_spans: OutsideSpan[];
  }>(
    `SELECT prompt, title, used_lyrics, duration, outside_material, outside_spans, (${MINTED_NAME_OF_JOB}) AS minted_name
       FROM generation_jobs WHERE id = $1`,
    [edit.sourceId],
  );
  const name = songTitle({ mintedName: source.minted_name, title: source.title, prompt: source.prompt });
  return {
    title: editTitle(name, parameters, duration - source.duration),
    lyrics: source.used_lyrics,
    outside: outsideAfterEdit(parameters, { material: source.outside_material, spans: source.outside_spans }),
  };
}
