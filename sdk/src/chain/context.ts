import type { Account, Address, Chain, PublicClient, Transport, WalletClient } from 'viem';
import { SongmintClientError } from '../errors.ts';

/** The contracts the SDK calls on one chain (`songmintAddresses.local` for `npm start`'s chain). */
export interface SongmintContracts {
  SongNFT: Address;
  SongVault: Address;
  /** The SongToken implementation every song token clones. */
  SongToken: Address;
  SongPoolHook: Address;
  PoolManager: Address;
  /** Uniswap's Universal Router, through which `buy` and `sell` swap. */
  UniversalRouter: Address;
  /** Permit2: a sell's tokens move with a signed Permit2 allowance for the Universal Router. */
  Permit2: Address;
  /** v4-periphery's V4Quoter: the quotes the slippage bounds start from. */
  V4Quoter: Address;
}

/** What the chain functions need: a client to read and simulate, a wallet to send, the addresses. */
export interface SongmintChain {
  publicClient: PublicClient<Transport, Chain | undefined>;
  walletClient: WalletClient<Transport, Chain | undefined, Account | undefined>;
  contracts: SongmintContracts;
}

export function accountOf(chain: SongmintChain): Account {
  const account = chain.walletClient.account;
  if (account === undefined) throw new SongmintClientError('NO_ACCOUNT', 'the wallet client has no account: create it with `account`');
  return account;
}
