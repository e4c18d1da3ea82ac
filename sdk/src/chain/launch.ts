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
}

/** Reads the launch terms from the vault, the hook and the token implementation. */
export async function readLaunchTerms(chain: Pick<SongmintChain, 'publicClient' | 'contracts'>): Promise<LaunchTerms> {
  const { publicClient, contracts } = chain;
  const hook = { address: contracts.SongPoolHook, abi: songPoolHookAbi } as const;
  const vault = { address: contracts.SongVault, abi: songVaultAbi } as const;
  const [supply, maxAllocationBps, launchFeePips, baseFeePips, launchFeeSeconds, lpFee, platformShareBps] = await Promise.all([
    publicClient.readContract({ address: contracts.SongToken, abi: songTokenAbi, functionName: 'TOTAL_SUPPLY' }),
    publicClient.readContract({ ...vault, functionName: 'MAX_ALLOCATION_BPS' }),
    publicClient.readContract({ ...hook, functionName: 'LAUNCH_FEE_PIPS' }),
    publicClient.readContract({ ...hook, functionName: 'BASE_FEE_PIPS' }),
    publicClient.readContract({ ...hook, functionName: 'LAUNCH_FEE_DURATION' }),
    publicClient.readContract({ ...vault, functionName: 'lpFee' }),
    publicClient.readContract({ ...vault, functionName: 'platformShareBps' }),
  ]);
  return {
    supply,
    maxAllocationBps: Number(maxAllocationBps),
    launchFeePips,
    baseFeePips,
    launchFeeSeconds,
    lpFeePips: BigInt(lpFee),
    platformShareBps: Number(platformShareBps),
  };
}

export interface LaunchSongParameters {
  songId: bigint;
  /**
   * Share of the 1,000,000,000 tokens held for `allocationRecipient`, in basis points (0 to 1,000;
   * default 0): the vault keeps it through the launch fee window, then `claimAllocation` mints it.
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
  /** Tokens held by the vault for the allocation recipient (18 decimals), claimable from `allocationClaimableAt`. */
  allocation: bigint;
  allocationRecipient: Address;
  /** First timestamp (seconds) at which `claimAllocation` mints the allocation: launch + 120 s. */
  allocationClaimableAt: bigint;
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
 * `SongVault.launch` (NFT into custody, token, pool, locked liquidity, the allocation held) and
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
  const { claimableAt } = await readAllocation(chain, { songId });
  return {
    songId,
    token: launched.args.token,
    poolId: launched.args.poolId,
    poolKey: await readPoolKey(chain, songId),
    allocation: launched.args.allocation,
    allocationRecipient: launched.args.allocationRecipient,
    allocationClaimableAt: claimableAt,
    poolSupply: launched.args.poolSupply,
    liquidity: launched.args.liquidity,
    ...(approveHash === undefined ? {} : { approveHash }),
    hash,
    receipt,
  };
}
