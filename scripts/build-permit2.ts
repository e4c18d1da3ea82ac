/**
 * `npm run build:permit2`: Permit2's canonical creation code, compiled here from the source npm
 * ships and proven by its CREATE2 address; writes scripts/fixtures/permit2-canonical.json, which
 * the local chain (scripts/uniswap-v4.ts) deploys through the deterministic deployment proxy.
 *
 * Permit2 reaches 0x000000000022D473030F116dDEE9F6B43aC78BA3 on every chain, Base included, the
 * same way: a call to the deterministic deployment proxy 0x4e59b44847b379578588920cA78FbF26c0B4956C
 * with the salt of Uniswap/permit2's `script/DeployPermit2.s.sol`
 * (0x0000000000000000000000000000000000000000d3af2663da51c10215000000) and the creation code that
 * repository's `foundry.toml` builds: solc 0.8.17, via-IR, optimizer 1,000,000 runs,
 * `bytecode_hash = "none"` (no metadata hash, so source paths do not reach the bytes). The
 * sources are `lib/permit2/src` and its two solmate files as `@uniswap/v4-periphery` 1.0.3 ships
 * them (identical to `@uniswap/universal-router` 2.0.0's `lib/permit2`); the compiler is the npm
 * `solc` 0.8.17 (the `solc-0.8.17` alias). The CREATE2 address is keccak256 of the creation code:
 * only the canonical bytes land there, so the check below proves them.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { getCreate2Address, keccak256 } from 'viem';
import type { Hex } from 'viem';
import { BASE_PERMIT2, PERMIT2_FIXTURE, PERMIT2_SALT } from './permit2-canonical.ts';
import type { Permit2Fixture } from './permit2-canonical.ts';
import { CREATE2_DEPLOYER } from '../ignition/songmint-hook.ts';

const require = createRequire(import.meta.url);

interface Solc {
  version(): string;
  compile(input: string): string;
}

interface CompiledContract {
  evm: {
    bytecode: { object: string };
    deployedBytecode: { object: string; immutableReferences: Record<string, Array<{ start: number; length: number }>> };
  };
}

const SOLMATE_FILES = ['src/tokens/ERC20.sol', 'src/utils/SafeTransferLib.sol'];

function sources(root: string): Record<string, { content: string }> {
  const found: Record<string, { content: string }> = {};
  const walk = (dir: string, prefix: string) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path, `${prefix}${name}/`);
      else if (name.endsWith('.sol')) found[`${prefix}${name}`] = { content: readFileSync(path, 'utf8') };
    }
  };
  walk(join(root, 'src'), 'src/');
  for (const file of SOLMATE_FILES) found[`lib/solmate/${file}`] = { content: readFileSync(join(root, 'lib/solmate', file), 'utf8') };
  return found;
}

export function compilePermit2(): Permit2Fixture {
  const solc = require('solc-0.8.17') as Solc;
  const root = dirname(dirname(require.resolve('@uniswap/v4-periphery/lib/permit2/src/Permit2.sol')));
  const input = {
    language: 'Solidity',
    sources: sources(root),
    settings: {
      viaIR: true,
      optimizer: { enabled: true, runs: 1_000_000 },
      metadata: { bytecodeHash: 'none' },
      remappings: ['solmate/=lib/solmate/'],
      outputSelection: {
        'src/Permit2.sol': { Permit2: ['evm.bytecode.object', 'evm.deployedBytecode.object', 'evm.deployedBytecode.immutableReferences'] },
      },
    },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as {
    errors?: Array<{ severity: string; formattedMessage: string }>;
    contracts?: Record<string, Record<string, CompiledContract>>;
  };
  const errors = (output.errors ?? []).filter((error) => error.severity === 'error');
  if (errors.length > 0) throw new Error(errors.map((error) => error.formattedMessage).join('\n'));
  const permit2 = output.contracts?.['src/Permit2.sol']?.Permit2;
  if (permit2 === undefined) throw new Error('solc produced no Permit2');
  const initCode: Hex = `0x${permit2.evm.bytecode.object}`;
  const address = getCreate2Address({ from: CREATE2_DEPLOYER, salt: PERMIT2_SALT, bytecodeHash: keccak256(initCode) });
  if (address !== BASE_PERMIT2)
    throw new Error(`this creation code deploys to ${address}, not Permit2's ${BASE_PERMIT2}: not the canonical build`);
  return {
    compiler: solc.version(),
    source: '@uniswap/v4-periphery 1.0.3 lib/permit2 (src/ and lib/solmate/src/{tokens/ERC20,utils/SafeTransferLib}.sol)',
    settings: 'viaIR, optimizer 1000000 runs, metadata.bytecodeHash none (Uniswap/permit2 foundry.toml)',
    salt: PERMIT2_SALT,
    deployer: CREATE2_DEPLOYER,
    address,
    initCode,
    immutableReferences: Object.values(permit2.evm.deployedBytecode.immutableReferences)
      .flat()
      .sort((a, b) => a.start - b.start),
  };
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const fixture = compilePermit2();
  writeFileSync(PERMIT2_FIXTURE, `${JSON.stringify(fixture, null, 2)}\n`);
  process.stdout.write(
    `Permit2 creation code (${(fixture.initCode.length - 2) / 2} bytes, ${fixture.compiler}) deploys to ${fixture.address}; wrote ${PERMIT2_FIXTURE}\n`,
  );
}
