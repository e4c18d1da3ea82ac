/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/**
 * The web app (/app) in headless Chromium with the development wallet: generate, play, mint,
 * launch, buy. What the page shows is checked against the chain and the API; screenshots go to
 * test-results/browser/ (git-ignored).
 */
import assert from 'node:assert/strict';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createPublicClient, formatEther, http } from 'viem';
import type { Page } from 'playwright-core';
import {
  createSongmintApi,
  developmentAccount,
  getNft,
  localBaseChain,
  poolIdOf,
  readPoolKey,
  signIn,
  songmintAddresses,
  songNftAbi,
  songTokenAbi,
  songVaultAbi,
} from '@songmint/sdk';
import { createWalletClient } from 'viem';
import type { NpmStartStack } from '../../support/npm-start.ts';
import { launchChromium } from './browser.ts';

export const SCREENSHOTS = join(process.cwd(), 'test-results', 'browser');
const STEP_TIMEOUT_MS = 120_000;

const text = async (page: Page, selector: string) => ((await page.locator(selector).textContent()) ?? '').trim();

/** Form controls without an accessible label, and how far the page scrolls sideways. */
async function layoutProblems(page: Page): Promise<{ unlabelled: string[]; overflowPx: number }> {
  return page.evaluate(() => ({
    unlabelled: [...document.querySelectorAll<HTMLInputElement>('input, select, textarea')].filter((control) => (control.labels?.length ?? 0) === 0).map((control) => control.id),
    overflowPx: document.documentElement.scrollWidth - document.documentElement.clientWidth,
  }));
}

export async function walkTheWebApp(stack: NpmStartStack): Promise<void> {
  const { rpc } = JSON.parse(await readFile(join(stack.dataDir, 'dev-stack.json'), 'utf8')) as { rpc: string };
  const client = createPublicClient({ chain: localBaseChain(rpc), transport: http(rpc) });
  const account = developmentAccount();
  const { SongNFT, SongVault } = songmintAddresses.local;
  await mkdir(SCREENSHOTS, { recursive: true });
  const browser = await launchChromium({ width: 1280, height: 900 });
  try {
    const page = await browser.context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(`${stack.baseUrl}/app/`);
    assert.deepEqual(await layoutProblems(page), { unlabelled: [], overflowPx: 0 });

    // Connect and sign in with the development wallet, with the keyboard.
    await page.getByRole('button', { name: 'Use the development wallet' }).focus();
    await page.keyboard.press('Enter');
    await page.locator('#wallet-session').filter({ hasText: 'yes' }).waitFor({ timeout: STEP_TIMEOUT_MS });
    assert.equal(await text(page, '#wallet-address'), account.address);

    // Generate: progress, then the song with its lyrics and hash; focus follows to the song.
    await page.getByLabel('Prompt').fill('warm lo-fi piano, 80 bpm, rainy evening');
    await page.getByRole('button', { name: 'Generate' }).click();
    await page.locator('#song-section').waitFor({ state: 'visible', timeout: STEP_TIMEOUT_MS });
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'song-title');
    assert.equal(await page.locator('#progress').getAttribute('value'), '100');
    assert.match(await text(page, '#lyrics'), /\[verse\]/);
    const audioHash = await text(page, '#audio-hash');
    assert.match(audioHash, /^0x[0-9a-f]{64}$/);

    // Play it in the page: the MP3 decodes and time advances.
    const playback = await page.evaluate(async () => {
      const player = document.getElementById('player') as HTMLAudioElement;
      await player.play();
      // (No named functions in here: tsx would wrap them in a helper the page does not have.)
      while (player.currentTime <= 0.3) await new Promise((resolve) => setTimeout(resolve, 50));
      player.pause();
      return { duration: player.duration, currentTime: player.currentTime };
    });
    assert.ok(playback.currentTime > 0.3);
    assert.equal(Math.round(playback.duration), Number((await text(page, '#audio-duration')).split(' ')[0]));
    await page.screenshot({ path: join(SCREENSHOTS, 'desktop-1-song.png'), fullPage: true });

    // Mint: the token is the wallet's, and the API indexed it with the page's hash and URI.
    await page.getByRole('button', { name: 'Mint the song' }).click();
    await page.locator('#launch-section').waitFor({ state: 'visible', timeout: STEP_TIMEOUT_MS });
    const tokenId = BigInt((await text(page, '#token-id')).replace('#', ''));
    assert.equal(await client.readContract({ address: SongNFT, abi: songNftAbi, functionName: 'ownerOf', args: [tokenId] }), account.address);
    const session = await signIn(createSongmintApi({ baseUrl: stack.baseUrl }), { walletClient: createWalletClient({ account, transport: http(rpc) }) });
    const indexed = await waitForIndexed(() => getNft(session.api, { tokenId }));
    assert.equal(indexed.audio_hash, audioHash);
    assert.equal(indexed.metadata_uri, await text(page, '#metadata-uri'));

    // Launch: the predicted token address shown before is the vault's, the pool id is the key's.
    const predicted = await text(page, '#predicted-token');
    await page.getByRole('button', { name: 'Launch', exact: true }).click();
    await page.locator('#trade-section').waitFor({ state: 'visible', timeout: STEP_TIMEOUT_MS });
    const token = await client.readContract({ address: SongVault, abi: songVaultAbi, functionName: 'tokenOf', args: [tokenId] });
    assert.equal(predicted, token);
    assert.equal(await client.readContract({ address: SongNFT, abi: songNftAbi, functionName: 'ownerOf', args: [tokenId] }), SongVault);
    assert.equal(await text(page, '#pool-id'), poolIdOf(await readPoolKey({ publicClient: client, contracts: songmintAddresses.local }, tokenId)));

    // Buy: the balance the page shows is the chain's.
    await page.getByLabel('ETH to spend').fill('0.02');
    await page.getByRole('button', { name: 'Buy' }).click();
    await page.locator('#last-trade').filter({ hasText: 'Bought' }).waitFor({ timeout: STEP_TIMEOUT_MS });
    await page.locator('#token-balance').filter({ hasNotText: /^50,000,000 tokens$/ }).waitFor({ timeout: STEP_TIMEOUT_MS });
    const balance = await client.readContract({ address: token, abi: songTokenAbi, functionName: 'balanceOf', args: [account.address] });
    const shown = `${Number(formatEther(balance)).toLocaleString('en-US', { maximumFractionDigits: 2 })} tokens`;
    assert.equal(await text(page, '#token-balance'), shown);
    assert.ok(balance > 50_000_000n * 10n ** 18n, 'the allocation plus what was bought');
    assert.equal(await page.locator('#error').isHidden(), true, await text(page, '#error'));
    await page.screenshot({ path: join(SCREENSHOTS, 'desktop-2-traded.png'), fullPage: true });

    // A narrow phone screen: nothing scrolls sideways.
    await page.setViewportSize({ width: 360, height: 780 });
    await page.screenshot({ path: join(SCREENSHOTS, 'narrow-traded.png'), fullPage: true });
    assert.deepEqual(await layoutProblems(page), { unlabelled: [], overflowPx: 0 });
    assert.deepEqual(pageErrors, []);
  } finally {
    await browser.close();
  }
}

/** The oracle indexes the mint from the chain a poll or two after the receipt. */
async function waitForIndexed<T>(read: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await read();
    } catch (error) {
      if (attempt >= 40) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}
