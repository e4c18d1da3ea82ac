/**
 * The web app's song edits, walked on a completed song of the library: a range picked by dragging
 * across the waveform lands in the two number inputs; a range typed backwards (12 to 4) and one
 * under 1 s are refused in their own words next to Repaint before anything is sent or charged
 * (issue 45, items 18 and 19); then three edits are queued one after the other: "Extend by 3
 * seconds", a repaint of the range dragged on the waveform, a remix, and the songs left next to
 * Generate go down with each (item 9). Their cards complete (3 s longer, as long, as long), each
 * with its own name ("… (extended +3 s)", item 8), the source's lyrics (item 7), and an origin line
 * saying what was done ("Extended +3 s from", "Repainted 2–5 s of", "Remixed (strength 0.5)
 * from") with a link to the source, from the API's `edit_of` (also after a reload). The view is
 * checked (axe, 360 px) with the edit panel open. Returns the edits' job ids.
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

/** "N songs left today" next to Generate, as a number. */
const songsLeftToday = async (page: Page) =>
  Number(/^(\d+) songs? left today/.exec((await page.locator('#songs-left').textContent()) ?? '')?.[1]);

export async function walkSongEdit(
  page: Page,
  jobId: string,
  checkView: (page: Page, name: string, options?: { everyImpact?: boolean }) => Promise<void>,
): Promise<string[]> {
  const startedAt = Date.now();
  const source = page.locator(`#songs li.card[data-job-id="${jobId}"][data-status="completed"]`);
  const sourceSeconds = await lengthOf(page, jobId);
  const sourcePrompt = ((await source.locator('h3').textContent()) ?? '').trim();
  await source.locator('summary').first().click();
  const sourceLyrics = ((await source.locator('pre.lyrics').textContent()) ?? '').trim();
  assert.notEqual(sourceLyrics, '', 'the source has lyrics');
  await source.getByRole('button', { name: 'Edit this song' }).click();

  // A drag across the waveform from 20 % to 50 % of its width picks that part of the song.
  const picker = source.locator('.range-picker');
  await source.locator('.range-picker canvas[data-columns="160"]').waitFor({ timeout: STEP_TIMEOUT_MS });
  await dragAcross(page, picker, 0.2, 0.5);
  const from = Number(await source.getByLabel('Repaint from (s)').inputValue());
  const to = Number(await source.getByLabel('to (s)').inputValue());
  assert.ok(Math.abs(from - sourceSeconds * 0.2) <= 0.3 && Math.abs(to - sourceSeconds * 0.5) <= 0.3, `dragged range ${from}–${to} s`);

  // Typed by keyboard: a range typed backwards is refused, never swapped (and charged); a range
  // under 1 s is refused as a range (not as an extension); each next to Repaint, nothing sent.
  const leftBefore = await songsLeftToday(page);
  const refusal = source.locator('.edit-repaint .edit-error:not([hidden])');
  await source.getByLabel('Repaint from (s)').fill('8');
  await source.getByLabel('to (s)').fill('4');
  await source.getByRole('button', { name: 'Repaint' }).click();
  await refusal.waitFor({ timeout: STEP_TIMEOUT_MS });
  assert.equal(await refusal.textContent(), 'The range ends before it starts (8 s to 4 s): make “from” the earlier second.');
  await source.getByLabel('Repaint from (s)').fill('2');
  await source.getByLabel('to (s)').fill('2.5');
  await source.getByRole('button', { name: 'Repaint' }).click();
  await refusal.filter({ hasText: 'Pick at least 1 second to repaint: 2–2.5 s is 0.5 s.' }).waitFor({ timeout: STEP_TIMEOUT_MS });
  assert.doesNotMatch((await refusal.textContent()) ?? '', /extend/i);
  assert.equal(await songsLeftToday(page), leftBefore, 'a refused range costs nothing');

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
  const [from2, to2] = [await source.getByLabel('Repaint from (s)').inputValue(), await source.getByLabel('to (s)').inputValue()];
  const repainted = await queueEdit('Repaint', 'edit-repaint');
  const remixed = await queueEdit('Remix', 'edit-remix');
  // Each edit used a song of the day: the line next to Generate says so without a reload.
  await page.locator('#songs-left', { hasText: new RegExp(`^${leftBefore - 3} songs? left today`) }).waitFor({ timeout: STEP_TIMEOUT_MS });
  const completed = (id: string) => page.locator(`#songs li.card[data-job-id="${id}"][data-status="completed"]`);
  const origins: Array<[string, string, string]> = [
    [extended, `Extended +${EXTEND_SECONDS} s from`, `extended +${EXTEND_SECONDS} s`],
    [repainted, `Repainted ${from2}–${to2} s of`, `repainted ${from2}–${to2} s`],
    [remixed, 'Remixed (strength 0.5) from', 'remix, strength 0.5'],
  ];
  for (const [editId, verb, done] of origins) {
    await completed(editId).waitFor({ timeout: STEP_TIMEOUT_MS });
    const origin = completed(editId).locator('.edit-origin');
    assert.equal(((await origin.textContent()) ?? '').trim(), `${verb} “${sourcePrompt.slice(0, 80)}”`);
    assert.equal(await origin.getByRole('link').getAttribute('href'), `#song-${jobId}`);
    // Its own name, and the lyrics its source was made with (a fact of the generation record).
    assert.equal(((await completed(editId).locator('h3').textContent()) ?? '').trim(), `${sourcePrompt} (${done})`);
    await completed(editId).locator('summary').first().click();
    assert.equal(((await completed(editId).locator('pre.lyrics').textContent()) ?? '').trim(), sourceLyrics);
  }
  assert.equal(await lengthOf(page, extended), sourceSeconds + EXTEND_SECONDS);
  assert.equal(await lengthOf(page, repainted), sourceSeconds);
  assert.equal(await lengthOf(page, remixed), sourceSeconds);
  // After a reload the lines come from the job list alone (nothing is kept in the browser).
  await page.reload();
  await completed(remixed)
    .locator('.edit-origin', { hasText: `Remixed (strength 0.5) from “${sourcePrompt.slice(0, 80)}”` })
    .waitFor({ timeout: STEP_TIMEOUT_MS });
  await completed(extended)
    .locator('.edit-origin', { hasText: `Extended +${EXTEND_SECONDS} s from` })
    .waitFor({ timeout: STEP_TIMEOUT_MS });
  const edited = completed(extended);
  await edited.getByRole('button', { name: 'Edit this song' }).click();
  console.log(`# song edit walk: ${((Date.now() - startedAt) / 1000).toFixed(1)} s before its axe check`);
  await checkView(page, '2b-song-edit', { everyImpact: true });
  return [extended, repainted, remixed];
}
