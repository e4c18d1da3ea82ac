import type { Address, BlockNumber, Hex } from 'viem';
import { songNftAbi, songVaultAbi } from '../generated/abis.ts';
import type { SongmintChain } from './context.ts';

type ReadChain = Pick<SongmintChain, 'publicClient' | 'contracts'>;

export interface SongRecord {
  tokenId: bigint;
  /** Who minted it (SongNFT.creatorOf): credited on the song page. */
  creator: Address;
  /** The holder now: the SongVault once the song is launched. */
  owner: Address;
  metadataUri: string;
  /** ERC-2981 royalty on secondary sales, basis points. */
  royaltyBps: number;
  /** Unix seconds of the launch; 0 while the song has no token and pool. */
  launchedAt: bigint;
}

/** A minted song as the chain records it: no wallet needed (a read-only client is enough). */
export async function readSong(chain: ReadChain, { songId }: { songId: bigint }): Promise<SongRecord> {
  const { publicClient, contracts } = chain;
  const nft = { address: contracts.SongNFT, abi: songNftAbi } as const;
  const [creator, owner, metadataUri, royaltyBps, song] = await Promise.all([
    publicClient.readContract({ ...nft, functionName: 'creatorOf', args: [songId] }),
    publicClient.readContract({ ...nft, functionName: 'ownerOf', args: [songId] }),
    publicClient.readContract({ ...nft, functionName: 'tokenURI', args: [songId] }),
    publicClient.readContract({ ...nft, functionName: 'royaltyBps' }),
    publicClient.readContract({ address: contracts.SongVault, abi: songVaultAbi, functionName: 'songOf', args: [songId] }),
  ]);
  return { tokenId: songId, creator, owner, metadataUri, royaltyBps: Number(royaltyBps), launchedAt: BigInt(song.launchedAt) };
}

export interface FindMintedSongsParameters {
  audioHashes: readonly Hex[];
  /** First block to search: SongNFT's deployment block on a public chain (0 on the local chain). */
  fromBlock?: BlockNumber;
}

/**
 * The token id each audio hash was minted as, from SongNFT's `SongMinted` events (the audio hash
 * is an indexed topic, so one filtered log query answers for many songs). Hashes never minted are
 * absent from the map.
 */
export async function findMintedSongs(
  chain: ReadChain,
  { audioHashes, fromBlock = 0n }: FindMintedSongsParameters,
): Promise<Map<Hex, bigint>> {
  if (audioHashes.length === 0) return new Map();
  const logs = await chain.publicClient.getContractEvents({
    address: chain.contracts.SongNFT,
    abi: songNftAbi,
    eventName: 'SongMinted',
    args: { audioHash: [...audioHashes] },
    fromBlock,
    toBlock: 'latest',
  });
  const minted = new Map<Hex, bigint>();
  for (const log of logs) {
    if (log.args.audioHash !== undefined && log.args.tokenId !== undefined)
      minted.set(log.args.audioHash.toLowerCase() as Hex, log.args.tokenId);
  }
  return minted;
}
