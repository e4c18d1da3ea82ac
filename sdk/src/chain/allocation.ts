import type { Address, Hash, TransactionReceipt } from 'viem';
import { parseEventLogs, zeroAddress } from 'viem';
import { songVaultAbi } from '../generated/abis.ts';
import type { SongmintChain } from './context.ts';
import { accountOf } from './context.ts';
import { confirmed, missingEvent } from './receipt.ts';

/**
 * A launcher's allocation as the vault holds it. The vault keeps it through the launch fee window
 * (SongPoolHook's 120 s decay from 50% to 1%) and mints it to its recipient from `claimableAt` on,
 * so nobody holds a song token inside the window without having bought it in the song pool.
 */
export interface HeldAllocation {
  songId: bigint;
  /** Receiver named at launch; null once claimed, when there was none, or when the song is not launched. */
  recipient: Address | null;
  /** Tokens still held for the recipient (18 decimals); 0 once claimed. */
  amount: bigint;
  /** First timestamp (seconds) at which it can be claimed; 0 when the song is not launched. */
  claimableAt: bigint;
  /** Whether `claimAllocation` succeeds in the chain's latest block. */
  claimable: boolean;
}

/** Reads `songId`'s held allocation (`SongVault.allocationOf`) and whether the window is over. */
export async function readAllocation(
  chain: Pick<SongmintChain, 'publicClient' | 'contracts'>,
  { songId }: { songId: bigint },
): Promise<HeldAllocation> {
  const [[held, claimableAt], block] = await Promise.all([
    chain.publicClient.readContract({
      address: chain.contracts.SongVault,
      abi: songVaultAbi,
      functionName: 'allocationOf',
      args: [songId],
    }),
    chain.publicClient.getBlock({ blockTag: 'latest' }),
  ]);
  const recipient = held.recipient === zeroAddress ? null : held.recipient;
  return {
    songId,
    recipient,
    amount: held.amount,
    claimableAt,
    claimable: recipient !== null && claimableAt !== 0n && block.timestamp >= claimableAt,
  };
}

export interface ClaimedAllocation {
  songId: bigint;
  /** The recipient named at launch: the tokens always go there, whoever sends the claim. */
  recipient: Address;
  /** Tokens minted to it. */
  amount: bigint;
  hash: Hash;
  receipt: TransactionReceipt;
}

/**
 * Mints `songId`'s allocation to its recipient with `SongVault.claimAllocation`, once the launch fee
 * has decayed to its floor. Any wallet may send it. The simulation refuses, before a transaction is
 * sent, a claim inside the window (`AllocationLocked(songId, claimableAt)`), a second claim
 * (`NoAllocation`) and a song not launched (`NotLaunched`).
 */
export async function claimAllocation(chain: SongmintChain, { songId }: { songId: bigint }): Promise<ClaimedAllocation> {
  const { request } = await chain.publicClient.simulateContract({
    account: accountOf(chain),
    address: chain.contracts.SongVault,
    abi: songVaultAbi,
    functionName: 'claimAllocation',
    args: [songId],
  });
  const hash = await chain.walletClient.writeContract({ ...request, chain: chain.walletClient.chain });
  const receipt = await confirmed(chain, hash, 'SongVault.claimAllocation');
  const [claimed] = parseEventLogs({ abi: songVaultAbi, eventName: 'AllocationClaimed', logs: receipt.logs });
  if (claimed === undefined) throw missingEvent('AllocationClaimed', hash);
  return { songId, recipient: claimed.args.recipient, amount: claimed.args.amount, hash, receipt };
}
