import type { Address, Hash, Hex } from 'viem';
import { maxUint256 } from 'viem';
import { permit2Abi, songTokenAbi } from '../generated/abis.ts';
import type { SongmintChain } from './context.ts';
import { accountOf } from './context.ts';
import { confirmed } from './receipt.ts';

/**
 * Permit2 allowances the way wallets give them: the token is approved once to Permit2 itself, and
 * each sale signs a PermitSingle (EIP-712, domain "Permit2" on the chain at Permit2's address) for
 * exactly the amount it may move, for one spender, expiring with the sale's deadline.
 */

export interface PermitSingle {
  details: { token: Address; amount: bigint; expiration: number; nonce: number };
  spender: Address;
  sigDeadline: bigint;
}

export const PERMIT_SINGLE_TYPES = {
  PermitSingle: [
    { name: 'details', type: 'PermitDetails' },
    { name: 'spender', type: 'address' },
    { name: 'sigDeadline', type: 'uint256' },
  ],
  PermitDetails: [
    { name: 'token', type: 'address' },
    { name: 'amount', type: 'uint160' },
    { name: 'expiration', type: 'uint48' },
    { name: 'nonce', type: 'uint48' },
  ],
} as const;

/** The EIP-712 typed data a wallet shows and signs for `permit`. */
export function permitSingleTypedData({ chainId, permit2, permit }: { chainId: number; permit2: Address; permit: PermitSingle }) {
  return {
    domain: { name: 'Permit2', chainId, verifyingContract: permit2 },
    types: PERMIT_SINGLE_TYPES,
    primaryType: 'PermitSingle',
    message: permit,
  } as const;
}

/**
 * A PermitSingle for `spender` to move up to `amount` of `token`, valid until `deadline` (both the
 * signature and the allowance), at the owner's current Permit2 nonce for that token and spender.
 */
export async function preparePermitSingle(
  chain: SongmintChain,
  { token, spender, amount, deadline }: { token: Address; spender: Address; amount: bigint; deadline: bigint },
): Promise<PermitSingle> {
  const [, , nonce] = await chain.publicClient.readContract({
    address: chain.contracts.Permit2,
    abi: permit2Abi,
    functionName: 'allowance',
    args: [accountOf(chain).address, token, spender],
  });
  return { details: { token, amount, expiration: Number(deadline), nonce }, spender, sigDeadline: deadline };
}

/** Signs `permit` with the wallet's account. */
export async function signPermitSingle(chain: SongmintChain, permit: PermitSingle): Promise<Hex> {
  const chainId = chain.walletClient.chain?.id ?? (await chain.publicClient.getChainId());
  return chain.walletClient.signTypedData({
    account: accountOf(chain),
    ...permitSingleTypedData({ chainId, permit2: chain.contracts.Permit2, permit }),
  });
}

/**
 * The one-time token approval to Permit2 (unlimited, as wallets give it: Permit2 moves tokens only
 * for a spender the owner signed for), sent only when the current one is below `amount`.
 */
export async function approvePermit2(chain: SongmintChain, token: Address, amount: bigint): Promise<Hash | undefined> {
  const account = accountOf(chain);
  const allowance = await chain.publicClient.readContract({
    address: token,
    abi: songTokenAbi,
    functionName: 'allowance',
    args: [account.address, chain.contracts.Permit2],
  });
  if (allowance >= amount) return undefined;
  const { request } = await chain.publicClient.simulateContract({
    account,
    address: token,
    abi: songTokenAbi,
    functionName: 'approve',
    args: [chain.contracts.Permit2, maxUint256],
  });
  const hash = await chain.walletClient.writeContract({ ...request, chain: chain.walletClient.chain });
  await confirmed(chain, hash, 'SongToken.approve(Permit2)');
  return hash;
}
