/**
 * The terms of the fingerprint index (core/src/fingerprint/registry.ts), as AcoustID's PostgreSQL
 * index has them: each item's top 28 bits (the last two classifiers' bits, the least robust,
 * dropped), as a signed 32-bit integer for an `int4[]` column. A registered song is indexed by
 * the set of its terms; an item equal to the one before it (held notes, silence) adds nothing.
 */

export const TERM_BITS = 28;
const TERM_MASK = ((1 << TERM_BITS) - 1) << (32 - TERM_BITS);

/** The index term of one item (signed 32-bit). */
export function termOf(item: number): number {
  return item & TERM_MASK;
}

/** The distinct terms of a fingerprint, sorted, skipping items that repeat the one before. */
export function fingerprintTerms(items: Uint32Array): Int32Array {
  const terms = new Set<number>();
  let previous: number | undefined;
  for (const item of items) {
    const term = termOf(item);
    if (term !== previous) terms.add(term);
    previous = term;
  }
  return Int32Array.from([...terms].sort((a, b) => a - b));
}
