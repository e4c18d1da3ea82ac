import { createConfig, http, injected } from '@wagmi/core';
import { localBaseChain } from '@songmint/sdk';

/** The API and the chain of `npm start` unless the build names others. */
export const API_URL: string = import.meta.env.VITE_SONGMINT_API_URL ?? 'http://127.0.0.1:3000';
export const RPC_URL: string = import.meta.env.VITE_SONGMINT_RPC_URL ?? 'http://127.0.0.1:3002';

const chain = localBaseChain(RPC_URL);

/**
 * The browser's wallet (window.ethereum) on Base, reads over the chain's RPC. `npm start`'s chain
 * has no Multicall3, so reads go one by one instead of wagmi's default multicall batching (on
 * Base itself, leave `batch` out).
 */
export const wagmiConfig = createConfig({
  chains: [chain],
  connectors: [injected()],
  transports: { [chain.id]: http(RPC_URL) },
  batch: { multicall: false },
});
