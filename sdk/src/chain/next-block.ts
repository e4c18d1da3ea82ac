import type { PublicClient } from 'viem';

/** Base makes a block every 2 seconds: the next one is stamped 2 s after the latest. */
export const BASE_BLOCK_SECONDS = 2n;

/** The block a transaction sent now joins: its number and timestamp. */
export interface NextBlock {
  number: bigint;
  timestamp: bigint;
}

/**
 * The block a transaction sent now would join: the node's pending block where it builds one
 * (Hardhat/EDR stamps it with its clock), else the latest block plus Base's 2 s block time.
 */
export async function nextBlock(publicClient: Pick<PublicClient, 'getBlock'>): Promise<NextBlock> {
  const pending = await publicClient.getBlock({ blockTag: 'pending' }).catch(() => undefined);
  if (pending !== undefined && pending.number !== null) return { number: pending.number, timestamp: pending.timestamp };
  const latest = await publicClient.getBlock({ blockTag: 'latest' });
  return { number: latest.number + 1n, timestamp: latest.timestamp + BASE_BLOCK_SECONDS };
}
