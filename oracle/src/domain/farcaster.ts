import { createPublicClient, parseAbi } from 'viem';
import type { Address } from 'viem';
import { optimism } from 'viem/chains';
import { rpcTransport } from '../chain/rpc-transport.ts';

/** Returns the fid registered to `address`, or 0n when it has none. */
export type FidVerifier = (address: Address) => Promise<bigint>;

/** Farcaster IdRegistry on OP Mainnet (the canonical fid registry). */
export const FARCASTER_ID_REGISTRY: Address = '0x00000000Fc6c5F01Fc30151999387Bb99A9f489b';

const ID_REGISTRY_ABI = parseAbi(['function idOf(address owner) view returns (uint256)']);

/** Reads `IdRegistry.idOf(address)` through the Optimism RPC at `rpcUrl`. */
export function createFarcasterFidVerifier(rpcUrl: string): FidVerifier {
  const client = createPublicClient({ chain: optimism, transport: rpcTransport(rpcUrl) });
  return (address) => client.readContract({ address: FARCASTER_ID_REGISTRY, abi: ID_REGISTRY_ABI, functionName: 'idOf', args: [address] });
}
