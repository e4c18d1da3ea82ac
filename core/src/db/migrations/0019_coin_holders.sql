-- Up Migration
-- Coin pages, creator profiles and portfolios (issue 45, oracle/src/domain/coins.ts): the pool
-- indexer (oracle/src/chain/pool-indexer.ts) also reads every song token's ERC-20 Transfer logs
-- (who holds it, and who traded each swap) and the vault's payout-recipient hand-overs. Every row
-- is keyed by the block and log that produced it, so a reorg is undone as for the other pool
-- tables: by deleting the rows above the last block still on the chain.

-- SongToken.Transfer of a Songmint song token (mints from the zero address included).
CREATE TABLE token_transfers (
  block_number bigint NOT NULL,
  log_index    integer NOT NULL,
  token        text NOT NULL CHECK (token ~ '^0x[0-9a-f]{40}$'),
  tx_hash      text NOT NULL,
  from_address text NOT NULL CHECK (from_address ~ '^0x[0-9a-f]{40}$'),
  to_address   text NOT NULL CHECK (to_address ~ '^0x[0-9a-f]{40}$'),
  amount       numeric(78, 0) NOT NULL CHECK (amount >= 0),
  PRIMARY KEY (block_number, log_index)
);
CREATE INDEX token_transfers_token_to_idx ON token_transfers (token, to_address);
CREATE INDEX token_transfers_token_from_idx ON token_transfers (token, from_address);
CREATE INDEX token_transfers_to_idx ON token_transfers (to_address);
CREATE INDEX token_transfers_from_idx ON token_transfers (from_address);
CREATE INDEX token_transfers_tx_idx ON token_transfers (tx_hash);

-- SongVault.PayoutRecipientUpdated: the song's creator share goes to the newest one (the creator before any).
CREATE TABLE payout_recipient_changes (
  block_number bigint NOT NULL,
  log_index    integer NOT NULL,
  song_id      numeric(78, 0) NOT NULL,
  recipient    text NOT NULL CHECK (recipient ~ '^0x[0-9a-f]{40}$'),
  PRIMARY KEY (block_number, log_index)
);
CREATE INDEX payout_recipient_changes_song_idx ON payout_recipient_changes (song_id, block_number DESC, log_index DESC);
CREATE INDEX payout_recipient_changes_recipient_idx ON payout_recipient_changes (recipient);

-- SongLaunched names the allocation's recipient (a portfolio lists the allocations held for it).
ALTER TABLE song_pools ADD COLUMN allocation_recipient text;
CREATE INDEX song_pools_creator_idx ON song_pools (lower(creator));
CREATE INDEX song_pools_allocation_recipient_idx ON song_pools (allocation_recipient);

-- The pool indexer reads the chain again from its start block to fill these tables for pools it
-- indexed before (every insert is keyed by block and log, so nothing already indexed counts twice).
DELETE FROM chain_checkpoints WHERE cursor_name LIKE 'SongPools:%';
DELETE FROM chain_cursors WHERE name LIKE 'SongPools:%';

-- Down Migration
DROP INDEX song_pools_allocation_recipient_idx;
DROP INDEX song_pools_creator_idx;
ALTER TABLE song_pools DROP COLUMN allocation_recipient;
DROP TABLE payout_recipient_changes;
DROP TABLE token_transfers;
