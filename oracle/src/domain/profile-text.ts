/**
 * The one home of what a profile's words may be (issue 51 item 5): a creator's display name and
 * bio, and the Farcaster user data shown in their place (./farcaster-user-data.ts). Names are
 * shown beside other people's, in pages, cards and link previews, so what could make one name
 * pass for another or reorder the text around it is refused rather than cleaned: control
 * characters (Cc), format characters (Cf: the bidi overrides and isolates U+202A-U+202E and
 * U+2066-U+2069, zero-width spaces and joiners), line and paragraph separators, spaces other than
 * U+0020, private-use and unassigned code points, and the letters that draw nothing. One exception: the zero-width joiner between two
 * pictographs, which draws emoji such as 👩‍💻. Names are not unique: the address is the identity,
 * and pages show it beside the name.
 */
import { codePoints } from '../http/schema-parts.ts';

export const DISPLAY_NAME_MAX = 50;
export const BIO_MAX = 280;

/** Letters, marks, numbers, punctuation, symbols and U+0020; a bio also takes U+000A. */
const NAME_CHARACTERS = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]*$/u;
const BIO_CHARACTERS = /^[\p{L}\p{M}\p{N}\p{P}\p{S} \n]*$/u;
/** A zero-width joiner inside an emoji sequence (a pictograph, its modifiers, ZWJ, a pictograph). */
const EMOJI_JOINER = /(?<=\p{Extended_Pictographic}[\p{M}\p{Emoji_Modifier}]*)\u200D(?=\p{Extended_Pictographic})/gu;

/** Letters and symbols that draw nothing (Hangul fillers, the blank Braille pattern): a name made of them looks empty. */
const BLANK_LOOKING = /[\u115F\u1160\u3164\uFFA0\u2800]/u;

const withoutEmojiJoiners = (value: string) => value.replace(EMOJI_JOINER, '');

/** NFC, trimmed, runs of spaces as one: the form a name is checked and stored in. */
export function normalizeDisplayName(value: string): string {
  return value.normalize('NFC').trim().replace(/ {2,}/g, ' ');
}

/** NFC, CRLF and CR as LF, trimmed, at most one empty line in a row. */
export function normalizeBio(value: string): string {
  return value
    .normalize('NFC')
    .replace(/\r\n?/g, '\n')
    .trim()
    .replace(/\n{3,}/g, '\n\n');
}

/** Why a normalized display name is refused, or null when it is taken (empty: the caller clears it). */
export function displayNameProblem(normalized: string): string | null {
  if (!NAME_CHARACTERS.test(withoutEmojiJoiners(normalized)) || BLANK_LOOKING.test(normalized)) {
    return 'must be letters, numbers, punctuation, symbols and spaces (no control, bidi or invisible characters)';
  }
  if (codePoints(normalized) > DISPLAY_NAME_MAX) return `must be at most ${DISPLAY_NAME_MAX} characters`;
  return null;
}

/** Why a normalized bio is refused, or null. */
export function bioProblem(normalized: string): string | null {
  if (!BIO_CHARACTERS.test(withoutEmojiJoiners(normalized)) || BLANK_LOOKING.test(normalized)) {
    return 'must be letters, numbers, punctuation, symbols, spaces and line breaks (no control, bidi or invisible characters)';
  }
  if (codePoints(normalized) > BIO_MAX) return `must be at most ${BIO_MAX} characters`;
  return null;
}

/** A display name from outside (a Farcaster hub) in the form ours take, or null when ours would refuse it. */
export function outsideDisplayName(value: string): string | null {
  const normalized = normalizeDisplayName(value);
  return normalized !== '' && displayNameProblem(normalized) === null ? normalized : null;
}
