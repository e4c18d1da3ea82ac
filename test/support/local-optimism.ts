/**
 * A local OP Mainnet for the Farcaster sign-in tests: Hardhat's JSON-RPC server over the simulated
 * `optimism` network (chain 10) with test doubles of Farcaster's IdRegistry and KeyRegistry placed
 * at their OP Mainnet addresses, so `@farcaster/auth-client`'s registry reads run unchanged against
 * it. A double only because this machine cannot reach OP Mainnet: in production FARCASTER_RPC_URL
 * names a real OP Mainnet RPC and the same reads go to the real registries.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import hre from 'hardhat';
import { buildContracts } from '../../scripts/contract-build.ts';
import { createPublicClient, createWalletClient, defineChain, encodeAbiParameters, http, parseEventLogs } from 'viem';
import type { Abi, Address, Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { FARCASTER_ID_REGISTRY, FARCASTER_KEY_REGISTRY } from '../../oracle/src/domain/farcaster.ts';

/** Hardhat's dev account #0 (public knowledge): it pays for the registry writes tests make. */
const DEV_KEY: Hex = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';

const localOptimism = defineChain({
  id: 10,
  name: 'Local OP Mainnet',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: ['http://127.0.0.1:8545'] } },
});

interface Artifact {
  abi: Abi;
  deployedBytecode: Hex;
}

async function artifact(name: string): Promise<Artifact> {
  const path = fileURLToPath(new URL(`../../artifacts/contracts/test/${name}.sol/${name}.json`, import.meta.url));
  return JSON.parse(await readFile(path, 'utf8')) as Artifact;
}

export interface LocalOptimism {
  readonly rpcUrl: string;
  /** Registers the next fid to `custody` and returns it. */
  registerFid(custody: Address): Promise<bigint>;
  /** Moves `fid`'s custody to `to` (a transfer or a recovery). */
  transferFid(fid: bigint, to: Address): Promise<void>;
  /** Adds `authAddress` as an auth address (key type 2) of `fid`. */
  addAuthAddress(fid: bigint, authAddress: Address): Promise<void>;
  /** Removes it again. */
  removeAuthAddress(fid: bigint, authAddress: Address): Promise<void>;
  stop(): Promise<void>;
}

export async function startLocalOptimism(): Promise<LocalOptimism> {
  await buildContracts();
  const server = await hre.network.createServer({ network: 'optimism' }, '127.0.0.1');
  const { address, port } = await server.listen();
  const rpcUrl = `http://${address}:${port}`;
  const transport = http(rpcUrl);
  const publicClient = createPublicClient({ chain: localOptimism, transport });
  const wallet = createWalletClient({ chain: localOptimism, transport, account: privateKeyToAccount(DEV_KEY) });
  const [ids, keys] = await Promise.all([artifact('FarcasterIdRegistryDouble'), artifact('FarcasterKeyRegistryDouble')]);
  // Stateless constructors: the runtime code at the real address is the whole deployment.
  await publicClient.request({ method: 'hardhat_setCode' as never, params: [FARCASTER_ID_REGISTRY, ids.deployedBytecode] as never });
  await publicClient.request({ method: 'hardhat_setCode' as never, params: [FARCASTER_KEY_REGISTRY, keys.deployedBytecode] as never });

  const send = async (to: Address, abi: Abi, functionName: string, args: readonly unknown[]) => {
    const hash = await wallet.writeContract({ address: to, abi, functionName, args, chain: localOptimism });
    const receipt = await publicClient.waitForTransactionReceipt({ hash });
    if (receipt.status !== 'success') throw new Error(`${functionName} reverted`);
    return receipt;
  };
  const authKey = (authAddress: Address) => encodeAbiParameters([{ type: 'address' }], [authAddress]);
  return {
    rpcUrl,
    async registerFid(custody) {
      const receipt = await send(FARCASTER_ID_REGISTRY, ids.abi, 'register', [custody]);
      const [registered] = parseEventLogs({ abi: ids.abi, logs: receipt.logs, eventName: 'Register' }) as unknown as [
        { args: { id: bigint } },
      ];
      return registered.args.id;
    },
    async transferFid(fid, to) {
      await send(FARCASTER_ID_REGISTRY, ids.abi, 'transfer', [fid, to]);
    },
    async addAuthAddress(fid, authAddress) {
      await send(FARCASTER_KEY_REGISTRY, keys.abi, 'add', [fid, 2, authKey(authAddress)]);
    },
    async removeAuthAddress(fid, authAddress) {
      await send(FARCASTER_KEY_REGISTRY, keys.abi, 'remove', [fid, authKey(authAddress)]);
    },
    stop: () => server.close(),
  };
}
