-- Up Migration
-- Issue 50, docs/fingerprints.md "Ownership by creation". A sound belongs to the account it was
-- made for, from when it was made: every completed song and edit is registered at completion
-- (core/src/jobs/job-state.ts completeJob, in the completing transaction), no longer at its
-- signature. `registered_at` is therefore the sound's creation time: the earlier one wins.
-- Registrations are never removed (a job deleted for good, a signature expired unused: the
-- creation happened and stays the creator's).

-- Songs registered at their signature under issue 44: their creation time is their completion.
UPDATE fingerprint_registry r SET registered_at = j.completed_at
  FROM generation_jobs j WHERE j.id = r.job_id AND j.completed_at IS NOT NULL;

-- Every other completed song with a fingerprint, registered as of its completion, with its terms:
-- each item's top 28 bits (core/src/fingerprint/terms.ts), the items big-endian 4 bytes each.
WITH registered AS (
  INSERT INTO fingerprint_registry (job_id, user_id, fingerprint, registered_at)
  SELECT id, user_id, fingerprint, completed_at FROM generation_jobs
   WHERE status = 'completed' AND fingerprint IS NOT NULL AND octet_length(fingerprint) > 0 AND completed_at IS NOT NULL
  ON CONFLICT (job_id) DO NOTHING
  RETURNING id, fingerprint)
INSERT INTO fingerprint_terms (term, registry_id)
SELECT DISTINCT ('x' || encode(substring(r.fingerprint FROM 4 * i + 1 FOR 4), 'hex'))::bit(32)::int4 & -16, r.id
  FROM registered r CROSS JOIN LATERAL generate_series(0, octet_length(r.fingerprint) / 4 - 1) AS i;

-- Outside audio (issue 50 item 5, docs/fingerprints.md "Outside audio"): whether the song's edit
-- chain starts from an upload (`outside_material`: the fingerprint checks apply to it), and the
-- seconds of the result that are uploaded audio kept verbatim through the chain
-- (`outside_spans`, [[start, end], …] in the song's own seconds, sorted, disjoint): an extend
-- keeps its source's, a repaint all but its range, a remix none.
ALTER TABLE generation_jobs ADD COLUMN outside_material boolean NOT NULL DEFAULT false;
ALTER TABLE generation_jobs ADD COLUMN outside_spans jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(outside_spans) = 'array');
ALTER TABLE generation_jobs ADD CONSTRAINT generation_jobs_outside_spans_of_outside_material
  CHECK (outside_material OR outside_spans = '[]');

-- Edits made before: in creation order (a source completes before its edits are made), each from
-- its upload's whole seconds or its source song's spans.
DO $$
DECLARE
  edit record;
  spans jsonb;
BEGIN
  FOR edit IN
    SELECT j.id, j.edit, j.edit_source_id, u.duration AS upload_seconds
      FROM generation_jobs j LEFT JOIN uploads u ON u.id = j.edit_upload_id
     WHERE j.edit IS NOT NULL ORDER BY j.created_at, j.id
  LOOP
    IF edit.upload_seconds IS NOT NULL THEN
      spans := jsonb_build_array(jsonb_build_array(0, floor(edit.upload_seconds)));
    ELSIF (SELECT outside_material FROM generation_jobs WHERE id = edit.edit_source_id) THEN
      spans := (SELECT outside_spans FROM generation_jobs WHERE id = edit.edit_source_id);
    ELSE
      CONTINUE;
    END IF;
    IF edit.edit->>'task' = 'remix' THEN
      spans := '[]';
    ELSIF edit.edit->>'task' = 'repaint' THEN
      spans := coalesce((
        SELECT jsonb_agg(jsonb_build_array(a, b) ORDER BY a) FROM (
          SELECT (s->>0)::float8 AS a, least((s->>1)::float8, (edit.edit->>'start')::float8) AS b FROM jsonb_array_elements(spans) s
          UNION ALL
          SELECT greatest((s->>0)::float8, (edit.edit->>'end')::float8), (s->>1)::float8 FROM jsonb_array_elements(spans) s
        ) pieces WHERE a < b), '[]');
    END IF;
    UPDATE generation_jobs SET outside_material = true, outside_spans = spans WHERE id = edit.id;
  END LOOP;
END $$;

-- SIGN_006 asks whether an earlier job made the same sound (its PCM hash).
CREATE INDEX generation_jobs_pcm_hash_idx ON generation_jobs (pcm_hash) WHERE pcm_hash IS NOT NULL;

-- Down Migration
DROP INDEX generation_jobs_pcm_hash_idx;
ALTER TABLE generation_jobs DROP CONSTRAINT generation_jobs_outside_spans_of_outside_material;
ALTER TABLE generation_jobs DROP COLUMN outside_spans;
ALTER TABLE generation_jobs DROP COLUMN outside_material;
-- Back to issue 44's rule: only signed songs are registered.
DELETE FROM fingerprint_terms t USING fingerprint_registry r
 WHERE r.id = t.registry_id AND NOT EXISTS (SELECT 1 FROM mint_signatures s WHERE s.job_id = r.job_id);
DELETE FROM fingerprint_registry r WHERE NOT EXISTS (SELECT 1 FROM mint_signatures s WHERE s.job_id = r.job_id);
