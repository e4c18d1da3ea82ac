-- Up Migration
-- Idempotency-Key records (oracle/src/domain/idempotency.ts): one row per (caller, route, key).
-- A row is `in_flight` while its first request runs (under a lease, so a replica that died
-- mid-request does not lock the key for good) and `completed` with the exact first answer once
-- it succeeded. Rows live 24 hours; the oracle's prune timer deletes expired ones.
CREATE TABLE idempotency_keys (
  user_id          uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  -- Method and route template, e.g. 'POST /api/generate'.
  route            text NOT NULL,
  key              text NOT NULL CHECK (char_length(key) BETWEEN 1 AND 255),
  -- sha256 hex of the canonical request (body with sorted keys, plus the headers the route varies on).
  fingerprint      text NOT NULL CHECK (fingerprint ~ '^[0-9a-f]{64}$'),
  state            text NOT NULL CHECK (state IN ('in_flight', 'completed')),
  -- The request holding the key; only it may complete or release it.
  lease_id         uuid NOT NULL,
  lease_until      timestamptz NOT NULL,
  response_status  integer CHECK (response_status BETWEEN 200 AND 299),
  -- Selected response headers (Location, Preference-Applied, Cache-Control) and the body bytes as sent.
  response_headers jsonb,
  response_body    text,
  created_at       timestamptz NOT NULL,
  expires_at       timestamptz NOT NULL,
  PRIMARY KEY (user_id, route, key),
  CONSTRAINT completed_has_response
    CHECK (state <> 'completed' OR (response_status IS NOT NULL AND response_body IS NOT NULL AND response_headers IS NOT NULL))
);

CREATE INDEX idempotency_keys_expires_idx ON idempotency_keys (expires_at);

-- GET /api/generate lists a user's jobs newest first by keyset on (created_at, id).
CREATE INDEX generation_jobs_user_created_id_idx ON generation_jobs (user_id, created_at DESC, id DESC);

-- Down Migration
DROP INDEX generation_jobs_user_created_id_idx;
DROP TABLE idempotency_keys;
