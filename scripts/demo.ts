/**
 * `npm run demo`: the whole product through @songmint/sdk against a running `npm start` stack:
 * sign in with the development wallet, generate a song with lyrics, publish its metadata with a
 * cover, get the mint signature, mint, launch the song's token and pool, buy and sell, collect and
 * claim the fees, and show the pool and the profile. Prints each step with its figures; exits 1 on
 * any failure.
 *
 *   npm run demo                               # the stack of `npm start`: API http://127.0.0.1:3000, its chain from .data/dev-stack.json
 *   PORT=4100 DATA_DIR=/tmp/s npm run demo     # the stack of `PORT=4100 DATA_DIR=/tmp/s npm start`
 *   API_URL=http://127.0.0.1:4000 RPC_URL=http://127.0.0.1:4002 npm run demo
 *
 * The stack is found as `npm start` places it (and as scripts/dev-login.ts finds it): API_URL when
 * set, otherwise HOST and PORT with the oracle's defaults (oracle/src/config.ts); its chain is
 * RPC_URL when set, otherwise what `npm start` wrote to DATA_DIR/dev-stack.json.
 */
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { apiOrigin, loadConfig } from '../oracle/src/config.ts';
import { RGBA, encodePng } from './png.ts';
import { formatEther, parseEther } from 'viem';
import type { Address, Hex } from 'viem';
import {
  buy,
  claimFees,
  connectSongmint,
  createSongmintApi,
  developmentAccount,
  generate,
  getMintSignature,
  getNft,
  getPool,
  getProfile,
  launchSong,
  mintSong,
  predictTokenAddress,
  readPool,
  sell,
  signIn,
  SongmintApiError,
  uploadMetadata,
  waitForJob,
  editSong,
} from '@songmint/sdk';
import type { ClaimedFees, IndexedNft, LaunchedSong, SongPool, SwapResult, TradingPool, UserProfile } from '@songmint/sdk';

export interface DemoOptions {
  apiUrl: string;
  rpcUrl: string;
  log?: (line: string) => void;
  prompt?: string;
  /** Seconds of audio. */
  duration?: number;
}

export interface DemoResult {
  wallet: Address;
  jobId: string;
  audioUrl: string;
  audioHash: Hex;
  lyrics: string | null;
  progressReports: number;
  /** The song extended by 5 s with editSong. */
  edited: { jobId: string; duration: number; audioHash: Hex };
  metadataUri: string;
  tokenId: bigint;
  predictedToken: Address;
  launched: LaunchedSong;
  bought: SwapResult;
  sold: SwapResult;
  claimed: ClaimedFees;
  pool: SongPool;
  nft: IndexedNft | null;
  profile: UserProfile;
  /** The oracle's indexed view of the pool once it has caught up with the claim (null if it never did). */
  indexedPool: TradingPool | null;
}

const tokens = (amount: bigint) => `${Number(formatEther(amount)).toLocaleString('en-US', { maximumFractionDigits: 2 })} tokens`;
const eth = (amount: bigint) => `${formatEther(amount)} ETH`;

/** Runs the flow and returns its figures; throws at the first failure. */
export async function runDemo({
  apiUrl,
  rpcUrl,
  log = console.log,
  prompt = 'dreamy synthwave, 96 bpm, in A minor',
  duration = 10,
}: DemoOptions): Promise<DemoResult> {
  const account = developmentAccount();
  const chain = connectSongmint({ rpcUrl, wallet: { account } });
  const step = (title: string, ...lines: string[]) => log([`\n== ${title}`, ...lines.map((line) => `   ${line}`)].join('\n'));

  const session = await signIn(createSongmintApi({ baseUrl: apiUrl }), { walletClient: chain.walletClient });
  const api = session.api;
  step(
    'Signed in with Ethereum',
    `wallet ${account.address}`,
    `user   ${session.user.id} (tier ${session.user.tier}), session until ${session.expiresAt.toISOString()}`,
  );

  // A fresh seed: the contract mints each audio hash once, so a rerun must make new audio.
  const seed = globalThis.crypto.getRandomValues(new Uint32Array(1))[0] ?? 0;
  const job = await generate(api, { prompt, duration, withLyrics: true, seed });
  step(
    'Generation queued',
    `job ${job.jobId} (seed ${seed}), position ${job.position}, about ${job.estimatedTime} s`,
    `idempotency key ${job.idempotencyKey}`,
  );
  let progressReports = 0;
  const song = await waitForJob(api, {
    jobId: job.jobId,
    onProgress: (progress) => {
      progressReports += 1;
      log(`   ${progress.status.padEnd(10)} ${String(progress.progress).padStart(3)}%  ~${progress.estimatedRemaining} s left`);
    },
  });
  step(
    'Song ready',
    `audio ${song.audioUrl}`,
    `hash  ${song.audioHash}`,
    `${song.duration} s, lyrics:`,
    ...(song.lyrics ?? '(instrumental)').split('\n').map((line) => `  | ${line}`),
  );

  // One edit: the song extended by 5 s (its first seconds stay the source's audio).
  const extension = await editSong(api, { sourceJobId: song.jobId, sourceDuration: song.duration, task: 'extend', seconds: 5, prompt });
  const extended = await waitForJob(api, { jobId: extension.jobId });
  step(
    'Song extended (edit)',
    `job ${extended.jobId} extends ${song.jobId} by 5 s`,
    `audio ${extended.audioUrl}`,
    `${extended.duration} s`,
  );

  const metadata = await uploadMetadata(api, {
    name: 'Night Drive',
    description: `Made by the Songmint demo from "${prompt}"`,
    audioUrl: song.audioUrl,
    cover: { bytes: coverPng(), mimeType: 'image/png' },
    attributes: { genre: 'synthwave', mood: 'dreamy', bpm: 96 },
  });
  step('Metadata on IPFS', `uri   ${metadata.metadataUri}`, `hash  ${metadata.metadataHash}`, `cover ${metadata.image ?? '(none)'}`);

  const signature = await getMintSignature(api, { jobId: song.jobId, userAddress: account.address, metadataUri: metadata.metadataUri });
  step('Mint signature', `${signature.signature.slice(0, 20)}… for ${account.address}, expires ${signature.expiresAt.toISOString()}`);

  const minted = await mintSong(chain, {
    metadataUri: metadata.metadataUri,
    audioHash: signature.audioHash,
    signature: signature.signature,
  });
  step('Minted', `token #${minted.tokenId} to ${minted.minter}`, `tx ${minted.hash}, ${minted.receipt.gasUsed} gas`);

  const predictedToken = predictTokenAddress({ songId: minted.tokenId, contracts: chain.contracts });
  const launched = await launchSong(chain, { songId: minted.tokenId, allocationBps: 500 });
  step(
    'Launched on Uniswap v4',
    `token ${launched.token} (predicted ${predictedToken}: ${predictedToken === launched.token ? 'match' : 'MISMATCH'})`,
    `pool  ${launched.poolId}`,
    `${tokens(launched.poolSupply)} in the pool, liquidity ${launched.liquidity}`,
    `${tokens(launched.allocation)} vesting for the creator: none until ${new Date(Number(launched.allocationCliffEnd) * 1000).toISOString()} (the cliff), all by ${new Date(Number(launched.allocationVestingEnd) * 1000).toISOString()}`,
  );
  if (predictedToken !== launched.token) throw new Error(`predicted token ${predictedToken}, launched ${launched.token}`);

  const bought = await buy(chain, { songId: minted.tokenId, amountIn: parseEther('0.01'), slippageBps: 100 });
  step(
    'Bought through the Universal Router (ETH in)',
    `${eth(bought.amountIn)} -> ${tokens(bought.amountOut)} (quote ${tokens(bought.quote)}, floor ${tokens(bought.limit)})`,
    `hook fee ${eth(bought.hookFee)} (of it burnt, the launch surcharge: ${eth(bought.launchFeeBurnt)}), tx ${bought.hash} to ${bought.receipt.to ?? '?'}`,
  );
  const sold = await sell(chain, { songId: minted.tokenId, amountIn: bought.amountOut / 2n, slippageBps: 100 });
  step(
    'Sold through the Universal Router (Permit2 signature)',
    `${tokens(sold.amountIn)} -> ${eth(sold.amountOut)} (quote ${eth(sold.quote)}, floor ${eth(sold.limit)})`,
    `hook fee ${eth(sold.hookFee)} (of it burnt: ${eth(sold.launchFeeBurnt)}), tx ${sold.hash}`,
    sold.permit2ApprovalHash === undefined
      ? 'Permit2 already approved'
      : `one-time token approval to Permit2: tx ${sold.permit2ApprovalHash}`,
  );

  const claimed = await claimFees(chain, { songIds: [minted.tokenId] });
  const claimedToken = claimed.claimed.reduce((sum, entry) => sum + entry.token, 0n);
  const pool = await readPool(chain, { songId: minted.tokenId });
  step(
    'Fees collected and claimed (creator share)',
    `${eth(claimed.ethPaid)} and ${tokens(claimedToken)} to ${account.address}`,
    ...(pool.fees.creator.token > 0n
      ? [`${tokens(pool.fees.creator.token)} of song-token fees held by the vault until the launch window ends`]
      : []),
  );
  const indexedPool = await indexedPoolAfter(api, pool);
  step(
    'Pool (on chain)',
    `price ${pool.tokensPerEth.toLocaleString('en-US', { maximumFractionDigits: 0 })} tokens per ETH, tick ${pool.tick}, liquidity ${pool.liquidity}`,
    `hook fee now ${Number(pool.swapFeePips) / 10_000}%, swap fees ${eth(pool.totalSwapFees)} (uncollected ${eth(pool.uncollectedSwapFees)}), platform owed ${eth(pool.fees.platform.eth)}`,
    indexedPool === null
      ? `/v1/trading/pools/${minted.tokenId}: not indexed yet`
      : `/v1/trading/pools/${minted.tokenId}: ${indexedPool.trades_total} trades, 24 h volume ${eth(BigInt(indexedPool.volume_24h.eth))}, ${indexedPool.price?.tokens_per_eth ?? '?'} tokens per ETH, platform claimable ${eth(BigInt(indexedPool.fees.claimable?.platform.eth ?? '0'))}`,
  );

  const nft = await indexedNft(api, minted.tokenId);
  const profile = await getProfile(api);
  step(
    'Profile (/v1/user/profile)',
    `tier ${profile.tier}, ${profile.daily_generations}/${profile.daily_limit} today, ${profile.total_generations} generated, ${profile.total_minted} minted`,
    `/v1/nft/${minted.tokenId}: ${nft === null ? 'not indexed yet' : `minted by ${nft.minter}, ${nft.metadata_uri}`}`,
  );

  return {
    wallet: account.address,
    jobId: song.jobId,
    audioUrl: song.audioUrl,
    audioHash: song.audioHash,
    lyrics: song.lyrics,
    progressReports,
    edited: { jobId: extended.jobId, duration: extended.duration, audioHash: extended.audioHash },
    metadataUri: metadata.metadataUri,
    tokenId: minted.tokenId,
    predictedToken,
    launched,
    bought,
    sold,
    claimed,
    pool,
    nft,
    profile,
    indexedPool,
  };
}

/** The oracle indexes SongMinted from the chain; it lags the receipt by a poll or two. */
async function indexedNft(api: Parameters<typeof getNft>[0], tokenId: bigint): Promise<IndexedNft | null> {
  for (let attempt = 0; attempt < 20; attempt += 1) {
    try {
      return await getNft(api, { tokenId });
    } catch (error) {
      if (!(error instanceof SongmintApiError && error.code === 'NOT_FOUND')) throw error;
      await new Promise((done) => setTimeout(done, 500));
    }
  }
  return null;
}

/** The oracle's pool indexer polls the chain: wait until its view has the pool's on-chain price and every fee collected. */
async function indexedPoolAfter(api: Parameters<typeof getPool>[0], pool: SongPool): Promise<TradingPool | null> {
  for (let attempt = 0; attempt < 40; attempt += 1) {
    try {
      const view = await getPool(api, { songId: pool.songId });
      if (
        view.price?.sqrt_price_x96 === pool.sqrtPriceX96.toString() &&
        view.fees.swap_fees_eth === pool.totalSwapFees.toString() &&
        view.fees.uncollected_swap_fees_eth === '0'
      )
        return view;
    } catch (error) {
      if (!(error instanceof SongmintApiError && error.code === 'NOT_FOUND')) throw error;
    }
    await new Promise((done) => setTimeout(done, 500));
  }
  return null;
}

/** A 64x64 PNG cover (a violet-to-teal gradient), encoded here so the demo needs no file. */
export function coverPng(): Uint8Array {
  return encodePng(64, 64, RGBA, (x, y) => [120 - x, 40 + y * 2, 200 - y, 255]);
}

/** The API and chain of the running stack, found as `npm start` places them (see the header). */
export async function findStack(env: NodeJS.ProcessEnv): Promise<{ apiUrl: string; rpcUrl: string }> {
  const loaded = loadConfig(env);
  if (!loaded.ok) throw new Error(`Invalid configuration:\n${loaded.error.problems.map((problem: string) => `  - ${problem}`).join('\n')}`);
  const explicitApi = env.API_URL ?? '';
  const apiUrl = (explicitApi !== '' ? explicitApi : apiOrigin(loaded.value)).replace(/\/+$/, '');
  if (env.RPC_URL !== undefined && env.RPC_URL !== '') return { apiUrl, rpcUrl: env.RPC_URL };
  const stateFile = join(resolve(loaded.value.DATA_DIR), 'dev-stack.json');
  const state = await readFile(stateFile, 'utf8').then(
    (text) => JSON.parse(text) as { api?: string; rpc?: string | null },
    () => undefined,
  );
  if (state === undefined) {
    throw new Error(
      `no \`npm start\` stack in ${stateFile}: start one (it writes that file), or run the demo with the same DATA_DIR (and PORT/HOST) as \`npm start\`, or set API_URL and RPC_URL`,
    );
  }
  if (state.api !== apiUrl) {
    throw new Error(
      `the stack in ${stateFile} serves ${state.api ?? '?'}, not ${apiUrl}: run the demo with the same PORT/HOST as \`npm start\`, or set API_URL`,
    );
  }
  if (state.rpc === undefined || state.rpc === null)
    throw new Error(`the stack at ${apiUrl} runs without a chain (CHAIN_RPC_URL unset): set RPC_URL`);
  return { apiUrl, rpcUrl: state.rpc };
}

async function main(): Promise<void> {
  const { apiUrl, rpcUrl } = await findStack(process.env);
  console.log(`Songmint demo against ${apiUrl} (chain ${rpcUrl})`);
  await runDemo({ apiUrl, rpcUrl });
  console.log('\nDemo finished: every step passed.');
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(`\nDemo failed: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    },
  );
}
