import type { Address, Hash, Hex, TransactionReceipt } from 'viem';
import { parseEventLogs } from 'viem';
import { songNftAbi } from '../generated/abis.ts';
import type { SongmintChain } from './context.ts';
import { accountOf } from './context.ts';
import { confirmed, missingEvent } from './receipt.ts';

export interface MintSongParameters {
  /** Exactly the values of `getMintSignature`. */
  metadataUri: string;
  audioHash: Hex;
  signature: Hex;
}

export interface MintedSong {
  tokenId: bigint;
  minter: Address;
  hash: Hash;
  receipt: TransactionReceipt;
}

/**
 * Mints the song to the wallet's account: simulates `SongNFT.mint` first (a bad signature or a
 * used audio hash fails here, with the contract's reason, before anything is sent), then sends it
 * and reads the token id from the receipt's SongMinted event.
 */
export async function mintSong(chain: SongmintChain, { metadataUri, audioHash, signature }: MintSongParameters): Promise<MintedSong> {
  const account = accountOf(chain);
  const { request } = await chain.publicClient.simulateContract({
    account,
    address: chain.contracts.SongNFT,
    abi: songNftAbi,
    functionName: 'mint',
    args: [metadataUri, audioHash, signature],
  });
  const hash = await chain.walletClient.writeContract({ ...request, chain: chain.walletClient.chain });
  const receipt = await confirmed(chain, hash, 'SongNFT.mint');
  const [minted] = parseEventLogs({ abi: songNftAbi, eventName: 'SongMinted', logs: receipt.logs });
  if (minted === undefined) throw missingEvent('SongMinted', hash);
  return { tokenId: minted.args.tokenId, minter: minted.args.minter, hash, receipt };
}
