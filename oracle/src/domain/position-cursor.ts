/**
 * Opaque page cursors that name a position on the chain (a block and a log index): base64url of
 * `<prefix>:<block>:<index>`. A position, not a row, so a cursor stays valid when the row it came
 * from was deleted by a reorg. Each list has its own prefix, so one list's cursor is refused by another.
 */
import { fail, ok } from './errors.ts';
import type { Result } from './errors.ts';

export interface ChainPosition {
  block: bigint;
  logIndex: number;
}

export interface PositionCursorCodec {
  encode(position: ChainPosition): string;
  decode(cursor: string): Result<ChainPosition>;
}

export function positionCursorCodec(prefix: string): PositionCursorCodec {
  const pattern = new RegExp(`^${prefix}:([0-9]{1,19}):([0-9]{1,9})$`);
  return {
    encode: (position) => Buffer.from(`${prefix}:${position.block}:${position.logIndex}`).toString('base64url'),
    decode(cursor) {
      const text = /^[A-Za-z0-9_-]{1,64}$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
      const match = pattern.exec(text);
      if (match === null || match[1] === undefined || match[2] === undefined) {
        return fail({
          code: 'VALIDATION_ERROR',
          message: 'Invalid cursor',
          details: 'cursor must be a next_cursor value returned by this route',
          fields: { cursor },
        });
      }
      return ok({ block: BigInt(match[1]), logIndex: Number(match[2]) });
    },
  };
}
