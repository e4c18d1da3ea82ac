-- Up Migration
-- Uploaded source audio (issue 35, docs/api.md "Upload audio"): a person's own WAV, FLAC or MP3,
-- stored privately at uploads/<upload_id>.<ext> (core/src/uploads.ts), which an edit may start
-- from instead of a song of theirs. The row records what the oracle decoded at upload, the
-- uploader's statement that they hold the rights to the audio and when they made it, and when
-- retention deletes the object (`expires_at`; the sweep sets `deleted_at`, the row stays as the
-- record an edit's provenance names).
CREATE TABLE uploads (
  id                  uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id             uuid NOT NULL REFERENCES users (id),
  object_key          text NOT NULL UNIQUE,
  format              text NOT NULL CHECK (format IN ('wav', 'flac', 'mp3')),
  bytes               integer NOT NULL CHECK (bytes > 0),
  sha256              text NOT NULL CHECK (sha256 ~ '^0x[0-9a-f]{64}$'),
  sample_rate         integer NOT NULL CHECK (sample_rate > 0),
  channels            smallint NOT NULL CHECK (channels BETWEEN 1 AND 8),
  duration            double precision NOT NULL CHECK (duration > 0),
  rights_statement    text NOT NULL,
  rights_confirmed_at timestamptz NOT NULL,
  created_at          timestamptz NOT NULL DEFAULT now(),
  expires_at          timestamptz NOT NULL,
  deleted_at          timestamptz
);
CREATE INDEX uploads_user_idx ON uploads (user_id, created_at DESC);
CREATE INDEX uploads_expiry_idx ON uploads (expires_at) WHERE deleted_at IS NULL;

-- An edit starts from exactly one source: a song (edit_source_id) or an upload (edit_upload_id).
ALTER TABLE generation_jobs ADD COLUMN edit_upload_id uuid REFERENCES uploads (id);
ALTER TABLE generation_jobs DROP CONSTRAINT generation_jobs_edit_has_source;
ALTER TABLE generation_jobs ADD CONSTRAINT generation_jobs_edit_has_one_source
  CHECK (CASE WHEN edit IS NULL THEN edit_source_id IS NULL AND edit_upload_id IS NULL
              ELSE num_nonnulls(edit_source_id, edit_upload_id) = 1 END);
CREATE INDEX generation_jobs_edit_upload_idx ON generation_jobs (edit_upload_id) WHERE edit_upload_id IS NOT NULL;

-- Whether each live worker's model can import uploaded audio: NULL = it can, a text = what it
-- lacks (ACE-Step: a VAE encoder graph). A worker that does not say cannot.
ALTER TABLE worker_heartbeats ADD COLUMN import_lack text DEFAULT 'the worker does not say whether it can import uploaded audio';

-- Down Migration
ALTER TABLE worker_heartbeats DROP COLUMN import_lack;
DROP INDEX generation_jobs_edit_upload_idx;
ALTER TABLE generation_jobs DROP CONSTRAINT generation_jobs_edit_has_one_source;
DELETE FROM generation_jobs WHERE edit_upload_id IS NOT NULL;
ALTER TABLE generation_jobs DROP COLUMN edit_upload_id;
ALTER TABLE generation_jobs ADD CONSTRAINT generation_jobs_edit_has_source CHECK ((edit IS NULL) = (edit_source_id IS NULL));
DROP TABLE uploads;
