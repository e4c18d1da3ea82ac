-- Up Migration
-- Issue 49 item 7. What each worker measured of its loaded model at start
-- (core/src/model-speed.ts `ModelSpeed`: per steps value, seconds per audio second and the longest
-- song it finishes within the job limit). NULL: a worker from before the measurement, which
-- publishes no limit of its own (the tier limits alone apply to it).
ALTER TABLE worker_heartbeats ADD COLUMN model_speed jsonb;

-- Down Migration
ALTER TABLE worker_heartbeats DROP COLUMN model_speed;
