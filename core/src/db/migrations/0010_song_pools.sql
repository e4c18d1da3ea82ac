-- Up Migration
-- Live pool data (oracle/src/chain/pool-indexer.ts): the vault's launches and the events of
-- Songmint pools only, each row keyed by the block and log that produced it, so a reorg is undone
-- by deleting the rows above the last block still on the chain (oracle/src/chain/log-follower.ts).

-- Block hashes at which a chain reader finished a batch: the follower compares the newest with
-- the chain before reading on, and rewinds to the newest that still matches after a reorg.
CREATE TABLE chain_checkpoints (
  cursor_name  text NOT NULL,
  block_number bigint NOT NULL CHECK (block_number >= 0),
  block_hash   text NOT NULL,
  PRIMARY KEY (cursor_name, block_number)
);

-- SongVault.SongLaunched, with the pool's starting point from PoolManager.Initialize.
CREATE TABLE song_pools (
  song_id          numeric(78, 0) PRIMARY KEY,
  pool_id          text NOT NULL UNIQUE,
  token            text NOT NULL,
  creator          text NOT NULL,
  launcher         text NOT NULL,
  allocation       numeric(78, 0) NOT NULL,
  pool_supply      numeric(78, 0) NOT NULL,
  launch_liquidity numeric(78, 0) NOT NULL,
  launch_block     bigint NOT NULL,
  launch_log_index integer NOT NULL,
  launch_tx_hash   text NOT NULL,
  launched_at      timestamptz NOT NULL,
  init_sqrt_price_x96 numeric(78, 0),
  init_tick        integer
);
CREATE INDEX song_pools_launch_order_idx ON song_pools (launch_block DESC, launch_log_index DESC);

-- PoolManager.Swap of a Songmint pool (amounts from the swapper's side: negative = paid in).
CREATE TABLE pool_swaps (
  block_number   bigint NOT NULL,
  log_index      integer NOT NULL,
  pool_id        text NOT NULL,
  tx_hash        text NOT NULL,
  sender         text NOT NULL,
  amount0        numeric(78, 0) NOT NULL,
  amount1        numeric(78, 0) NOT NULL,
  sqrt_price_x96 numeric(78, 0) NOT NULL,
  liquidity      numeric(78, 0) NOT NULL,
  tick           integer NOT NULL,
  fee_pips       integer NOT NULL,
  block_time     timestamptz NOT NULL,
  PRIMARY KEY (block_number, log_index)
);
CREATE INDEX pool_swaps_pool_idx ON pool_swaps (pool_id, block_number DESC, log_index DESC);
CREATE INDEX pool_swaps_pool_time_idx ON pool_swaps (pool_id, block_time);

-- PoolManager.ModifyLiquidity of a Songmint pool.
CREATE TABLE pool_liquidity_changes (
  block_number    bigint NOT NULL,
  log_index       integer NOT NULL,
  pool_id         text NOT NULL,
  tick_lower      integer NOT NULL,
  tick_upper      integer NOT NULL,
  liquidity_delta numeric(78, 0) NOT NULL,
  PRIMARY KEY (block_number, log_index)
);
CREATE INDEX pool_liquidity_changes_pool_idx ON pool_liquidity_changes (pool_id, block_number, log_index);

-- The hook's ETH fee of each swap: the PoolManager's ERC-6909 Transfer (mint) of it to the song token.
CREATE TABLE pool_swap_fees (
  block_number bigint NOT NULL,
  log_index    integer NOT NULL,
  pool_id      text NOT NULL,
  fee          numeric(78, 0) NOT NULL,
  PRIMARY KEY (block_number, log_index)
);
CREATE INDEX pool_swap_fees_pool_idx ON pool_swap_fees (pool_id);

-- SongVault.FeesCollected: fees moved into the parties' balances.
CREATE TABLE pool_fee_collections (
  block_number   bigint NOT NULL,
  log_index      integer NOT NULL,
  song_id        numeric(78, 0) NOT NULL,
  lp_fees_eth    numeric(78, 0) NOT NULL,
  lp_fees_token  numeric(78, 0) NOT NULL,
  swap_fees_eth  numeric(78, 0) NOT NULL,
  creator_eth    numeric(78, 0) NOT NULL,
  creator_token  numeric(78, 0) NOT NULL,
  platform_eth   numeric(78, 0) NOT NULL,
  platform_token numeric(78, 0) NOT NULL,
  PRIMARY KEY (block_number, log_index)
);
CREATE INDEX pool_fee_collections_song_idx ON pool_fee_collections (song_id);

-- Down Migration
DROP TABLE pool_fee_collections;
DROP TABLE pool_swap_fees;
DROP TABLE pool_liquidity_changes;
DROP TABLE pool_swaps;
DROP TABLE song_pools;
DROP TABLE chain_checkpoints;
