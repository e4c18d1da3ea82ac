import type { Address, Hash, TransactionReceipt } from 'viem';
import { isAddress, parseEventLogs } from 'viem';
import { SongmintClientError } from '../errors.ts';
import { songVaultAbi } from '../generated/abis.ts';
import type { SongmintChain } from './context.ts';
import { accountOf } from './context.ts';
import { confirmed, missingEvent } from './receipt.ts';

export interface SetPayoutRecipientParameters {
  songId: bigint;
  /** Receives the creator share of the song's fees from now on (credited and future), and holds the role. */
  recipient: Address;
}

export interface PayoutRecipientChanged {
  songId: bigint;
  previousRecipient: Address;
  newRecipient: Address;
  hash: Hash;
  receipt: TransactionReceipt;
}

/**
 * Hands a launched song's creator share to `recipient` with `SongVault.setPayoutRecipient` (a
 * split contract, a multisig, another wallet). Only the current payout recipient may: the
 * simulation refuses anyone else with the vault's `NotPayoutRecipient` before a transaction is sent.
 */
export async function setPayoutRecipient(
  chain: SongmintChain,
  { songId, recipient }: SetPayoutRecipientParameters,
): Promise<PayoutRecipientChanged> {
  if (!isAddress(recipient, { strict: false }))
    throw new SongmintClientError('INVALID_ARGUMENT', `recipient is not an address: ${String(recipient)}`);
  const account = accountOf(chain);
  const { request } = await chain.publicClient.simulateContract({
    account,
    address: chain.contracts.SongVault,
    abi: songVaultAbi,
    functionName: 'setPayoutRecipient',
    args: [songId, recipient],
  });
  const hash = await chain.walletClient.writeContract({ ...request, chain: chain.walletClient.chain });
  const receipt = await confirmed(chain, hash, 'SongVault.setPayoutRecipient');
  const [updated] = parseEventLogs({ abi: songVaultAbi, eventName: 'PayoutRecipientUpdated', logs: receipt.logs });
  if (updated === undefined) throw missingEvent('PayoutRecipientUpdated', hash);
  return {
    songId: updated.args.songId,
    previousRecipient: updated.args.previousRecipient,
    newRecipient: updated.args.newRecipient,
    hash,
    receipt,
  };
}
