-- Up Migration
-- Which licence the model that made a job's audio is under, recorded by the worker on completion
-- (model_name and model_version already are). The oracle refuses mint signatures for audio whose
-- model forbids commercial use unless the operator overrides it (oracle/src/domain/model-licence.ts).
-- NULL on jobs completed before this migration: those were made by the built-in MIT model.
ALTER TABLE generation_jobs ADD COLUMN model_licence text CHECK (char_length(model_licence) BETWEEN 1 AND 100);
ALTER TABLE generation_jobs ADD COLUMN model_commercial_use boolean;

-- Down Migration
ALTER TABLE generation_jobs DROP COLUMN model_commercial_use;
ALTER TABLE generation_jobs DROP COLUMN model_licence;
