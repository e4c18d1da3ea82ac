/**
 * What each fee party of a song can claim from SongVault right now, read from the contract when
 * the pool view is asked for (not indexed): `claimableFeesOf` is exactly what `claim` would pay,
 * with no rule of the vault's (split, payout-recipient hand-over, combined platform-and-creator
 * claims, token credits held through the launch fee window) repeated here. All reads of one answer are pinned to one block.
 */
import { parseAbi } from 'viem';
import type { Address, PublicClient } from 'viem';

const SONG_VAULT_FEES_ABI = parseAbi([
  'function claimableFeesOf(uint256 songId) view returns ((uint128 eth, uint128 token) creator, (uint128 eth, uint128 token) platform)',
  'function songOf(uint256 songId) view returns ((address payoutRecipient, uint40 launchedAt))',
  'function owner() view returns (address)',
]);

export interface PartyBalance {
  account: Address;
  eth: bigint;
  token: bigint;
}

export interface ClaimableFees {
  blockNumber: bigint;
  /** The song's payout recipient (its creator until the role is handed on). */
  creator: PartyBalance;
  /** The vault's owner. */
  platform: PartyBalance;
}

export type ClaimableFeesReader = (songIds: ReadonlyArray<bigint>) => Promise<Map<bigint, ClaimableFees>>;

export function createClaimableFeesReader(
  client: Pick<PublicClient, 'getBlockNumber' | 'readContract'>,
  vault: Address,
): ClaimableFeesReader {
  return async (songIds) => {
    const claimable = new Map<bigint, ClaimableFees>();
    if (songIds.length === 0) return claimable;
    // Not viem's cached head (kept for its polling interval): a view asked for just after a claim
    // must show it paid.
    const blockNumber = await client.getBlockNumber({ cacheTime: 0 });
    const platform = await client.readContract({ address: vault, abi: SONG_VAULT_FEES_ABI, functionName: 'owner', blockNumber });
    await Promise.all(
      songIds.map(async (songId) => {
        const [[creatorFees, platformFees], song] = await Promise.all([
          client.readContract({ address: vault, abi: SONG_VAULT_FEES_ABI, functionName: 'claimableFeesOf', args: [songId], blockNumber }),
          client.readContract({ address: vault, abi: SONG_VAULT_FEES_ABI, functionName: 'songOf', args: [songId], blockNumber }),
        ]);
        claimable.set(songId, {
          blockNumber,
          creator: { account: song.payoutRecipient, eth: creatorFees.eth, token: creatorFees.token },
          platform: { account: platform, eth: platformFees.eth, token: platformFees.token },
        });
      }),
    );
    return claimable;
  };
}
