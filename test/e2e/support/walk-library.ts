/**
 * The browser walk's steps for a library that fills up and a visitor without a wallet (issue 36):
 * with ten songs in the library (queued cheaply through the SDK on the stack's built-in model),
 * the refusal of the next Generate shows in the window next to the Generate button; a mint whose
 * signature the API refuses says so next to Mint; a visitor opens Discover, plays a song and
 * opens its page, whose served HTML head carries Open Graph and Twitter card tags.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Locator, Page } from 'playwright-core';
import {
  cancelJob,
  connectSongmint,
  createSongmintApi,
  developmentAccount,
  generate,
  getMintSignature,
  getProfile,
  signIn,
  uploadMetadata,
  waitForJob,
} from '@songmint/sdk';
import type { SongmintApi } from '@songmint/sdk';
import { RGB, encodePng } from '../../../scripts/png.ts';
import type { NpmStartStack } from '../../support/npm-start.ts';

const STEP_TIMEOUT_MS = 180_000;
/** "Next to" the control: the message starts within this many pixels below (or beside) it. */
const NEAR_PX = 120;

/** What the walk's own checks give these steps (web-app-walk.ts: axe, 360 px, screenshots; playback). */
export interface WalkChecks {
  checkView(page: Page, name: string): Promise<void>;
  /** axe-core's serious and critical violations on the page as it is now. */
  seriousViolations(page: Page): Promise<string[]>;
  playsAudio(page: Page, selector: string): Promise<number>;
}

/** A 96x96 PNG cover, a diagonal gradient: what a person would upload at the mint step. */
export function coverPng(): Buffer {
  return Buffer.from(encodePng(96, 96, RGB, (x, y) => [40 + x, 20 + y, 160]));
}

/** The development wallet's session, as the page has it (same wallet, its own token). */
export async function developmentApi(stack: NpmStartStack, rpcUrl: string): Promise<SongmintApi> {
  const chain = connectSongmint({ rpcUrl, wallet: { account: developmentAccount() } });
  return (await signIn(createSongmintApi({ baseUrl: stack.baseUrl }), { walletClient: chain.walletClient })).api;
}

/**
 * The natural width of the image at `image` once it has loaded (0 when it fails): a cover comes
 * through the IPFS gateway, and on a busy machine it may still be on its way when its card shows.
 */
export async function loadedImageWidth(image: Locator): Promise<number> {
  // A lazy image loads only once it is near the window.
  await image.scrollIntoViewIfNeeded({ timeout: STEP_TIMEOUT_MS });
  return image.evaluate(
    (element) =>
      new Promise<number>((resolve) => {
        const img = element as unknown as {
          complete: boolean;
          naturalWidth: number;
          addEventListener(type: string, listener: () => void): void;
        };
        if (img.complete && img.naturalWidth > 0) resolve(img.naturalWidth);
        else {
          img.addEventListener('load', () => resolve(img.naturalWidth));
          img.addEventListener('error', () => resolve(0));
          if (img.complete) resolve(img.naturalWidth);
        }
      }),
  );
}

/** The message at `message` is in the window and right under (or beside) `control`. */
export async function assertNextTo(page: Page, control: Locator, message: Locator, what: string): Promise<void> {
  await message.waitFor({ state: 'visible', timeout: STEP_TIMEOUT_MS });
  const viewport = page.viewportSize();
  const near = await control.boundingBox();
  const box = await message.boundingBox();
  assert.ok(viewport !== null && near !== null && box !== null, `${what}: no layout`);
  // Within a pixel: the window scrolls by whole pixels, the layout does not (scrollIntoView can leave a fraction out).
  assert.ok(
    box.y >= 0 && box.y + box.height <= viewport.height + 1,
    `${what}: message at y ${box.y} (+${box.height}) outside the ${viewport.height} px window`,
  );
  assert.ok(box.x >= 0 && box.x + box.width <= viewport.width, `${what}: message at x ${box.x} outside the window`);
  const gap = box.y - (near.y + near.height);
  assert.ok(gap <= NEAR_PX && box.y + box.height >= near.y, `${what}: message ${gap} px below its control`);
}

/** The free tier (10 songs a day, 10 an hour): the stack's earlier test made this wallet pro. */
export async function developmentWalletOnFreeTier(stack: NpmStartStack): Promise<void> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', 'scripts/set-tier.ts', developmentAccount().address, 'free'],
    { env: { ...process.env, DATA_DIR: stack.dataDir, DATABASE_URL: '' } },
  );
  assert.match(stdout, /is now free/);
}

/**
 * Fills the wallet's songs to its limit through the SDK (what is left today or this hour,
 * whichever is less), then asks the page for one more: the refusal shows next to Generate, in
 * the window, at 360 px. Returns the queued jobs (oldest first) for the next steps.
 */
export async function refusedGenerateNextToButton(page: Page, api: SongmintApi, checks: WalkChecks): Promise<string[]> {
  const limits = (await getProfile(api)).limits.songs;
  const room = Math.min(limits.daily.remaining, limits.hourly.remaining);
  const queued: string[] = [];
  for (let index = 0; index < room; index += 1) {
    const job = await generate(api, { prompt: `library filler ${index + 1}, soft pads`, duration: 10, withLyrics: false });
    queued.push(job.jobId);
  }
  // The last one, still waiting behind the others, is cancelled: its card offers to try again.
  // (Cancelling gives back the daily song, not the hourly one: the next Generate is still refused.)
  const last = queued.at(-1);
  const cancelled =
    last === undefined
      ? undefined
      : await cancelJob(api, { jobId: last }).then(
          () => last,
          (error: unknown) => {
            // Made already (the built-in model is quick): nothing to cancel, no retry to see.
            if ((error as { code?: unknown }).code !== 'CONFLICT') throw error;
            return undefined;
          },
        );
  await page.reload();
  await page.locator('#songs[aria-busy="false"]').waitFor({ timeout: STEP_TIMEOUT_MS });
  assert.equal(await page.locator('#songs > li.card').count(), 10, 'ten songs in the library');
  await page.setViewportSize({ width: 360, height: 780 });
  const generateButton = page.getByRole('button', { name: 'Generate' });
  await generateButton.click();
  const refusal = page.locator('#generate-fields .action-alert[role="alert"]:not([hidden])');
  await assertNextTo(page, generateButton, refusal, 'the refused Generate');
  // Words a person acts on: when to come back, never a bare code.
  assert.match((await refusal.textContent()) ?? '', /(try|generate) again at \d\d:\d\d/);
  assert.doesNotMatch((await refusal.textContent()) ?? '', /RATE_00\d/);
  await page.screenshot({ path: 'test-results/browser/6-refused-generate-360.png' });
  await page.screenshot({ path: 'test-results/browser/6b-library-ten-songs-360.png', fullPage: true });
  if (cancelled !== undefined) {
    const retry = page.locator(`#songs li[data-job-id="${cancelled}"]`).getByRole('button', { name: 'Try again' });
    await retry.click();
    // A retry is a new song: refused too, said next to Try again.
    await assertNextTo(page, retry, page.locator(`#songs li[data-job-id="${cancelled}"] .action-alert:not([hidden])`), 'the refused retry');
  }
  // axe on the full library at 360 px with the refusals on show (the views' full checks ran before).
  assert.deepEqual(await checks.seriousViolations(page), [], 'the full library: axe serious/critical violations');
  await page.setViewportSize({ width: 1280, height: 900 });
  return queued;
}

/**
 * The first queued song, once made, gets a signature from elsewhere (the SDK, as another device
 * would); Mint in the page then is refused (SIGN_002), said next to Mint.
 */
export async function refusedMintSignatureNextToMint(page: Page, api: SongmintApi, queued: readonly string[]): Promise<void> {
  const [first] = queued;
  assert.ok(first !== undefined, 'a song was queued');
  const song = await waitForJob(api, { jobId: first, timeoutMs: STEP_TIMEOUT_MS, pollIntervalMs: 200, maxPollIntervalMs: 500 });
  const elsewhere = await uploadMetadata(api, { name: 'Minted elsewhere', audioUrl: song.audioUrl });
  await getMintSignature(api, { jobId: first, userAddress: developmentAccount().address, metadataUri: elsewhere.metadataUri });
  await page.reload();
  const card = page.locator(`#songs li.card[data-job-id="${first}"][data-status="completed"]`);
  await card.waitFor({ timeout: STEP_TIMEOUT_MS });
  await card.getByRole('button', { name: 'Mint this song…' }).click();
  const mint = card.getByRole('button', { name: 'Mint', exact: true });
  await mint.click();
  const refusal = card.locator('.action-alert[role="alert"]:not([hidden])');
  await assertNextTo(page, mint, refusal, 'the refused mint signature');
  assert.match((await refusal.textContent()) ?? '', /mint signature was refused/);
}

/**
 * A visitor without a wallet: Discover lists the song with its cover and a player that plays,
 * its title opens the song page (with its lyrics), and the page's served HTML head carries the
 * song's Open Graph and Twitter card tags.
 */
export async function visitorDiscoversAndPlays(
  page: Page,
  stack: NpmStartStack,
  song: { tokenId: bigint; path: string; name: string },
  checks: WalkChecks,
): Promise<void> {
  await page.goto(`${stack.baseUrl}/app/discover`);
  const card = page.locator(`#pools li[data-song-id="${song.tokenId}"]`);
  await card.waitFor({ timeout: STEP_TIMEOUT_MS });
  assert.ok((await loadedImageWidth(card.locator('img.card-cover'))) > 0, 'the cover shows in Discover');
  assert.ok((await checks.playsAudio(page, `#pools li[data-song-id="${song.tokenId}"] audio`)) > 0.3);
  await checks.checkView(page, '7-discover-visitor');
  await card.getByRole('link', { name: song.name }).click();
  assert.equal(new URL(page.url()).pathname, song.path);
  await page.locator('h1', { hasText: song.name }).waitFor({ timeout: STEP_TIMEOUT_MS });
  await page.locator('#song-lyrics pre', { hasText: '[verse]' }).waitFor({ timeout: STEP_TIMEOUT_MS });

  const html = await (await fetch(`${stack.baseUrl}${song.path}`, { headers: { accept: 'text/html' } })).text();
  const meta = (key: string) => new RegExp(`<meta (?:property|name)="${key}" content="([^"]*)">`).exec(html)?.[1];
  assert.equal(meta('og:title'), song.name.replace(/&/g, '&#38;'));
  assert.equal(meta('og:url'), `${stack.baseUrl}${song.path}`);
  assert.equal(meta('og:type'), 'music.song');
  // The cover through this server's IPFS gateway; the audio where the metadata points (storage).
  assert.match(meta('og:image') ?? '', /^http:\/\/127\.0\.0\.1:\d+\/ipfs\//);
  assert.equal(meta('twitter:image'), meta('og:image'));
  assert.equal(meta('twitter:player:stream'), meta('og:audio'));
  for (const key of ['og:image', 'og:audio']) {
    const url = meta(key) ?? '';
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\//, key);
    assert.equal((await fetch(url)).status, 200, `${key} answers`);
  }
  assert.equal(meta('twitter:card'), 'player');
}
