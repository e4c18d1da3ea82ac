/**
 * What a song is called (docs/api.md "Manage your library"), in one place: a minted song by its
 * metadata's `name`; an unminted one by the title its owner gave it (PATCH /api/generate/{job_id})
 * or, for an edit, the one it got from its source ("Night drive (extended +4 s)"); else its
 * prompt. The download's file name (./download-name.ts) and the library's search read the same.
 */
import type { EditParameters } from '../../../core/src/song-edits.ts';

export const TITLE_MAX_CHARS = 200;
/** A title made from a prompt keeps this many characters, cut at a word. */
const PROMPT_TITLE_CHARS = 60;

/** SQL (a scalar subquery): the minted name of the `generation_jobs` row in the FROM clause it is selected from. */
export const MINTED_NAME_OF_JOB = `SELECT NULLIF(btrim(m.document->>'name'), '')
      FROM mint_signatures s JOIN song_metadata m ON m.metadata_uri = s.metadata_uri
     WHERE s.job_id = generation_jobs.id AND s.token_id IS NOT NULL
     LIMIT 1`;

/** A prompt as a title: its first line, at most 60 characters, cut at the last word that fits. */
export function titleFromPrompt(prompt: string): string {
  const line = prompt.trim().split(/\r?\n/)[0]?.trim() ?? '';
  const chars = [...line];
  if (chars.length <= PROMPT_TITLE_CHARS) return line === '' ? 'Untitled song' : line;
  const cut = chars.slice(0, PROMPT_TITLE_CHARS).join('');
  const space = cut.lastIndexOf(' ');
  return `${(space > PROMPT_TITLE_CHARS / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.-]+$/u, '')}…`;
}

/** The name a song goes by: minted name, else its given title, else its prompt made short. */
export function songTitle(song: { mintedName: string | null; title: string | null; prompt: string }): string {
  return song.mintedName ?? song.title ?? titleFromPrompt(song.prompt);
}

const seconds = (value: number) => `${Math.round(value * 10) / 10}`;

/** What an edit did, as its title and origin line say it: "extended +4 s", "repainted 5–10 s", "remix, strength 0.7". */
export function editSummary(edit: EditParameters, addedSeconds: number): string {
  switch (edit.task) {
    case 'extend':
      return `extended +${seconds(addedSeconds)} s`;
    case 'repaint':
      return `repainted ${seconds(edit.start)}–${seconds(edit.end)} s`;
    case 'remix':
      return `remix, strength ${seconds(edit.strength)}`;
  }
}

/** An edit's title: its source's name and what was done, within the 200 characters a title may have. */
export function editTitle(sourceName: string, edit: EditParameters, addedSeconds: number): string {
  const suffix = ` (${editSummary(edit, addedSeconds)})`;
  const room = TITLE_MAX_CHARS - [...suffix].length;
  const base = [...sourceName];
  return `${base.length > room ? `${base.slice(0, room - 1).join('')}…` : sourceName}${suffix}`;
}
