-- Up Migration
-- Preview jobs (issue 15 item 7; docs/api.md "Previews (extension)"): a short clip of a prompt
-- before the user commits to a generation. They run on the generation queue and workers, but live
-- in their own table so that nothing that reads generation_jobs (the job list, job status, mint
-- signatures, metadata, the daily counter's refunds, 90-day retention) can ever see one. The clip
-- itself is the private object and audio_previews row of migration 0004, keyed by session_id.
CREATE TABLE preview_jobs (
  id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- The public, server-generated id: the object is preview/<session_id>.mp3.
  session_id      text NOT NULL UNIQUE CHECK (session_id ~ '^[A-Za-z0-9_-]{8,128}$'),
  user_id         uuid NOT NULL REFERENCES users (id),
  prompt          text NOT NULL CHECK (char_length(prompt) BETWEEN 1 AND 500),
  duration        integer NOT NULL CHECK (duration BETWEEN 5 AND 15),
  seed            bigint,
  steps           integer NOT NULL DEFAULT 27 CHECK (steps IN (27, 60)),
  lyrics          text,
  with_lyrics     boolean NOT NULL DEFAULT false,
  tier            text NOT NULL CHECK (tier IN ('free', 'pro', 'enterprise')),
  status          text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'processing', 'completed', 'failed')),
  progress        integer NOT NULL DEFAULT 0 CHECK (progress BETWEEN 0 AND 100),
  attempts        integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  claim_id        uuid,
  error_code      text,
  error_message   text,
  audio_hash      text CHECK (audio_hash ~ '^0x[0-9a-f]{64}$'),
  actual_duration real CHECK (actual_duration > 0),
  created_at      timestamptz NOT NULL DEFAULT now(),
  started_at      timestamptz,
  completed_at    timestamptz,
  CONSTRAINT preview_completed_has_audio CHECK (status <> 'completed' OR audio_hash IS NOT NULL),
  CONSTRAINT preview_failed_has_error CHECK (status <> 'failed' OR (error_code IS NOT NULL AND error_message IS NOT NULL))
);
CREATE INDEX preview_jobs_created_idx ON preview_jobs (created_at);
CREATE INDEX preview_jobs_queued_idx ON preview_jobs (created_at) WHERE status = 'queued';
CREATE INDEX preview_jobs_processing_idx ON preview_jobs (started_at) WHERE status = 'processing';

-- The preview requests' own hourly category (oracle/src/domain/request-charge.ts).
ALTER TABLE rate_limit_counters DROP CONSTRAINT rate_limit_counters_category_check;
ALTER TABLE rate_limit_counters ADD CONSTRAINT rate_limit_counters_category_check
  CHECK (category IN ('generation', 'metadata_nft', 'trading', 'general', 'preview'));

-- Down Migration
ALTER TABLE rate_limit_counters DROP CONSTRAINT rate_limit_counters_category_check;
ALTER TABLE rate_limit_counters ADD CONSTRAINT rate_limit_counters_category_check
  CHECK (category IN ('generation', 'metadata_nft', 'trading', 'general'));
DROP TABLE preview_jobs;
