-- Up Migration
-- Issue 35. A song's lossless masters (docs/api.md, "Lossless downloads"): the WAV and FLAC the
-- worker stored privately at lossless/<job_id>.wav|flac beside the MP3, recorded on completion as
-- {"sample_rate": 48000, "bits_per_sample": 24, "channels": 2, "wav_bytes": …, "flac_bytes": …};
-- NULL for songs made before (and for previews, which have none).
ALTER TABLE generation_jobs ADD COLUMN lossless jsonb
  CHECK (lossless IS NULL OR (lossless ? 'sample_rate' AND lossless ? 'bits_per_sample' AND lossless ? 'channels'
                              AND lossless ? 'wav_bytes' AND lossless ? 'flac_bytes'));
-- The SHA-256 of the song's PCM (24-bit little-endian, the WAV's samples): two jobs with the same
-- sound have the same pcm_hash though every MP3 carries its own manifest (docs/minting.md,
-- "Same sound, one mint"). NULL for songs made before.
ALTER TABLE generation_jobs ADD COLUMN pcm_hash text CHECK (pcm_hash ~ '^0x[0-9a-f]{64}$');
-- One mint signature per sound: the claim copies the job's pcm_hash, and a second job's claim for
-- the same sound violates this index (SIGN_006). NULLs (songs made before) never collide.
ALTER TABLE mint_signatures ADD COLUMN pcm_hash text CHECK (pcm_hash ~ '^0x[0-9a-f]{64}$');
CREATE UNIQUE INDEX mint_signatures_pcm_hash_key ON mint_signatures (pcm_hash);

-- Down Migration
DROP INDEX mint_signatures_pcm_hash_key;
ALTER TABLE mint_signatures DROP COLUMN pcm_hash;
ALTER TABLE generation_jobs DROP COLUMN pcm_hash;
ALTER TABLE generation_jobs DROP COLUMN lossless;
