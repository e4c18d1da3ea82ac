-- Up Migration
-- Issue 50, docs/fingerprints.md. The landmark registry (migration 0022) decides containment for
-- uploads and signature requests; Chromaprint's registry (migration 0017) is no longer read or
-- written (Chromaprint stays on each sound for the AcoustID outside lookup and the published
-- record). No registration is carried over: a song registered there only was made before this
-- release's landmark peaks, and a sound without peaks is neither checked nor registered.
DROP TABLE fingerprint_terms;
DROP TABLE fingerprint_registry;

-- A registered sound keeps its peaks (6 bytes a peak, core/src/fingerprint/landmarks.ts): the
-- ownership rule asks whether a matched sound itself holds an earlier sound of the asker's, and
-- the job's own row may be purged. NULL for sounds registered without them (none in the product).
ALTER TABLE landmark_sounds ADD COLUMN peaks bytea CHECK (octet_length(peaks) % 6 = 0);

-- A lookup reads, for each query hash, its postings from the index alone (an index-only scan:
-- every column it needs is in the index; core/src/fingerprint/landmark-registry.ts). The heap is
-- then read only by vacuum; the insert-only table is vacuumed often enough that the visibility
-- map stays current (otherwise an index-only scan fetches the heap for recent pages).
DROP INDEX landmark_postings_hash_idx;
CREATE INDEX landmark_postings_hash_idx ON landmark_postings (hash) INCLUDE (sound_id, t, shape);
ALTER TABLE landmark_postings SET (autovacuum_vacuum_insert_scale_factor = 0.02);

-- Down Migration
ALTER TABLE landmark_postings RESET (autovacuum_vacuum_insert_scale_factor);
DROP INDEX landmark_postings_hash_idx;
CREATE INDEX landmark_postings_hash_idx ON landmark_postings (hash);
ALTER TABLE landmark_sounds DROP COLUMN peaks;
CREATE TABLE fingerprint_registry (
  id            bigserial PRIMARY KEY,
  job_id        uuid NOT NULL UNIQUE REFERENCES generation_jobs (id),
  user_id       uuid NOT NULL REFERENCES users (id),
  fingerprint   bytea NOT NULL CHECK (octet_length(fingerprint) % 4 = 0 AND octet_length(fingerprint) > 0),
  registered_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX fingerprint_registry_user_idx ON fingerprint_registry (user_id);
CREATE TABLE fingerprint_terms (
  term        int4 NOT NULL,
  registry_id bigint NOT NULL REFERENCES fingerprint_registry (id),
  PRIMARY KEY (term, registry_id)
);
