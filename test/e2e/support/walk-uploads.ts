/**
 * The web app's uploads (/app/uploads), walked as a creator uses them: the view loads on demand
 * from the nav link "Uploads"; the rights statement is shown in full, exactly as the API words it;
 * an upload without the box ticked and a file that is no audio are refused in words next to the
 * Upload button; a WAV made by ffmpeg uploads with its progress and is listed with its length and
 * expiry; "Edit this upload" opens the song edit panel, and a repaint of 4-6 s is followed to the
 * finished song; the view is checked (axe, 360 px, screenshots) with the panel open; the upload is
 * deleted in place and is gone from the API's list. Then a copy of another account's signed song
 * (its MP3 made quieter and turned into a WAV by ffmpeg) is refused next to the control
 * (UPLOAD_005, the fingerprint check of issue 44).
 *
 * It runs after the library's refusals, which leave the development wallet on the free tier at
 * its hourly limit: the walk puts it on pro first (its repaint is a generation).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { privateKeyToAccount } from 'viem/accounts';
import {
  connectSongmint,
  createSongmintApi,
  developmentAccount,
  generate,
  getMintSignature,
  listJobs,
  listUploads,
  signIn,
  uploadMetadata,
  waitForJob,
} from '@songmint/sdk';
import type { SongmintApi } from '@songmint/sdk';
import { RIGHTS_STATEMENT } from '../../../oracle/src/domain/uploads.ts';
import { makeTempDir } from '../../../core/src/testing/temp-dirs.ts';
import type { NpmStartStack } from '../../support/npm-start.ts';
import { runReference } from '../../support/reference-tools.ts';

const STEP_TIMEOUT_MS = 180_000;
/** Hardhat's public test account #4: the other creator whose song is copied. */
const OTHER_CREATOR = privateKeyToAccount('0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a');

/** The page globals the functions given to `evaluate` read (they run in Chromium; this module has no DOM types). */
declare const document: {
  readonly activeElement: {
    readonly tagName: string;
    readonly id: string;
    readonly textContent: string | null;
    matches(selector: string): boolean;
  } | null;
};

const text = async (page: Page, selector: string) => ((await page.locator(selector).first().textContent()) ?? '').trim();

/** The alert next to the Upload button, once it shows. */
async function refusalNextToUpload(page: Page): Promise<string> {
  const alert = page.locator('#upload-form .action-alert:not([hidden])');
  await alert.waitFor({ timeout: STEP_TIMEOUT_MS });
  return ((await alert.textContent()) ?? '').trim();
}

/** Another account's song with its mint signature issued (its sound registered to that account), and its MP3. */
async function anotherCreatorsSignedSong(stack: NpmStartStack, rpcUrl: string): Promise<Uint8Array> {
  const chain = connectSongmint({ rpcUrl, wallet: { account: OTHER_CREATOR } });
  const { api } = await signIn(createSongmintApi({ baseUrl: stack.baseUrl }), { walletClient: chain.walletClient });
  const job = await generate(api, { prompt: 'bright marimba loop, 110 bpm', duration: 10 });
  const song = await waitForJob(api, { jobId: job.jobId, timeoutMs: STEP_TIMEOUT_MS });
  const metadata = await uploadMetadata(api, { name: 'Marimba', audioUrl: song.audioUrl });
  await getMintSignature(api, { jobId: job.jobId, userAddress: OTHER_CREATOR.address, metadataUri: metadata.metadataUri });
  const mp3 = await fetch(song.audioUrl);
  assert.equal(mp3.status, 200);
  return new Uint8Array(await mp3.arrayBuffer());
}

export async function walkUploads(
  page: Page,
  stack: NpmStartStack,
  rpcUrl: string,
  api: SongmintApi,
  checkView: (page: Page, name: string) => Promise<void>,
): Promise<void> {
  const startedAt = Date.now();
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', 'scripts/set-tier.ts', developmentAccount().address, 'pro'],
    { env: { ...process.env, DATA_DIR: stack.dataDir, DATABASE_URL: '' } },
  );
  assert.match(stdout, /is now pro/);
  const dir = await makeTempDir('walk-uploads');
  try {
    const ffmpeg = async (name: string, args: string[]): Promise<string> => {
      const path = join(dir.path, name);
      await runReference('ffmpeg', ['-v', 'error', ...args, path]);
      return path;
    };
    // 10 s of a stereo chord, 16-bit, made by an independent tool.
    const chord = await ffmpeg('chord.wav', [
      '-f',
      'lavfi',
      '-i',
      'aevalsrc=0.4*sin(2*PI*220*t)+0.2*sin(2*PI*330*t)|0.4*sin(2*PI*277*t):d=10:s=44100',
      '-c:a',
      'pcm_s16le',
    ]);

    // The nav link opens the view, loaded on demand; the statement is the API's, in full.
    await page.getByRole('link', { name: 'Uploads' }).click();
    assert.equal(new URL(page.url()).pathname, '/app/uploads');
    await page.locator('#upload-rights:not([disabled])').waitFor({ timeout: STEP_TIMEOUT_MS });
    assert.equal(await text(page, '#rights-statement'), RIGHTS_STATEMENT);

    // Refusals next to the control: the box not ticked (said before sending), then no audio at all (the API's UPLOAD_001).
    const fileInput = page.getByLabel('Audio file');
    await fileInput.setInputFiles(chord);
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    assert.match(await refusalNextToUpload(page), /^Tick the box to confirm the statement above/);
    await fileInput.setInputFiles({ name: 'notes.wav', mimeType: 'audio/wav', buffer: Buffer.from('not audio at all') });
    await page.getByLabel('I confirm this statement for the file I upload').check();
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    assert.match(await refusalNextToUpload(page), /^This file is not audio Songmint takes: /);

    // The WAV: progress, then its card with its length and until when it is kept.
    await fileInput.setInputFiles(chord);
    await page.getByLabel('I confirm this statement for the file I upload').check();
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    const card = page.locator('#uploads li.card').first();
    await card.locator('h3', { hasText: 'chord.wav' }).waitFor({ timeout: STEP_TIMEOUT_MS });
    const uploadId = (await card.getAttribute('data-upload-id')) ?? '';
    assert.match(uploadId, /^upl_/);
    assert.equal(await card.locator('dd').first().textContent(), '10.0 s');
    assert.match((await card.locator('dd').nth(2).textContent()) ?? '', /^\d{1,2} [A-Z][a-z]{2} \d{4} \(30 days left\)$/);
    assert.equal(await page.getByLabel('I confirm this statement for the file I upload').isChecked(), false, 'each upload confirms anew');
    // The new upload takes the keyboard focus from the Upload button (issue 51), and plays from the page.
    await page.waitForFunction(
      () => document.activeElement?.tagName === 'H3' && document.activeElement.textContent === 'chord.wav',
      undefined,
      { timeout: STEP_TIMEOUT_MS },
    );
    const played = await card
      .locator('audio')
      .first()
      .evaluate(async (element) => {
        const player = element as unknown as { currentTime: number; play(): Promise<void>; pause(): void };
        await player.play();
        while (player.currentTime <= 0.3) await new Promise((resolve) => setTimeout(resolve, 50));
        player.pause();
        return player.currentTime;
      });
    assert.ok(played > 0.3, 'the upload plays');

    // "Edit this upload": the songs' edit panel; a repaint of 4-6 s is followed to the finished song.
    await card.getByRole('button', { name: 'Edit this upload' }).click();
    // The material starts empty: Repaint says so in the field's own words, next to it, and sends nothing.
    assert.equal(await card.getByLabel('Describe the new material').inputValue(), '');
    await card.getByRole('button', { name: 'Repaint', exact: true }).click();
    await card
      .locator(`#edit-prompt-error-${uploadId}:not([hidden])`, { hasText: /^Describe the new material first: / })
      .waitFor({ timeout: STEP_TIMEOUT_MS });
    assert.equal(await page.evaluate(() => document.activeElement?.id), `edit-prompt-${uploadId}`, 'the focus on the field to fill');
    assert.equal(await card.locator('.upload-edits li').count(), 0, 'nothing queued');
    await card.getByLabel('Describe the new material').fill('a brighter bridge, 100 bpm');
    assert.equal(await card.locator(`#edit-prompt-error-${uploadId}`).isHidden(), true, 'the message goes once it is filled');
    await card.getByLabel('Repaint from (s)').fill('4');
    await card.getByLabel('to (s)').fill('6');
    await card.getByRole('button', { name: 'Repaint', exact: true }).click();
    // The edit just queued takes the focus from Repaint (issue 51).
    await page.waitForFunction(() => document.activeElement?.matches('.upload-edits li p.state') === true, undefined, {
      timeout: STEP_TIMEOUT_MS,
    });
    const edit = card.locator('.upload-edits li[data-status="completed"]');
    await edit.waitFor({ timeout: STEP_TIMEOUT_MS });
    assert.match(((await edit.locator('.state').textContent()) ?? '').trim(), /^repaint: ready \(10 s\), also in your songs$/);
    // Made: "Edit queued, position 1" next to Repaint is no longer true, and goes (issue 51).
    assert.equal(await card.getByText(/^Edit queued, position/).count(), 0, 'the queue line went');
    const editId = (await edit.getAttribute('data-job-id')) ?? '';
    assert.match(editId, /^gen_/);
    // Titled after the upload's name, not "Uploaded audio" (issue 51).
    const editJob = (await listJobs(api, { limit: 10 })).jobs.find((job) => job.job_id === editId);
    assert.equal(editJob?.title, 'chord (repainted 4–6 s)');
    console.log(`# uploads walk: upload and repaint took ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
    await checkView(page, '6-uploads');

    // Listed again (a fresh page, the file no longer in it): the upload still plays, by the list's URL (issue 51).
    await page.goto(`${stack.baseUrl}/app/uploads`);
    await card.locator('h3', { hasText: 'chord.wav' }).waitFor({ timeout: STEP_TIMEOUT_MS });
    assert.equal(await card.getAttribute('data-upload-id'), uploadId);
    const replayed = await card
      .locator('audio')
      .first()
      .evaluate(async (element) => {
        const player = element as unknown as { currentTime: number; play(): Promise<void>; pause(): void };
        await player.play();
        while (player.currentTime <= 0.3) await new Promise((resolve) => setTimeout(resolve, 50));
        player.pause();
        return player.currentTime;
      });
    assert.ok(replayed > 0.3, 'the listed upload plays');

    // Delete, asked once more in place: the card goes, and the API no longer lists it.
    assert.equal(await card.getByRole('button', { name: 'Yes, delete it' }).isVisible(), false, 'asked only once Delete is pressed');
    await card.getByRole('button', { name: 'Delete upload' }).click();
    assert.equal(await card.getByRole('button', { name: 'Delete upload' }).isVisible(), false);
    await card.getByRole('button', { name: 'Yes, delete it' }).click();
    await page.locator(`#uploads li[data-upload-id="${uploadId}"]`).waitFor({ state: 'detached', timeout: STEP_TIMEOUT_MS });
    assert.ok(!(await listUploads(api)).uploads.some((upload) => upload.uploadId === uploadId), 'deleted in the API too');

    // A copy of another account's signed song (quieter, re-encoded): refused next to the control.
    const original = join(dir.path, 'original.mp3');
    await writeFile(original, await anotherCreatorsSignedSong(stack, rpcUrl));
    const copy = await ffmpeg('copy.wav', ['-i', original, '-af', 'volume=-3dB', '-c:a', 'pcm_s16le']);
    await fileInput.setInputFiles(copy);
    await page.getByLabel('I confirm this statement for the file I upload').check();
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    assert.equal(
      await refusalNextToUpload(page),
      'This audio contains a song another creator made on Songmint: only audio of your own can be uploaded, and nothing was stored.',
    );
    assert.equal(await page.locator('#uploads li.card h3', { hasText: 'copy.wav' }).count(), 0, 'nothing listed');
    await page.locator('#upload-form').screenshot({ path: 'test-results/browser/6c-upload-refused-copy.png' });
  } finally {
    await dir.remove();
  }
}
