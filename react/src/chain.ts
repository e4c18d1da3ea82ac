import { getPublicClient, getWalletClient } from '@wagmi/core';
import type { Config } from '@wagmi/core';
import { SongmintClientError } from '@songmint/sdk';
import type { SongmintChain, SongmintContracts } from '@songmint/sdk';

/** What the SDK's chain reads take: the wagmi config's client for its current chain, and the addresses. */
export function readerOf(config: Config, contracts: SongmintContracts): Pick<SongmintChain, 'publicClient' | 'contracts'> {
  const publicClient = getPublicClient(config);
  if (publicClient === undefined) throw new SongmintClientError('INVALID_ARGUMENT', 'the wagmi config has no chain');
  return { publicClient: publicClient as SongmintChain['publicClient'], contracts };
}

/**
 * The SDK's chain context from the connected wallet: its wallet client (it signs and sends; the
 * wallet's owner approves each request) and the public client of the chain it is on.
 */
export async function chainOf(config: Config, contracts: SongmintContracts): Promise<SongmintChain> {
  let walletClient: Awaited<ReturnType<typeof getWalletClient>>;
  try {
    walletClient = await getWalletClient(config);
  } catch (error) {
    throw new SongmintClientError('NO_ACCOUNT', 'no wallet is connected: connect one through wagmi first', { cause: error });
  }
  const publicClient = getPublicClient(config, { chainId: walletClient.chain.id });
  if (publicClient === undefined) {
    throw new SongmintClientError('INVALID_ARGUMENT', `the wallet is on chain ${walletClient.chain.id}, which the wagmi config lacks`);
  }
  return {
    publicClient: publicClient as SongmintChain['publicClient'],
    walletClient: walletClient as SongmintChain['walletClient'],
    contracts,
  };
}
