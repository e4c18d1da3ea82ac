/**
 * What the SDK (sdk/) generates from this repository, as pure renderers: the API types from the
 * oracle's OpenAPI document (built in-process), the contract ABIs from the Hardhat artifacts and
 * the Uniswap v4 packages, and the local chain's addresses from a deployment. scripts/generate-sdk.ts
 * writes them; test/sdk/generated.test.ts fails when the checked-in files differ.
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { servedOpenApiDocument } from '../oracle/src/http/served-openapi.ts';

const require = createRequire(import.meta.url);
const ROOT = fileURLToPath(new URL('..', import.meta.url));

export const GENERATED_DIR = `${ROOT}sdk/src/generated/`;
export const GENERATED_FILES = { api: 'api.ts', errorCodes: 'error-codes.ts', abis: 'abis.ts', addresses: 'addresses.ts' } as const;

const HEADER = (source: string, command: string) =>
  `// Generated from ${source} by \`${command}\`. Do not edit: test/sdk/generated.test.ts fails on drift.\n`;

/** `paths`, `components` and `operations` of the served API, for openapi-fetch. */
export async function renderApiTypes(): Promise<string> {
  const ast = await openapiTS(servedOpenApiDocument() as Parameters<typeof openapiTS>[0], { alphabetize: true });
  return `${HEADER("the oracle's /openapi.json", 'npm run sdk:generate')}${astToString(ast)}`;
}

/**
 * The `ErrorCode` enum of the served document as a runtime list: the SDK narrows an answer's code
 * with it, so a code the oracle adds reaches the SDK's `ApiErrorCode` with the next generation.
 */
export function renderErrorCodes(): string {
  const document = servedOpenApiDocument() as { components?: { schemas?: Record<string, { enum?: unknown }> } };
  const codes = document.components?.schemas?.ErrorCode?.enum;
  if (!Array.isArray(codes) || !codes.every((code) => typeof code === 'string'))
    throw new Error('the OpenAPI document has no ErrorCode enum of strings');
  const list = codes.map((code) => `  '${code}',\n`).join('');
  return `${HEADER("the ErrorCode enum of the oracle's /openapi.json", 'npm run sdk:generate')}
/** Every code the API answers with (docs/api.md). */
export const API_ERROR_CODES = [
${list}] as const;

export type ApiErrorCode = (typeof API_ERROR_CODES)[number];
`;
}

interface Artifact {
  abi: ReadonlyArray<{ type: string; name?: string }>;
}

async function hardhatAbi(name: string): Promise<Artifact['abi']> {
  const path = `${ROOT}artifacts/contracts/${name}.sol/${name}.json`;
  const text = await readFile(path, 'utf8').catch(() => {
    throw new Error(`${path} is missing: run \`npx hardhat build\` first`);
  });
  return (JSON.parse(text) as Artifact).abi;
}

function packageAbi(path: string): Artifact['abi'] {
  return (require(path) as Artifact).abi;
}

/** Entries of `extra` not in `abi` (by type and name), appended: errors a contract raises from its interfaces. */
function withErrorsOf(abi: Artifact['abi'], extra: Artifact['abi']): Artifact['abi'] {
  const seen = new Set(abi.map((entry) => `${entry.type}:${entry.name ?? ''}`));
  return [...abi, ...extra.filter((entry) => entry.type === 'error' && !seen.has(`${entry.type}:${entry.name ?? ''}`))];
}

/**
 * The ABIs the SDK calls, `as const` for viem's type inference: the Universal Router (2.0.0, the
 * build Base runs; its ABI carries the v4 router's slippage errors), Permit2 (its
 * IAllowanceTransfer interface with the errors its signature checks raise) and the V4Quoter.
 */
export async function renderAbis(): Promise<string> {
  const abis: Array<[string, Artifact['abi']]> = [
    ['songNftAbi', await hardhatAbi('SongNFT')],
    ['songVaultAbi', await hardhatAbi('SongVault')],
    ['songTokenAbi', await hardhatAbi('SongToken')],
    ['songPoolHookAbi', await hardhatAbi('SongPoolHook')],
    ['poolManagerAbi', packageAbi('@uniswap/v4-core/out/PoolManager.sol/PoolManager.json')],
    ['universalRouterAbi', packageAbi('@uniswap/universal-router/artifacts/contracts/UniversalRouter.sol/UniversalRouter.json')],
    ['permit2Abi', permit2Abi()],
    ['v4QuoterAbi', packageAbi('@uniswap/v4-periphery/foundry-out/V4Quoter.sol/V4Quoter.json')],
  ];
  const body = abis.map(([name, abi]) => `export const ${name} = ${JSON.stringify(abi, null, 2)} as const;\n`).join('\n');
  return `${HEADER('artifacts/contracts (Hardhat) and @uniswap/v4-core, @uniswap/v4-periphery, @uniswap/universal-router', 'npm run sdk:generate')}${body}`;
}

/**
 * Permit2's allowance interface plus the errors a refused permit raises: SignatureVerification's
 * from its artifact, and PermitErrors.sol's two (the package ships no artifact for them), checked
 * against that source so a renamed error cannot slip by.
 */
function permit2Abi(): Artifact['abi'] {
  const permitErrorsSource = readFileSync(require.resolve('@uniswap/v4-periphery/lib/permit2/src/PermitErrors.sol'), 'utf8');
  const permitErrors = [
    { type: 'error', name: 'SignatureExpired', inputs: [{ name: 'signatureDeadline', type: 'uint256', internalType: 'uint256' }] },
    { type: 'error', name: 'InvalidNonce', inputs: [] },
  ];
  for (const { name, inputs } of permitErrors) {
    const declaration = `error ${name}(${inputs.map((input) => `${input.type} ${input.name}`).join(', ')});`;
    if (!permitErrorsSource.includes(declaration)) throw new Error(`PermitErrors.sol no longer declares \`${declaration}\``);
  }
  return withErrorsOf(
    withErrorsOf(
      packageAbi('@uniswap/v4-periphery/foundry-out/IAllowanceTransfer.sol/IAllowanceTransfer.default.json'),
      packageAbi('@uniswap/v4-periphery/foundry-out/SignatureVerification.sol/SignatureVerification.default.json'),
    ),
    permitErrors,
  );
}

/** The contracts scripts/local-chain.ts deploys, by name. */
export const LOCAL_CONTRACT_NAMES = [
  'SongNFT',
  'SongVault',
  'SongPoolHook',
  'SongToken',
  'PoolManager',
  'UniversalRouter',
  'Permit2',
  'V4Quoter',
] as const;

/**
 * Addresses of the local Base chain of `npm start` (chain id 8453, deployed fresh and identically on
 * every start, so the addresses never change). Only the contracts the SDK calls are kept.
 */
export function renderAddresses(contracts: Readonly<Record<string, string>>): string {
  const entries = LOCAL_CONTRACT_NAMES.map((name) => {
    const address = contracts[name];
    if (address === undefined) throw new Error(`the local deployment has no ${name}`);
    return `    ${name}: '${address}',`;
  });
  return `${HEADER('a deployment by scripts/local-chain.ts (ignition/parameters/local.json)', 'npm run sdk:generate')}
/** Songmint and Uniswap v4 contracts by deployment. \`local\`: the chain \`npm start\` runs (chain id 8453). */
export const songmintAddresses = {
  local: {
    chainId: 8453,
${entries.join('\n')}
  },
} as const;
`;
}
