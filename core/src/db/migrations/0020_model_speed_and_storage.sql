-- Up Migration
-- Issue 49 item 7. What each worker measured of its loaded model at start
-- (core/src/model-speed.ts `ModelSpeed`: per steps value, seconds per audio second and the longest
-- song it finishes within the job limit). NULL: a worker from before the measurement, which
-- publishes no limit of its own (the tier limits alone apply to it).
ALTER TABLE worker_heartbeats ADD COLUMN model_speed jsonb;

-- Issue 49 item 4. Storage quotas (core/src/storage-quota.ts): every object the store holds for
-- an account is one row of `stored_objects` (its key, its exact size), and `users.stored_bytes`
-- is their sum, moved in the same statement that adds or removes a row, so it is exact across
-- replicas and released once when retention, a trash purge or a delete removes the object.
ALTER TABLE users ADD COLUMN stored_bytes bigint NOT NULL DEFAULT 0 CHECK (stored_bytes >= 0);
CREATE TABLE stored_objects (
  object_key text PRIMARY KEY,
  user_id    uuid NOT NULL REFERENCES users (id),
  bytes      bigint NOT NULL CHECK (bytes >= 0),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX stored_objects_user_idx ON stored_objects (user_id);
-- What the database knows the size of already: uploads not deleted, and songs' lossless masters.
-- (MP3s, kept latents and covers stored before this migration were not sized: they count from
-- the next one stored.)
INSERT INTO stored_objects (object_key, user_id, bytes)
  SELECT object_key, user_id, bytes FROM uploads WHERE deleted_at IS NULL;
INSERT INTO stored_objects (object_key, user_id, bytes)
  SELECT 'lossless/gen_' || id || '.' || format, user_id, (lossless ->> (format || '_bytes'))::bigint
    FROM generation_jobs, unnest(ARRAY['wav', 'flac']) AS format
   WHERE purged_at IS NULL AND lossless ? (format || '_bytes');
UPDATE users SET stored_bytes = totals.bytes
  FROM (SELECT user_id, sum(bytes) AS bytes FROM stored_objects GROUP BY user_id) totals
 WHERE users.id = totals.user_id;

-- Down Migration
DROP TABLE stored_objects;
ALTER TABLE users DROP COLUMN stored_bytes;
ALTER TABLE worker_heartbeats DROP COLUMN model_speed;
