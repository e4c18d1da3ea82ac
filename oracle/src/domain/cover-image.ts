/**
 * Cover images arrive as base64 data URIs. The declared type is not trusted: the decoded bytes
 * are sniffed, must be one of the web image formats marketplaces render, and must match the
 * declared type, so a renamed executable or SVG (scriptable) is refused.
 */
import { fileTypeFromBuffer } from 'file-type';
import { appError, fail, ok } from './errors.ts';
import type { Result } from './errors.ts';

/** Spec: cover image 5 MB per file (binary megabytes: 5 MiB of decoded bytes). */
export const COVER_MAX_BYTES = 5 * 1024 * 1024;

export const COVER_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const;
export type CoverType = (typeof COVER_TYPES)[number];

export interface CoverImage {
  bytes: Uint8Array;
  contentType: CoverType;
}

const DATA_URI = /^data:([a-z]+\/[a-z0-9.+-]+)(?:;[a-z0-9-]+=[^;,]*)*;base64,/i;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const ALIASES: Readonly<Record<string, string>> = { 'image/jpg': 'image/jpeg', 'image/pjpeg': 'image/jpeg' };

function isCoverType(mime: string): mime is CoverType {
  return (COVER_TYPES as readonly string[]).includes(mime);
}

export async function decodeCoverImage(dataUri: string, field: string): Promise<Result<CoverImage>> {
  const header = DATA_URI.exec(dataUri);
  if (header === null || header[1] === undefined) {
    return fail(
      appError('VALIDATION_ERROR', 'Invalid cover image', {
        details: `${field} must be a base64 data URI: data:image/png;base64,...`,
        fields: { [field]: 'not a base64 data URI' },
      }),
    );
  }
  const declaredRaw = header[1].toLowerCase();
  const declared = ALIASES[declaredRaw] ?? declaredRaw;
  const payload = dataUri.slice(header[0].length).replace(/\s+/g, '');
  if (payload.length === 0 || payload.length % 4 !== 0 || !BASE64.test(payload)) {
    return fail(
      appError('VALIDATION_ERROR', 'Invalid cover image', {
        details: `${field} is not valid base64`,
        fields: { [field]: 'invalid base64' },
      }),
    );
  }
  const padding = payload.endsWith('==') ? 2 : payload.endsWith('=') ? 1 : 0;
  const size = (payload.length / 4) * 3 - padding;
  if (size > COVER_MAX_BYTES) {
    return fail(
      appError('PAYLOAD_TOO_LARGE', 'Cover image too large', {
        details: `${field} decodes to ${size} bytes; the limit is ${COVER_MAX_BYTES} bytes (5 MB)`,
        fields: { [field]: 'too large', limit_bytes: COVER_MAX_BYTES },
      }),
    );
  }
  const bytes = new Uint8Array(Buffer.from(payload, 'base64'));
  const sniffed = await fileTypeFromBuffer(bytes);
  if (sniffed === undefined || !isCoverType(sniffed.mime)) {
    return fail(
      appError('VALIDATION_ERROR', 'Unsupported cover image', {
        details: `${field} must be a PNG, JPEG, WebP or GIF image; its bytes are ${sniffed === undefined ? 'not a known format' : sniffed.mime}`,
        fields: { [field]: 'unsupported image type', accepted: [...COVER_TYPES] },
      }),
    );
  }
  if (sniffed.mime !== declared) {
    return fail(
      appError('VALIDATION_ERROR', 'Cover image type mismatch', {
        details: `${field} declares ${declaredRaw} but its bytes are ${sniffed.mime}`,
        fields: { [field]: 'declared type does not match content' },
      }),
    );
  }
  return ok({ bytes, contentType: sniffed.mime });
}
