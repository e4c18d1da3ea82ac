/**
 * A browser wallet for tests: an EIP-1193 provider at `window.ethereum` whose requests the page
 * sends to this process, where a local test key signs (personal_sign, eth_signTypedData_v4) and
 * sends (eth_sendTransaction) on the local chain, and every other call goes to the chain's RPC.
 * The page sees what it sees with a real injected wallet; the key never enters the page.
 */
import type { BrowserContext } from 'playwright-core';
import { createPublicClient, createWalletClient, http, toHex } from 'viem';
import type { Address, Hex, TypedDataDefinition } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { localBaseChain } from '@songmint/sdk';

/** Hardhat's public test account #7, funded on the local chain; no other test uses it. */
export const TEST_WALLET_KEY: Hex = '0x4bbbf85ce3377467afe5d46f804f221813b2bb87f24d81f60f1fcdbf7cbf4356';

/** What the page asked the wallet to sign or send, in order. */
export interface WalletRequest {
  method: string;
  params: unknown[];
}

interface TransactionRequest {
  to?: Address;
  data?: Hex;
  value?: Hex;
  gas?: Hex;
}

// The provider in the page, as a string: functions tsx compiled would call helpers the page lacks.
const PAGE_PROVIDER = `
(() => {
  const listeners = new Map();
  window.ethereum = {
    isSongmintTestWallet: true,
    async request({ method, params }) {
      const answer = await window.__songmintTestWallet(method, params ?? []);
      if (answer.error !== undefined) {
        const error = new Error(answer.error.message);
        error.code = answer.error.code;
        throw error;
      }
      return answer.result;
    },
    on(event, listener) { listeners.set(listener, event); },
    removeListener(event, listener) { listeners.delete(listener); },
  };
})();
`;

/** Installs the wallet in every page of `context`; returns the log of signing and sending requests. */
export async function installTestWallet(
  context: BrowserContext,
  { rpcUrl, privateKey = TEST_WALLET_KEY }: { rpcUrl: string; privateKey?: Hex },
): Promise<{ address: Address; requests: WalletRequest[] }> {
  const account = privateKeyToAccount(privateKey);
  const chain = localBaseChain(rpcUrl);
  const publicClient = createPublicClient({ chain, transport: http(rpcUrl) });
  const walletClient = createWalletClient({ chain, account, transport: http(rpcUrl) });
  const requests: WalletRequest[] = [];
  const handle = async (method: string, params: unknown[]): Promise<unknown> => {
    switch (method) {
      case 'eth_requestAccounts':
      case 'eth_accounts':
        return [account.address];
      case 'eth_chainId':
        return toHex(chain.id);
      case 'wallet_requestPermissions':
      case 'wallet_getPermissions':
        return [{ parentCapability: 'eth_accounts' }];
      case 'wallet_switchEthereumChain':
        if ((params[0] as { chainId?: string } | undefined)?.chainId !== toHex(chain.id))
          throw Object.assign(new Error('only the local Base chain'), { code: 4902 });
        return null;
      case 'personal_sign':
        requests.push({ method, params });
        return account.signMessage({ message: { raw: params[0] as Hex } });
      case 'eth_signTypedData_v4': {
        requests.push({ method, params });
        const typed = JSON.parse(params[1] as string) as TypedDataDefinition & { types: Record<string, unknown> };
        delete typed.types.EIP712Domain;
        return account.signTypedData(typed);
      }
      case 'eth_sendTransaction': {
        requests.push({ method, params });
        const transaction = params[0] as TransactionRequest;
        return walletClient.sendTransaction({
          ...(transaction.to === undefined ? {} : { to: transaction.to }),
          ...(transaction.data === undefined ? {} : { data: transaction.data }),
          ...(transaction.value === undefined ? {} : { value: BigInt(transaction.value) }),
          ...(transaction.gas === undefined ? {} : { gas: BigInt(transaction.gas) }),
        });
      }
      default:
        return publicClient.request({ method, params } as Parameters<typeof publicClient.request>[0]);
    }
  };
  await context.exposeFunction('__songmintTestWallet', async (method: string, params: unknown[]) => {
    try {
      return { result: await handle(method, params) };
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      return { error: { code: typeof code === 'number' ? code : -32603, message: error instanceof Error ? error.message : String(error) } };
    }
  });
  await context.addInitScript({ content: PAGE_PROVIDER });
  return { address: account.address, requests };
}
