/**
 * Chain watcher: reads SongNFT's `SongMinted` logs and records each mint against the signature
 * that authorized it (`generation_jobs.signature_used`, `nft_token_id`, `users.total_minted`).
 *
 * It reads only blocks `confirmations` deep, remembers the last block it finished in
 * `chain_cursors` (so a restart resumes, and replicas share progress), and records each event
 * idempotently: a log seen twice (two replicas, a retried batch) counts once. A reorg deeper
 * than `confirmations` is not undone.
 */
import { parseAbiItem } from 'viem';
import type { Address, Hex, PublicClient } from 'viem';
import type { Logger } from 'pino';
import type { Database } from '../../../core/src/db/database.ts';

export const SONG_MINTED_EVENT = parseAbiItem(
  'event SongMinted(uint256 indexed tokenId, address indexed minter, bytes32 indexed audioHash, string metadataURI)',
);

export interface SongMinted {
  tokenId: bigint;
  minter: Address;
  audioHash: Hex;
  metadataUri: string;
  txHash: Hex;
  blockNumber: bigint;
}

/** `recorded`: first sight; `duplicate`: already recorded; `unknown`: no signature of ours matches. */
export type MintRecording = 'recorded' | 'duplicate' | 'unknown';

/**
 * Records one mint. The signature row is matched by audio hash (the contract mints each audio
 * hash once) and claimed with `token_id IS NULL`, so only the first sighting updates the job and
 * the user's counter.
 */
export async function recordSongMinted(db: Database, event: SongMinted, now: Date): Promise<MintRecording> {
  return db.tx(async (t) => {
    const claimed = await t.oneOrNone<{ job_id: string; user_id: string }>(
      `UPDATE mint_signatures
          SET token_id = $2, owner_address = $3, mint_tx_hash = $4, mint_block = $5, used_at = $6
        WHERE audio_hash = $1 AND token_id IS NULL
        RETURNING job_id, user_id`,
      [event.audioHash.toLowerCase(), event.tokenId.toString(), event.minter.toLowerCase(), event.txHash, event.blockNumber.toString(), now],
    );
    if (claimed === null) {
      const known = await t.oneOrNone<{ token_id: string | null }>('SELECT token_id::text AS token_id FROM mint_signatures WHERE audio_hash = $1', [
        event.audioHash.toLowerCase(),
      ]);
      return known === null ? 'unknown' : 'duplicate';
    }
    await t.none('UPDATE generation_jobs SET signature_used = true, nft_token_id = $2 WHERE id = $1', [claimed.job_id, event.tokenId.toString()]);
    await t.none('UPDATE users SET total_minted = total_minted + 1, updated_at = $2 WHERE id = $1', [claimed.user_id, now]);
    return 'recorded';
  });
}

export interface ChainWatcherOptions {
  db: Database;
  client: Pick<PublicClient, 'getBlockNumber' | 'getLogs'>;
  songNftAddress: Address;
  /** Blocks a log must be buried under before it is read. */
  confirmations: number;
  /** First block to read when no cursor is stored (the contract's deployment block). */
  startBlock: bigint;
  /** Most blocks per eth_getLogs request (providers cap the range). */
  batchSize?: bigint;
  pollIntervalMs?: number;
  logger: Pick<Logger, 'info' | 'warn' | 'error'>;
  now: () => Date;
}

export interface PollResult {
  /** Last block processed, or null when nothing was old enough. */
  throughBlock: bigint | null;
  recorded: number;
  duplicates: number;
  unknown: number;
}

export interface ChainWatcher {
  /** Processes every confirmed block not processed yet. */
  poll(): Promise<PollResult>;
  start(): void;
  stop(): Promise<void>;
}

export function createChainWatcher(options: ChainWatcherOptions): ChainWatcher {
  const cursorName = `SongMinted:${options.songNftAddress.toLowerCase()}`;
  const batchSize = options.batchSize ?? 2000n;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  let stopped = false;

  async function poll(): Promise<PollResult> {
    const result: PollResult = { throughBlock: null, recorded: 0, duplicates: 0, unknown: 0 };
    const head = await options.client.getBlockNumber();
    const safe = head - BigInt(options.confirmations);
    const cursor = await options.db.oneOrNone<{ block_number: string }>('SELECT block_number::text AS block_number FROM chain_cursors WHERE name = $1', [cursorName]);
    let from = cursor === null ? options.startBlock : BigInt(cursor.block_number) + 1n;
    while (from <= safe && !stopped) {
      const to = from + batchSize - 1n < safe ? from + batchSize - 1n : safe;
      const logs = await options.client.getLogs({ address: options.songNftAddress, event: SONG_MINTED_EVENT, fromBlock: from, toBlock: to, strict: true });
      for (const log of logs) {
        if (log.transactionHash === null || log.blockNumber === null) continue;
        const outcome = await recordSongMinted(
          options.db,
          {
            tokenId: log.args.tokenId,
            minter: log.args.minter,
            audioHash: log.args.audioHash,
            metadataUri: log.args.metadataURI,
            txHash: log.transactionHash,
            blockNumber: log.blockNumber,
          },
          options.now(),
        );
        if (outcome === 'recorded') result.recorded++;
        else if (outcome === 'duplicate') result.duplicates++;
        else {
          result.unknown++;
          options.logger.warn({ tokenId: log.args.tokenId.toString(), audioHash: log.args.audioHash }, 'SongMinted without a signature issued here');
        }
      }
      await options.db.none(
        `INSERT INTO chain_cursors (name, block_number, updated_at) VALUES ($1, $2, now())
         ON CONFLICT (name) DO UPDATE SET block_number = GREATEST(chain_cursors.block_number, EXCLUDED.block_number), updated_at = now()`,
        [cursorName, to.toString()],
      );
      result.throughBlock = to;
      from = to + 1n;
    }
    return result;
  }

  function schedule(): void {
    if (stopped) return;
    timer = setTimeout(() => {
      running = poll()
        .then((result) => {
          if (result.recorded > 0) options.logger.info({ ...result, throughBlock: result.throughBlock?.toString() }, 'mints recorded');
        })
        .catch((error: unknown) => options.logger.error({ err: error }, 'chain watcher poll failed; retrying'))
        .finally(schedule);
    }, options.pollIntervalMs ?? 4000);
  }

  return {
    poll,
    start() {
      stopped = false;
      schedule();
    },
    async stop() {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
      await running;
    },
  };
}
