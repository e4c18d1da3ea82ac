/**
 * Song edits (issue 35): what the oracle writes on an edit job and the workers read. An edit
 * starts from the source song's kept latents (the private object at `latentsObjectKey`), never
 * from its MP3: the kept parts stay the source's samples, the edited range is made anew.
 *
 * - `extend`: the result is `duration` seconds (longer than the source); the source is its start
 *   and the seconds after it are new (outpainting).
 * - `repaint`: the result is as long as the source; seconds `start` to `end` are new.
 * - `remix`: the result is as long as the source; a variation that keeps its tempo, key and
 *   chord progression (ACE-Step: its 5 Hz audio codes); `strength` 0..1 says how closely.
 */
import { toPublicJobId } from './generation-queue.ts';

export const EDIT_TASKS = ['extend', 'repaint', 'remix'] as const;
export type EditTask = (typeof EDIT_TASKS)[number];

/** The `generation_jobs.edit` column. */
export type EditParameters = { task: 'extend' } | { task: 'repaint'; start: number; end: number } | { task: 'remix'; strength: number };

/**
 * Where an edit starts: one of the owner's songs (`generation_jobs.id`, its kept latents) or
 * audio they uploaded (`uploads.id`, core/src/uploads.ts, which the worker's model imports).
 */
export type EditSource = { sourceId: string; uploadId?: undefined } | { uploadId: string; sourceId?: undefined };

/** An edit job: its parameters and its source. */
export type SongEdit = EditParameters & EditSource;

/** Default `strength` of a remix: halfway between the source's style and the prompt's. */
export const DEFAULT_REMIX_STRENGTH = 0.5;

/** A repainted range is at least this long (seconds). */
export const MIN_REPAINT_SECONDS = 1;

/**
 * What a model can edit: per task, null when it can, or what it lacks (shown in the refusal,
 * e.g. "the model directory has no audio_tokenizer and audio_detokenizer graphs").
 */
export type EditSupport = Readonly<Record<EditTask, string | null>>;

/** Object key of a song's kept latents: private, beside `audio/<job_id>.mp3`, same retention. */
export function latentsObjectKey(id: string): string {
  return `latents/${toPublicJobId(id)}.bin`;
}
