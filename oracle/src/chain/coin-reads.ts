/**
 * What the coin pages and portfolios read from SongVault at answer time rather than index: the
 * platform's share of every fee (immutable, read once) and the launch allocations with their vesting
 * (`allocationOf`: total, claimed, vested now, cliff and vesting end). All reads of one answer are
 * pinned to one block.
 */
import { parseAbi, zeroAddress } from 'viem';
import type { Address, PublicClient } from 'viem';

const SONG_VAULT_COIN_ABI = parseAbi([
  'function platformShareBps() view returns (uint16)',
  'function allocationOf(uint256 songId) view returns (address recipient, uint256 total, uint256 claimed, uint256 vested, uint64 cliffEnd, uint64 vestingEnd)',
]);

/** A launch allocation at one block; amounts in token base units, all zero when the song took none. */
export interface HeldAllocation {
  songId: bigint;
  /** Null when the song took no allocation. */
  recipient: Address | null;
  /** Tokens the recipient gets in all. */
  total: bigint;
  /** Tokens minted to it so far. */
  claimed: bigint;
  /** Tokens vested at the block, the claimed ones included. */
  vested: bigint;
  /** Tokens the vault has not released yet (vested or not): `total - claimed`; 0 once all is claimed. */
  amount: bigint;
  /** Unix seconds until which nothing vests. */
  cliffEnd: bigint;
  /** Unix seconds from which everything has vested. */
  vestingEnd: bigint;
  /** Unix seconds from which `claimAllocation` can pay anything: the second after `cliffEnd`. */
  claimableAt: bigint;
}

export interface CoinChainReads {
  /** SongVault.platformShareBps (immutable): read once. */
  platformShareBps(): Promise<number>;
  /** SongVault.allocationOf for each song, in one block; the block with them. */
  allocations(songIds: ReadonlyArray<bigint>): Promise<{ blockNumber: bigint; allocations: HeldAllocation[] }>;
}

export function createCoinChainReads(client: Pick<PublicClient, 'getBlockNumber' | 'readContract'>, vault: Address): CoinChainReads {
  let share: Promise<number> | undefined;
  return {
    platformShareBps() {
      share ??= client
        .readContract({ address: vault, abi: SONG_VAULT_COIN_ABI, functionName: 'platformShareBps' })
        .catch((error: unknown) => {
          share = undefined;
          throw error;
        });
      return share;
    },
    async allocations(songIds) {
      const blockNumber = await client.getBlockNumber();
      const allocations = await Promise.all(
        songIds.map(async (songId) => {
          const [recipient, total, claimed, vested, cliffEnd, vestingEnd] = await client.readContract({
            address: vault,
            abi: SONG_VAULT_COIN_ABI,
            functionName: 'allocationOf',
            args: [songId],
            blockNumber,
          });
          return {
            songId,
            recipient: recipient === zeroAddress ? null : recipient,
            total,
            claimed,
            vested,
            amount: total - claimed,
            cliffEnd,
            vestingEnd,
            claimableAt: recipient === zeroAddress ? 0n : cliffEnd + 1n,
          };
        }),
      );
      return { blockNumber, allocations };
    },
  };
}
