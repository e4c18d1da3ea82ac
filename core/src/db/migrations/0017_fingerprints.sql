-- Up Migration
-- Issue 44, docs/fingerprints.md. The Chromaprint fingerprint (AcoustID's algorithm 2) of every
-- sound the platform makes or takes: a song's and a preview's from the PCM their MP3 was encoded
-- from (the worker), an upload's from its decoded samples (the oracle). Stored raw: the 32-bit
-- items big-endian, 4 bytes each (about 8 items a second). NULL for sounds made before.
ALTER TABLE generation_jobs ADD COLUMN fingerprint bytea CHECK (octet_length(fingerprint) % 4 = 0);
ALTER TABLE preview_jobs ADD COLUMN fingerprint bytea CHECK (octet_length(fingerprint) % 4 = 0);
ALTER TABLE uploads ADD COLUMN fingerprint bytea CHECK (octet_length(fingerprint) % 4 = 0);

-- The songs a mint signature was issued for, each registered to the signing account in the
-- signature's transaction: a later signature (or upload) whose sound contains one of another
-- account's is refused (SIGN_007, UPLOAD_005).
CREATE TABLE fingerprint_registry (
  id            bigserial PRIMARY KEY,
  job_id        uuid NOT NULL UNIQUE REFERENCES generation_jobs (id),
  user_id       uuid NOT NULL REFERENCES users (id),
  fingerprint   bytea NOT NULL CHECK (octet_length(fingerprint) % 4 = 0 AND octet_length(fingerprint) > 0),
  registered_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX fingerprint_registry_user_idx ON fingerprint_registry (user_id);

-- The inverted index AcoustID keeps in PostgreSQL: each registered song under each of its terms
-- (the distinct top 28 bits of its items, core/src/fingerprint/terms.ts). A lookup reads, per
-- term of the query, the songs holding it from this key alone (an index-only scan), never the
-- registry as a whole. Registrations are never removed (a signed song stays registered when its
-- audio is purged), so nothing looks rows up by registry_id.
CREATE TABLE fingerprint_terms (
  term        int4 NOT NULL,
  registry_id bigint NOT NULL REFERENCES fingerprint_registry (id),
  PRIMARY KEY (term, registry_id)
);

-- Down Migration
DROP TABLE fingerprint_terms;
DROP TABLE fingerprint_registry;
ALTER TABLE uploads DROP COLUMN fingerprint;
ALTER TABLE preview_jobs DROP COLUMN fingerprint;
ALTER TABLE generation_jobs DROP COLUMN fingerprint;
