/**
 * Opaque page cursors for lists cut by keyset on (created_at, id), newest first (the job and
 * upload lists): base64url of `<prefix><created_at>|<id>`, the creation time exact to the
 * microsecond as PostgreSQL keeps it. Each list has its own prefix (the job list's is empty, as
 * its cursors always were), so one list's cursor is refused by another.
 */

export interface KeysetPosition {
  /** ISO 8601 UTC with microseconds, e.g. 2026-11-23T13:07:37.123456Z. */
  createdAt: string;
  id: string;
}

export interface KeysetCursorCodec {
  encode(position: KeysetPosition): string;
  /** The position a cursor names, or null for anything this list did not issue. */
  decode(cursor: string): KeysetPosition | null;
}

const POSITION = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z)\|([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

export function keysetCursorCodec(prefix: string): KeysetCursorCodec {
  return {
    encode: (position) => Buffer.from(`${prefix}${position.createdAt}|${position.id}`, 'utf8').toString('base64url'),
    decode(cursor) {
      if (!/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) return null;
      const text = Buffer.from(cursor, 'base64url').toString('utf8');
      if (!text.startsWith(prefix)) return null;
      const match = POSITION.exec(text.slice(prefix.length));
      if (match?.[1] === undefined || match[2] === undefined) return null;
      // A real instant PostgreSQL accepts: no Feb 31 or 24:00 (Date would roll them over), no year 0.
      const time = Date.parse(match[1]);
      if (Number.isNaN(time) || new Date(time).toISOString().slice(0, 19) !== match[1].slice(0, 19) || match[1] < '1970') return null;
      return { createdAt: match[1], id: match[2] };
    },
  };
}
