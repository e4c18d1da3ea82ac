/**
 * `npm run demo`: the whole product through @songmint/sdk against a running `npm start` stack:
 * sign in with the development wallet, generate a song with lyrics, publish its metadata with a
 * cover, get the mint signature, mint, launch the song's token and pool, buy and sell, collect and
 * claim the fees, and show the pool and the profile. Prints each step with its figures; exits 1 on
 * any failure.
 *
 *   npm run demo                               # API http://127.0.0.1:3000, its chain from .data/dev-stack.json
 *   API_URL=http://127.0.0.1:4000 RPC_URL=http://127.0.0.1:4002 npm run demo
 */
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
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
  getPools,
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
} from '@songmint/sdk';
import type { ClaimedFees, IndexedNft, LaunchedSong, SongPool, SwapResult, UserProfile } from '@songmint/sdk';

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
  poolsIndexed: boolean;
}

const tokens = (amount: bigint) => `${Number(formatEther(amount)).toLocaleString('en-US', { maximumFractionDigits: 2 })} tokens`;
const eth = (amount: bigint) => `${formatEther(amount)} ETH`;

/** Runs the flow and returns its figures; throws at the first failure. */
export async function runDemo({ apiUrl, rpcUrl, log = console.log, prompt = 'dreamy synthwave, 96 bpm, in A minor', duration = 10 }: DemoOptions): Promise<DemoResult> {
  const account = developmentAccount();
  const chain = connectSongmint({ rpcUrl, wallet: { account } });
  const step = (title: string, ...lines: string[]) => log([`\n== ${title}`, ...lines.map((line) => `   ${line}`)].join('\n'));

  const session = await signIn(createSongmintApi({ baseUrl: apiUrl }), { walletClient: chain.walletClient });
  const api = session.api;
  step('Signed in with Ethereum', `wallet ${account.address}`, `user   ${session.user.id} (tier ${session.user.tier}), session until ${session.expiresAt.toISOString()}`);

  // A fresh seed: the contract mints each audio hash once, so a rerun must make new audio.
  const seed = globalThis.crypto.getRandomValues(new Uint32Array(1))[0] ?? 0;
  const job = await generate(api, { prompt, duration, withLyrics: true, seed });
  step('Generation queued', `job ${job.jobId} (seed ${seed}), position ${job.position}, about ${job.estimatedTime} s`, `idempotency key ${job.idempotencyKey}`);
  let progressReports = 0;
  const song = await waitForJob(api, {
    jobId: job.jobId,
    onProgress: (progress) => {
      progressReports += 1;
      log(`   ${progress.status.padEnd(10)} ${String(progress.progress).padStart(3)}%  ~${progress.estimatedRemaining} s left`);
    },
  });
  step('Song ready', `audio ${song.audioUrl}`, `hash  ${song.audioHash}`, `${song.duration} s, lyrics:`, ...(song.lyrics ?? '(instrumental)').split('\n').map((line) => `  | ${line}`));

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

  const minted = await mintSong(chain, { metadataUri: metadata.metadataUri, audioHash: signature.audioHash, signature: signature.signature });
  step('Minted', `token #${minted.tokenId} to ${minted.minter}`, `tx ${minted.hash}, ${minted.receipt.gasUsed} gas`);

  const predictedToken = predictTokenAddress({ songId: minted.tokenId, contracts: chain.contracts });
  const launched = await launchSong(chain, { songId: minted.tokenId, allocationBps: 500 });
  step(
    'Launched on Uniswap v4',
    `token ${launched.token} (predicted ${predictedToken}: ${predictedToken === launched.token ? 'match' : 'MISMATCH'})`,
    `pool  ${launched.poolId}`,
    `${tokens(launched.poolSupply)} in the pool, ${tokens(launched.allocation)} to the creator, liquidity ${launched.liquidity}`,
  );
  if (predictedToken !== launched.token) throw new Error(`predicted token ${predictedToken}, launched ${launched.token}`);

  const bought = await buy(chain, { songId: minted.tokenId, amountIn: parseEther('0.01'), slippageBps: 100 });
  step('Bought', `${eth(bought.amountIn)} -> ${tokens(bought.amountOut)} (quote ${tokens(bought.quotedAmountOut)}, floor ${tokens(bought.minAmountOut)})`, `hook fee ${eth(bought.hookFee)}`);
  const sold = await sell(chain, { songId: minted.tokenId, amountIn: bought.amountOut / 2n, slippageBps: 100 });
  step('Sold', `${tokens(sold.amountIn)} -> ${eth(sold.amountOut)} (quote ${eth(sold.quotedAmountOut)}, floor ${eth(sold.minAmountOut)})`, `hook fee ${eth(sold.hookFee)}`);

  const claimed = await claimFees(chain, { songIds: [minted.tokenId] });
  const claimedToken = claimed.claimed.reduce((sum, entry) => sum + entry.token, 0n);
  step('Fees collected and claimed (creator share)', `${eth(claimed.ethPaid)} and ${tokens(claimedToken)} to ${account.address}`);

  const pool = await readPool(chain, { songId: minted.tokenId });
  const pools = await getPools(api);
  step(
    'Pool (on chain)',
    `price ${pool.tokensPerEth.toLocaleString('en-US', { maximumFractionDigits: 0 })} tokens per ETH, tick ${pool.tick}, liquidity ${pool.liquidity}`,
    `hook fee now ${Number(pool.swapFeePips) / 10_000}%, swap fees ${eth(pool.totalSwapFees)} (uncollected ${eth(pool.uncollectedSwapFees)}), platform owed ${eth(pool.fees.platform.eth)}`,
    `/v1/trading/pools: ${pools.count} pools, indexed ${pools.indexed}`,
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
    poolsIndexed: pools.indexed,
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

/** A 64x64 PNG cover (a violet-to-teal gradient), encoded here so the demo needs no file. */
export function coverPng(): Uint8Array {
  return encodePng(64, 64, RGBA, (x, y) => [120 - x, 40 + y * 2, 200 - y, 255]);
}

/** The chain of the running stack: RPC_URL, else what `npm start` wrote to DATA_DIR/dev-stack.json. */
async function stackRpcUrl(apiUrl: string): Promise<string> {
  if (process.env.RPC_URL !== undefined && process.env.RPC_URL !== '') return process.env.RPC_URL;
  const stateFile = join(resolve(process.env.DATA_DIR ?? '.data'), 'dev-stack.json');
  const state = await readFile(stateFile, 'utf8').then((text) => JSON.parse(text) as { api?: string; rpc?: string | null }, () => undefined);
  if (state?.rpc !== undefined && state.rpc !== null && state.api === apiUrl) return state.rpc;
  throw new Error(`no chain for ${apiUrl}: start the stack with \`npm start\` (it writes ${stateFile}) or set RPC_URL`);
}

async function main(): Promise<void> {
  const apiUrl = (process.env.API_URL ?? 'http://127.0.0.1:3000').replace(/\/+$/, '');
  const rpcUrl = await stackRpcUrl(apiUrl);
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
