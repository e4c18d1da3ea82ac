/**
 * What the coin pages and portfolios read from SongVault at answer time rather than index: the
 * platform's share of every fee (immutable, read once) and the allocations the vault still holds
 * (`allocationOf`: the amount drops to 0 when claimed). All reads of one answer are pinned to one block.
 */
import { parseAbi, zeroAddress } from 'viem';
import type { Address, PublicClient } from 'viem';

const SONG_VAULT_COIN_ABI = parseAbi([
  'function platformShareBps() view returns (uint16)',
  'function allocationOf(uint256 songId) view returns ((address recipient, uint96 amount) allocation, uint256 claimableAt)',
]);

export interface HeldAllocation {
  songId: bigint;
  /** Null once claimed. */
  recipient: Address | null;
  /** Tokens the vault still holds for the recipient; 0 once claimed. */
  amount: bigint;
  /** Unix seconds from which `claimAllocation` mints it. */
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
          const [held, claimableAt] = await client.readContract({
            address: vault,
            abi: SONG_VAULT_COIN_ABI,
            functionName: 'allocationOf',
            args: [songId],
            blockNumber,
          });
          return { songId, recipient: held.recipient === zeroAddress ? null : held.recipient, amount: held.amount, claimableAt };
        }),
      );
      return { blockNumber, allocations };
    },
  };
}
