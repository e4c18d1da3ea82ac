import type { PublicClient } from 'viem';

/** Base makes a block every 2 seconds: the next one is stamped 2 s after the latest. */
export const BASE_BLOCK_SECONDS = 2n;

/** The block a transaction sent now joins: its number and timestamp. */
export interface NextBlock {
  number: bigint;
  timestamp: bigint;
}

/**
 * The block a transaction sent now would join: its time from the node's pending block where it
 * builds one (Hardhat/EDR does, leaving its number out; the local chain of `npm start` stamps it
 * with the slot a transaction joins, which may be the latest block's own when a transaction was
 * mined in this slot already), else the latest block's plus Base's 2 s block time (a Base node's
 * "pending" is its latest block); its number the latest's plus one.
 */
export async function nextBlock(publicClient: Pick<PublicClient, 'getBlock'>): Promise<NextBlock> {
  const [latest, pending] = await Promise.all([
    publicClient.getBlock({ blockTag: 'latest' }),
    publicClient.getBlock({ blockTag: 'pending' }).catch(() => undefined),
  ]);
  const number = latest.number + 1n;
  if (pending !== undefined && pending.number === null && pending.timestamp >= latest.timestamp)
    return { number, timestamp: pending.timestamp };
  return { number, timestamp: latest.timestamp + BASE_BLOCK_SECONDS };
}
