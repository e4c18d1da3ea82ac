import type { Hash, TransactionReceipt } from 'viem';
import { SongmintClientError } from '../errors.ts';
import type { SongmintChain } from './context.ts';

/** Waits for `hash` to be mined and returns its receipt; a reverted transaction is an error. */
export async function confirmed(chain: SongmintChain, hash: Hash, what: string): Promise<TransactionReceipt> {
  const receipt = await chain.publicClient.waitForTransactionReceipt({ hash });
  if (receipt.status !== 'success') throw new SongmintClientError('UNEXPECTED_RESPONSE', `${what} (${hash}) reverted`);
  return receipt;
}

export function missingEvent(event: string, hash: Hash): SongmintClientError {
  return new SongmintClientError('EVENT_NOT_FOUND', `transaction ${hash} emitted no ${event}`);
}
