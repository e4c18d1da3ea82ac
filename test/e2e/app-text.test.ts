/**
 * What the web app says, without a browser (issue 45): the songs left next to Generate (item 23:
 * no "10 today, 10 this hour", a reset time with its zone and date), what an edit did (item 8),
 * and the repaint range the form refuses before anything is sent (items 18, 19). The browser walk
 * (test/e2e/support/web-app-walk.ts) shows the same lines in the page.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { editVerb, repaintRangeProblem } from '../../app/src/edit-words.ts';
import { shortText, songsLeft, whenLocal } from '../../app/src/format.ts';

const limit = (remaining: number, used: number, resetAt: string) => ({ remaining, used, reset_at: resetAt });
const NOW = new Date('2026-11-28T13:20:00Z');
const MIDNIGHT = '2026-11-29T00:00:00.000Z';
const HOUR_END = '2026-11-28T14:00:00.000Z';

describe('the web app’s words', () => {
  it('says a reset time with its zone, and its day when it is not today', () => {
    assert.equal(whenLocal(new Date(HOUR_END), NOW, 'UTC'), '14:00 UTC');
    assert.equal(whenLocal(new Date(MIDNIGHT), NOW, 'UTC'), '00:00 UTC on Sun 29 Nov');
    // In Paris midnight UTC is 01:00 the next day; in New York 19:00 the same day.
    assert.equal(whenLocal(new Date(MIDNIGHT), NOW, 'Europe/Paris'), '01:00 CET on Sun 29 Nov');
    assert.equal(whenLocal(new Date(MIDNIGHT), NOW, 'America/New_York'), '19:00 GMT-5');
  });

  it('says the songs left once: the hour only when it allows fewer, the reset with its zone', () => {
    const fresh = { daily: limit(10, 0, MIDNIGHT), hourly: limit(10, 0, HOUR_END) };
    assert.equal(songsLeft(fresh, NOW, 'UTC'), '10 songs left today.');
    const oneUsed = { daily: limit(9, 1, MIDNIGHT), hourly: limit(9, 1, HOUR_END) };
    assert.equal(songsLeft(oneUsed, NOW, 'UTC'), '9 songs left today (the count resets at 00:00 UTC on Sun 29 Nov).');
    const pro = { daily: limit(95, 5, MIDNIGHT), hourly: limit(3, 97, HOUR_END) };
    assert.equal(songsLeft(pro, NOW, 'UTC'), "95 songs left today, 3 of them this hour (the hour's count resets at 14:00 UTC).");
    const hourSpent = { daily: limit(40, 60, MIDNIGHT), hourly: limit(0, 100, HOUR_END) };
    assert.equal(songsLeft(hourSpent, NOW, 'UTC'), 'No songs left this hour (40 songs left today): more from 14:00 UTC.');
    const daySpent = { daily: limit(0, 10, MIDNIGHT), hourly: limit(0, 10, HOUR_END) };
    assert.equal(songsLeft(daySpent, NOW, 'Europe/Paris'), 'No songs left today: more from 01:00 CET on Sun 29 Nov.');
    assert.equal(songsLeft({ daily: limit(1, 9, MIDNIGHT), hourly: limit(1, 9, HOUR_END) }, NOW, 'UTC').startsWith('1 song left'), true);
  });

  it('shortens a title said aloud at a word’s end, never cutting a word (issue 51)', () => {
    assert.equal(shortText('warm lo-fi piano, 80 bpm, rainy evening', 40), 'warm lo-fi piano, 80 bpm, rainy evening');
    assert.equal(shortText('warm lo-fi piano, 80 bpm, rainy evening with a slow choir', 40), 'warm lo-fi piano, 80 bpm, rainy evening…');
    assert.equal(shortText('dreamy synthwave, neon lights, night drive', 30), 'dreamy synthwave, neon lights…');
    assert.equal(shortText('a'.repeat(50), 40), `${'a'.repeat(40)}…`, 'one word longer than the room is cut: nothing else fits');
    assert.equal(shortText('  padded  ', 40), 'padded');
  });

  it('says what an edit did', () => {
    const none = { start: null, end: null, strength: null };
    assert.equal(editVerb({ task: 'extend', ...none }, 4), 'Extended +4 s from');
    assert.equal(editVerb({ task: 'extend', ...none }), 'Extended from', 'its source unknown: no figure made up');
    assert.equal(editVerb({ task: 'repaint', start: 5, end: 10, strength: null }), 'Repainted 5–10 s of');
    assert.equal(editVerb({ task: 'remix', start: null, end: null, strength: 0.7 }), 'Remixed (strength 0.7) from');
  });

  it('refuses a repaint range typed backwards or under 1 s as a range, never swapping it', () => {
    assert.equal(repaintRangeProblem(12, 4, 20), 'The range ends before it starts (12 s to 4 s): make “from” the earlier second.');
    assert.equal(repaintRangeProblem(4, 4.5, 20), 'Pick at least 1 second to repaint: 4–4.5 s is 0.5 s.');
    assert.equal(repaintRangeProblem(4, 25, 20), 'Pick a range inside the song: 0 to 20 s.');
    assert.equal(repaintRangeProblem(Number.NaN, 4, 20), 'Type the range in seconds, like 4 and 6.');
    assert.equal(repaintRangeProblem(4, 12, 20), null);
    assert.doesNotMatch(repaintRangeProblem(4, 4.5, 20) ?? '', /extend/i);
  });
});
