/**
 * The web app's song edits, walked on a completed song of the library: a range picked by dragging
 * across the waveform lands in the two number inputs, a refused repaint (under 1 s) says why next
 * to its button, then "Extend by 3 seconds" queues an edit whose new card completes 3 s longer and
 * says "Extended from" its source with a link to it. The view is checked (axe, 360 px) with the
 * edit panel open.
 */
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';

/** The one page global read in `waitForFunction` (it runs in Chromium); declared for this module alone. */
declare const document: { querySelector(selector: string): { getAttribute(name: string): string | null } | null };

const STEP_TIMEOUT_MS = 180_000;
const EXTEND_SECONDS = 3;

const lengthOf = async (page: Page, jobId: string) => {
  const shown = (await page.locator(`#songs li.card[data-job-id="${jobId}"] dd`).first().textContent()) ?? '';
  const seconds = /^(\d+(?:\.\d+)?) s$/.exec(shown.trim());
  assert.ok(seconds, `the length of ${jobId}: ${shown}`);
  return Number(seconds[1]);
};

export async function walkSongEdit(page: Page, jobId: string, checkView: (page: Page, name: string) => Promise<void>): Promise<void> {
  const startedAt = Date.now();
  const source = page.locator(`#songs li.card[data-job-id="${jobId}"][data-status="completed"]`);
  const sourceSeconds = await lengthOf(page, jobId);
  const sourcePrompt = ((await source.locator('h3').textContent()) ?? '').trim();
  await source.getByRole('button', { name: 'Edit this song' }).click();

  // A drag across the waveform from 20 % to 50 % of its width picks that part of the song.
  const picker = source.locator('.range-picker');
  await source.locator('.range-picker canvas[data-columns="160"]').waitFor({ timeout: STEP_TIMEOUT_MS });
  await picker.scrollIntoViewIfNeeded();
  const box = await picker.boundingBox();
  assert.ok(box, 'the waveform picker is shown');
  await page.mouse.move(box.x + box.width * 0.2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.5, box.y + box.height / 2, { steps: 4 });
  await page.mouse.up();
  const from = Number(await source.getByLabel('Repaint from (s)').inputValue());
  const to = Number(await source.getByLabel('to (s)').inputValue());
  assert.ok(Math.abs(from - sourceSeconds * 0.2) <= 0.3 && Math.abs(to - sourceSeconds * 0.5) <= 0.3, `dragged range ${from}–${to} s`);

  // Typed by keyboard: a range under 1 s is refused by the API, in words, next to Repaint.
  await source.getByLabel('Repaint from (s)').fill('2');
  await source.getByLabel('to (s)').fill('2.5');
  await source.getByRole('button', { name: 'Repaint' }).click();
  const refusal = source.locator('.edit-repaint .edit-error:not([hidden])');
  await refusal.waitFor({ timeout: STEP_TIMEOUT_MS });
  assert.match((await refusal.textContent()) ?? '', new RegExp(`^That does not fit this ${sourceSeconds} s song: `));

  // Extend by a few seconds: the new job's card comes first and completes longer, naming its source.
  const earlier = await page.locator('#songs > li').evaluateAll((items) => items.map((item) => item.getAttribute('data-job-id')));
  await source.getByLabel('Extend by (seconds)').fill(String(EXTEND_SECONDS));
  await source.getByRole('button', { name: 'Extend' }).click();
  const newest = page.locator('#songs > li').first();
  await page.waitForFunction(
    (known) => {
      const id = document.querySelector('#songs > li')?.getAttribute('data-job-id');
      return id !== null && id !== undefined && !known.includes(id);
    },
    earlier,
    { timeout: STEP_TIMEOUT_MS },
  );
  const editId = (await newest.getAttribute('data-job-id')) ?? '';
  assert.match(editId, /^gen_/);
  const extendError = source.locator('.edit-extend .edit-error');
  assert.equal(await extendError.isHidden(), true, (await extendError.textContent()) ?? '');
  const edited = page.locator(`#songs li.card[data-job-id="${editId}"][data-status="completed"]`);
  await edited.waitFor({ timeout: STEP_TIMEOUT_MS });
  assert.equal(await lengthOf(page, editId), sourceSeconds + EXTEND_SECONDS);
  const origin = edited.locator('.edit-origin');
  assert.equal(((await origin.textContent()) ?? '').trim(), `Extended from “${sourcePrompt.slice(0, 80)}”`);
  assert.equal(await origin.getByRole('link').getAttribute('href'), `#song-${jobId}`);
  await edited.getByRole('button', { name: 'Edit this song' }).click();
  console.log(`# song edit walk: ${((Date.now() - startedAt) / 1000).toFixed(1)} s before its axe check`);
  await checkView(page, '2b-song-edit');
}
