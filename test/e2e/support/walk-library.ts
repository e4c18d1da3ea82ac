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

/** The page globals the functions given to `evaluate` read (they run in Chromium); declared for this module alone. */
declare const document: {
  querySelectorAll(selector: string): Iterable<{ getAttribute(name: string): string | null }>;
  readonly activeElement: { readonly tagName: string } | null;
};
/** "Next to" the control: the message starts within this many pixels below (or beside) it. */
const NEAR_PX = 120;

/** What the walk's own checks give these steps (web-app-walk.ts: axe, 360 px, screenshots; playback). */
export interface WalkChecks {
  checkView(page: Page, name: string, options?: { everyImpact?: boolean }): Promise<void>;
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
    box.y >= -1 && box.y + box.height <= viewport.height + 1,
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

/** How long the steps below take, with room to spare, from the first filler to the refused retry. */
const FILL_AND_REFUSE_MS = 120_000;
const HOUR_MS = 3_600_000;

/**
 * The hourly song counter turns over on the UTC hour (oracle/src/domain/request-charge.ts): a
 * refusal earned just before it is gone just after. Close to the turn, wait it out.
 */
async function clearOfTheHourTurn(): Promise<void> {
  const toNextHourMs = HOUR_MS - (Date.now() % HOUR_MS);
  if (toNextHourMs > FILL_AND_REFUSE_MS) return;
  console.log(`# walk: ${(toNextHourMs / 1000).toFixed(0)} s to the hour, when the hourly song limit turns over: waiting`);
  await new Promise((resolve) => setTimeout(resolve, toNextHourMs + 2_000));
}

/** Queues filler songs through the SDK until neither the daily nor the hourly counter has room. */
async function fillSongLimits(api: SongmintApi, queued: string[]): Promise<void> {
  const limits = (await getProfile(api)).limits.songs;
  const room = Math.min(limits.daily.remaining, limits.hourly.remaining);
  for (let index = 0; index < room; index += 1) {
    const job = await generate(api, { prompt: `library filler ${queued.length + 1}, soft pads`, duration: 10, withLyrics: false });
    queued.push(job.jobId);
  }
}

/**
 * Fills the wallet's songs to its limit through the SDK (what is left today or this hour,
 * whichever is less), then asks the page for one more: the refusal shows next to Generate, in
 * the window, at 360 px. Returns the queued jobs (oldest first) for the next steps.
 */
export async function refusedGenerateNextToButton(page: Page, api: SongmintApi, checks: WalkChecks): Promise<string[]> {
  await clearOfTheHourTurn();
  const queued: string[] = [];
  await fillSongLimits(api, queued);
  // The last one, still waiting behind the others, is cancelled: its card offers to try again.
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
  // Cancelling gives back the daily song, not the hourly one. Where the daily counter was the
  // tighter (the walk's earlier songs were made in an hour gone by), that song is queued again.
  await fillSongLimits(api, queued);
  await page.reload();
  await page.locator('#songs[aria-busy="false"]').waitFor({ timeout: STEP_TIMEOUT_MS });
  // A page at a time (the library pages by 20 however many there are): "20 of N songs", and more to show.
  const listed = await page.locator('#songs > li.card').count();
  const shownLine = /^(?:(\d+) of )?(\d+) songs\.$/.exec((await page.locator('#library-count').textContent()) ?? '');
  assert.ok(shownLine !== null, 'the library says how many songs it holds');
  const total = Number(shownLine[2]);
  assert.equal(listed, Math.min(20, total), 'one page of the library');
  assert.equal(await page.locator('#more-songs').isVisible(), total > 20, 'Show older songs while there are more');
  await page.setViewportSize({ width: 360, height: 780 });
  const generateButton = page.getByRole('button', { name: 'Generate' });
  await generateButton.click();
  const refusal = page.locator('#generate-fields .action-alert[role="alert"]:not([hidden])');
  await assertNextTo(page, generateButton, refusal, 'the refused Generate');
  // Words a person acts on: when to come back, never a bare code.
  assert.match((await refusal.textContent()) ?? '', /(try|generate) again at \d\d:\d\d/);
  assert.doesNotMatch((await refusal.textContent()) ?? '', /RATE_00\d/);
  // Said once: the line under Generate ("No songs left this hour…") gives way to the refusal (issue 51).
  assert.equal(await page.locator('#songs-left').isVisible(), false, 'the limit said once');
  assert.equal(await page.locator('#generate-fields .action-alert:not([hidden])').count(), 1, 'one refusal');
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

/**
 * The library managed (issue 45, deliver 5): the view narrowed to edits and to minted songs, a
 * search by name, an edit renamed, deleted to the trash and restored, focus never dropped; the
 * trash view checked (axe, 360 px, screenshots).
 */
export async function manageTheLibrary(page: Page, songs: { minted: string; edits: readonly string[] }, checks: WalkChecks): Promise<void> {
  const started = Date.now();
  const ids = () => page.locator('#songs > li').evaluateAll((items) => items.map((item) => item.getAttribute('data-job-id')));
  const settled = () => page.locator('#songs[aria-busy="false"]').waitFor({ timeout: STEP_TIMEOUT_MS });
  const show = async (view: string) => {
    await page.getByLabel('Show').selectOption(view);
    await settled();
  };
  await show('edits');
  // (The demo before the walk made edits of its own: these three are among the listed, their source is not.)
  const editsListed = await ids();
  assert.ok(
    songs.edits.every((id) => editsListed.includes(id)) && !editsListed.includes(songs.minted),
    `Show: Edits lists the edits (${editsListed.join(', ')})`,
  );
  await show('minted');
  // The newest minted song first (the demo's are older), no unminted edit among them.
  const mintedListed = await ids();
  assert.ok(
    mintedListed[0] === songs.minted && !songs.edits.some((id) => mintedListed.includes(id)),
    `Show: Minted lists the minted songs (${mintedListed.join(', ')})`,
  );
  await show('all');

  // Rename an edit, then find it by its new name.
  const [renamedId] = songs.edits;
  assert.ok(renamedId !== undefined);
  const card = page.locator(`#songs li.card[data-job-id="${renamedId}"]`);
  await card.getByRole('button', { name: 'Rename' }).click();
  await card.getByLabel('New name').fill('Rainy Remix No. 1');
  await card.getByRole('button', { name: 'Save name' }).click();
  await card.locator('h3', { hasText: 'Rainy Remix No. 1' }).waitFor({ timeout: STEP_TIMEOUT_MS });
  await page.getByRole('searchbox', { name: 'Search your songs' }).fill('remix no. 1');
  await page.waitForFunction((id) => {
    const items = [...document.querySelectorAll('#songs > li')];
    return items.length === 1 && items[0]?.getAttribute('data-job-id') === id;
  }, renamedId);
  assert.match((await page.locator('#library-count').textContent()) ?? '', /^1 song matching “remix no\. 1”\.$/);

  // Delete: out of the library, into the trash; the focus moves on, not to the page's body.
  await card.getByRole('button', { name: 'Delete' }).click();
  await page.locator('#library-count', { hasText: 'is in the trash' }).waitFor({ timeout: STEP_TIMEOUT_MS });
  assert.equal(await page.locator(`#songs li[data-job-id="${renamedId}"]`).count(), 0);
  assert.notEqual(await page.evaluate(() => document.activeElement?.tagName), 'BODY', 'focus stays on the list');
  await page.getByRole('searchbox', { name: 'Search your songs' }).fill('');
  await show('trash');
  const trashed = page.locator(`#songs li.trashed[data-job-id="${renamedId}"]`);
  await trashed.waitFor({ timeout: STEP_TIMEOUT_MS });
  assert.match(
    (await trashed.locator('.state').textContent()) ?? '',
    /^In the trash since .+: deleted for good on .+ unless you restore it\.$/,
  );
  await checks.checkView(page, '2c-library-trash', { everyImpact: true });
  await trashed.getByRole('button', { name: 'Restore' }).click();
  await page.locator('#library-count', { hasText: 'is back in your songs' }).waitFor({ timeout: STEP_TIMEOUT_MS });
  await show('all');
  await page
    .locator(`#songs li.card[data-job-id="${renamedId}"] h3`, { hasText: 'Rainy Remix No. 1' })
    .waitFor({ timeout: STEP_TIMEOUT_MS });
  console.log(
    `# web app walk: the library managed (views, search, rename, trash, restore) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
}

/**
 * The create form before Generate (issue 45): the lyrics note promises what the running model
 * does (the built-in model sings nothing: item 5); typing lyrics turns "Write lyrics for me" off
 * and clearing them brings it back (item 6); the count of the lyrics' characters says when they
 * pass the 5,000 a song takes instead of cutting them (item 13); a blank prompt is refused next to
 * the prompt, in words, with nothing sent and no song used (item 16).
 */
export async function createFormSaysWhatItDoes(page: Page): Promise<void> {
  const note = page.locator('#lyrics-note');
  await note.filter({ hasText: 'no voice sings them' }).waitFor({ timeout: STEP_TIMEOUT_MS });
  assert.doesNotMatch((await note.textContent()) ?? '', /sung as written/, 'no promise the built-in model cannot keep');
  const written = page.getByLabel('Write lyrics for me');
  const lyrics = page.getByLabel('Your lyrics (optional)');
  assert.equal(await written.isChecked(), true);
  await lyrics.fill('[verse]\nmy own words');
  assert.deepEqual([await written.isChecked(), await written.isDisabled()], [false, true], 'typed lyrics: not written for me');
  await lyrics.fill('la '.repeat(1700));
  assert.equal(
    await page.locator('#lyrics-count').textContent(),
    '5,100 characters: 100 characters over the 5,000 a song takes. Shorten them.',
  );
  await lyrics.fill('');
  assert.deepEqual([await written.isChecked(), await written.isDisabled()], [true, false], 'cleared: written for me again');
  assert.equal(await page.locator('#lyrics-count').textContent(), '0 of 5,000 characters');

  const prompt = page.getByLabel('Prompt');
  const typed = await prompt.inputValue();
  const left = await page.locator('#songs-left').textContent();
  await prompt.fill('   ');
  await page.getByRole('button', { name: 'Generate' }).click();
  const refusal = page.locator('#prompt-error:not([hidden])');
  await assertNextTo(page, prompt, refusal, 'the blank prompt');
  assert.equal(await refusal.textContent(), 'Describe the song in a few words: the prompt is empty.');
  assert.equal(await page.locator('#generate-fields .action-alert:not([hidden])').count(), 0, 'not under the buttons');
  assert.equal(await page.locator('#songs-left').textContent(), left, 'nothing sent, no song used');
  await prompt.fill(typed);
  assert.equal(await refusal.count(), 0, 'the refusal goes once the prompt is typed');
}
