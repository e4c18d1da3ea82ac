-- Up Migration
-- The C2PA content credentials the worker embedded in a job's audio (issue 24,
-- docs/content-credentials.md), recorded on completion: {"standard": "c2pa", "manifest":
-- "urn:c2pa:…" (the active manifest's label), "signer": "CN=…" (the signing certificate's
-- subject)}. NULL for audio published before credentials were embedded.
ALTER TABLE generation_jobs ADD COLUMN content_credentials jsonb
  CHECK (content_credentials IS NULL OR (content_credentials->>'standard' = 'c2pa' AND content_credentials ? 'manifest' AND content_credentials ? 'signer'));

-- Down Migration
ALTER TABLE generation_jobs DROP COLUMN content_credentials;
