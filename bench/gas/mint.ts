/**
 * Gas benchmark: SongNFT mint against the straightforward OpenZeppelin baseline
 * (contracts/bench/BaselineSongNFT.sol: ERC721URIStorage + ECDSA + mapping(bytes => bool)),
 * both compiled and deployed in this run on the simulated Base network (chain 8453).
 *
 *   npx hardhat run bench/gas/mint.ts
 *
 * Prints a table and writes bench/results/gas-mint.json and bench/results/gas-mint.md.
 * Figures are whole-transaction gas (21,000 base + calldata + execution) from receipts.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { network } from 'hardhat';
import { getAddress, type Hex } from 'viem';
import { DAG_PB_CODEC, RAW_CODEC, cidUri, randomHash, testPlatformSigner } from '../../test/chain/helpers/song-nft.ts';

interface Mintable {
  getAddress(): Promise<string>;
  connect(runner: unknown): Mintable;
  mint(uri: string, audioHash: Hex, signature: Hex): Promise<{ wait(): Promise<{ gasUsed: bigint } | null> }>;
  transferFrom(from: string, to: string, tokenId: bigint): Promise<{ wait(): Promise<{ gasUsed: bigint } | null> }>;
}

interface CaseResult {
  readonly name: string;
  readonly detail: string;
  readonly songNft: number;
  readonly baseline: number;
  readonly ratio: number;
}

const { ethers } = await network.create('base');
const [deployer, holder, buyer, newcomer] = await ethers.getSigners();
if (!deployer || !holder || !buyer || !newcomer) throw new Error('the base network needs 4 dev accounts');

const songNft = (await ethers.deployContract('SongNFT', [
  deployer.address,
  testPlatformSigner.address,
  500,
])) as unknown as Mintable;
const baseline = (await ethers.deployContract('BaselineSongNFT', [testPlatformSigner.address])) as unknown as Mintable;

async function gasOf(tx: Promise<{ wait(): Promise<{ gasUsed: bigint } | null> }>): Promise<number> {
  const receipt = await (await tx).wait();
  if (!receipt) throw new Error('no receipt');
  return Number(receipt.gasUsed);
}

/** Tokens minted so far per contract: both number ids sequentially from 1. */
const minted = new Map<Mintable, bigint>();

type Account = NonNullable<typeof holder>;

async function mintGas(contract: Mintable, minter: Account, uri: string): Promise<number> {
  const audioHash = randomHash();
  const signature = await testPlatformSigner.sign({ minter: getAddress(minter.address), metadataUri: uri, audioHash });
  const gas = await gasOf(contract.connect(minter).mint(uri, audioHash, signature));
  minted.set(contract, (minted.get(contract) ?? 0n) + 1n);
  return gas;
}

const arbitraryUri = 'https://songmint.example/metadata/gen_7f3c2a9e-4b1d-4c8e-9a6f-2d5e8b1c0a7f.json';
const cases: CaseResult[] = [];

async function measure(name: string, detail: string, run: (contract: Mintable) => Promise<number>): Promise<void> {
  const songNftGas = await run(songNft);
  const baselineGas = await run(baseline);
  cases.push({ name, detail, songNft: songNftGas, baseline: baselineGas, ratio: songNftGas / baselineGas });
}

// Warm-up: the holder's first mint on each contract (and a mint by someone else in between, so the
// measured mint does not follow the holder's own).
await measure('first mint of a holder', '66-char ipfs://bafkrei… URI, holder balance 0 → 1', (c) =>
  mintGas(c, holder, cidUri(randomHash(), RAW_CODEC)),
);
await mintGas(songNft, buyer, cidUri());
await mintGas(baseline, buyer, cidUri());

const steadyUri = cidUri(randomHash(), RAW_CODEC);
if (steadyUri.length !== 66) throw new Error(`expected a 66-char URI, got ${steadyUri.length}`);
await measure(
  'steady-state mint (issue target ≤ 110,000)',
  `holder's second mint, ${steadyUri.length}-char ipfs://bafkrei… URI`,
  (c) => mintGas(c, holder, steadyUri),
);
await measure('steady-state mint, dag-pb CID', "holder's next mint, 66-char ipfs://bafybei… URI", (c) =>
  mintGas(c, holder, cidUri(randomHash(), DAG_PB_CODEC)),
);
await measure(
  'arbitrary URI mint',
  `holder's next mint, ${arbitraryUri.length}-char https URI (stored verbatim)`,
  (c) => mintGas(c, holder, arbitraryUri),
);
await measure('first transfer of a token', 'owner → buyer (SongNFT also copies the creator aside)', async (c) => {
  await mintGas(c, newcomer, cidUri());
  return gasOf(c.connect(newcomer).transferFrom(newcomer.address, buyer.address, minted.get(c) ?? 0n));
});
await measure('later transfer of a token', 'buyer → holder, same token', (c) =>
  gasOf(c.connect(buyer).transferFrom(buyer.address, holder.address, minted.get(c) ?? 0n)),
);

const results = {
  benchmark: 'SongNFT mint gas vs OpenZeppelin baseline',
  network: 'base (simulated OP stack, chain id 8453)',
  compiler: 'solc 0.8.28, optimizer 10,000 runs, evm cancun',
  unit: 'gas per transaction (receipt gasUsed)',
  baseline: 'contracts/bench/BaselineSongNFT.sol: ERC721URIStorage + ECDSA + mapping(bytes => bool)',
  cases,
};

const table = [
  '| case | detail | SongNFT | baseline | SongNFT / baseline |',
  '|---|---|---:|---:|---:|',
  ...cases.map(
    (c) =>
      `| ${c.name} | ${c.detail} | ${c.songNft.toLocaleString('en-US')} | ${c.baseline.toLocaleString('en-US')} | ${c.ratio.toFixed(3)} |`,
  ),
].join('\n');

console.log(`\n${results.benchmark} (${results.network}; ${results.unit})\n`);
console.log(table);

const resultsDir = new URL('../results/', import.meta.url);
await mkdir(resultsDir, { recursive: true });
await writeFile(new URL('gas-mint.json', resultsDir), `${JSON.stringify(results, null, 2)}\n`);
await writeFile(
  new URL('gas-mint.md', resultsDir),
  `# ${results.benchmark}\n\n${results.network}; ${results.compiler}; ${results.unit}.\n` +
    `Baseline: ${results.baseline}, deployed in the same run.\n\n${table}\n`,
);
