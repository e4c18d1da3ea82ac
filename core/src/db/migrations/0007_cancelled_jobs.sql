-- Up Migration
-- A queued job its owner cancelled (core/src/jobs/job-state.ts, `cancelJob`): the daily
-- generation it cost is given back, and workers skip it when its queue message comes up.
ALTER TABLE generation_jobs DROP CONSTRAINT generation_jobs_status_check;
ALTER TABLE generation_jobs ADD CONSTRAINT generation_jobs_status_check
  CHECK (status IN ('queued', 'processing', 'completed', 'failed', 'cancelled'));

-- Down Migration
ALTER TABLE generation_jobs DROP CONSTRAINT generation_jobs_status_check;
ALTER TABLE generation_jobs ADD CONSTRAINT generation_jobs_status_check
  CHECK (status IN ('queued', 'processing', 'completed', 'failed'));
