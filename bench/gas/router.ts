/**
 * Gas benchmark: every swap kind through the Universal Router (@uniswap/universal-router 2.1.0 at
 * its Base address, Permit2 beside it), the way wallets trade a song token: a buy pays ETH as
 * msg.value (an exact-output buy sweeps the change back), a sale moves its tokens by a
 * PERMIT2_PERMIT signed for that sale (the one-time token approval to Permit2 is made before).
 * Measured on the song pool (SongPoolHook) and, in the same run, on same-shape baseline pools:
 * a hookless pool (native ETH / an identical SongToken clone, same LP fee, tick spacing, start
 * price, liquidity range and size), and any further baseline listed in `baselines` below.
 *
 *   npx hardhat run bench/gas/router.ts
 *
 * Prints a table and writes bench/results/gas-router.json and bench/results/gas-router.md.
 * Whole-transaction gas from receipts. The song pool is measured after its launch fee has decayed,
 * and every pool after a warm-up buy (which crosses the position's upper tick and creates every
 * slot a swap touches) and a warm-up sale through the router (which creates the trader's Permit2
 * allowance for the pool's token), so all pools are measured in the same state.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { network } from 'hardhat';
import { BASE_POOL_MANAGER } from '../../ignition/songmint-hook.ts';
import { BASE_PERMIT2, BASE_UNIVERSAL_ROUTER } from '../../scripts/uniswap-v4.ts';
import {
  deploySongmint,
  LAUNCH_CONFIG,
  mintSong,
  slot0,
  swap,
  TOTAL_SUPPLY,
  universalRouterSwap,
  type PoolKeyTuple,
  type SwapKind,
} from '../../test/chain/fixtures/songmint.ts';

/** The issue's goal for what the hook adds to a swap. */
const HOOK_OVERHEAD_TARGET = 20_000;
const ETH = 10n ** 18n;

const { ethers, networkHelpers } = await network.create('base');
const s = await deploySongmint(ethers);
const [deployer] = await ethers.getSigners();
if (deployer === undefined) throw new Error('no signer');

// The song pool.
const songId = await mintSong(s.nft, s.creator, 'router-bench');
await (await s.nft.connect(s.creator).approve(await s.vault.getAddress(), songId)).wait();
const launch = await (
  await s.vault.connect(s.creator).launch(songId, { allocationBps: 500, allocationRecipient: s.creator.address })
).wait();
const launched = launch?.logs.map((log) => s.vault.interface.parseLog(log)).find((parsed) => parsed?.name === 'SongLaunched');
if (launched === undefined || launched === null) throw new Error('no SongLaunched');
const liquidity = launched.args.getValue('liquidity') as bigint;
const key = await s.vault.poolKeyOf(songId);
const songKey: PoolKeyTuple = {
  currency0: key.currency0,
  currency1: key.currency1,
  fee: key.fee,
  tickSpacing: key.tickSpacing,
  hooks: key.hooks,
};
const { sqrtPriceX96: startSqrtPrice } = await slot0(s.poolManager, songKey);

/**
 * A pool of the song pool's shape with `hooks` as its hook: a fresh clone of the SongToken
 * implementation (so the token's code is the song's), initialised at the song pool's start price,
 * with the launch's liquidity over the launch range.
 */
async function sameShapePool(hooks: string, salt: bigint): Promise<PoolKeyTuple> {
  const probe = await ethers.deployContract('SongTokenCloneProbe', [await s.tokenImplementation.getAddress(), salt]);
  const token = await ethers.getContractAt('SongToken', await probe.instance());
  await (await token.initialize(deployer!.address, TOTAL_SUPPLY, deployer!.address)).wait();
  const poolKey: PoolKeyTuple = { ...songKey, currency1: await token.getAddress(), hooks };
  await (await s.poolManager.getFunction('initialize')(poolKey, startSqrtPrice)).wait();
  await (await token.approve(await s.liquidityRouter.getAddress(), TOTAL_SUPPLY)).wait();
  await (
    await s.liquidityRouter.getFunction(
      'modifyLiquidity(tuple(address,address,uint24,int24,address),tuple(int24,int24,int256,bytes32),bytes)',
    )(
      poolKey,
      { tickLower: LAUNCH_CONFIG.tickLower, tickUpper: LAUNCH_CONFIG.startTick, liquidityDelta: liquidity, salt: ethers.ZeroHash },
      '0x',
    )
  ).wait();
  await (await token.transfer(s.trader.address, 40_000_000n * ETH)).wait();
  return poolKey;
}

/**
 * The baselines measured beside the song pool, each of the same shape. The no-op hook baseline
 * (a hook with the song hook's flags whose callbacks return zero deltas, `NoOpSwapHook`) is added
 * here as `{ name: 'no-op hook', key: await sameShapePool(<its mined address>, 2n) }`.
 */
const baselines: Array<{ name: string; key: PoolKeyTuple }> = [{ name: 'hookless', key: await sameShapePool(ethers.ZeroAddress, 1n) }];

// The trader: song tokens bought on the direct path, every token approved once to Permit2.
const songToken = await ethers.getContractAt('SongToken', songKey.currency1);
await networkHelpers.time.increase(600);
await (await swap(s.swapRouter, s.trader, songKey, 'buyExactIn', 3n * ETH, 3n * ETH)).wait();
const pools = [songKey, ...baselines.map((b) => b.key)];
for (const poolKey of pools) {
  const token = poolKey === songKey ? songToken : await ethers.getContractAt('SongToken', poolKey.currency1);
  await (await token.connect(s.trader).approve(BASE_PERMIT2, 2n ** 256n - 1n)).wait();
}

interface SwapCase {
  kind: SwapKind;
  amount: bigint;
  limits: { maxIn?: bigint };
  detail: string;
}
const cases: SwapCase[] = [
  { kind: 'buyExactIn', amount: ETH / 10n, limits: {}, detail: 'buy with exactly 0.1 ETH in' },
  { kind: 'sellExactIn', amount: 1_000_000n * ETH, limits: {}, detail: 'sell exactly 1,000,000 tokens (Permit2 signature)' },
  { kind: 'buyExactOut', amount: 500_000n * ETH, limits: { maxIn: ETH }, detail: 'buy exactly 500,000 tokens (change swept back)' },
  {
    kind: 'sellExactOut',
    amount: ETH / 100n,
    limits: { maxIn: 10_000_000n * ETH },
    detail: 'sell for exactly 0.01 ETH out (Permit2 signature)',
  },
];

async function gasOf(tx: ReturnType<typeof universalRouterSwap>): Promise<number> {
  const receipt = await (await tx).wait();
  if (!receipt) throw new Error('no receipt');
  return Number(receipt.gasUsed);
}

// Warm-up, per pool: a buy on the direct path, then a sale through the router (Permit2 allowance slot).
for (const poolKey of pools) {
  await (await swap(s.swapRouter, s.trader, poolKey, 'buyExactIn', ETH, ETH)).wait();
  await gasOf(universalRouterSwap(s, s.trader, poolKey, 'sellExactIn', 1_000n * ETH));
}

interface RouterSwapResult {
  kind: SwapKind;
  detail: string;
  hooked: number;
  baselines: Record<string, { gas: number; overhead: number }>;
}
const swaps: RouterSwapResult[] = [];
for (const c of cases) {
  const hooked = await gasOf(universalRouterSwap(s, s.trader, songKey, c.kind, c.amount, c.limits));
  const measured: RouterSwapResult['baselines'] = {};
  for (const baseline of baselines) {
    const gas = await gasOf(universalRouterSwap(s, s.trader, baseline.key, c.kind, c.amount, c.limits));
    measured[baseline.name] = { gas, overhead: hooked - gas };
  }
  swaps.push({ kind: c.kind, detail: c.detail, hooked, baselines: measured });
}

const maxOverhead = Math.max(...swaps.map((r) => r.baselines.hookless?.overhead ?? 0));
const results = {
  network: `base (simulated OP chain 8453), v4-core 1.0.2 PoolManager at ${BASE_POOL_MANAGER}`,
  router: `@uniswap/universal-router 2.1.0 at ${BASE_UNIVERSAL_ROUTER}, Permit2 at ${BASE_PERMIT2}`,
  solc: '0.8.28, optimizer 10,000 runs, cancun (Songmint); Uniswap contracts from their published bytecode',
  swaps,
  hookOverheadVsHookless: { max: maxOverhead, target: HOOK_OVERHEAD_TARGET, withinTarget: maxOverhead <= HOOK_OVERHEAD_TARGET },
};

const n = (value: number) => value.toLocaleString('en-US');
const lines = [
  '# Gas: swaps through the Universal Router, SongPoolHook against same-shape baselines',
  '',
  `Measured by \`npx hardhat run bench/gas/router.ts\` on ${results.network}; ${results.router}.`,
  'Whole-transaction gas from receipts, as a wallet sends them: buys pay ETH as msg.value, sales carry a',
  'PERMIT2_PERMIT signed for the sale. Baselines: pools of the same shape (same token code, LP fee, tick',
  'spacing, start price, liquidity range and size), in the same run, after the same warm-up; the song pool',
  'after its launch fee has decayed.',
  '',
  `| Swap | With SongPoolHook | ${baselines.map((b) => `${b.name} | overhead vs ${b.name}`).join(' | ')} |`,
  `|---|---:|${baselines.map(() => '---:|---:').join('|')}|`,
  ...swaps.map(
    (r) =>
      `| ${r.detail} | ${n(r.hooked)} | ${baselines
        .map((b) => {
          const m = r.baselines[b.name];
          return m === undefined ? ' | ' : `${n(m.gas)} | ${n(m.overhead)}`;
        })
        .join(' | ')} |`,
  ),
  '',
  `Largest overhead against the hookless pool: ${n(maxOverhead)} (goal ≤ ${n(HOOK_OVERHEAD_TARGET)}: ${results.hookOverheadVsHookless.withinTarget ? 'met' : 'not met'}).`,
  '',
];
console.log(lines.join('\n'));
await mkdir('bench/results', { recursive: true });
await writeFile('bench/results/gas-router.json', JSON.stringify(results, null, 2) + '\n');
await writeFile('bench/results/gas-router.md', lines.join('\n'));
