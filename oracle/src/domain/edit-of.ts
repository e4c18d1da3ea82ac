/**
 * Where an edited song came from (docs/api.md "Edit a song"), on its job status and in the job
 * list: the source (one of its owner's jobs, or audio they uploaded) and the edit's parameters as
 * they were asked for; null for a song that is no edit.
 */
import { toPublicJobId } from '../../../core/src/generation-queue.ts';
import { toPublicUploadId } from '../../../core/src/uploads.ts';
import type { EditParameters, EditTask } from '../../../core/src/song-edits.ts';

/** `edit_of` as Variant A writes it; a parameter the task does not take is null. */
export interface EditOfView {
  /** The source song's job, or null for an edit of an upload. */
  job_id: string | null;
  /** The uploaded source audio, or null for an edit of a song. */
  upload_id: string | null;
  task: EditTask;
  start: number | null;
  end: number | null;
  strength: number | null;
}

/** `editOf`, Variant B's camelCase of the same. */
export interface EditOfVariantB {
  jobId: string | null;
  uploadId: string | null;
  task: EditTask;
  start: number | null;
  end: number | null;
  strength: number | null;
}

/** The job's source columns: `edit_source_id` (a job) or `edit_upload_id` (an upload). */
export interface EditSourceColumns {
  edit_source_id: string | null;
  edit_upload_id: string | null;
  edit: EditParameters | null;
}

/** SQL for the columns `editOfView` reads. */
export const EDIT_SOURCE_COLUMNS = 'edit_source_id, edit_upload_id, edit';

export function editOfView(row: EditSourceColumns): EditOfView | null {
  const { edit } = row;
  if (edit === null || (row.edit_source_id === null && row.edit_upload_id === null)) return null;
  return {
    job_id: row.edit_source_id === null ? null : toPublicJobId(row.edit_source_id),
    upload_id: row.edit_upload_id === null ? null : toPublicUploadId(row.edit_upload_id),
    task: edit.task,
    start: edit.task === 'repaint' ? edit.start : null,
    end: edit.task === 'repaint' ? edit.end : null,
    strength: edit.task === 'remix' ? edit.strength : null,
  };
}

export function editOfVariantB(view: EditOfView | null): EditOfVariantB | null {
  return view === null
    ? null
    : { jobId: view.job_id, uploadId: view.upload_id, task: view.task, start: view.start, end: view.end, strength: view.strength };
}
