/**
 * The browser walk's downloads (issue 45, items 1, 2, 20): on a finished song's card, MP3, WAV and
 * FLAC each save a real file named `<title> - <short id>.<ext>` (Chromium saves what the presigned
 * URL answers as `Content-Disposition: attachment`; the page stays where it is, nothing plays in a
 * black tab), and ffprobe (Debian's, an implementation independent of ours) reads each as its
 * format and length. "Saving …" names the file next to its button.
 */
import assert from 'node:assert/strict';
import { mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { runReference } from '../../support/reference-tools.ts';

const STEP_TIMEOUT_MS = 180_000;
/** ffprobe's format_name per button. */
const FORMATS = { mp3: 'mp3', wav: 'wav', flac: 'flac' } as const;

interface Probed {
  format: { format_name: string; duration: string };
  streams: Array<{ codec_type: string; codec_name: string }>;
}

/** ffprobe from the system, else the npm devDependency's build (test/support/reference-tools.ts). */
async function ffprobe(path: string): Promise<Probed> {
  const { stdout } = await runReference('ffprobe', [
    '-v',
    'error',
    '-show_entries',
    'format=format_name,duration:stream=codec_type,codec_name',
    '-of',
    'json',
    path,
  ]);
  return JSON.parse(stdout.toString('utf8')) as Probed;
}

/** Safe characters as the API makes them (oracle/src/domain/download-name.ts): what the saved name must start with. */
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f/\\:*?"<>|]/g;
const safeTitle = (title: string) => title.replace(UNSAFE, ' ').replace(/\s+/g, ' ').trim();

/**
 * Clicks each download button of `card` (a completed song of the library, `seconds` long) and
 * keeps what the browser saved in `folder`; returns the saved paths.
 */
export async function downloadsSaveFiles(page: Page, card: Locator, seconds: number, folder: string): Promise<string[]> {
  const started = Date.now();
  await mkdir(folder, { recursive: true });
  const jobId = (await card.getAttribute('data-job-id')) ?? '';
  const title = ((await card.locator('h3').textContent()) ?? '').trim();
  const expectedName = (extension: string) => `${safeTitle(title)} - ${jobId.slice(4, 12)}.${extension}`;
  const before = page.url();
  const saved: string[] = [];
  for (const [format, formatName] of Object.entries(FORMATS)) {
    const button = card.locator(`.downloads button[data-format="${format}"]`);
    const [download] = await Promise.all([page.waitForEvent('download', { timeout: STEP_TIMEOUT_MS }), button.click()]);
    assert.equal(download.suggestedFilename(), expectedName(format), `${format}: saved under the song's name`);
    const path = join(folder, download.suggestedFilename());
    await download.saveAs(path);
    assert.equal(await download.failure(), null, `${format}: the download finished`);
    assert.ok((await stat(path)).size > 1000, `${format}: a real file`);
    saved.push(path);
    // Next to its button, in words; the tab did not navigate to the file.
    const status = card.locator('.downloads + .action-messages [role="status"]');
    await status.filter({ hasText: `Saving “${expectedName(format)}”` }).waitFor({ timeout: STEP_TIMEOUT_MS });
    assert.equal(page.url(), before, `${format}: the page stays (no black tab playing the file)`);
    const probed = await ffprobe(path);
    assert.equal(probed.format.format_name, formatName, `${format}: ffprobe reads it as ${formatName}`);
    assert.ok(Math.abs(Number(probed.format.duration) - seconds) < 0.2, `${format}: ${probed.format.duration} s, the song is ${seconds} s`);
    assert.ok(
      probed.streams.some((stream) => stream.codec_type === 'audio'),
      `${format}: an audio stream`,
    );
  }
  console.log(`# web app walk: MP3, WAV and FLAC saved and probed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return saved;
}
