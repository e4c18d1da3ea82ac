/**
 * What a profile's words may be (issue 51 item 5): a creator's display name and bio, and the
 * Farcaster user data shown in their place (./farcaster-user-data.ts). The characters are those of
 * every word shown to others (./shown-text.ts); here, only the lengths. Names are not unique: the
 * address is the identity, and pages show it beside the name.
 */
import { codePoints } from '../http/schema-parts.ts';
import { normalizeShownLine, normalizeShownText, shownTextProblem } from './shown-text.ts';

export const DISPLAY_NAME_MAX = 50;
export const BIO_MAX = 280;

/** The form a display name is checked and stored in (./shown-text.ts). */
export const normalizeDisplayName = normalizeShownLine;
/** The form a bio is checked and stored in (./shown-text.ts). */
export const normalizeBio = normalizeShownText;

/** Why a normalized display name is refused, or null when it is taken (empty: the caller clears it). */
export function displayNameProblem(normalized: string): string | null {
  const problem = shownTextProblem(normalized, { lineBreaks: false });
  if (problem !== null) return problem;
  if (codePoints(normalized) > DISPLAY_NAME_MAX) return `must be at most ${DISPLAY_NAME_MAX} characters`;
  return null;
}

/** Why a normalized bio is refused, or null. */
export function bioProblem(normalized: string): string | null {
  const problem = shownTextProblem(normalized, { lineBreaks: true });
  if (problem !== null) return problem;
  if (codePoints(normalized) > BIO_MAX) return `must be at most ${BIO_MAX} characters`;
  return null;
}

/** A display name from outside (a Farcaster hub) in the form ours take, or null when ours would refuse it. */
export function outsideDisplayName(value: string): string | null {
  const normalized = normalizeDisplayName(value);
  return normalized !== '' && displayNameProblem(normalized) === null ? normalized : null;
}
