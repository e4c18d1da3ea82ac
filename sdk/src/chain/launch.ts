import type { Address, Hash, Hex, TransactionReceipt } from 'viem';
import { parseEventLogs } from 'viem';
import { SongmintClientError } from '../errors.ts';
import { songNftAbi, songPoolHookAbi, songTokenAbi, songVaultAbi } from '../generated/abis.ts';
import type { SongmintChain } from './context.ts';
import { readAllocation } from './allocation.ts';
import { accountOf } from './context.ts';
import { readPoolKey } from './pool.ts';
import type { PoolKey } from './pool.ts';
import { confirmed, missingEvent } from './receipt.ts';

/** SongVault.MAX_ALLOCATION_BPS: at most 10% of the supply goes to the allocation recipient. */
export const MAX_ALLOCATION_BPS = 1_000;

/** What a launch commits to, read from the deployed contracts: for the confirmation a creator reads first. */
export interface LaunchTerms {
  /** Every song token's fixed supply (18 decimals). */
  supply: bigint;
  maxAllocationBps: number;
  /** The hook's launch fee at the launch (pips), its floor, and the seconds it takes to fall from one to the other. */
  launchFeePips: bigint;
  baseFeePips: bigint;
  launchFeeSeconds: bigint;
  /** The pool's LP fee (pips): it stays in the locked position, collected for the creator and the platform. */
  lpFeePips: bigint;
  /** The platform's share of every fee (hook and LP), basis points; the creator's payout recipient gets the rest. */
  platformShareBps: number;
  /** Seconds after launch before any of the allocation vests (`SongVault.ALLOCATION_CLIFF`). */
  allocationCliffSeconds: bigint;
  /** Seconds over which the allocation then vests linearly (`SongVault.ALLOCATION_VESTING_PERIOD`). */
  allocationVestingSeconds: bigint;
}

/** Reads the launch terms from the vault, the hook and the token implementation. */
export async function readLaunchTerms(chain: Pick<SongmintChain, 'publicClient' | 'contracts'>): Promise<LaunchTerms> {
  const { publicClient, contracts } = chain;
  const hook = { address: contracts.SongPoolHook, abi: songPoolHookAbi } as const;
  const vault = { address: contracts.SongVault, abi: songVaultAbi } as const;
  const [
    supply,
    maxAllocationBps,
    launchFeePips,
    baseFeePips,
    launchFeeSeconds,
    lpFee,
    platformShareBps,
    allocationCliffSeconds,
    allocationVestingSeconds,
  ] = await Promise.all([
    publicClient.readContract({ address: contracts.SongToken, abi: songTokenAbi, functionName: 'TOTAL_SUPPLY' }),
    publicClient.readContract({ ...vault, functionName: 'MAX_ALLOCATION_BPS' }),
    publicClient.readContract({ ...hook, functionName: 'LAUNCH_FEE_PIPS' }),
    publicClient.readContract({ ...hook, functionName: 'BASE_FEE_PIPS' }),
    publicClient.readContract({ ...hook, functionName: 'LAUNCH_FEE_DURATION' }),
    publicClient.readContract({ ...vault, functionName: 'lpFee' }),
    publicClient.readContract({ ...vault, functionName: 'platformShareBps' }),
    publicClient.readContract({ ...vault, functionName: 'ALLOCATION_CLIFF' }),
    publicClient.readContract({ ...vault, functionName: 'ALLOCATION_VESTING_PERIOD' }),
  ]);
  return {
    supply,
    maxAllocationBps: Number(maxAllocationBps),
    launchFeePips,
    baseFeePips,
    launchFeeSeconds,
    lpFeePips: BigInt(lpFee),
    platformShareBps: Number(platformShareBps),
    allocationCliffSeconds,
    allocationVestingSeconds,
  };
}

export interface LaunchSongParameters {
  songId: bigint;
  /**
   * Share of the 1,000,000,000 tokens held for `allocationRecipient`, in basis points (0 to 1,000;
   * default 0): it vests after a cliff (`LaunchTerms.allocationCliffSeconds`), linearly, and
   * `claimAllocation` mints what has vested.
   */
  allocationBps?: number;
  /** Defaults to the wallet's account. */
  allocationRecipient?: Address;
}

export interface LaunchedSong {
  songId: bigint;
  /** The song's SongToken. */
  token: Address;
  poolId: Hex;
  poolKey: PoolKey;
  /** Tokens vesting for the allocation recipient (18 decimals): none until `allocationCliffEnd`, all from `allocationVestingEnd`. */
  allocation: bigint;
  allocationRecipient: Address;
  /** First timestamp (seconds) at which `claimAllocation` can pay anything: the second after the cliff; 0 without an allocation. */
  allocationClaimableAt: bigint;
  /** Until this timestamp (seconds) nothing of the allocation vests: launch + the cliff; 0 without an allocation. */
  allocationCliffEnd: bigint;
  /** From this timestamp (seconds) all of it has vested; 0 without an allocation. */
  allocationVestingEnd: bigint;
  /** Tokens seeded into the pool (18 decimals). */
  poolSupply: bigint;
  liquidity: bigint;
  /** The approval, when one was needed. */
  approveHash?: Hash;
  hash: Hash;
  receipt: TransactionReceipt;
}

/**
 * Launches the song: approves the vault for the NFT when it is not yet, then simulates and sends
 * `SongVault.launch` (NFT into custody, token, pool, locked liquidity, the allocation vesting) and
 * reads the result from SongLaunched and the vault's `allocationOf`.
 */
export async function launchSong(chain: SongmintChain, parameters: LaunchSongParameters): Promise<LaunchedSong> {
  const account = accountOf(chain);
  const { songId, allocationBps = 0, allocationRecipient = account.address } = parameters;
  if (!Number.isInteger(allocationBps) || allocationBps < 0 || allocationBps > MAX_ALLOCATION_BPS) {
    throw new SongmintClientError('INVALID_ARGUMENT', `allocationBps must be an integer from 0 to ${MAX_ALLOCATION_BPS}`);
  }
  const vault = chain.contracts.SongVault;
  let approveHash: Hash | undefined;
  const approved = await chain.publicClient.readContract({
    address: chain.contracts.SongNFT,
    abi: songNftAbi,
    functionName: 'getApproved',
    args: [songId],
  });
  if (approved.toLowerCase() !== vault.toLowerCase()) {
    const { request } = await chain.publicClient.simulateContract({
      account,
      address: chain.contracts.SongNFT,
      abi: songNftAbi,
      functionName: 'approve',
      args: [vault, songId],
    });
    approveHash = await chain.walletClient.writeContract({ ...request, chain: chain.walletClient.chain });
    await confirmed(chain, approveHash, 'SongNFT.approve');
  }
  const { request } = await chain.publicClient.simulateContract({
    account,
    address: vault,
    abi: songVaultAbi,
    functionName: 'launch',
    args: [songId, { allocationBps, allocationRecipient }],
  });
  const hash = await chain.walletClient.writeContract({ ...request, chain: chain.walletClient.chain });
  const receipt = await confirmed(chain, hash, 'SongVault.launch');
  const [launched] = parseEventLogs({ abi: songVaultAbi, eventName: 'SongLaunched', logs: receipt.logs });
  if (launched === undefined) throw missingEvent('SongLaunched', hash);
  const { claimableAt, cliffEnd, vestingEnd } = await readAllocation(chain, { songId });
  return {
    songId,
    token: launched.args.token,
    poolId: launched.args.poolId,
    poolKey: await readPoolKey(chain, songId),
    allocation: launched.args.allocation,
    allocationRecipient: launched.args.allocationRecipient,
    allocationClaimableAt: claimableAt,
    allocationCliffEnd: cliffEnd,
    allocationVestingEnd: vestingEnd,
    poolSupply: launched.args.poolSupply,
    liquidity: launched.args.liquidity,
    ...(approveHash === undefined ? {} : { approveHash }),
    hash,
    receipt,
  };
}
