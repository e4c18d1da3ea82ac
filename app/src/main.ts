import './style.css';
import { formatEther, parseEther } from 'viem';
import type { EIP1193Provider, Hex } from 'viem';
import {
  buy,
  claimFees,
  connectSongmint,
  createSongmintApi,
  developmentAccount,
  generate,
  getMintSignature,
  launchSong,
  mintSong,
  predictTokenAddress,
  readPool,
  sell,
  signIn,
  songTokenAbi,
  uploadMetadata,
  waitForJob,
} from '@songmint/sdk';
import type { CompletedJob, SongmintApi, SongmintChain } from '@songmint/sdk';
import { loadAppConfig } from './config.ts';
import type { AppConfig } from './config.ts';
import { coverDataUri } from './cover.ts';
import { byId, describeError, setText, show } from './dom.ts';

/** What the page has done so far; each step fills its part. */
interface Progress {
  chain?: SongmintChain;
  api?: SongmintApi;
  song?: CompletedJob;
  tokenId?: bigint;
  launched?: boolean;
}

const tokens = (amount: bigint) => `${Number(formatEther(amount)).toLocaleString('en-US', { maximumFractionDigits: 2 })} tokens`;
const eth = (amount: bigint) => `${Number(formatEther(amount)).toLocaleString('en-US', { maximumFractionDigits: 6 })} ETH`;

function log(line: string): void {
  const item = document.createElement('li');
  item.textContent = line;
  byId('log').prepend(item);
  setText('status', line);
}

/** Runs one user action: buttons off while it runs, errors shown in the alert region. */
function action(button: HTMLButtonElement | HTMLFieldSetElement, work: () => Promise<void>): () => Promise<void> {
  return async () => {
    const error = byId('error');
    error.hidden = true;
    button.disabled = true;
    document.body.setAttribute('aria-busy', 'true');
    try {
      await work();
    } catch (failure) {
      error.textContent = describeError(failure);
      error.hidden = false;
      button.disabled = false;
    } finally {
      document.body.removeAttribute('aria-busy');
    }
  };
}

/** Reveals `sectionId` and moves focus to its heading, so keyboard and screen-reader users follow the flow. */
function advanceTo(sectionId: string, headingId: string): void {
  show(sectionId, true);
  byId(headingId).focus();
}

async function refreshWallet(state: Progress): Promise<void> {
  if (state.chain === undefined) return;
  const address = state.chain.walletClient.account?.address;
  if (address === undefined) return;
  setText('wallet-balance', eth(await state.chain.publicClient.getBalance({ address })));
}

async function refreshPool(state: Progress): Promise<void> {
  const { chain, tokenId } = state;
  if (chain === undefined || tokenId === undefined || state.launched !== true) return;
  const address = chain.walletClient.account?.address;
  const pool = await readPool(chain, { songId: tokenId });
  setText('pool-id', pool.poolId);
  setText('pool-price', `${pool.tokensPerEth.toLocaleString('en-US', { maximumFractionDigits: 0 })} tokens per ETH`);
  setText('pool-fee', `${Number(pool.swapFeePips) / 10_000}% (falls to 1% two minutes after launch)`);
  if (address !== undefined) {
    const balance = await chain.publicClient.readContract({ address: pool.token, abi: songTokenAbi, functionName: 'balanceOf', args: [address] });
    setText('token-balance', tokens(balance));
  }
  show('pool-facts', true);
  await refreshWallet(state);
}

function slippageBps(): number {
  const percent = Number(byId<HTMLInputElement>('slippage').value);
  if (!Number.isFinite(percent) || percent < 0 || percent > 100) throw new Error('Slippage must be a percentage from 0 to 100');
  return Math.round(percent * 100);
}

function start(config: AppConfig): void {
  const state: Progress = {};

  const connected = async (chain: SongmintChain, label: string) => {
    state.chain = chain;
    const address = chain.walletClient.account?.address ?? '';
    setText('wallet-address', address);
    show('wallet-facts', true);
    await refreshWallet(state);
    log(`${label} connected: ${address}. Sign the message to sign in.`);
    const session = await signIn(createSongmintApi({ baseUrl: config.apiUrl }), { walletClient: chain.walletClient });
    state.api = session.api;
    setText('wallet-session', `yes, ${session.user.tier} tier, until ${session.expiresAt.toLocaleTimeString()}`);
    log(`Signed in as ${address}`);
    byId<HTMLFieldSetElement>('generate-fields').disabled = false;
    byId('create-title').focus();
  };

  const devButton = byId<HTMLButtonElement>('connect-dev');
  if (!config.developmentWallet) devButton.hidden = true;
  else show('dev-wallet-note', true);
  devButton.addEventListener(
    'click',
    action(devButton, () => connected(connectSongmint({ rpcUrl: config.rpcUrl, contracts: config.contracts, wallet: { account: developmentAccount() } }), 'Development wallet')),
  );

  const injectedButton = byId<HTMLButtonElement>('connect-injected');
  injectedButton.addEventListener(
    'click',
    action(injectedButton, async () => {
      const provider = (window as Window & { ethereum?: EIP1193Provider }).ethereum;
      if (provider === undefined) throw new Error('No browser wallet found: install one, or use the development wallet on the local chain');
      const [account] = await provider.request({ method: 'eth_requestAccounts' });
      if (account === undefined) throw new Error('The wallet shared no account');
      await connected(connectSongmint({ rpcUrl: config.rpcUrl, contracts: config.contracts, wallet: { provider, account } }), 'Browser wallet');
    }),
  );

  const generateFields = byId<HTMLFieldSetElement>('generate-fields');
  byId<HTMLFormElement>('generate-form').addEventListener('submit', (event) => {
    event.preventDefault();
    void action(generateFields, async () => {
      const api = state.api;
      if (api === undefined) throw new Error('Connect a wallet first');
      const prompt = byId<HTMLTextAreaElement>('prompt').value;
      const job = await generate(api, { prompt, duration: Number(byId<HTMLSelectElement>('duration').value), withLyrics: byId<HTMLInputElement>('with-lyrics').checked });
      log(`Generation queued (${job.jobId}), position ${job.position}`);
      show('progress-box', true);
      const song = await waitForJob(api, {
        jobId: job.jobId,
        onProgress: (progress) => {
          byId<HTMLProgressElement>('progress').value = progress.progress;
          setText('progress-text', `${progress.status === 'queued' ? `Queued, position ${progress.position ?? '?'}` : 'Making your song'}: ${progress.progress}%, about ${progress.estimatedRemaining} s left`);
        },
      });
      state.song = song;
      byId<HTMLProgressElement>('progress').value = 100;
      setText('progress-text', 'Done');
      byId<HTMLAudioElement>('player').src = song.audioUrl;
      setText('audio-hash', song.audioHash);
      setText('audio-duration', `${song.duration} seconds`);
      setText('lyrics', song.lyrics ?? '(instrumental)');
      log(`Song ready: ${song.audioHash}`);
      advanceTo('song-section', 'song-title');
    })();
  });

  const mintFields = byId<HTMLFieldSetElement>('mint-fields');
  byId<HTMLFormElement>('mint-form').addEventListener('submit', (event) => {
    event.preventDefault();
    void action(mintFields, async () => {
      const { api, chain, song } = state;
      const address = chain?.walletClient.account?.address;
      if (api === undefined || chain === undefined || song === undefined || address === undefined) throw new Error('Generate a song first');
      log('Publishing the metadata and cover to IPFS');
      const metadata = await uploadMetadata(api, {
        name: byId<HTMLInputElement>('song-name').value,
        description: byId<HTMLTextAreaElement>('prompt').value,
        audioUrl: song.audioUrl,
        cover: coverDataUri(song.audioHash),
      });
      const signature = await getMintSignature(api, { jobId: song.jobId, userAddress: address, metadataUri: metadata.metadataUri });
      log('Signature issued; confirm the mint in your wallet');
      const minted = await mintSong(chain, { metadataUri: metadata.metadataUri, audioHash: signature.audioHash as Hex, signature: signature.signature });
      state.tokenId = minted.tokenId;
      setText('token-id', `#${minted.tokenId}`);
      setText('metadata-uri', metadata.metadataUri);
      show('mint-facts', true);
      setText('predicted-token', predictTokenAddress({ songId: minted.tokenId, contracts: chain.contracts }));
      log(`Minted token #${minted.tokenId}`);
      await refreshWallet(state);
      advanceTo('launch-section', 'launch-title');
    })();
  });

  const launchButton = byId<HTMLButtonElement>('launch');
  launchButton.addEventListener(
    'click',
    action(launchButton, async () => {
      const { chain, tokenId } = state;
      if (chain === undefined || tokenId === undefined) throw new Error('Mint a song first');
      log('Launching: approve the vault, then launch');
      const launched = await launchSong(chain, { songId: tokenId, allocationBps: 500 });
      state.launched = true;
      log(`Launched ${launched.token}: ${tokens(launched.poolSupply)} in the pool, ${tokens(launched.allocation)} to you`);
      await refreshPool(state);
      advanceTo('trade-section', 'trade-title');
    }),
  );

  const buyButton = byId<HTMLButtonElement>('buy');
  byId<HTMLFormElement>('buy-form').addEventListener('submit', (event) => {
    event.preventDefault();
    void action(buyButton, async () => {
      const { chain, tokenId } = state;
      if (chain === undefined || tokenId === undefined) throw new Error('Launch the song first');
      const bought = await buy(chain, { songId: tokenId, amountIn: parseEther(byId<HTMLInputElement>('buy-amount').value), slippageBps: slippageBps() });
      const line = `Bought ${tokens(bought.amountOut)} for ${eth(bought.amountIn)} (fee ${eth(bought.hookFee)})`;
      setText('last-trade', line);
      log(line);
      buyButton.disabled = false;
      await refreshPool(state);
    })();
  });

  const sellButton = byId<HTMLButtonElement>('sell');
  byId<HTMLFormElement>('sell-form').addEventListener('submit', (event) => {
    event.preventDefault();
    void action(sellButton, async () => {
      const { chain, tokenId } = state;
      if (chain === undefined || tokenId === undefined) throw new Error('Launch the song first');
      const sold = await sell(chain, { songId: tokenId, amountIn: parseEther(byId<HTMLInputElement>('sell-amount').value), slippageBps: slippageBps() });
      const line = `Sold ${tokens(sold.amountIn)} for ${eth(sold.amountOut)} (fee ${eth(sold.hookFee)})`;
      setText('last-trade', line);
      log(line);
      sellButton.disabled = false;
      await refreshPool(state);
    })();
  });

  const claimButton = byId<HTMLButtonElement>('claim');
  claimButton.addEventListener(
    'click',
    action(claimButton, async () => {
      const { chain, tokenId } = state;
      if (chain === undefined || tokenId === undefined) throw new Error('Launch the song first');
      const claimed = await claimFees(chain, { songIds: [tokenId] });
      const line = `Claimed ${eth(claimed.ethPaid)}`;
      setText('claimed', line);
      log(line);
      claimButton.disabled = false;
      await refreshPool(state);
    }),
  );
}

loadAppConfig().then(start, (error: unknown) => {
  const alert = byId('error');
  alert.textContent = `The page could not load its configuration: ${describeError(error)}`;
  alert.hidden = false;
});
