-- Up Migration
-- Song metadata documents added to IPFS, mint signatures issued, and the chain watcher's cursor.

-- One row per POST /api/metadata: the exact document whose bytes the CID and hash cover.
CREATE TABLE song_metadata (
  id                 uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id            uuid NOT NULL REFERENCES users (id),
  -- Set when audio_url is the published audio of one of the caller's completed jobs.
  job_id             uuid REFERENCES generation_jobs (id),
  cid                text NOT NULL,
  metadata_uri       text NOT NULL CHECK (metadata_uri = 'ipfs://' || cid),
  metadata_hash      text NOT NULL CHECK (metadata_hash ~ '^0x[0-9a-f]{64}$'),
  document           jsonb NOT NULL,
  cover_key          text,
  cover_cid          text,
  cover_content_type text CHECK (cover_content_type IN ('image/png', 'image/jpeg', 'image/webp', 'image/gif')),
  -- Remote pinning: null when no pinning service is configured.
  pin_request_id     text,
  pin_status         text CHECK (pin_status IN ('queued', 'pinning', 'pinned', 'failed')),
  created_at         timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT cover_complete CHECK ((cover_key IS NULL) = (cover_cid IS NULL))
);

CREATE INDEX song_metadata_user_created_idx ON song_metadata (user_id, created_at DESC);
CREATE INDEX song_metadata_job_idx ON song_metadata (job_id) WHERE job_id IS NOT NULL;
CREATE INDEX song_metadata_cid_idx ON song_metadata (cid);

-- At most one signature per job, ever (the spec's SIGN_002); the job row mirrors it in
-- generation_jobs.signature / metadata_uri / signature_used / nft_token_id.
CREATE TABLE mint_signatures (
  job_id         uuid PRIMARY KEY REFERENCES generation_jobs (id),
  user_id        uuid NOT NULL REFERENCES users (id),
  minter         text NOT NULL CHECK (minter ~ '^0x[0-9a-f]{40}$'),
  metadata_uri   text NOT NULL,
  audio_hash     text NOT NULL CHECK (audio_hash ~ '^0x[0-9a-f]{64}$'),
  signature      text NOT NULL CHECK (signature ~ '^0x[0-9a-f]{130}$'),
  signer_address text NOT NULL CHECK (signer_address ~ '^0x[0-9a-f]{40}$'),
  issued_at      timestamptz NOT NULL,
  expires_at     timestamptz NOT NULL CHECK (expires_at > issued_at),
  -- Filled by the chain watcher from the SongMinted event.
  token_id       bigint UNIQUE,
  owner_address  text CHECK (owner_address ~ '^0x[0-9a-f]{40}$'),
  mint_tx_hash   text,
  mint_block     bigint,
  used_at        timestamptz
);

-- The contract mints one token per audio hash: a second signature for the same audio (another
-- job that produced identical bytes) could never be used, so it is refused as SIGN_002.
CREATE UNIQUE INDEX mint_signatures_audio_hash_key ON mint_signatures (audio_hash);

-- Variant B signs by audio hash: find the caller's completed job with that hash.
CREATE INDEX generation_jobs_user_audio_hash_idx ON generation_jobs (user_id, audio_hash)
  WHERE status = 'completed';

-- Last block each chain log reader has fully processed (per contract and event).
CREATE TABLE chain_cursors (
  name         text PRIMARY KEY,
  block_number bigint NOT NULL CHECK (block_number >= 0),
  updated_at   timestamptz NOT NULL DEFAULT now()
);

-- Down Migration
DROP TABLE chain_cursors;
DROP INDEX generation_jobs_user_audio_hash_idx;
DROP TABLE mint_signatures;
DROP TABLE song_metadata;
