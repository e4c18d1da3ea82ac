/**
 * Joins byte arrays into one new array of its own. Unlike `Buffer.concat`, the result never sits
 * in Node's shared pool at an offset, so a `DataView` over its `.buffer` starts at its first byte
 * (the WAV and FLAC writers patch headers that way).
 */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
