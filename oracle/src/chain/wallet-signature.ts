/**
 * Whether a wallet signed a message (EIP-191 `personal_sign`), for Sign-In with Ethereum. An
 * EOA's signature is checked locally, with no chain. A smart-contract wallet (Coinbase Smart
 * Wallet and the like) signs through its contract: ERC-1271 `isValidSignature` once deployed,
 * ERC-6492 (a signature wrapped with its factory and deployment calldata) before. Those are
 * checked on chain through viem's `verifyMessage` action, which runs the ERC-6492 universal
 * validator as a deployless `eth_call`, so nothing needs to be deployed for it.
 */
import { isErc6492Signature, recoverMessageAddress, size } from 'viem';
import type { Address, Hex, PublicClient } from 'viem';
import { verifyMessage } from 'viem/actions';

export type WalletSignatureCheck =
  | { readonly valid: true }
  /**
   * `mismatch`: not signed by the address. `needs_chain`: a smart-contract wallet's signature
   * (ERC-6492 wrapped, or not a 65-byte ECDSA signature) and no chain to check it on.
   * `chain_unreachable`: the chain could not be read, so a contract wallet's answer is unknown.
   */
  | { readonly valid: false; readonly reason: 'mismatch' | 'needs_chain' | 'chain_unreachable' };

export interface WalletSignatureInput {
  readonly address: Address;
  /** The exact signed text (the EIP-4361 message). */
  readonly message: string;
  readonly signature: Hex;
}

export interface WalletSignatureVerifier {
  /** True when contract wallets (ERC-1271, ERC-6492) can be checked: a chain is configured. */
  readonly smartWallets: boolean;
  verify(input: WalletSignatureInput): Promise<WalletSignatureCheck>;
}

/** An ECDSA signature is 65 bytes (r, s, v) or 64 (EIP-2098 compact). */
function looksLikeEcdsa(signature: Hex): boolean {
  const bytes = size(signature);
  return bytes === 65 || bytes === 64;
}

async function signedByEoa({ address, message, signature }: WalletSignatureInput): Promise<boolean> {
  try {
    return (await recoverMessageAddress({ message, signature })).toLowerCase() === address.toLowerCase();
  } catch {
    // Not a recoverable ECDSA signature (wrong length, bad v, s out of range).
    return false;
  }
}

export interface WalletSignatureOptions {
  /** A client on the chain the sign-in names (Base, 8453); absent: EOAs only. */
  client?: PublicClient;
}

export function createWalletSignatureVerifier({ client }: WalletSignatureOptions = {}): WalletSignatureVerifier {
  return {
    smartWallets: client !== undefined,
    async verify(input) {
      const wrapped = isErc6492Signature(input.signature);
      if (!wrapped && (await signedByEoa(input))) return { valid: true };
      if (client === undefined) return { valid: false, reason: wrapped || !looksLikeEcdsa(input.signature) ? 'needs_chain' : 'mismatch' };
      try {
        if (await verifyMessage(client, { address: input.address, message: input.message, signature: input.signature }))
          return { valid: true };
      } catch {
        // A malformed wrapper or a failed call: decided below by whether the chain answers.
      }
      // viem answers false both for a refused signature and for a chain it could not ask.
      try {
        await client.getChainId();
        return { valid: false, reason: 'mismatch' };
      } catch {
        return { valid: false, reason: 'chain_unreachable' };
      }
    },
  };
}
