-- Up Migration
-- Sign-In with Ethereum nonces: each is issued by GET /api/auth/nonce and consumed once by
-- POST /api/auth/verify before it expires. Shared by every oracle replica.
CREATE TABLE auth_nonces (
  nonce       text PRIMARY KEY CHECK (nonce ~ '^[A-Za-z0-9]{8,128}$'),
  created_at  timestamptz NOT NULL DEFAULT now(),
  expires_at  timestamptz NOT NULL,
  consumed_at timestamptz
);
CREATE INDEX auth_nonces_expires_idx ON auth_nonces (expires_at);

-- Hourly per-category request counters (fixed one-hour windows), one row per subject (a user id,
-- or an IP address for unauthenticated endpoints), category and window. Charged with a single
-- atomic upsert, so every replica sees the same count.
CREATE TABLE rate_limit_counters (
  subject      text NOT NULL,
  category     text NOT NULL CHECK (category IN ('generation', 'metadata_nft', 'trading', 'general')),
  window_start timestamptz NOT NULL,
  count        integer NOT NULL CHECK (count >= 0),
  PRIMARY KEY (subject, category, window_start)
);
CREATE INDEX rate_limit_counters_window_idx ON rate_limit_counters (window_start);

-- Queue position and estimates read queued jobs by priority and age.
CREATE INDEX generation_jobs_queued_idx ON generation_jobs (created_at) WHERE status = 'queued';
-- Run-time estimates read recently completed jobs.
CREATE INDEX generation_jobs_completed_idx ON generation_jobs (completed_at DESC) WHERE status = 'completed';

-- Down Migration
DROP INDEX generation_jobs_completed_idx;
DROP INDEX generation_jobs_queued_idx;
DROP TABLE rate_limit_counters;
DROP TABLE auth_nonces;
