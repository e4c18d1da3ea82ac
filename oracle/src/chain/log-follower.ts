/**
 * The machinery every chain log reader of the oracle shares (the mint watcher, the pool indexer):
 * read only blocks `confirmations` deep, in batches of at most `batchSize` blocks, and remember
 * the last block finished in `chain_cursors`, so a restart resumes where it stopped and replicas
 * share progress. Handlers record idempotently (keyed by block and log), so a batch read twice
 * counts once.
 *
 * A reader that can undo what it recorded passes `rewind`: the follower then keeps the hash of
 * each batch's last block (`chain_checkpoints`), compares the newest with the chain before reading
 * on, and after a reorg that reached below it rewinds to the newest checkpoint still on the chain
 * (all of the reader's rows above it are deleted in the same transaction as the cursor moves
 * back) and reads the new blocks from there. Without `rewind` (the mint watcher, whose records
 * change jobs and counters) a reorg deeper than `confirmations` is not undone.
 */
import type { Hex, PublicClient } from 'viem';
import type { Logger } from 'pino';
import type { Database, DatabaseTask } from '../../../core/src/db/database.ts';

export interface BlockRange {
  fromBlock: bigint;
  toBlock: bigint;
}

/** Checkpoints kept per reader: the deepest reorg it can rewind without reading from the start. */
const KEPT_CHECKPOINTS = 128;

export interface LogFollowerOptions {
  db: Database;
  client: Pick<PublicClient, 'getBlockNumber' | 'getBlock'>;
  /** Row of `chain_cursors` (unique per reader and contract). */
  cursorName: string;
  /** Blocks a log must be buried under before it is read. */
  confirmations: number;
  /** First block to read when no cursor is stored (the contract's deployment block). */
  startBlock: bigint;
  /** Most blocks per batch (providers cap the eth_getLogs range). */
  batchSize?: bigint;
  /** Deletes the reader's rows of blocks above `block` (in the follower's transaction). */
  rewind?: (t: DatabaseTask, aboveBlock: bigint) => Promise<void>;
  logger: Pick<Logger, 'warn'>;
}

export interface FollowResult {
  /** Last block processed, or null when nothing was old enough. */
  throughBlock: bigint | null;
  /** The block a reorg rewound the reader to (null: none seen; -1n: to before `startBlock`). */
  rewoundTo: bigint | null;
}

export interface LogFollower {
  /**
   * Reads every confirmed block not read yet, handing each batch to `handle` in order; an aborted
   * `signal` ends it after the batch in progress.
   */
  poll(handle: (range: BlockRange) => Promise<void>, signal?: AbortSignal): Promise<FollowResult>;
}

export function createLogFollower(options: LogFollowerOptions): LogFollower {
  const { db, client, cursorName } = options;
  const batchSize = options.batchSize ?? 2000n;

  async function blockHash(blockNumber: bigint): Promise<Hex | null> {
    try {
      return (await client.getBlock({ blockNumber })).hash;
    } catch {
      // Past the head after the chain shrank: that block is not on the chain any more.
      return null;
    }
  }

  /** After a reorg: the newest checkpoint still on the chain, or -1n when none is. */
  async function commonAncestor(): Promise<bigint> {
    const checkpoints = await db.manyOrNone<{ block_number: string; block_hash: string }>(
      'SELECT block_number::text AS block_number, block_hash FROM chain_checkpoints c WHERE cursor_name = $1 ORDER BY c.block_number DESC',
      [cursorName],
    );
    for (const checkpoint of checkpoints) {
      const blockNumber = BigInt(checkpoint.block_number);
      if ((await blockHash(blockNumber)) === checkpoint.block_hash) return blockNumber;
    }
    return -1n;
  }

  async function rewindTo(ancestor: bigint, rewind: NonNullable<LogFollowerOptions['rewind']>): Promise<void> {
    await db.tx(async (t) => {
      await rewind(t, ancestor);
      await t.none('DELETE FROM chain_checkpoints WHERE cursor_name = $1 AND block_number > $2', [cursorName, ancestor.toString()]);
      if (ancestor < 0n) await t.none('DELETE FROM chain_cursors WHERE name = $1', [cursorName]);
      else
        await t.none('UPDATE chain_cursors SET block_number = $2, updated_at = now() WHERE name = $1', [cursorName, ancestor.toString()]);
    });
  }

  /** True when the reader's newest checkpoint is no longer on the chain. */
  async function reorged(): Promise<boolean> {
    const newest = await db.oneOrNone<{ block_number: string; block_hash: string }>(
      'SELECT block_number::text AS block_number, block_hash FROM chain_checkpoints c WHERE cursor_name = $1 ORDER BY c.block_number DESC LIMIT 1',
      [cursorName],
    );
    return newest !== null && (await blockHash(BigInt(newest.block_number))) !== newest.block_hash;
  }

  async function poll(handle: (range: BlockRange) => Promise<void>, signal?: AbortSignal): Promise<FollowResult> {
    const result: FollowResult = { throughBlock: null, rewoundTo: null };
    if (options.rewind !== undefined && (await reorged())) {
      const ancestor = await commonAncestor();
      options.logger.warn({ cursor: cursorName, rewoundTo: ancestor.toString() }, 'chain reorganized below the cursor; rewinding');
      await rewindTo(ancestor, options.rewind);
      result.rewoundTo = ancestor;
    }
    const head = await client.getBlockNumber();
    const safe = head - BigInt(options.confirmations);
    const cursor = await db.oneOrNone<{ block_number: string }>(
      'SELECT block_number::text AS block_number FROM chain_cursors WHERE name = $1',
      [cursorName],
    );
    let from = cursor === null ? options.startBlock : BigInt(cursor.block_number) + 1n;
    while (from <= safe && signal?.aborted !== true) {
      const to = from + batchSize - 1n < safe ? from + batchSize - 1n : safe;
      // The hash is taken before the logs are read: a reorg in between leaves a checkpoint of the
      // old chain, which the next poll finds off the chain and rewinds.
      const checkpoint = options.rewind === undefined ? null : await blockHash(to);
      await handle({ fromBlock: from, toBlock: to });
      await db.tx(async (t) => {
        await t.none(
          `INSERT INTO chain_cursors (name, block_number, updated_at) VALUES ($1, $2, now())
           ON CONFLICT (name) DO UPDATE SET block_number = GREATEST(chain_cursors.block_number, EXCLUDED.block_number), updated_at = now()`,
          [cursorName, to.toString()],
        );
        if (checkpoint === null) return;
        await t.none(
          `INSERT INTO chain_checkpoints (cursor_name, block_number, block_hash) VALUES ($1, $2, $3)
           ON CONFLICT (cursor_name, block_number) DO UPDATE SET block_hash = EXCLUDED.block_hash`,
          [cursorName, to.toString(), checkpoint],
        );
        await t.none(
          `DELETE FROM chain_checkpoints WHERE cursor_name = $1 AND block_number < ALL (
             SELECT block_number FROM chain_checkpoints WHERE cursor_name = $1 ORDER BY block_number DESC LIMIT $2)`,
          [cursorName, KEPT_CHECKPOINTS],
        );
      });
      result.throughBlock = to;
      from = to + 1n;
    }
    return result;
  }

  return { poll };
}

export interface PollLoop {
  start(): void;
  /** Stops scheduling and waits for the poll in progress. */
  stop(): Promise<void>;
}

/**
 * Runs `poll` every `intervalMs` (after the previous one ends), logging failures and going on:
 * a chain or database that is down for a while only delays the reader.
 */
export function createPollLoop<T>(options: {
  poll: (signal: AbortSignal) => Promise<T>;
  intervalMs: number;
  onResult: (result: T) => void;
  logger: Pick<Logger, 'error'>;
  failureMessage: string;
}): PollLoop {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  let stopped = true;
  let abort = new AbortController();

  function schedule(): void {
    if (stopped) return;
    timer = setTimeout(() => {
      running = options
        .poll(abort.signal)
        .then(options.onResult)
        .catch((error: unknown) => options.logger.error({ err: error }, options.failureMessage))
        .finally(schedule);
    }, options.intervalMs);
  }

  return {
    start() {
      stopped = false;
      abort = new AbortController();
      schedule();
    },
    async stop() {
      stopped = true;
      abort.abort();
      if (timer !== undefined) clearTimeout(timer);
      await running;
    },
  };
}
