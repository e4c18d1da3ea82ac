/**
 * The building blocks the request schemas share: addresses, hex strings and text as the spec and
 * PostgreSQL count it. Each rule and its message live here once.
 */
import { z } from 'zod';

/** Characters as the spec and PostgreSQL count them (code points, not UTF-16 units). */
export const codePoints = (value: string): number => [...value].length;
/** PostgreSQL text cannot hold U+0000. */
export const noNul = (value: string): boolean => !value.includes('\u0000');

/** A 20-byte address, any letter case (compared lower-case). */
export const addressSchema = z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 0x-prefixed 20-byte address');
/** A 32-byte value such as an audio hash. */
export const bytes32Schema = z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'must be 0x followed by 64 hex digits');
/** Hex bytes of any length (a signature). */
export const hexSchema = z.string().regex(/^0x[0-9a-fA-F]+$/, 'must be 0x-prefixed hex');

/**
 * The query fields of a keyset-paginated list (`GET /api/generate`, `GET /api/uploads`): an
 * opaque `cursor` from the previous page and a `limit` of 1 to `max` (default `fallback`).
 */
export function pageQueryFields(items: string, max: number, fallback: number) {
  return {
    cursor: z.string().min(1).max(200).optional().meta({ description: 'Opaque: the `next_cursor` of the previous page.' }),
    limit: z.coerce
      .number({ error: 'must be a whole number' })
      .int()
      .min(1)
      .max(max)
      .default(fallback)
      .meta({ description: `${items} per page, 1 to ${max} (default ${fallback}).` }),
  };
}
