/**
 * `npm start` with `PLATFORM_SIGNER` (a key in an HSM or KMS): the local chain's SongNFT owner, an
 * account the local node holds unlocked, makes that key the platform signer, so the oracle's
 * start check passes and its signatures mint. Never used against a real chain (the owner there is
 * a multisig: docs/minting.md, "Rotating the platform signer").
 */
import { createPublicClient, createWalletClient, http, parseAbi } from 'viem';
import type { Address } from 'viem';
import { openPlatformSigner } from '../oracle/src/chain/platform-signer.ts';

const SONG_NFT_ABI = parseAbi([
  'function owner() view returns (address)',
  'function platformSigner() view returns (address)',
  'function setPlatformSigner(address newSigner)',
]);

/** Makes the key `reference` names SongNFT's platform signer (nothing to do when it already is); returns its address. */
export async function trustPlatformSigner(reference: string, rpcUrl: string, songNft: Address): Promise<Address> {
  const opened = await openPlatformSigner({ PLATFORM_SIGNER: reference }, () => Promise.reject(new Error('no development key here')));
  if (!opened.ok) throw new Error(opened.error.message);
  const address = opened.value.address;
  await opened.value.close();
  const client = createPublicClient({ transport: http(rpcUrl) });
  if ((await client.readContract({ address: songNft, abi: SONG_NFT_ABI, functionName: 'platformSigner' })) === address) return address;
  const owner = await client.readContract({ address: songNft, abi: SONG_NFT_ABI, functionName: 'owner' });
  const wallet = createWalletClient({ account: owner, transport: http(rpcUrl) });
  const hash = await wallet.writeContract({
    address: songNft,
    abi: SONG_NFT_ABI,
    functionName: 'setPlatformSigner',
    args: [address],
    chain: null,
  });
  const receipt = await client.waitForTransactionReceipt({ hash });
  if (receipt.status !== 'success') throw new Error(`setPlatformSigner(${address}) by ${owner} reverted`);
  return address;
}
