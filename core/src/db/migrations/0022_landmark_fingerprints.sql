-- Up Migration
-- Issue 50, docs/fingerprints.md. The landmark fingerprint (core/src/fingerprint/landmarks.ts):
-- spectral peaks on a log-frequency axis, 6 bytes a peak (about 12 a second of audio), kept
-- for every sound the platform makes or takes beside its Chromaprint one (migration 0017), which
-- stays for the AcoustID outside lookup.

-- The peaks of every song and edit (the worker's, read from the PCM beside its MP3 encode) and of
-- every upload (the oracle's decode thread, in the decode's pass); NULL for sounds made before.
ALTER TABLE generation_jobs ADD COLUMN landmarks bytea CHECK (octet_length(landmarks) % 6 = 0);
ALTER TABLE uploads ADD COLUMN landmarks bytea CHECK (octet_length(landmarks) % 6 = 0);

-- Each registered sound: the account it was made for and when it was made (the earlier creation
-- wins, core/src/fingerprint/landmark-registry.ts). An int4 key keeps every posting row short.
-- No foreign key to generation_jobs: the ownership rules decide when a registration stops
-- counting, not the job's purge.
CREATE TABLE landmark_sounds (
  id            serial PRIMARY KEY,
  job_id        uuid NOT NULL UNIQUE,
  user_id       uuid NOT NULL REFERENCES users (id),
  created_at    timestamptz NOT NULL,
  registered_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX landmark_sounds_user_idx ON landmark_sounds (user_id);

-- The posting table: one row per registered triplet (about 20 a second of audio), its hash
-- (core/src/fingerprint/triplets.ts), the sound, and where the triplet lies: t (its first peak's
-- frame) and shape (its span in frames × 256 + its first peak's log bin). 14 bytes of data a row,
-- no other columns, no foreign key (one statement writes a sound's postings with the sound; a
-- per-row key check would double the cost of a registration). A lookup asks for the postings of
-- its query's hashes, each an equality on `hash`: a B-tree on the hash alone (hash indexes
-- cannot serve the planner's `= ANY` of thousands of values as well, and a B-tree keeps entries
-- of one hash together in sound order).
CREATE TABLE landmark_postings (
  hash     int4 NOT NULL,
  sound_id int4 NOT NULL,
  t        int4 NOT NULL,
  shape    int2 NOT NULL
);
CREATE INDEX landmark_postings_hash_idx ON landmark_postings (hash);

-- Down Migration
DROP TABLE landmark_postings;
DROP TABLE landmark_sounds;
ALTER TABLE uploads DROP COLUMN landmarks;
ALTER TABLE generation_jobs DROP COLUMN landmarks;
