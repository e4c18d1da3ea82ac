import { crc32, deflateSync } from 'node:zlib';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** PNG colour types this encoder writes: 2 is RGB, 6 is RGBA (8 bits per channel). */
export type PngColour = { type: 2; channels: 3 } | { type: 6; channels: 4 };
export const RGB: PngColour = { type: 2, channels: 3 };
export const RGBA: PngColour = { type: 6, channels: 4 };

/**
 * Encodes a real, minimal PNG (one IDAT, filter 0 on every row) whose pixel at (x, y) is
 * `pixel(x, y)`, one byte per channel. The demo's cover and the tests' images use it, so a
 * generated image needs no file on disk.
 */
export function encodePng(
  width: number,
  height: number,
  colour: PngColour,
  pixel: (x: number, y: number) => readonly number[],
): Uint8Array {
  const stride = width * colour.channels + 1;
  const raw = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) raw.set(pixel(x, y).slice(0, colour.channels), y * stride + 1 + x * colour.channels);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, colour.type, 0, 0, 0], 8);
  return new Uint8Array(
    Buffer.concat([PNG_SIGNATURE, pngChunk('IHDR', header), pngChunk('IDAT', deflateSync(raw)), pngChunk('IEND', Buffer.alloc(0))]),
  );
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}
