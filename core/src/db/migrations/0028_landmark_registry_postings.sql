-- Up Migration
-- Issue 50, docs/fingerprints.md ("Verification at the calibrated rarity"). The postings the
-- landmark registry holds in all, kept as they are registered, so that a lookup knows how rare a
-- hash is among them: verification counts a hash while it holds at most 1 posting in 4,000 of the
-- registry's (the rarity calibrated on real music), whether or not the index still keeps its
-- postings (core/src/fingerprint/landmark-registry.ts `verificationFanout`).
--
-- 16 rows, each registration adding its postings to the row of its sound id modulo 16: one row
-- would be locked by every completing job until its transaction commits. A lookup sums them.
CREATE TABLE landmark_registry_postings (
  slot     int2 PRIMARY KEY CHECK (slot BETWEEN 0 AND 15),
  postings int8 NOT NULL CHECK (postings >= 0)
);

-- `n` counts every posting a hash was ever registered with, a stop word's included.
INSERT INTO landmark_registry_postings (slot, postings)
SELECT slot, CASE WHEN slot = 0 THEN (SELECT coalesce(sum(n), 0) FROM landmark_hashes) ELSE 0 END
  FROM generate_series(0, 15) AS slot;

-- Down Migration
DROP TABLE landmark_registry_postings;
