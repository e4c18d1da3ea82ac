import type { Account, Chain, EIP1193Provider, Hex } from 'viem';
import { createPublicClient, createWalletClient, custom, defineChain, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { base } from 'viem/chains';
import { songmintAddresses } from '../generated/addresses.ts';
import type { SongmintChain, SongmintContracts } from './context.ts';

/**
 * Hardhat's well-known dev account #2, funded on the local chain of `npm start` (account #0 deploys
 * and owns the platform, #1 is the platform signer). Public knowledge: never use it on a real chain.
 */
export const DEVELOPMENT_PRIVATE_KEY: Hex = '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a';

/** The development wallet's account. */
export function developmentAccount(): Account {
  return privateKeyToAccount(DEVELOPMENT_PRIVATE_KEY);
}

/** Base (chain id 8453, OP stack formatters) at `rpcUrl`: the local chain of `npm start`, or a fork. */
export function localBaseChain(rpcUrl: string): Chain {
  return defineChain({ ...base, name: 'Base (local)', rpcUrls: { default: { http: [rpcUrl] } } });
}

export interface ConnectParameters {
  rpcUrl: string;
  /** A local account (the development wallet), or an injected EIP-1193 provider with its account. */
  wallet: { account: Account } | { provider: EIP1193Provider; account: Hex };
  /** Defaults to `songmintAddresses.local`. */
  contracts?: SongmintContracts;
}

/** The clients and addresses the chain functions take, for the chain at `rpcUrl`. */
export function connectSongmint({ rpcUrl, wallet, contracts = songmintAddresses.local }: ConnectParameters): SongmintChain {
  const chain = localBaseChain(rpcUrl);
  const publicClient = createPublicClient({ chain, transport: http(rpcUrl) });
  const walletClient =
    'provider' in wallet
      ? createWalletClient({ chain, account: wallet.account, transport: custom(wallet.provider) })
      : createWalletClient({ chain, account: wallet.account, transport: http(rpcUrl) });
  return { publicClient, walletClient, contracts };
}
