-- Up Migration
-- Issue 45. A library a person manages (docs/api.md "Manage your library"):
-- `title` is the name a person gave an unminted song (PATCH /api/generate/{job_id}) or the one an
-- edit was given from its source ("Night drive (extended +4 s)"); NULL shows the prompt. A minted
-- song's name is its metadata's (song_metadata.document->>'name') and is never renamed.
ALTER TABLE generation_jobs ADD COLUMN title text CHECK (title IS NULL OR char_length(title) BETWEEN 1 AND 200);
-- `deleted_at`: the song is in the trash (DELETE /api/generate/{job_id}) since then; restorable
-- (POST /api/generate/{job_id}/restore) until retention deletes its audio. A minted song is never
-- in the trash: the chain watcher clears the mark when a trashed song is minted with a signature
-- issued before it was deleted.
ALTER TABLE generation_jobs ADD COLUMN deleted_at timestamptz;
ALTER TABLE generation_jobs ADD CONSTRAINT generation_jobs_minted_not_deleted CHECK (deleted_at IS NULL OR nft_token_id IS NULL);
-- Retention takes trashed songs sooner than the 90 days of other unminted songs.
CREATE INDEX generation_jobs_trash_idx ON generation_jobs (deleted_at) WHERE deleted_at IS NOT NULL AND purged_at IS NULL;

-- Whether each live worker's model sings the lyrics it is given (SongModel.sings): ACE-Step does;
-- the built-in model and MusicGen make instrumentals. A worker that does not say does not sing.
ALTER TABLE worker_heartbeats ADD COLUMN sings boolean NOT NULL DEFAULT false;

-- Down Migration
ALTER TABLE worker_heartbeats DROP COLUMN sings;
DROP INDEX generation_jobs_trash_idx;
ALTER TABLE generation_jobs DROP CONSTRAINT generation_jobs_minted_not_deleted;
ALTER TABLE generation_jobs DROP COLUMN deleted_at;
ALTER TABLE generation_jobs DROP COLUMN title;
