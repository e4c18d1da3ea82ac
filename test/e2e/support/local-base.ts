import { createPublicClient, defineChain, http } from 'viem';

/** Chain 8453 as served by scripts/local-chain.ts (each client names its RPC URL). */
export const localBase = defineChain({
  id: 8453,
  name: 'Local Base',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: ['http://127.0.0.1:8545'] } },
});

export const localPublicClient = (rpcUrl: string) => createPublicClient({ chain: localBase, transport: http(rpcUrl) });
