-- Up Migration
-- Every change of a job's status or progress, whoever writes it (oracle, worker, sweeps, cancel),
-- is announced on the `generation_job_changed` channel (core/src/jobs/job-changes.ts), so any
-- oracle replica can push it to the job's listeners (issue 15 item 3). The payload is small JSON;
-- listeners re-read the row for the view.
CREATE FUNCTION notify_generation_job_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('generation_job_changed', json_build_object('id', NEW.id, 'status', NEW.status, 'progress', NEW.progress)::text);
  RETURN NEW;
END;
$$;
CREATE TRIGGER generation_job_changed_insert AFTER INSERT ON generation_jobs
  FOR EACH ROW EXECUTE FUNCTION notify_generation_job_changed();
CREATE TRIGGER generation_job_changed_update AFTER UPDATE OF status, progress ON generation_jobs
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.progress IS DISTINCT FROM NEW.progress)
  EXECUTE FUNCTION notify_generation_job_changed();

-- Down Migration
DROP TRIGGER generation_job_changed_update ON generation_jobs;
DROP TRIGGER generation_job_changed_insert ON generation_jobs;
DROP FUNCTION notify_generation_job_changed();
