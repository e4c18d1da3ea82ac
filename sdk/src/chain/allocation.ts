import type { Address, Hash, TransactionReceipt } from 'viem';
import { parseEventLogs, zeroAddress } from 'viem';
import { songVaultAbi } from '../generated/abis.ts';
import type { SongmintChain } from './context.ts';
import { accountOf } from './context.ts';
import { confirmed, missingEvent } from './receipt.ts';

/**
 * A launcher's allocation and its vesting (`SongVault.allocationOf`). Nothing of it exists until its
 * cliff ends (`cliffEnd`: launch + `SongVault.ALLOCATION_CLIFF`, 7 days by default); then it vests
 * linearly until `vestingEnd` (+ `ALLOCATION_VESTING_PERIOD`, 180 days by default), and
 * `claimAllocation` mints what has vested and was not claimed yet, as often as anyone likes. So the
 * creator cannot sell its allocation into the pool before the cliff, and after it only as it vests.
 * All amounts are song-token base units (18 decimals); all zero when the song took no allocation or
 * is not launched.
 */
export interface HeldAllocation {
  songId: bigint;
  /** Receiver named at launch; null when there is none (or the song is not launched). */
  recipient: Address | null;
  /** Tokens the recipient gets in all. */
  total: bigint;
  /** Tokens minted to it so far. */
  claimed: bigint;
  /** Tokens vested at `blockNumber`, the claimed ones included. */
  vested: bigint;
  /** Tokens not vested yet: `total - vested`. */
  unvested: bigint;
  /** What `claimAllocation` pays at `blockNumber`: `vested - claimed`. */
  claimableAmount: bigint;
  /** Tokens the vault has not released yet, vested or not: `total - claimed`. */
  amount: bigint;
  /** Until this timestamp (seconds) nothing vests. */
  cliffEnd: bigint;
  /** From this timestamp (seconds) everything has vested. */
  vestingEnd: bigint;
  /** First timestamp (seconds) at which a claim can pay anything: the second after `cliffEnd`; 0 when there is no allocation. */
  claimableAt: bigint;
  /** Whether `claimAllocation` pays something at `blockNumber` (`claimableAmount > 0`). */
  claimable: boolean;
  /** The block the figures were read at (the chain's latest). */
  blockNumber: bigint;
}

/** Reads `songId`'s allocation and its vesting (`SongVault.allocationOf`) in the chain's latest block. */
export async function readAllocation(
  chain: Pick<SongmintChain, 'publicClient' | 'contracts'>,
  { songId }: { songId: bigint },
): Promise<HeldAllocation> {
  // Uncached: a read right after a claim must see it.
  const blockNumber = await chain.publicClient.getBlockNumber({ cacheTime: 0 });
  const [recipient, total, claimed, vested, cliffEnd, vestingEnd] = await chain.publicClient.readContract({
    address: chain.contracts.SongVault,
    abi: songVaultAbi,
    functionName: 'allocationOf',
    args: [songId],
    blockNumber,
  });
  const claimableAmount = vested - claimed;
  return {
    songId,
    recipient: recipient === zeroAddress ? null : recipient,
    total,
    claimed,
    vested,
    unvested: total - vested,
    claimableAmount,
    amount: total - claimed,
    cliffEnd,
    vestingEnd,
    claimableAt: recipient === zeroAddress ? 0n : cliffEnd + 1n,
    claimable: claimableAmount > 0n,
    blockNumber,
  };
}

export interface ClaimedAllocation {
  songId: bigint;
  /** The recipient named at launch: the tokens always go there, whoever sends the claim. */
  recipient: Address;
  /** Tokens minted to it by this claim. */
  amount: bigint;
  /** Tokens of the allocation still not claimed after it (vested or not). */
  remaining: bigint;
  hash: Hash;
  receipt: TransactionReceipt;
}

/**
 * Mints what has vested of `songId`'s allocation and was not claimed yet to its recipient, with
 * `SongVault.claimAllocation`. Any wallet may send it. The simulation refuses, before a transaction
 * is sent, a claim until the cliff ends (`AllocationLocked(songId, cliffEnd)`), one when everything
 * vested so far was claimed already (`NothingVested(songId, claimed, total)`), a song launched
 * without an allocation (`NoAllocation`) and a song not launched (`NotLaunched`).
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
  return {
    songId,
    recipient: claimed.args.recipient,
    amount: claimed.args.amount,
    remaining: claimed.args.remaining,
    hash,
    receipt,
  };
}
