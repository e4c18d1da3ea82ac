-- Up Migration
-- Inference workers: the claim that owns a job's current attempt, retention of published audio,
-- lyric token counts, and private previews.

-- Each attempt's claim id: completion and upload require the current claim, so an attempt that
-- was given up (expired, killed) can never complete a job or overwrite its audio.
ALTER TABLE generation_jobs ADD COLUMN claim_id uuid;
-- Set when the retention sweep deleted the audio object (unminted after 90 days); the row keeps
-- audio_url and audio_hash as the record of what was published.
ALTER TABLE generation_jobs ADD COLUMN purged_at timestamptz;
ALTER TABLE generation_jobs ADD COLUMN lyrics_tokens integer CHECK (lyrics_tokens BETWEEN 0 AND 512);

CREATE INDEX generation_jobs_unpurged_idx ON generation_jobs (completed_at)
  WHERE status = 'completed' AND nft_token_id IS NULL AND purged_at IS NULL;
CREATE INDEX generation_jobs_processing_idx ON generation_jobs (started_at) WHERE status = 'processing';

-- Previews: private objects at preview/<session_id>.mp3, reachable by signed URLs (1 hour),
-- deleted after 24 hours.
CREATE TABLE audio_previews (
  session_id  text PRIMARY KEY CHECK (session_id ~ '^[A-Za-z0-9_-]{8,128}$'),
  object_key  text NOT NULL UNIQUE,
  audio_hash  text NOT NULL CHECK (audio_hash ~ '^0x[0-9a-f]{64}$'),
  size_bytes  integer NOT NULL CHECK (size_bytes > 0),
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX audio_previews_created_idx ON audio_previews (created_at);

-- Down Migration
DROP TABLE audio_previews;
DROP INDEX generation_jobs_processing_idx;
DROP INDEX generation_jobs_unpurged_idx;
ALTER TABLE generation_jobs DROP COLUMN lyrics_tokens;
ALTER TABLE generation_jobs DROP COLUMN purged_at;
ALTER TABLE generation_jobs DROP COLUMN claim_id;
