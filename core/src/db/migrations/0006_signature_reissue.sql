-- Up Migration
-- A signature made by a key that SongNFT has since retired, for audio never minted, can never be
-- used: the oracle replaces it with one from its current key (docs/minting.md, "Rotating the
-- platform signer"). The row keeps what it replaced, for the audit trail.
ALTER TABLE mint_signatures ADD COLUMN replaced_signature text CHECK (replaced_signature ~ '^0x[0-9a-f]{130}$');
ALTER TABLE mint_signatures ADD COLUMN replaced_signer_address text CHECK (replaced_signer_address ~ '^0x[0-9a-f]{40}$');
ALTER TABLE mint_signatures ADD COLUMN reissued_at timestamptz;

-- Down Migration
ALTER TABLE mint_signatures DROP COLUMN reissued_at;
ALTER TABLE mint_signatures DROP COLUMN replaced_signer_address;
ALTER TABLE mint_signatures DROP COLUMN replaced_signature;
