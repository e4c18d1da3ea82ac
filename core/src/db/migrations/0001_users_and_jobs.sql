-- Up Migration
-- Users and generation jobs: every field and default of the spec's tables. This schema is the
-- contract between the oracle (writes queued jobs) and the inference workers (move them on).

CREATE TABLE users (
  id                    uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  social_fid            bigint UNIQUE,
  wallet_address        text UNIQUE CHECK (wallet_address ~ '^0x[0-9a-f]{40}$'),
  tier                  text NOT NULL DEFAULT 'free' CHECK (tier IN ('free', 'pro', 'enterprise')),
  daily_generations     integer NOT NULL DEFAULT 0 CHECK (daily_generations >= 0),
  last_generation_reset date NOT NULL DEFAULT CURRENT_DATE,
  total_generations     integer NOT NULL DEFAULT 0 CHECK (total_generations >= 0),
  total_minted          integer NOT NULL DEFAULT 0 CHECK (total_minted >= 0),
  created_at            timestamptz NOT NULL DEFAULT now(),
  updated_at            timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE generation_jobs (
  id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id         uuid NOT NULL REFERENCES users (id),
  user_address    text NOT NULL CHECK (user_address ~ '^0x[0-9a-f]{40}$'),
  prompt          text NOT NULL CHECK (char_length(prompt) BETWEEN 1 AND 500),
  duration        integer NOT NULL CHECK (duration BETWEEN 5 AND 240),
  seed            bigint,
  steps           integer NOT NULL DEFAULT 27 CHECK (steps IN (27, 60)),
  lyrics          text,
  with_lyrics     boolean NOT NULL DEFAULT false,
  -- Tier at enqueue time: it fixed the queue priority and the duration cap.
  tier            text NOT NULL CHECK (tier IN ('free', 'pro', 'enterprise')),
  status          text NOT NULL DEFAULT 'queued'
                  CHECK (status IN ('queued', 'processing', 'completed', 'failed')),
  progress        integer NOT NULL DEFAULT 0 CHECK (progress BETWEEN 0 AND 100),
  attempts        integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  error_code      text,
  error_message   text,
  -- Lyrics the music step actually used (given, or produced by the lyrics step).
  used_lyrics     text,
  audio_key       text,
  audio_url       text,
  audio_hash      text CHECK (audio_hash ~ '^0x[0-9a-f]{64}$'),
  actual_duration real CHECK (actual_duration > 0),
  model_name      text,
  model_version   text,
  device          text CHECK (device IN ('cuda', 'cpu')),
  signature       text,
  signature_used  boolean NOT NULL DEFAULT false,
  metadata_uri    text,
  nft_token_id    bigint,
  created_at      timestamptz NOT NULL DEFAULT now(),
  started_at      timestamptz,
  completed_at    timestamptz,
  CONSTRAINT completed_has_audio
    CHECK (status <> 'completed' OR (audio_url IS NOT NULL AND audio_hash IS NOT NULL)),
  CONSTRAINT failed_has_error
    CHECK (status <> 'failed' OR (error_code IS NOT NULL AND error_message IS NOT NULL))
);

CREATE INDEX generation_jobs_user_created_idx ON generation_jobs (user_id, created_at DESC);
CREATE INDEX generation_jobs_pending_idx ON generation_jobs (tier, created_at)
  WHERE status IN ('queued', 'processing');
CREATE INDEX generation_jobs_retention_idx ON generation_jobs (completed_at)
  WHERE status = 'completed' AND nft_token_id IS NULL;

-- One row per inference worker process; the oracle's readiness and GEN_002 read it.
CREATE TABLE worker_heartbeats (
  worker_id     text PRIMARY KEY,
  hostname      text NOT NULL,
  device        text NOT NULL CHECK (device IN ('cuda', 'cpu')),
  model_name    text NOT NULL,
  model_version text NOT NULL,
  slots         integer NOT NULL CHECK (slots > 0),
  active_jobs   integer NOT NULL DEFAULT 0 CHECK (active_jobs >= 0),
  started_at    timestamptz NOT NULL DEFAULT now(),
  last_seen     timestamptz NOT NULL DEFAULT now()
);

-- Down Migration
DROP TABLE worker_heartbeats;
DROP TABLE generation_jobs;
DROP TABLE users;
