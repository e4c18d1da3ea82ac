/**
 * Where an edited song came from (docs/api.md "Edit a song"), on its job status and in the job
 * list: the source job and the edit's parameters as they were asked for; null for a song that is
 * no edit of one of its owner's songs.
 */
import { toPublicJobId } from '../../../core/src/generation-queue.ts';
import type { EditParameters, EditTask } from '../../../core/src/song-edits.ts';

/** `edit_of` as Variant A writes it; a parameter the task does not take is null. */
export interface EditOfView {
  job_id: string;
  task: EditTask;
  start: number | null;
  end: number | null;
  strength: number | null;
}

/** `editOf`, Variant B's camelCase of the same. */
export interface EditOfVariantB {
  jobId: string;
  task: EditTask;
  start: number | null;
  end: number | null;
  strength: number | null;
}

/** From the job's `edit_source_id` and `edit` columns. */
export function editOfView(sourceId: string | null, edit: EditParameters | null): EditOfView | null {
  if (sourceId === null || edit === null) return null;
  return {
    job_id: toPublicJobId(sourceId),
    task: edit.task,
    start: edit.task === 'repaint' ? edit.start : null,
    end: edit.task === 'repaint' ? edit.end : null,
    strength: edit.task === 'remix' ? edit.strength : null,
  };
}

export function editOfVariantB(view: EditOfView | null): EditOfVariantB | null {
  return view === null ? null : { jobId: view.job_id, task: view.task, start: view.start, end: view.end, strength: view.strength };
}
