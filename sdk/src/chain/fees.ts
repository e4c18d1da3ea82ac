import type { Address, Hash, TransactionReceipt } from 'viem';
import { parseEventLogs } from 'viem';
import { SongmintClientError } from '../errors.ts';
import { songVaultAbi } from '../generated/abis.ts';
import type { SongmintChain } from './context.ts';
import { accountOf } from './context.ts';
import { confirmed } from './receipt.ts';

export interface ClaimFeesParameters {
  songIds: readonly bigint[];
  /** Receiver of the ETH and tokens; defaults to the wallet's account. */
  to?: Address;
  /**
   * Collect each song's pending fees into the vault first (`collectFees`, callable by anyone), so
   * the claim includes the swaps up to now. Default true.
   */
  collect?: boolean;
}

export interface ClaimedFees {
  /** Per song: what the account received (wei and token units). */
  claimed: Array<{ songId: bigint; eth: bigint; token: bigint }>;
  ethPaid: bigint;
  collectHashes: Hash[];
  hash: Hash;
  receipt: TransactionReceipt;
}

/**
 * Claims the wallet's fees of `songIds` (its creator share as payout recipient, the platform share
 * as the vault's owner) with `SongVault.claim`, after collecting them.
 */
export async function claimFees(chain: SongmintChain, { songIds, to, collect = true }: ClaimFeesParameters): Promise<ClaimedFees> {
  if (songIds.length === 0) throw new SongmintClientError('INVALID_ARGUMENT', 'songIds is empty');
  const account = accountOf(chain);
  const collectHashes: Hash[] = [];
  if (collect) {
    for (const songId of songIds) {
      const { request } = await chain.publicClient.simulateContract({
        account,
        address: chain.contracts.SongVault,
        abi: songVaultAbi,
        functionName: 'collectFees',
        args: [songId],
      });
      const collectHash = await chain.walletClient.writeContract({ ...request, chain: chain.walletClient.chain });
      await confirmed(chain, collectHash, 'SongVault.collectFees');
      collectHashes.push(collectHash);
    }
  }
  const { request } = await chain.publicClient.simulateContract({
    account,
    address: chain.contracts.SongVault,
    abi: songVaultAbi,
    functionName: 'claim',
    args: [songIds, to ?? account.address],
  });
  const hash = await chain.walletClient.writeContract({ ...request, chain: chain.walletClient.chain });
  const receipt = await confirmed(chain, hash, 'SongVault.claim');
  const claimed = parseEventLogs({ abi: songVaultAbi, eventName: 'FeesClaimed', logs: receipt.logs }).map((log) => ({
    songId: log.args.songId,
    eth: log.args.eth,
    token: log.args.token,
  }));
  const ethPaid = claimed.reduce((sum, entry) => sum + entry.eth, 0n);
  return { claimed, ethPaid, collectHashes, hash, receipt };
}
