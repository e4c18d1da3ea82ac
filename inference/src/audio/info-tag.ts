/**
 * The Info (CBR Xing) frame with a LAME extension, written in front of the audio frames so that
 * gapless decoders drop the encoder delay and the final padding: the file then plays exactly the
 * requested number of samples. The frame itself is a valid silent 320 kbps frame.
 */
import type { Frame } from './mp3-frames.ts';

/** LAME's encoder delay in samples (ENCDELAY); every encoder here is LAME 3.100. */
export const LAME_ENCODER_DELAY = 576;

const CRC_TABLE = Uint16Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let i = 0; i < 8; i += 1) c = c & 1 ? (c >>> 1) ^ 0xa001 : c >>> 1;
  return c;
});

/** CRC-16 as LAME computes it (polynomial 0x8005, reflected; "CRC-16/ARC"). */
export function crc16(bytes: Uint8Array, crc = 0): number {
  let c = crc;
  for (let i = 0; i < bytes.length; i += 1) c = (c >>> 8) ^ (CRC_TABLE[(c ^ (bytes[i] ?? 0)) & 0xff] ?? 0);
  return c & 0xffff;
}

export interface InfoTagInput {
  /** A frame of the audio stream: its header fields are copied. */
  template: Frame;
  templateHeader: Uint8Array;
  audioFrames: number;
  audioBytes: Uint8Array;
  delay: number;
  padding: number;
}

export function buildInfoFrame(input: InfoTagInput): Uint8Array {
  const { template } = input;
  const length = Math.floor((144 * template.bitrateKbps * 1000) / template.sampleRate);
  const frame = new Uint8Array(length);
  const view = new DataView(frame.buffer);
  // Same header as the audio frames, without padding, CRC or mode extension bits.
  frame[0] = 0xff;
  frame[1] = (input.templateHeader[1] ?? 0xfb) | 1;
  frame[2] = (input.templateHeader[2] ?? 0) & 0xfc;
  frame[3] = (input.templateHeader[3] ?? 0) & 0xcf;
  const at = 4 + (template.channels === 1 ? 17 : 32);
  frame.set([0x49, 0x6e, 0x66, 0x6f], at); // "Info"
  view.setUint32(at + 4, 0x0f); // frames, bytes, TOC, quality
  view.setUint32(at + 8, input.audioFrames);
  view.setUint32(at + 12, length + input.audioBytes.length);
  for (let i = 0; i < 100; i += 1) frame[at + 16 + i] = Math.floor((i * 256) / 100);
  view.setUint32(at + 116, 0);
  const lame = at + 120;
  frame.set(new TextEncoder().encode('LAME3.100'), lame);
  frame[lame + 9] = 0x01; // tag revision 0, CBR
  frame[lame + 20] = Math.min(255, template.bitrateKbps);
  frame[lame + 21] = (input.delay >> 4) & 0xff;
  frame[lame + 22] = ((input.delay & 0x0f) << 4) | ((input.padding >> 8) & 0x0f);
  frame[lame + 23] = input.padding & 0xff;
  frame[lame + 24] = template.sampleRate === 48000 ? 0x80 : template.sampleRate === 44100 ? 0x40 : 0;
  view.setUint32(lame + 28, length + input.audioBytes.length);
  view.setUint16(lame + 32, crc16(input.audioBytes));
  view.setUint16(lame + 34, crc16(frame.subarray(0, lame + 34)));
  return frame;
}
