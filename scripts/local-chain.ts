/**
 * A local Base for `npm start` and end-to-end tests: Hardhat's JSON-RPC server over a fresh
 * simulated `base` network (OP stack, chain id 8453, the node's well-known dev accounts), with
 * Uniswap v4, the Universal Router, Permit2 and the V4Quoter placed at their Base addresses and the whole
 * Songmint protocol (SongNFT, SongToken implementation, SongVault, SongPoolHook) deployed through
 * Ignition using ignition/parameters/local.json.
 *
 *   npx tsx scripts/local-chain.ts [port]     # runs until Ctrl-C, prints the RPC URL and addresses
 */
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import hre from 'hardhat';
import { buildContracts } from './contract-build.ts';
import type { HookContext, NetworkHooks } from 'hardhat/types/hooks';
import type { ChainType, NetworkConnection } from 'hardhat/types/network';
import type { JsonRpcRequest, JsonRpcResponse } from 'hardhat/types/providers';
import { getAddress, type Address, type Hex } from 'viem';
import { deployUniswapV4 } from './uniswap-v4.ts';

export interface LocalChain {
  readonly rpcUrl: string;
  readonly chainId: 8453;
  /**
   * Deployed addresses by contract name (SongNFT, SongVault, SongPoolHook, SongToken, PoolManager,
   * PoolSwapTest, UniversalRouter, Permit2, V4Quoter).
   */
  readonly contracts: Record<string, Address>;
  stop(): Promise<void>;
}

export interface LocalChainOptions {
  /** Port on 127.0.0.1; a free one when left out. */
  readonly port?: number;
  /**
   * Milliseconds between the blocks the node mines on its own, as well as one per transaction
   * (automine): Base's 2,000 by default, so time-based values (the hook's decaying launch fee, the
   * indexers' confirmation depths) move as on Base, with Base's timestamps (see `slotClock`). 0 mines
   * only on transactions, stamped by Hardhat's clock.
   */
  readonly blockIntervalMs?: number;
}

/** Base makes a block every 2 seconds. */
export const BASE_BLOCK_INTERVAL_MS = 2_000;

/**
 * Private key of Hardhat's dev account #1, the platform signer in ignition/parameters/local.json.
 * Public knowledge: never use it on a real chain.
 */
export const LOCAL_PLATFORM_SIGNER_KEY: Hex = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';

const BASE_CHAIN_ID = 8453;
const LOCAL_PARAMETERS = fileURLToPath(new URL('../ignition/parameters/local.json', import.meta.url));
/**
 * Ignition keeps a journal per deployment id, git-ignored and thrown away. One per chain started
 * (process and port), so two local chains deploying at once (two stacks, parallel test files)
 * never read or delete each other's journal.
 */
function journalOf(port: number): { deploymentId: string; dir: string } {
  const deploymentId = `chain-8453-local-${process.pid}-${port}`;
  return { deploymentId, dir: fileURLToPath(new URL(`../ignition/deployments/${deploymentId}/`, import.meta.url)) };
}

/** Starts the node, deploys, and resolves once the contracts are live. */
export async function startLocalChain(opts: LocalChainOptions = {}): Promise<LocalChain> {
  await buildContracts();
  const blockIntervalMs = opts.blockIntervalMs ?? BASE_BLOCK_INTERVAL_MS;
  // Blocks of one slot share its timestamp (see slotClock); with no interval, Hardhat's own clock.
  const server = await hre.network.createServer(
    { network: 'base', override: { allowBlocksWithSameTimestamp: blockIntervalMs > 0 } },
    '127.0.0.1',
    opts.port,
  );
  const { address, port } = await server.listen();
  const rpcUrl = `http://${address}:${port}`;
  try {
    const contracts = await deploy(rpcUrl, journalOf(port));
    // After the deployment, so its transactions are not spread over interval blocks.
    const clock = blockIntervalMs > 0 ? await slotClock(rpcUrl, blockIntervalMs) : undefined;
    const stop = async () => {
      await clock?.stop();
      await server.close();
    };
    return { rpcUrl, chainId: BASE_CHAIN_ID, contracts, stop };
  } catch (error) {
    await server.close();
    throw error;
  }
}

/** Transactions: stamped with the slot they join. */
const SENDS = new Set(['eth_sendRawTransaction', 'eth_sendTransaction']);
/**
 * The slot clock's own method, answered by its hook: the one request that tells it which of the
 * process's connections serves its node (the server's connection is made inside Hardhat).
 */
const CLOCK_MARKER = 'songmint_slotClock';

/**
 * Base's block times on the local node: a block every `intervalMs` of wall clock, each `intervalMs`
 * later than the one before, and every transaction sent within an interval automined into a block
 * stamped with the coming slot's time, as Base's sequencer puts it into the next block. The node's
 * pending block (what a quote simulates) carries that time too, so a trade sent after its quote,
 * within the interval, pays the launch fee it was quoted. The node's own clock cannot do it: it
 * stamps an automined block with the wall clock, and a pinned timestamp (evm_setNextBlockTimestamp)
 * lasts one block. So every transaction is pinned to the slot on its way in (a network hook), and
 * the next slot is pinned after each tick; ticks and transactions take turns. evm_increaseTime moves
 * the slots with it.
 */
async function slotClock(rpcUrl: string, intervalMs: number): Promise<{ stop(): Promise<void> }> {
  const slotSeconds = Math.max(1, Math.round(intervalMs / 1000));
  const latest = (await rpc(rpcUrl, 'eth_getBlockByNumber', ['latest', false])) as { timestamp: Hex };
  /** The time of the block a transaction sent now joins. */
  let slot = Math.max(Number(latest.timestamp), Math.floor(Date.now() / 1000)) + slotSeconds;
  let turns: Promise<unknown> = Promise.resolve();
  const inTurn = <T>(work: () => Promise<T>): Promise<T> => {
    const result = turns.then(work);
    turns = result.catch(() => undefined);
    return result;
  };
  let ownConnection: number | undefined;
  // Its own, so two local chains starting in one process each find their node.
  const token = randomUUID();
  const handlers: Partial<NetworkHooks> = {
    async onRequest<ChainTypeT extends ChainType | string>(
      context: HookContext,
      connection: NetworkConnection<ChainTypeT>,
      request: JsonRpcRequest,
      next: (context: HookContext, connection: NetworkConnection<ChainTypeT>, request: JsonRpcRequest) => Promise<JsonRpcResponse>,
    ): Promise<JsonRpcResponse> {
      if (request.method === CLOCK_MARKER && (request.params as unknown[] | undefined)?.[0] === token) {
        ownConnection = connection.id;
        return { jsonrpc: '2.0', id: request.id, result: true };
      }
      if (connection.id !== ownConnection || !(SENDS.has(request.method) || request.method === 'evm_increaseTime'))
        return next(context, connection, request);
      const pin = () => next(context, connection, { ...request, method: 'evm_setNextBlockTimestamp', params: [slot] });
      return inTurn(async () => {
        if (request.method === 'evm_increaseTime') {
          const seconds = Number((request.params as unknown[] | undefined)?.[0] ?? 0);
          if (Number.isInteger(seconds) && seconds > 0) slot += seconds;
          const response = await next(context, connection, request);
          await pin();
          return response;
        }
        await pin();
        try {
          return await next(context, connection, request);
        } finally {
          // Pinned again: the pending block, and the interval's next transaction, stay in this slot.
          await pin();
        }
      });
    },
  };
  hre.hooks.registerHandlers('network', handlers);
  await rpc(rpcUrl, CLOCK_MARKER, [token]);
  await rpc(rpcUrl, 'evm_setNextBlockTimestamp', [slot]);
  const startedAt = Date.now();
  let ticks = 0;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  // One block per slot, on the wall clock's beat; a late timer mines the slots it missed.
  const tick = async () => {
    try {
      const due = Math.floor((Date.now() - startedAt) / intervalMs);
      while (ticks < due && !stopped) {
        ticks += 1;
        await inTurn(async () => {
          await rpc(rpcUrl, 'evm_mine', [slot]);
          slot += slotSeconds;
          await rpc(rpcUrl, 'evm_setNextBlockTimestamp', [slot]);
        });
      }
    } catch (error) {
      if (!stopped) console.error('local chain: a block could not be mined', error);
    } finally {
      if (!stopped) timer = setTimeout(() => void tick(), startedAt + (ticks + 1) * intervalMs - Date.now());
    }
  };
  timer = setTimeout(() => void tick(), intervalMs);
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await turns;
      hre.hooks.unregisterHandlers('network', handlers);
    },
  };
}

async function rpc(rpcUrl: string, method: string, params: unknown[]): Promise<unknown> {
  const response = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await response.json()) as { result?: unknown; error?: { message: string } };
  if (body.error !== undefined) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

async function deploy(rpcUrl: string, journal: { deploymentId: string; dir: string }): Promise<Record<string, Address>> {
  const connection = await hre.network.create({ network: 'localBase', override: { url: rpcUrl } });
  try {
    const chainId = Number(await connection.provider.request({ method: 'eth_chainId' }));
    if (chainId !== BASE_CHAIN_ID) throw new Error(`local chain reports chain id ${chainId}, expected ${BASE_CHAIN_ID}`);
    // The chain is new on every start, so a journal from an earlier one would be stale.
    await rm(journal.dir, { recursive: true, force: true });
    const uniswap = await deployUniswapV4(connection.ethers);
    // Imported only now: the module reads build artifacts when it loads, and on a fresh clone
    // they exist only after the build above.
    const { default: SongmintProtocolModule } = await import('../ignition/modules/SongmintProtocol.ts');
    const deployed = await connection.ignition.deploy(SongmintProtocolModule, {
      parameters: LOCAL_PARAMETERS,
      deploymentId: journal.deploymentId,
    });
    return {
      SongNFT: getAddress(await deployed.songNFT.getAddress()),
      SongVault: getAddress(await deployed.vault.getAddress()),
      SongPoolHook: getAddress(await deployed.hook.getAddress()),
      SongToken: getAddress(await deployed.tokenImplementation.getAddress()),
      PoolManager: getAddress(await uniswap.poolManager.getAddress()),
      PoolSwapTest: getAddress(await uniswap.swapRouter.getAddress()),
      UniversalRouter: getAddress(await uniswap.universalRouter.getAddress()),
      Permit2: getAddress(await uniswap.permit2.getAddress()),
      V4Quoter: getAddress(await uniswap.quoter.getAddress()),
    };
  } finally {
    await rm(journal.dir, { recursive: true, force: true });
    await connection.close();
  }
}

async function runFromCommandLine(portArgument: string | undefined): Promise<void> {
  const port = portArgument === undefined ? undefined : Number(portArgument);
  if (port !== undefined && !(Number.isInteger(port) && port > 0 && port < 65536)) {
    throw new Error(`not a port: ${portArgument}`);
  }
  const chain = await startLocalChain({ port });
  console.log(`Local Base (chain ${chain.chainId}) at ${chain.rpcUrl}`);
  for (const [name, contractAddress] of Object.entries(chain.contracts)) console.log(`  ${name}  ${contractAddress}`);
  const stop = () => {
    void chain.stop().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  runFromCommandLine(process.argv[2]).catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
