/**
 * The file a download saves (docs/api.md "Downloads"): `<title> - <short id>.<ext>`, named after
 * the song (./song-title.ts) with the first 8 hex digits of its job id, so two songs of one
 * title never overwrite each other. The presigned URL asks the store to answer with
 * `Content-Disposition: attachment` (S3's `response-content-disposition`), so a browser saves the
 * file under that name instead of playing it: RFC 6266 with an ASCII `filename` for old clients
 * and the exact name as RFC 5987 `filename*` (UTF-8, percent-encoded) for everyone else.
 */

export const DOWNLOAD_FORMATS = ['mp3', 'wav', 'flac'] as const;
export type DownloadFormat = (typeof DOWNLOAD_FORMATS)[number];

/** The API path of a song's download in `format`. */
export function downloadPath(publicId: string, format: DownloadFormat): string {
  return `/api/generate/${publicId}/download/${format}`;
}

/** Characters no file system or browser takes in a file name, and controls. */
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f-\u009f/\\:*?"<>|\u2028\u2029\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/gu;
const TITLE_CHARS = 80;

/** The title as a file name part: unsafe characters become spaces, runs of space one, no dots or spaces at the ends. */
export function safeFileTitle(title: string): string {
  const cleaned = title.normalize('NFC').replace(UNSAFE, ' ').replace(/\s+/gu, ' ');
  const cut = [...cleaned].slice(0, TITLE_CHARS).join('');
  const trimmed = cut.replace(/^[\s.]+|[\s.]+$/gu, '');
  return trimmed === '' ? 'Song' : trimmed;
}

/** `gen_3f1c2b9e-…` → `3f1c2b9e`. */
export function shortJobId(publicJobId: string): string {
  return publicJobId.replace(/^gen_/, '').slice(0, 8);
}

/** `<title> - <short id>.<ext>` with safe characters. */
export function downloadFileName(title: string, publicJobId: string, extension: string): string {
  return `${safeFileTitle(title)} - ${shortJobId(publicJobId)}.${extension}`;
}

/** The name in printable ASCII for `filename=`: accents dropped, anything else non-ASCII as `_`. */
export function asciiFileName(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^\x20-\x7e]/g, '_')
    .replace(/["\\]/g, '_');
}

/** RFC 5987 `value-chars`: UTF-8, every byte outside attr-char percent-encoded. */
function rfc5987(value: string): string {
  return encodeURIComponent(value).replace(/['()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** `attachment; filename="…"; filename*=UTF-8''…` (RFC 6266 section 4.3: both, `filename*` wins where understood). */
export function attachmentDisposition(name: string): string {
  return `attachment; filename="${asciiFileName(name)}"; filename*=UTF-8''${rfc5987(name)}`;
}
