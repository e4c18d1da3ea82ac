-- Up Migration
-- The launch fee's burnt part (issue 51): inside the launch fee window SongPoolHook credits the
-- song only the steady 1% of a swap's fee and mints the rest as ERC-6909 ETH claims to itself,
-- where nothing can move them. That mint names no pool, so the pool indexer
-- (oracle/src/chain/pool-indexer.ts) pairs it with its swap when it reads it: the Swap log two
-- places after it (beforeSwap: burn, song fee, Swap) or before it (afterSwap: Swap, song fee,
-- burn), one place when the song's part rounded to nothing. A trade's fee is the song's part plus
-- this one (what the trader paid or went without); the song's and the platform's earnings count
-- only pool_swap_fees. Keyed by block and log, undone on a reorg like the other pool tables.
CREATE TABLE pool_burnt_fees (
  block_number   bigint NOT NULL,
  log_index      integer NOT NULL,
  pool_id        text NOT NULL,
  swap_log_index integer NOT NULL,
  amount         numeric(78, 0) NOT NULL CHECK (amount > 0),
  PRIMARY KEY (block_number, log_index)
);
CREATE INDEX pool_burnt_fees_pool_idx ON pool_burnt_fees (pool_id, block_number);

-- An upload's name (issue 51): the file's name as the uploader sent it (Songmint-Upload-Name), so
-- that its edits are titled after it ("chord (repainted 4-6 s)") rather than "Uploaded audio".
-- Null for uploads taken before, or sent without one.
ALTER TABLE uploads ADD COLUMN name text CHECK (name IS NULL OR char_length(name) BETWEEN 1 AND 200);

-- Down Migration
ALTER TABLE uploads DROP COLUMN name;
DROP TABLE pool_burnt_fees;
