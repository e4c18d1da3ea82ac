/**
 * ID3v2.4 tags at the head of an MP3: the text frames a music player shows (title, comment,
 * encoder) and the GEOB frame C2PA embeds its manifest store in. Text is UTF-8 (encoding 3),
 * sizes are synchsafe, no unsynchronisation, no extended header, no padding.
 */
import { concatBytes } from './bytes.ts';

const encoder = new TextEncoder();
const UTF8 = 3;
const HEADER_BYTES = 10;
const MAX_SYNCHSAFE = 0x0fffffff;

/** One frame's 4-character id and body (everything after the 10-byte frame header). */
export interface Id3Frame {
  id: string;
  body: Uint8Array;
}

function synchsafe(n: number): Uint8Array {
  if (!Number.isInteger(n) || n < 0 || n > MAX_SYNCHSAFE) throw new RangeError(`ID3 size ${n} out of range`);
  return Uint8Array.of((n >> 21) & 0x7f, (n >> 14) & 0x7f, (n >> 7) & 0x7f, n & 0x7f);
}

/** A text information frame (`TIT2`, `TSSE`, ...): one UTF-8 string. */
export function textFrame(id: `T${string}`, text: string): Id3Frame {
  return { id, body: concatBytes([Uint8Array.of(UTF8), encoder.encode(text)]) };
}

/** A `COMM` frame: language, empty short description, the comment. */
export function commentFrame(text: string, language = 'eng'): Id3Frame {
  return {
    id: 'COMM',
    body: concatBytes([Uint8Array.of(UTF8), encoder.encode(language.slice(0, 3).padEnd(3, ' ')), Uint8Array.of(0), encoder.encode(text)]),
  };
}

/** The head of a `GEOB` frame's body, up to where the object's bytes begin. */
export function geobPreamble(mimeType: string, filename: string, description: string): Uint8Array {
  return concatBytes([
    Uint8Array.of(UTF8),
    encoder.encode(mimeType),
    Uint8Array.of(0),
    encoder.encode(filename),
    Uint8Array.of(0),
    encoder.encode(description),
    Uint8Array.of(0),
  ]);
}

function frameBytes(frame: Id3Frame): Uint8Array {
  if (!/^[A-Z0-9]{4}$/.test(frame.id)) throw new RangeError(`bad ID3 frame id ${frame.id}`);
  return concatBytes([encoder.encode(frame.id), synchsafe(frame.body.length), Uint8Array.of(0, 0), frame.body]);
}

/**
 * The tag bytes for `frames`, then a last frame of `tailId` whose body is `tailHead` followed by
 * `tailLength` bytes the caller appends (the C2PA manifest store, which is signed after the
 * bytes around it are fixed). Returns the tag up to where those bytes go.
 */
export function id3TagHead(frames: readonly Id3Frame[], tail: { id: string; head: Uint8Array; length: number }): Uint8Array {
  const tailHeader = concatBytes([encoder.encode(tail.id), synchsafe(tail.head.length + tail.length), Uint8Array.of(0, 0)]);
  const body = concatBytes([...frames.map(frameBytes), tailHeader, tail.head]);
  const tagSize = body.length + tail.length;
  return concatBytes([encoder.encode('ID3'), Uint8Array.of(4, 0, 0), synchsafe(tagSize), body]);
}

/** Bytes an ID3v2 tag at the start of `bytes` takes (header, frames, footer if flagged); 0 without one. */
export function id3v2Length(bytes: Uint8Array): number {
  if (bytes.length < HEADER_BYTES || bytes[0] !== 0x49 || bytes[1] !== 0x44 || bytes[2] !== 0x33) return 0;
  const sizeBytes = bytes.subarray(6, 10);
  if (sizeBytes.some((b) => b >= 0x80)) return 0;
  const size = ((sizeBytes[0] ?? 0) << 21) | ((sizeBytes[1] ?? 0) << 14) | ((sizeBytes[2] ?? 0) << 7) | (sizeBytes[3] ?? 0);
  const footer = ((bytes[5] ?? 0) & 0x10) !== 0 ? HEADER_BYTES : 0;
  return HEADER_BYTES + size + footer;
}

/** One frame of a tag read back, with the offset of its body in the file. */
export interface ReadId3Frame extends Id3Frame {
  start: number;
}

/**
 * The frames of the ID3v2.4 tag at the start of `bytes` (as `id3TagHead` writes them: no
 * unsynchronisation, no extended header); null when there is no such tag.
 */
export function readId3Frames(bytes: Uint8Array): ReadId3Frame[] | null {
  const tagEnd = id3v2Length(bytes);
  if (tagEnd === 0 || bytes[3] !== 4 || tagEnd > bytes.length) return null;
  const frames: ReadId3Frame[] = [];
  for (let at = HEADER_BYTES; at + HEADER_BYTES <= tagEnd && bytes[at] !== 0;) {
    const sizeBytes = bytes.subarray(at + 4, at + 8);
    if (sizeBytes.some((b) => b >= 0x80)) return null;
    const size = ((sizeBytes[0] ?? 0) << 21) | ((sizeBytes[1] ?? 0) << 14) | ((sizeBytes[2] ?? 0) << 7) | (sizeBytes[3] ?? 0);
    const start = at + HEADER_BYTES;
    if (start + size > tagEnd) return null;
    frames.push({ id: new TextDecoder().decode(bytes.subarray(at, at + 4)), body: bytes.subarray(start, start + size), start });
    at = start + size;
  }
  return frames;
}

/** A UTF-8 text frame's string; null for another encoding. */
export function readTextFrame(frame: Id3Frame): string | null {
  return frame.body[0] === UTF8 ? new TextDecoder().decode(frame.body.subarray(1)) : null;
}

/** A UTF-8 `GEOB` frame's MIME type and object bytes; null for another encoding or a cut frame. */
export function readGeobFrame(frame: Id3Frame): { mimeType: string; object: Uint8Array } | null {
  if (frame.body[0] !== UTF8) return null;
  const fields: string[] = [];
  let at = 1;
  for (let i = 0; i < 3; i++) {
    const end = frame.body.indexOf(0, at);
    if (end < 0) return null;
    fields.push(new TextDecoder().decode(frame.body.subarray(at, end)));
    at = end + 1;
  }
  return { mimeType: fields[0] ?? '', object: frame.body.subarray(at) };
}
