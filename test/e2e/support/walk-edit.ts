/**
 * The web app's song edits, walked on a completed song of the library: a range picked by dragging
 * across the waveform lands in the two number inputs, a refused repaint (under 1 s) says why next
 * to its button, then three edits are queued one after the other: "Extend by 3 seconds", a repaint
 * of the range dragged on the waveform, a remix. Their cards complete (3 s longer, as long, as
 * long) and say "Extended from", "Repainted from", "Remixed from" their source with a link to it,
 * from the API's `edit_of` (also after a reload). The view is checked (axe, 360 px) with the edit
 * panel open.
 */
import assert from 'node:assert/strict';
import type { Locator, Page } from 'playwright-core';

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

/** Drags the mouse across `picker` from `from` to `to` (fractions of its width). */
async function dragAcross(page: Page, picker: Locator, from: number, to: number): Promise<void> {
  await picker.scrollIntoViewIfNeeded();
  const box = await picker.boundingBox();
  assert.ok(box, 'the waveform picker is shown');
  await page.mouse.move(box.x + box.width * from, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * to, box.y + box.height / 2, { steps: 4 });
  await page.mouse.up();
}

export async function walkSongEdit(page: Page, jobId: string, checkView: (page: Page, name: string) => Promise<void>): Promise<void> {
  const startedAt = Date.now();
  const source = page.locator(`#songs li.card[data-job-id="${jobId}"][data-status="completed"]`);
  const sourceSeconds = await lengthOf(page, jobId);
  const sourcePrompt = ((await source.locator('h3').textContent()) ?? '').trim();
  await source.getByRole('button', { name: 'Edit this song' }).click();

  // A drag across the waveform from 20 % to 50 % of its width picks that part of the song.
  const picker = source.locator('.range-picker');
  await source.locator('.range-picker canvas[data-columns="160"]').waitFor({ timeout: STEP_TIMEOUT_MS });
  await dragAcross(page, picker, 0.2, 0.5);
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

  // Three edits queued one after the other, each card first in the library as it is queued:
  // extend by a few seconds, repaint the range dragged on the waveform, remix. Each completes
  // (the built-in model) and says where it came from, read from the API's `edit_of`.
  const queueEdit = async (button: string, errorClass: string): Promise<string> => {
    const earlier = await page.locator('#songs > li').evaluateAll((items) => items.map((item) => item.getAttribute('data-job-id')));
    await source.getByRole('button', { name: button, exact: true }).click();
    await page.waitForFunction(
      (known) => {
        const id = document.querySelector('#songs > li')?.getAttribute('data-job-id');
        return id !== null && id !== undefined && !known.includes(id);
      },
      earlier,
      { timeout: STEP_TIMEOUT_MS },
    );
    const error = source.locator(`.${errorClass} .edit-error`);
    assert.equal(await error.isHidden(), true, (await error.textContent()) ?? '');
    const editId = (await page.locator('#songs > li').first().getAttribute('data-job-id')) ?? '';
    assert.match(editId, /^gen_/);
    return editId;
  };
  await source.getByLabel('Extend by (seconds)').fill(String(EXTEND_SECONDS));
  const extended = await queueEdit('Extend', 'edit-extend');
  await dragAcross(page, picker, 0.2, 0.5);
  const repainted = await queueEdit('Repaint', 'edit-repaint');
  const remixed = await queueEdit('Remix', 'edit-remix');
  const completed = (id: string) => page.locator(`#songs li.card[data-job-id="${id}"][data-status="completed"]`);
  const origins: Array<[string, string]> = [
    [extended, 'Extended from'],
    [repainted, 'Repainted from'],
    [remixed, 'Remixed from'],
  ];
  for (const [editId, verb] of origins) {
    await completed(editId).waitFor({ timeout: STEP_TIMEOUT_MS });
    const origin = completed(editId).locator('.edit-origin');
    assert.equal(((await origin.textContent()) ?? '').trim(), `${verb} “${sourcePrompt.slice(0, 80)}”`);
    assert.equal(await origin.getByRole('link').getAttribute('href'), `#song-${jobId}`);
  }
  assert.equal(await lengthOf(page, extended), sourceSeconds + EXTEND_SECONDS);
  assert.equal(await lengthOf(page, repainted), sourceSeconds);
  assert.equal(await lengthOf(page, remixed), sourceSeconds);
  // After a reload the lines come from the job list alone (nothing is kept in the browser).
  await page.reload();
  await completed(remixed)
    .locator('.edit-origin', { hasText: `Remixed from “${sourcePrompt.slice(0, 80)}”` })
    .waitFor({ timeout: STEP_TIMEOUT_MS });
  await completed(extended).locator('.edit-origin', { hasText: 'Extended from' }).waitFor({ timeout: STEP_TIMEOUT_MS });
  const edited = completed(extended);
  await edited.getByRole('button', { name: 'Edit this song' }).click();
  console.log(`# song edit walk: ${((Date.now() - startedAt) / 1000).toFixed(1)} s before its axe check`);
  await checkView(page, '2b-song-edit');
}
