-- Up Migration
-- Song edits (issue 35, docs/api.md "Edit a song"): a job may extend, repaint or remix one of its
-- owner's completed songs. `edit_source_id` names the source job; `edit` holds the task and its
-- parameters ({"task": "repaint", "start": 4, "end": 6} and the like, core/src/song-edits.ts).
-- `latents_key` is the private object beside the audio that keeps the song's final model state
-- (latents) an edit starts from; retention deletes it with the audio.
ALTER TABLE generation_jobs ADD COLUMN edit_source_id uuid REFERENCES generation_jobs (id);
ALTER TABLE generation_jobs ADD COLUMN edit jsonb
  CHECK (edit IS NULL OR edit->>'task' IN ('extend', 'repaint', 'remix'));
ALTER TABLE generation_jobs ADD CONSTRAINT generation_jobs_edit_has_source
  CHECK ((edit IS NULL) = (edit_source_id IS NULL));
ALTER TABLE generation_jobs ADD COLUMN latents_key text;
CREATE INDEX generation_jobs_edit_source_idx ON generation_jobs (edit_source_id) WHERE edit_source_id IS NOT NULL;

-- What each live worker's model can edit: {"extend": null, "remix": "no audio_tokenizer graph"}
-- (null = can; a text = what it lacks). The oracle refuses an edit no live worker can run.
ALTER TABLE worker_heartbeats ADD COLUMN edit_tasks jsonb NOT NULL DEFAULT '{}';

-- Down Migration
ALTER TABLE worker_heartbeats DROP COLUMN edit_tasks;
DROP INDEX generation_jobs_edit_source_idx;
ALTER TABLE generation_jobs DROP COLUMN latents_key;
ALTER TABLE generation_jobs DROP CONSTRAINT generation_jobs_edit_has_source;
ALTER TABLE generation_jobs DROP COLUMN edit;
ALTER TABLE generation_jobs DROP COLUMN edit_source_id;
