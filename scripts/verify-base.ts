/**
 * `npm run verify:base`: is the Uniswap code the project builds on what Base runs? For every Base
 * address the project calls (the PoolManager, the Universal Router, Permit2, the V4Quoter and the
 * deterministic deployment proxy) it compares the runtime code the local chain places there
 * (scripts/uniswap-v4.ts: the pinned npm artifacts, Base's constructor parameters, Permit2's
 * canonical creation) with the runtime code `BASE_RPC_URL` serves at that address.
 *
 * Immutables are accounted for: each artifact says where its runtime code holds immutables
 * (`immutableReferences`), so a difference is reported either as the same build with other
 * immutable values (offset, expected word, served word: another constructor argument, another
 * chain id cached) or as other code (the first differing byte outside the immutables). Both fail;
 * so does a chain id other than 8453 or an address with no code.
 *
 *   BASE_RPC_URL=https://… npm run verify:base    # against Base (any Base JSON-RPC endpoint)
 *   npm run verify:base -- --local                # against a fresh local chain: NOT a check of Base
 *
 * Without BASE_RPC_URL (unset, empty or blank) and without `--local` it refuses: it exits 2 and
 * says why, so no run without Base can pass as a check of Base (it used to compare two local builds
 * and print "every address matches"). With `--local` it starts the local chain
 * (scripts/local-chain.ts), compares with it and says plainly, first and last, that it compared two
 * local builds: that checks the tool and the placement, not Base (BASE_RPC_URL is then ignored).
 * Exits 1 on any mismatch.
 */
import { fileURLToPath } from 'node:url';
import { createPublicClient, http, type Address, type Hex } from 'viem';
import { BASE_POOL_MANAGER, CREATE2_DEPLOYER } from '../ignition/songmint-hook.ts';
import { BASE_PERMIT2, permit2Fixture } from './permit2-canonical.ts';
import {
  BASE_UNIVERSAL_ROUTER,
  BASE_V4_QUOTER,
  deployUniswapV4,
  universalRouterArtifact,
  v4Artifact,
  v4PeripheryArtifact,
  type ForgeArtifact,
} from './uniswap-v4.ts';

type ByteRange = { start: number; length: number };

/** One Base address and where its runtime code holds immutables. */
export interface BaseContract {
  name: string;
  address: Address;
  /** Byte ranges of the immutables in the runtime code. */
  immutables: ByteRange[];
  /** What the local chain puts there. */
  built: string;
}

function immutablesOf(artifact: ForgeArtifact): ByteRange[] {
  return Object.values(artifact.deployedBytecode.immutableReferences ?? {}).flat();
}

/** Every Base address the project calls, as scripts/uniswap-v4.ts builds it. */
export function baseContracts(): BaseContract[] {
  return [
    { name: 'PoolManager', address: BASE_POOL_MANAGER, immutables: immutablesOf(v4Artifact('PoolManager')), built: 'v4-core 1.0.2 out/' },
    {
      name: 'UniversalRouter',
      address: BASE_UNIVERSAL_ROUTER,
      immutables: immutablesOf(universalRouterArtifact()),
      built: '@uniswap/universal-router 2.0.0 out/, Base constructor parameters',
    },
    {
      name: 'Permit2',
      address: BASE_PERMIT2,
      immutables: permit2Fixture().immutableReferences,
      built: 'canonical CREATE2 creation (scripts/fixtures/permit2-canonical.json)',
    },
    {
      name: 'V4Quoter',
      address: BASE_V4_QUOTER,
      immutables: immutablesOf(v4PeripheryArtifact('V4Quoter')),
      built: 'v4-periphery 1.0.3 foundry-out',
    },
    { name: 'CREATE2 deployment proxy', address: CREATE2_DEPLOYER, immutables: [], built: 'ignition/songmint-hook.ts runtime code' },
  ];
}

export interface ImmutableDifference {
  offset: number;
  expected: Hex;
  served: Hex;
}

export interface CodeCheck {
  name: string;
  address: Address;
  built: string;
  status: 'identical' | 'immutables differ' | 'code differs' | 'no code';
  expectedBytes: number;
  servedBytes: number;
  /** `immutables differ`: each immutable whose word differs. */
  immutables: ImmutableDifference[];
  /** `code differs`: the first differing byte outside the immutables (or the shorter length). */
  firstDifference?: number;
}

export interface BaseVerification {
  target: string;
  chainId: number;
  checks: CodeCheck[];
  ok: boolean;
}

/** Compares `served` with `expected` (both 0x runtime code), immutables at `immutables` apart. */
export function compareCode(contract: BaseContract, expected: Hex, served: Hex): CodeCheck {
  const a = Buffer.from(expected.slice(2), 'hex');
  const b = Buffer.from(served.slice(2), 'hex');
  const base = { name: contract.name, address: contract.address, built: contract.built, expectedBytes: a.length, servedBytes: b.length };
  if (b.length === 0) return { ...base, status: 'no code', immutables: [] };
  if (a.equals(b)) return { ...base, status: 'identical', immutables: [] };
  const inImmutable = new Uint8Array(a.length);
  for (const { start, length } of contract.immutables) inImmutable.fill(1, start, start + length);
  const limit = Math.min(a.length, b.length);
  for (let i = 0; i < limit; i++) {
    if (inImmutable[i] === 0 && a[i] !== b[i]) return { ...base, status: 'code differs', immutables: [], firstDifference: i };
  }
  if (a.length !== b.length) return { ...base, status: 'code differs', immutables: [], firstDifference: limit };
  const immutables = contract.immutables
    .filter(({ start, length }) => !a.subarray(start, start + length).equals(b.subarray(start, start + length)))
    .map(({ start, length }) => ({
      offset: start,
      expected: `0x${a.subarray(start, start + length).toString('hex')}` as Hex,
      served: `0x${b.subarray(start, start + length).toString('hex')}` as Hex,
    }));
  return { ...base, status: 'immutables differ', immutables };
}

/**
 * The runtime code the local chain places at each Base address, from a fresh simulated chain in
 * this process. Hardhat forks Base on the `base` network when BASE_RPC_URL is set, so it must be
 * unset when Hardhat loads (the command line takes it out first).
 */
export async function expectedBaseCode(): Promise<Map<Address, Hex>> {
  if ((process.env.BASE_RPC_URL ?? '') !== '')
    throw new Error('the expected code comes from a simulated chain: unset BASE_RPC_URL before Hardhat loads');
  const { network } = await import('hardhat');
  const connection = await network.connect({ network: 'base' });
  try {
    await deployUniswapV4(connection.ethers);
    const codes = new Map<Address, Hex>();
    for (const contract of baseContracts())
      codes.set(contract.address, (await connection.ethers.provider.getCode(contract.address)) as Hex);
    return codes;
  } finally {
    await connection.close();
  }
}

/** Reads every address's code from `rpcUrl` and compares it with `expected`. */
export async function verifyBase(rpcUrl: string, expected: Map<Address, Hex>): Promise<BaseVerification> {
  const client = createPublicClient({ transport: http(rpcUrl, { timeout: 30_000, retryCount: 2 }) });
  const chainId = await client.getChainId();
  const checks: CodeCheck[] = [];
  for (const contract of baseContracts()) {
    const built = expected.get(contract.address);
    if (built === undefined || built === '0x') throw new Error(`the local chain placed no code at ${contract.name} ${contract.address}`);
    const served = (await client.getCode({ address: contract.address })) ?? '0x';
    checks.push(compareCode(contract, built, served));
  }
  return { target: rpcUrl, chainId, checks, ok: chainId === 8453 && checks.every((check) => check.status === 'identical') };
}

/** What a run compares with: Base through `url`, or (`--local`) a fresh local chain; or a refusal. */
export type VerificationTarget = { kind: 'base'; url: string } | { kind: 'local' } | { kind: 'refused'; reason: string };

/** The `--local` flag: compare with a fresh local chain, which checks the tool and not Base. */
export const LOCAL_FLAG = '--local';

/** Chooses what to compare with from `BASE_RPC_URL` and the command line, before anything loads. */
export function verificationTarget(baseRpcUrl: string | undefined, args: ReadonlyArray<string>): VerificationTarget {
  const unknown = args.filter((arg) => arg !== LOCAL_FLAG);
  if (unknown.length > 0) return { kind: 'refused', reason: `unknown argument ${unknown.join(' ')} (the only one is ${LOCAL_FLAG})` };
  if (args.includes(LOCAL_FLAG)) return { kind: 'local' };
  const url = (baseRpcUrl ?? '').trim();
  if (url === '')
    return {
      kind: 'refused',
      reason:
        'BASE_RPC_URL is not set (or empty): there is no Base endpoint to compare with, so nothing was verified. ' +
        `Set BASE_RPC_URL to a Base JSON-RPC endpoint, or run with ${LOCAL_FLAG} to compare the build with a fresh local chain (which does not check Base).`,
    };
  try {
    const { protocol } = new URL(url);
    if (protocol !== 'http:' && protocol !== 'https:') throw new Error(protocol);
  } catch {
    return { kind: 'refused', reason: 'BASE_RPC_URL is not an http(s) URL: nothing was verified.' };
  }
  return { kind: 'base', url };
}

/**
 * The report, one line per address (and one per differing immutable). `local`: the served side
 * was a fresh local chain, so the report says, first and last, that two local builds were compared.
 */
export function formatVerification(result: BaseVerification, scope: 'base' | 'local' = 'base'): string {
  const lines = [
    ...(scope === 'local' ? ['LOCAL ONLY: the served side is a fresh local chain built from the same artifacts, not Base.'] : []),
    `chain id ${result.chainId}${result.chainId === 8453 ? '' : ' (expected 8453: this is not Base)'}`,
  ];
  for (const check of result.checks) {
    const where = `${check.name.padEnd(24)} ${check.address}`;
    if (check.status === 'identical') lines.push(`ok        ${where}  ${check.servedBytes} bytes identical (${check.built})`);
    else if (check.status === 'no code') lines.push(`MISMATCH  ${where}  no code served`);
    else if (check.status === 'code differs')
      lines.push(
        `MISMATCH  ${where}  other code: ${check.servedBytes} bytes served, ${check.expectedBytes} built; first difference outside immutables at byte ${check.firstDifference ?? 0}`,
      );
    else {
      lines.push(`MISMATCH  ${where}  same code, other immutables:`);
      for (const word of check.immutables) lines.push(`            byte ${word.offset}: built ${word.expected}, served ${word.served}`);
    }
  }
  if (scope === 'local')
    lines.push(
      result.ok
        ? 'every address matches the local chain: two local builds compared, Base NOT checked (set BASE_RPC_URL for that)'
        : 'some addresses do not match the local chain (two local builds compared, Base not checked)',
    );
  else lines.push(result.ok ? 'every address matches Base' : 'some addresses do not match Base');
  return lines.join('\n');
}

/** Exit codes: 0 every address matches, 1 a mismatch (or a failure), 2 refused (nothing compared). */
async function runFromCommandLine(): Promise<0 | 1 | 2> {
  const target = verificationTarget(process.env.BASE_RPC_URL, process.argv.slice(2));
  if (target.kind === 'refused') {
    process.stderr.write(`verify:base refused: ${target.reason}\n`);
    return 2;
  }
  // Hardhat reads BASE_RPC_URL when it loads (a fork of Base): the expected side must be simulated.
  delete process.env.BASE_RPC_URL;
  const expected = await expectedBaseCode();
  if (target.kind === 'base') {
    process.stdout.write(`Comparing the local chain's Uniswap contracts with BASE_RPC_URL (${new URL(target.url).host})\n`);
    const result = await verifyBase(target.url, expected);
    process.stdout.write(`${formatVerification(result)}\n`);
    return result.ok ? 0 : 1;
  }
  const { startLocalChain } = await import('./local-chain.ts');
  const chain = await startLocalChain({ blockIntervalMs: 0 });
  try {
    process.stdout.write(
      `${LOCAL_FLAG}: comparing with a fresh local chain at ${chain.rpcUrl}, not with Base.\n` +
        'That checks this tool and the local placement only: set BASE_RPC_URL to a Base JSON-RPC endpoint to check Base.\n',
    );
    const result = await verifyBase(chain.rpcUrl, expected);
    process.stdout.write(`${formatVerification(result, 'local')}\n`);
    return result.ok ? 0 : 1;
  } finally {
    await chain.stop();
  }
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  runFromCommandLine().then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
