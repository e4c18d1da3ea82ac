import { createHash } from 'node:crypto';

/**
 * A strong entity tag for a JSON body: the first 16 bytes of its SHA-256, base64url. Derived from
 * the body itself, so every replica gives the same tag for the same view without a version column,
 * and any change the client would see (status, progress, position, estimate) changes the tag.
 */
export function bodyEtag(body: string): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
}

/**
 * Whether an `If-None-Match` header matches `etag` (RFC 9110 §13.1.2: `*`, or a comma-separated
 * list compared weakly, so `W/"x"` matches `"x"`). A missing or empty header never matches.
 */
export function ifNoneMatchHits(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const opaque = (tag: string): string => (tag.startsWith('W/') ? tag.slice(2) : tag);
  return header
    .split(',')
    .map((tag) => tag.trim())
    .some((tag) => tag === '*' || (tag !== '' && opaque(tag) === opaque(etag)));
}
