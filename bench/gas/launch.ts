/**
 * Gas benchmark: song launch and swaps through SongPoolHook, against a hookless v4 pool of the
 * same shape (native ETH / an identical SongToken clone, same LP fee, tick spacing, start price and
 * single-sided liquidity range and size), all on real v4-core PoolManager bytecode placed at its
 * Base address on the simulated Base network (chain 8453), in the same run.
 *
 *   npx hardhat run bench/gas/launch.ts
 *
 * Prints a table and writes bench/results/gas-launch.json and bench/results/gas-launch.md.
 * Figures are whole-transaction gas from receipts. Swaps go through v4-core's PoolSwapTest router
 * and through v4-periphery's V4Router (the code UniversalRouter runs for v4); the hooked pool is
 * measured after the launch fee has decayed (steady state) and after one warm-up swap per pool
 * (which crosses the position's upper tick and creates the vault's ERC-6909 balance), so both
 * pools are measured in the same state. The vault's own deployment is measured too: its
 * constructor searches the hook's CREATE2 salt on chain, so its gas varies with the vault address.
 * Last, a stranger's liquidity addition to a song pool, which the hook refuses: the gas of that
 * reverted transaction is all it costs the stranger (nothing moves).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { network } from 'hardhat';
import { BASE_POOL_MANAGER } from '../../ignition/songmint-hook.ts';
import {
  deploySongmint,
  LAUNCH_CONFIG,
  mintSong,
  predictedHook,
  routerSwap,
  slot0,
  songVaultArgs,
  swap,
  TOTAL_SUPPLY,
  type PoolKeyTuple,
  type SwapKind,
} from '../../test/chain/fixtures/songmint.ts';

const LAUNCH_TARGET = 600_000;
const HOOK_OVERHEAD_TARGET = 30_000;
const ETH = 10n ** 18n;

const { ethers, networkHelpers } = await network.create('base');
const s = await deploySongmint(ethers);
const vaultAddress = await s.vault.getAddress();

// Vault deployments (each mines its hook salt in its constructor): this one and four more.
interface VaultDeployment {
  gas: number;
  saltSearched: number;
}
const vaultDeployments: VaultDeployment[] = [];
const vaultArgs = await songVaultArgs(s);
for (let i = 0; i < 5; i++) {
  const vault = i === 0 ? s.vault : await ethers.deployContract('SongVault', vaultArgs);
  const receipt = await vault.deploymentTransaction()?.wait();
  if (!receipt) throw new Error('no vault deployment receipt');
  const { salt } = await predictedHook(ethers, await vault.getAddress());
  vaultDeployments.push({ gas: Number(receipt.gasUsed), saltSearched: Number(BigInt(salt)) + 1 });
}

async function gasOf(tx: Promise<{ wait(): Promise<{ gasUsed: bigint } | null> }>): Promise<number> {
  const receipt = await (await tx).wait();
  if (!receipt) throw new Error('no receipt');
  return Number(receipt.gasUsed);
}

// Launches: the first one of the vault, then more (the figure a typical launch pays).
const launches: number[] = [];
let liquidity = 0n;
let songKey: PoolKeyTuple | undefined;
for (let i = 0; i < 5; i++) {
  const songId = await mintSong(s.nft, s.creator, `bench-${i}`);
  await (await s.nft.connect(s.creator).approve(vaultAddress, songId)).wait();
  const tx = s.vault.connect(s.creator).launch(songId, { allocationBps: 500, allocationRecipient: s.creator.address });
  const receipt = await (await tx).wait();
  if (!receipt) throw new Error('no receipt');
  launches.push(Number(receipt.gasUsed));
  for (const log of receipt.logs) {
    const parsed = log.address === vaultAddress ? s.vault.interface.parseLog(log) : null;
    if (parsed?.name === 'SongLaunched') liquidity = parsed.args.getValue('liquidity') as bigint;
  }
  if (i === 0) {
    const key = await s.vault.poolKeyOf(songId);
    songKey = { currency0: key.currency0, currency1: key.currency1, fee: key.fee, tickSpacing: key.tickSpacing, hooks: key.hooks };
  }
}
if (songKey === undefined) throw new Error('no launch');

// The hookless twin: an identical SongToken clone, same pool parameters, same position.
const probe = await ethers.deployContract('SongTokenCloneProbe', [await s.tokenImplementation.getAddress(), 999_999n]);
const twinToken = await ethers.getContractAt('SongToken', await probe.instance());
const [deployer] = await ethers.getSigners();
if (deployer === undefined) throw new Error('no signer');
await (await twinToken.initialize(deployer.address, TOTAL_SUPPLY, deployer.address)).wait();
const twinKey: PoolKeyTuple = { ...songKey, currency1: await twinToken.getAddress(), hooks: ethers.ZeroAddress };
const { sqrtPriceX96: startSqrtPrice } = await slot0(s.poolManager, songKey);
await (await s.poolManager.getFunction('initialize')(twinKey, startSqrtPrice)).wait();
await (await twinToken.approve(await s.liquidityRouter.getAddress(), TOTAL_SUPPLY)).wait();
await (
  await s.liquidityRouter.getFunction(
    'modifyLiquidity(tuple(address,address,uint24,int24,address),tuple(int24,int24,int256,bytes32),bytes)',
  )(
    twinKey,
    { tickLower: LAUNCH_CONFIG.tickLower, tickUpper: LAUNCH_CONFIG.startTick, liquidityDelta: liquidity, salt: ethers.ZeroHash },
    '0x',
  )
).wait();

// The trader holds both tokens and has approved the router for both.
const songToken = await ethers.getContractAt('SongToken', songKey.currency1);
const router = await s.swapRouter.getAddress();
await (await songToken.connect(s.creator).transfer(s.trader.address, 50_000_000n * ETH)).wait();
await (await twinToken.transfer(s.trader.address, 50_000_000n * ETH)).wait();
const peripheryRouter = await s.v4Router.getAddress();
for (const spender of [router, peripheryRouter]) {
  await (await songToken.connect(s.trader).approve(spender, TOTAL_SUPPLY)).wait();
  await (await twinToken.connect(s.trader).approve(spender, TOTAL_SUPPLY)).wait();
}
await networkHelpers.time.increase(600);

interface SwapCase {
  kind: SwapKind;
  amount: bigint;
  value: bigint;
  detail: string;
}
const cases: SwapCase[] = [
  { kind: 'buyExactIn', amount: ETH / 10n, value: ETH / 10n, detail: 'buy with exactly 0.1 ETH in' },
  { kind: 'sellExactIn', amount: 1_000_000n * ETH, value: 0n, detail: 'sell exactly 1,000,000 tokens' },
  { kind: 'buyExactOut', amount: 500_000n * ETH, value: ETH, detail: 'buy exactly 500,000 tokens' },
  { kind: 'sellExactOut', amount: ETH / 100n, value: 0n, detail: 'sell for exactly 0.01 ETH out' },
];

// Warm-up: one buy per pool crosses the position's upper tick and creates every slot a swap touches.
for (const key of [songKey, twinKey]) await (await swap(s.swapRouter, s.trader, key, 'buyExactIn', ETH, ETH)).wait();

interface SwapResult {
  router: 'PoolSwapTest' | 'V4Router';
  kind: SwapKind;
  detail: string;
  hooked: number;
  hookless: number;
  overhead: number;
}
const swaps: SwapResult[] = [];
for (const c of cases) {
  const hooked = await gasOf(swap(s.swapRouter, s.trader, songKey, c.kind, c.amount, c.value));
  const hookless = await gasOf(swap(s.swapRouter, s.trader, twinKey, c.kind, c.amount, c.value));
  swaps.push({ router: 'PoolSwapTest', kind: c.kind, detail: c.detail, hooked, hookless, overhead: hooked - hookless });
}
for (const c of cases) {
  const limits = c.kind === 'buyExactOut' ? { maxIn: c.value } : {};
  const hooked = await gasOf(routerSwap(s.v4Router, s.trader, songKey, c.kind, c.amount, limits));
  const hookless = await gasOf(routerSwap(s.v4Router, s.trader, twinKey, c.kind, c.amount, limits));
  swaps.push({ router: 'V4Router', kind: c.kind, detail: c.detail, hooked, hookless, overhead: hooked - hookless });
}
const collect = await gasOf(s.vault.collectFees(1n));

/** Gas of a transaction that reverts, read from its mined receipt (sent with a fixed gas limit). */
async function revertedGasOf(from: typeof s.stranger, to: string, data: string): Promise<number> {
  const block = (await ethers.provider.getBlockNumber()) + 1;
  await from
    .sendTransaction({ to, data, gasLimit: 1_000_000n })
    .then((tx) => tx.wait())
    .catch(() => undefined);
  const [hash] = (await ethers.provider.getBlock(block))?.transactions ?? [];
  const receipt = hash === undefined ? null : await ethers.provider.getTransactionReceipt(hash);
  if (receipt?.status !== 0) throw new Error('the refused addition did not revert');
  return Number(receipt.gasUsed);
}
const { tick: songTick } = await slot0(s.poolManager, songKey);
const rangeTop = (songTick / BigInt(LAUNCH_CONFIG.tickSpacing)) * BigInt(LAUNCH_CONFIG.tickSpacing);
const refusedAdd = await revertedGasOf(
  s.stranger,
  await s.liquidityRouter.getAddress(),
  s.liquidityRouter.interface.encodeFunctionData(
    'modifyLiquidity(tuple(address,address,uint24,int24,address),tuple(int24,int24,int256,bytes32),bytes)',
    [
      songKey,
      { tickLower: rangeTop - BigInt(LAUNCH_CONFIG.tickSpacing), tickUpper: rangeTop, liquidityDelta: 10n ** 21n, salt: ethers.ZeroHash },
      '0x',
    ],
  ),
);
const claim = await gasOf(s.vault.connect(s.creator).claim([1n], s.creator.address));

const firstLaunch = launches[0] ?? 0;
const typicalLaunch = Math.round(launches.slice(1).reduce((a, b) => a + b, 0) / Math.max(1, launches.length - 1));
const maxOverhead = Math.max(...swaps.map((r) => r.overhead));
const results = {
  network: 'base (simulated OP chain 8453), v4-core 1.0.2 PoolManager artifact at ' + BASE_POOL_MANAGER,
  solc: '0.8.28, optimizer 10,000 runs, cancun',
  launch: {
    first: firstLaunch,
    typical: typicalLaunch,
    all: launches,
    target: LAUNCH_TARGET,
    withinTarget: Math.max(...launches) <= LAUNCH_TARGET,
  },
  vaultDeployment: vaultDeployments,
  swaps,
  hookOverhead: { max: maxOverhead, target: HOOK_OVERHEAD_TARGET, withinTarget: maxOverhead <= HOOK_OVERHEAD_TARGET },
  collectFees: collect,
  claim,
  refusedLiquidityAddition: refusedAdd,
};

const lines = [
  '# Gas: song launch and swaps through SongPoolHook',
  '',
  `Measured by \`npx hardhat run bench/gas/launch.ts\` on ${results.network}; ${results.solc}.`,
  'Whole-transaction gas from receipts. Baseline: a hookless pool of the same shape (same token code, LP fee,',
  'tick spacing, start price, liquidity range and size), swapped through the same router in the same run',
  "(v4-core's PoolSwapTest, then v4-periphery's V4Router with SETTLE_ALL/TAKE_ALL), after one warm-up buy per",
  'pool; the hooked pool after its launch fee has decayed.',
  '',
  '| Operation | Gas | Target |',
  '|---|---:|---:|',
  `| launch, first song of the vault (clone + pool init + locked liquidity + allocation + NFT custody) | ${firstLaunch.toLocaleString('en-US')} | ≤ ${LAUNCH_TARGET.toLocaleString('en-US')} |`,
  `| launch, typical (mean of launches 2-5) | ${typicalLaunch.toLocaleString('en-US')} | ≤ ${LAUNCH_TARGET.toLocaleString('en-US')} |`,
  `| collectFees (LP fees + hook fees, both currencies) | ${collect.toLocaleString('en-US')} | |`,
  `| claim (creator, one song, ETH + tokens) | ${claim.toLocaleString('en-US')} | |`,
  `| a stranger's liquidity addition, refused by the hook (reverts; all it costs) | ${refusedAdd.toLocaleString('en-US')} | |`,
  '',
  '| Swap | Router | With SongPoolHook | Hookless baseline | Hook overhead (target ≤ 30,000) |',
  '|---|---|---:|---:|---:|',
  ...swaps.map(
    (r) =>
      `| ${r.detail} | ${r.router} | ${r.hooked.toLocaleString('en-US')} | ${r.hookless.toLocaleString('en-US')} | ${r.overhead.toLocaleString('en-US')} |`,
  ),
  '',
  'SongVault deployment (once per protocol; the constructor searches the first salt from 0 whose CREATE2',
  'address from the vault carries the hook flags, one address in 16,384 on average, then deploys the hook):',
  '',
  '| Vault | Salts searched | Deployment gas |',
  '|---:|---:|---:|',
  ...vaultDeployments.map((d, i) => `| ${i + 1} | ${d.saltSearched.toLocaleString('en-US')} | ${d.gas.toLocaleString('en-US')} |`),
  '',
];
console.log(lines.join('\n'));
await mkdir('bench/results', { recursive: true });
await writeFile('bench/results/gas-launch.json', JSON.stringify(results, null, 2) + '\n');
await writeFile('bench/results/gas-launch.md', lines.join('\n'));
