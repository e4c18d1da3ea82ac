-- Up Migration
-- Issue 50, docs/fingerprints.md. The landmark registry's postings (migrations 0022, 0025) as one
-- row per hash holding that hash's postings packed together, instead of one row per posting.
-- Among 1,000,000 registered sounds a 25 s query's ~2,600 hashes were ~2,600 index descents
-- reading up to 65 posting entries each (~80,000, 240 ms; lookup p99 235 ms); now one ordered
-- index scan over the rows of those hashes (9 ms), a hash held by more than the stop-word cap
-- one row with its count and no postings (core/src/fingerprint/landmark-registry.ts
-- `findContainedSounds`, docs/fingerprints.md).
--
-- `n`: postings ever registered under the hash (a stop word once past the cap, 64 in
-- landmark-registry.ts `STOP_WORD_POSTINGS`: its postings are dropped and never read again).
-- `postings`: at most that many postings of 10 bytes each, big-endian: sound id int4, t int4 (the
-- triplet's first frame), shape int2 (span × 256 + k1); empty for a stop word. At most 640 bytes:
-- the row stays inline (no TOAST). Registration appends to the list of each of its hashes in hash
-- order (concurrent registrations lock rows in one order: no deadlock). fillfactor leaves room
-- on each page for the appended versions (HOT updates: the key is not updated).
CREATE TABLE landmark_hashes (
  hash     int4 PRIMARY KEY,
  n        int4 NOT NULL CHECK (n > 0),
  postings bytea NOT NULL CHECK (octet_length(postings) % 10 = 0)
) WITH (fillfactor = 70);

INSERT INTO landmark_hashes (hash, n, postings)
SELECT hash, count(*),
       CASE WHEN count(*) <= 64
            THEN string_agg(int4send(sound_id) || int4send(t) || int2send(shape), ''::bytea ORDER BY sound_id, t, shape)
            ELSE ''::bytea END
  FROM landmark_postings GROUP BY hash;

DROP TABLE landmark_postings;

-- Down Migration
-- A stop word's postings are not kept: they do not come back.
CREATE TABLE landmark_postings (
  hash     int4 NOT NULL,
  sound_id int4 NOT NULL,
  t        int4 NOT NULL,
  shape    int2 NOT NULL
);
INSERT INTO landmark_postings (hash, sound_id, t, shape)
SELECT h.hash, ('x' || encode(substr(h.postings, o + 1, 4), 'hex'))::bit(32)::int4,
       ('x' || encode(substr(h.postings, o + 5, 4), 'hex'))::bit(32)::int4,
       ('x' || encode(substr(h.postings, o + 9, 2), 'hex'))::bit(16)::int4::int2
  FROM landmark_hashes h, generate_series(0, octet_length(h.postings) - 10, 10) AS o;
CREATE INDEX landmark_postings_hash_idx ON landmark_postings (hash) INCLUDE (sound_id, t, shape);
ALTER TABLE landmark_postings SET (autovacuum_vacuum_insert_scale_factor = 0.02);
DROP TABLE landmark_hashes;
