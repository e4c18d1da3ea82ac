/**
 * Chain watcher: reads SongNFT's `SongMinted` logs and records each mint against the signature
 * that authorized it (`generation_jobs.signature_used`, `nft_token_id`, `users.total_minted`).
 *
 * It follows the chain with the shared log follower (./log-follower.ts: confirmations, batches,
 * the cursor in `chain_cursors`) and records each event idempotently: a log seen twice (two
 * replicas, a retried batch) counts once. A reorg deeper than `confirmations` is not undone.
 */
import { parseAbiItem } from 'viem';
import type { Address, Hex, PublicClient } from 'viem';
import type { Logger } from 'pino';
import type { Database } from '../../../core/src/db/database.ts';
import { createLogFollower, createPollLoop } from './log-follower.ts';
import type { PollLoop } from './log-follower.ts';

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
      [
        event.audioHash.toLowerCase(),
        event.tokenId.toString(),
        event.minter.toLowerCase(),
        event.txHash,
        event.blockNumber.toString(),
        now,
      ],
    );
    if (claimed === null) {
      const known = await t.oneOrNone<{ token_id: string | null }>(
        'SELECT token_id::text AS token_id FROM mint_signatures WHERE audio_hash = $1',
        [event.audioHash.toLowerCase()],
      );
      return known === null ? 'unknown' : 'duplicate';
    }
    // A song minted with a signature issued before its owner trashed it leaves the trash: minted songs stay.
    await t.none('UPDATE generation_jobs SET signature_used = true, nft_token_id = $2, deleted_at = NULL WHERE id = $1', [
      claimed.job_id,
      event.tokenId.toString(),
    ]);
    await t.none('UPDATE users SET total_minted = total_minted + 1, updated_at = $2 WHERE id = $1', [claimed.user_id, now]);
    return 'recorded';
  });
}

export interface ChainWatcherOptions {
  db: Database;
  client: Pick<PublicClient, 'getBlockNumber' | 'getLogs' | 'getBlock'>;
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

export interface ChainWatcher extends PollLoop {
  /** Processes every confirmed block not processed yet. */
  poll(signal?: AbortSignal): Promise<PollResult>;
}

export function createChainWatcher(options: ChainWatcherOptions): ChainWatcher {
  const follower = createLogFollower({
    db: options.db,
    client: options.client,
    cursorName: `SongMinted:${options.songNftAddress.toLowerCase()}`,
    confirmations: options.confirmations,
    startBlock: options.startBlock,
    ...(options.batchSize === undefined ? {} : { batchSize: options.batchSize }),
    logger: options.logger,
  });

  async function poll(signal?: AbortSignal): Promise<PollResult> {
    const result: PollResult = { throughBlock: null, recorded: 0, duplicates: 0, unknown: 0 };
    const followed = await follower.poll(async ({ fromBlock, toBlock }) => {
      const logs = await options.client.getLogs({
        address: options.songNftAddress,
        event: SONG_MINTED_EVENT,
        fromBlock,
        toBlock,
        strict: true,
      });
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
          options.logger.warn(
            { tokenId: log.args.tokenId.toString(), audioHash: log.args.audioHash },
            'SongMinted without a signature issued here',
          );
        }
      }
    }, signal);
    result.throughBlock = followed.throughBlock;
    return result;
  }

  const loop = createPollLoop({
    poll,
    intervalMs: options.pollIntervalMs ?? 4000,
    onResult: (result) => {
      if (result.recorded > 0) options.logger.info({ ...result, throughBlock: result.throughBlock?.toString() }, 'mints recorded');
    },
    logger: options.logger,
    failureMessage: 'chain watcher poll failed; retrying',
  });
  return { poll, start: loop.start, stop: loop.stop };
}
