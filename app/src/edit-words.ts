/**
 * What the edit controls say, without the page (unit-tested in test/e2e/app-text.test.ts): what an
 * edit did, and the client's own check of a repaint range.
 */

export const seconds = (value: number) => Math.round(value * 10) / 10;

/** The parts of an edit (the API's `edit_of`) its words use. */
export interface EditDone {
  task: 'extend' | 'repaint' | 'remix';
  start: number | null;
  end: number | null;
  strength: number | null;
}

/**
 * What an edit did, before its source's name: "Extended +4 s from", "Repainted 5–10 s of",
 * "Remixed (strength 0.7) from". An extension's seconds are the edit's length less its source's,
 * known when the source's card is on the page.
 */
export function editVerb(editOf: EditDone, addedSeconds?: number): string {
  switch (editOf.task) {
    case 'extend':
      return addedSeconds === undefined || addedSeconds <= 0 ? 'Extended from' : `Extended +${seconds(addedSeconds)} s from`;
    case 'repaint':
      return editOf.start === null || editOf.end === null
        ? 'Repainted from'
        : `Repainted ${seconds(editOf.start)}–${seconds(editOf.end)} s of`;
    case 'remix':
      return editOf.strength === null ? 'Remixed from' : `Remixed (strength ${seconds(editOf.strength)}) from`;
  }
}

/**
 * The client's own check of a repaint range before anything is sent (and charged): `start` before
 * `end` as typed (never swapped), at least 1 s, inside the song. Null when it fits, else why.
 */
export function repaintRangeProblem(start: number, end: number, duration: number): string | null {
  if (!Number.isFinite(start) || !Number.isFinite(end)) return 'Type the range in seconds, like 4 and 6.';
  if (start > end) return `The range ends before it starts (${start} s to ${end} s): make “from” the earlier second.`;
  if (start < 0 || end > duration) return `Pick a range inside the song: 0 to ${duration} s.`;
  if (end - start < 1) return `Pick at least 1 second to repaint: ${start}–${end} s is ${seconds(end - start)} s.`;
  return null;
}
