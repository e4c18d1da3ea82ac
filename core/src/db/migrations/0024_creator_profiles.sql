-- Up Migration
-- Issue 51 item 5. What a creator says of themself (oracle/src/domain/creator-profile.ts, the one
-- home of the rules): a display name (1 to 50 characters, trimmed, no control or format
-- characters, not unique: the address stays the identity), a bio (at most 280 characters) and an
-- avatar checked like a cover (oracle/src/domain/cover-image.ts), stored in the object store at
-- `avatar_key` (its bytes count for the account's storage quota) and added to IPFS (`avatar_cid`).
-- NULL: not set; the profile then shows the linked Farcaster fid's user data, if a hub is
-- configured, and the address otherwise.
ALTER TABLE users
  ADD COLUMN display_name        text CHECK (char_length(display_name) BETWEEN 1 AND 50),
  ADD COLUMN bio                 text CHECK (char_length(bio) BETWEEN 1 AND 280),
  ADD COLUMN avatar_key          text,
  ADD COLUMN avatar_cid          text,
  ADD COLUMN avatar_content_type text,
  ADD CONSTRAINT users_avatar_complete
    CHECK ((avatar_key IS NULL) = (avatar_cid IS NULL) AND (avatar_key IS NULL) = (avatar_content_type IS NULL));

-- Down Migration
ALTER TABLE users
  DROP CONSTRAINT users_avatar_complete,
  DROP COLUMN avatar_content_type,
  DROP COLUMN avatar_cid,
  DROP COLUMN avatar_key,
  DROP COLUMN bio,
  DROP COLUMN display_name;
