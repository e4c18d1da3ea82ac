/**
 * The one home of what words shown to other people may hold: a creator's display name and bio
 * (./profile-text.ts), a song's title (PATCH /api/generate/{job_id}), an upload's name (its edits
 * are titled after it, on song pages anyone can open) and the Farcaster user data shown in a
 * name's place. Such words sit beside other people's in pages, cards and link previews, so what
 * could make one pass for another or reorder the text around it is refused rather than cleaned:
 * control characters (Cc), format characters (Cf: the bidi overrides and isolates U+202A-U+202E
 * and U+2066-U+2069, zero-width spaces and joiners), line and paragraph separators, private-use
 * and unassigned code points, and the letters that draw nothing. One exception: the zero-width
 * joiner between two pictographs, which draws emoji such as 👩‍💻. Spaces other than U+0020 (a
 * no-break space, macOS's U+202F in a screenshot's file name) are not refused: normalizing makes
 * them U+0020, which shows the same.
 */

/** Letters, marks, numbers, punctuation, symbols and U+0020; with line breaks, U+000A too. */
const LINE_CHARACTERS = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]*$/u;
const TEXT_CHARACTERS = /^[\p{L}\p{M}\p{N}\p{P}\p{S} \n]*$/u;
/** A zero-width joiner inside an emoji sequence (a pictograph, its modifiers, ZWJ, a pictograph). */
const EMOJI_JOINER = /(?<=\p{Extended_Pictographic}[\p{M}\p{Emoji_Modifier}]*)\u200D(?=\p{Extended_Pictographic})/gu;
/** Letters and symbols that draw nothing (Hangul fillers, the blank Braille pattern): a name made of them looks empty. */
const BLANK_LOOKING = /[\u115F\u1160\u3164\uFFA0\u2800]/u;
/** Space separators (Zs) other than U+0020. */
const OTHER_SPACES = /[^\P{Zs} ]/gu;

/** NFC, other spaces as U+0020, trimmed, runs of spaces as one: the form a one-line text is checked and stored in. */
export function normalizeShownLine(value: string): string {
  return value.normalize('NFC').replace(OTHER_SPACES, ' ').trim().replace(/ {2,}/g, ' ');
}

/** NFC, other spaces as U+0020, CRLF and CR as LF, trimmed, at most one empty line in a row. */
export function normalizeShownText(value: string): string {
  return value
    .normalize('NFC')
    .replace(OTHER_SPACES, ' ')
    .replace(/\r\n?/g, '\n')
    .trim()
    .replace(/\n{3,}/g, '\n\n');
}

/** Why a normalized text may not be shown to others, or null when it may. */
export function shownTextProblem(normalized: string, options: { lineBreaks: boolean }): string | null {
  const allowed = options.lineBreaks ? TEXT_CHARACTERS : LINE_CHARACTERS;
  if (allowed.test(normalized.replace(EMOJI_JOINER, '')) && !BLANK_LOOKING.test(normalized)) return null;
  return options.lineBreaks
    ? 'must be letters, numbers, punctuation, symbols, spaces and line breaks (no control, bidi or invisible characters)'
    : 'must be letters, numbers, punctuation, symbols and spaces (no control, bidi or invisible characters)';
}
