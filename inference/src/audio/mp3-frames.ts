/**
 * MPEG-1 Layer III frame parsing: headers, the side information fields the chunk joiner needs
 * (main_data_begin, part2_3_length, block types) and the Info/LAME tag, from which the playable
 * duration is measured exactly: (audio frames x 1152 - encoder delay - padding) / sample rate.
 */
import type { DomainError, Result } from '../../../core/src/result.ts';
import { fail, ok } from '../../../core/src/result.ts';
import { id3v2Length } from './id3-tag.ts';

export const SAMPLES_PER_FRAME = 1152;
const BITRATES_KBPS = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
const SAMPLE_RATES = [44100, 48000, 32000];

export interface FrameHeader {
  bitrateKbps: number;
  sampleRate: number;
  channels: 1 | 2;
  padding: boolean;
  crc: boolean;
  length: number;
}

export interface Frame extends FrameHeader {
  offset: number;
  /** First byte after the header, CRC and side information. */
  dataStart: number;
  mainDataBegin: number;
  mainDataBits: number;
  /** block_type per granule and channel (0 = long blocks). */
  blockTypes: number[];
}

export interface LameTag {
  delay: number;
  padding: number;
  frameCount: number;
  byteCount: number;
}

export type Mp3ParseError = DomainError<'MP3_SYNC_LOST' | 'MP3_UNSUPPORTED' | 'MP3_EMPTY'>;
export type ParseResult = Result<{ frames: Frame[]; tag: LameTag | undefined }, Mp3ParseError>;

export function parseHeader(bytes: Uint8Array, offset: number): FrameHeader | undefined {
  if (offset + 4 > bytes.length) return undefined;
  const b1 = bytes[offset + 1] ?? 0;
  const b2 = bytes[offset + 2] ?? 0;
  const b3 = bytes[offset + 3] ?? 0;
  if (bytes[offset] !== 0xff || (b1 & 0xe0) !== 0xe0) return undefined;
  // MPEG-1 (version bits 11), Layer III (layer bits 01).
  if (((b1 >> 3) & 3) !== 3 || ((b1 >> 1) & 3) !== 1) return undefined;
  const bitrateKbps = BITRATES_KBPS[b2 >> 4];
  const sampleRate = SAMPLE_RATES[(b2 >> 2) & 3];
  if (bitrateKbps === undefined || bitrateKbps === 0 || sampleRate === undefined) return undefined;
  const padding = ((b2 >> 1) & 1) === 1;
  return {
    bitrateKbps,
    sampleRate,
    channels: b3 >> 6 === 3 ? 1 : 2,
    padding,
    crc: (b1 & 1) === 0,
    length: Math.floor((144 * bitrateKbps * 1000) / sampleRate) + (padding ? 1 : 0),
  };
}

class BitReader {
  private bit = 0;
  constructor(
    private readonly bytes: Uint8Array,
    private readonly start: number,
  ) {}
  /** Reads n <= 24 bits, most significant first. */
  read(n: number): number {
    const at = this.start + (this.bit >> 3);
    const window =
      (((this.bytes[at] ?? 0) << 24) | ((this.bytes[at + 1] ?? 0) << 16) | ((this.bytes[at + 2] ?? 0) << 8) | (this.bytes[at + 3] ?? 0)) >>>
      0;
    const value = (window << (this.bit & 7)) >>> (32 - n);
    this.bit += n;
    return value;
  }
}

function sideInfo(
  bytes: Uint8Array,
  header: FrameHeader,
  offset: number,
): Pick<Frame, 'dataStart' | 'mainDataBegin' | 'mainDataBits' | 'blockTypes'> {
  const start = offset + 4 + (header.crc ? 2 : 0);
  const nch = header.channels;
  const r = new BitReader(bytes, start);
  const mainDataBegin = r.read(9);
  r.read(nch === 1 ? 5 : 3);
  r.read(4 * nch);
  let mainDataBits = 0;
  const blockTypes: number[] = [];
  for (let gr = 0; gr < 2; gr += 1) {
    for (let ch = 0; ch < nch; ch += 1) {
      mainDataBits += r.read(12);
      r.read(9 + 8 + 4);
      if (r.read(1) === 1) {
        blockTypes.push(r.read(2));
        r.read(1 + 10 + 9);
      } else {
        blockTypes.push(0);
        r.read(15 + 4 + 3);
      }
      r.read(3);
    }
  }
  return { dataStart: start + (nch === 1 ? 17 : 32), mainDataBegin, mainDataBits, blockTypes };
}

function readTag(bytes: Uint8Array, frame: Frame): LameTag | undefined {
  const at = frame.dataStart;
  const id = String.fromCharCode(...bytes.subarray(at, at + 4));
  if (id !== 'Info' && id !== 'Xing') return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const flags = view.getUint32(at + 4);
  let p = at + 8;
  let frameCount = 0;
  let byteCount = 0;
  if (flags & 1) {
    frameCount = view.getUint32(p);
    p += 4;
  }
  if (flags & 2) {
    byteCount = view.getUint32(p);
    p += 4;
  }
  if (flags & 4) p += 100;
  if (flags & 8) p += 4;
  // LAME extension: 9-byte encoder string, then delay/padding 12 bits each at +21.
  if (p + 24 > frame.offset + frame.length) return { delay: 0, padding: 0, frameCount, byteCount };
  const d0 = bytes[p + 21] ?? 0;
  const d1 = bytes[p + 22] ?? 0;
  const d2 = bytes[p + 23] ?? 0;
  return { delay: (d0 << 4) | (d1 >> 4), padding: ((d1 & 0x0f) << 8) | d2, frameCount, byteCount };
}

/**
 * Parses every frame after a leading ID3v2 tag (the published files carry one, see
 * content-credentials.ts); past the tag the stream must be frames only, as our encoder writes it.
 */
export function parseMp3(bytes: Uint8Array): ParseResult {
  const frames: Frame[] = [];
  let offset = id3v2Length(bytes);
  while (offset < bytes.length) {
    const header = parseHeader(bytes, offset);
    if (header === undefined) {
      return fail({ code: 'MP3_SYNC_LOST', message: `no MPEG-1 Layer III frame header at byte ${offset}` });
    }
    if (offset + header.length > bytes.length) {
      return fail({ code: 'MP3_SYNC_LOST', message: `truncated frame at byte ${offset}` });
    }
    frames.push({ ...header, offset, ...sideInfo(bytes, header, offset) });
    offset += header.length;
  }
  const first = frames[0];
  if (first === undefined) return fail({ code: 'MP3_EMPTY', message: 'no frames' });
  if (frames.some((f) => f.sampleRate !== first.sampleRate || f.channels !== first.channels)) {
    return fail({ code: 'MP3_UNSUPPORTED', message: 'sample rate or channel count changes between frames' });
  }
  return ok({ frames, tag: readTag(bytes, first) });
}

export interface Mp3Measurement {
  sampleRate: number;
  channels: 1 | 2;
  audioFrames: number;
  /** Playable samples per channel (after the tag's delay and padding, when present). */
  samples: number;
  seconds: number;
  bitratesKbps: number[];
}

export type MeasureResult = Result<Mp3Measurement, Mp3ParseError>;

export function measureMp3(bytes: Uint8Array): MeasureResult {
  const parsed = parseMp3(bytes);
  if (!parsed.ok) return parsed;
  const { frames, tag } = parsed.value;
  const first = frames[0];
  if (first === undefined) return fail({ code: 'MP3_EMPTY', message: 'no frames' });
  const audioFrames = frames.length - (tag === undefined ? 0 : 1);
  const trim = tag === undefined ? 0 : tag.delay + tag.padding;
  const samples = audioFrames * SAMPLES_PER_FRAME - trim;
  return ok({
    sampleRate: first.sampleRate,
    channels: first.channels,
    audioFrames,
    samples,
    seconds: samples / first.sampleRate,
    bitratesKbps: [...new Set(frames.map((f) => f.bitrateKbps))],
  });
}
