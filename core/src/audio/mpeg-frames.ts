/**
 * MPEG audio frame headers (ISO/IEC 11172-3 and 13818-3, and the MPEG-2.5 extension): MPEG-1, 2
 * and 2.5, layers I, II and III. What the upload decoder (./mpeg-decoder.ts) needs to walk a
 * stream frame by frame: each frame's rate, channel mode, samples and length.
 */

export interface MpegFrameHeader {
  version: '1' | '2' | '2.5';
  layer: 1 | 2 | 3;
  /** Bits per second; 0 for a free-format frame (its length is not in the header). */
  bitrate: number;
  sampleRate: number;
  /** 1 for single-channel mode, else 2. */
  channels: 1 | 2;
  /** Samples per channel the frame decodes to. */
  samples: number;
  /** Bytes, header included; undefined for a free-format frame. */
  length: number | undefined;
}

const RATES: Readonly<Record<MpegFrameHeader['version'], readonly number[]>> = {
  '1': [44100, 48000, 32000],
  '2': [22050, 24000, 16000],
  '2.5': [11025, 12000, 8000],
};

/** kbps by bitrate index, per MPEG-1 layer and for MPEG-2/2.5 (layer I, then layers II and III). */
const KBPS_V1: Readonly<Record<1 | 2 | 3, readonly number[]>> = {
  1: [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
  2: [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
  3: [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
};
const KBPS_V2_L1 = [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256];
const KBPS_V2_L23 = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];

/** The frame header at `at`, or undefined when the four bytes there are none (no sync, or a reserved field). */
export function mpegFrameHeader(bytes: Uint8Array, at: number): MpegFrameHeader | undefined {
  if (at + 4 > bytes.length || bytes[at] !== 0xff) return undefined;
  const b1 = bytes[at + 1] as number;
  const b2 = bytes[at + 2] as number;
  const b3 = bytes[at + 3] as number;
  if ((b1 & 0xe0) !== 0xe0) return undefined;
  const versionBits = (b1 >> 3) & 3;
  const layerBits = (b1 >> 1) & 3;
  const bitrateIndex = b2 >> 4;
  const rateIndex = (b2 >> 2) & 3;
  if (versionBits === 1 || layerBits === 0 || bitrateIndex === 15 || rateIndex === 3) return undefined;
  const version = versionBits === 3 ? '1' : versionBits === 2 ? '2' : '2.5';
  const layer = (4 - layerBits) as 1 | 2 | 3;
  const sampleRate = RATES[version][rateIndex] as number;
  const kbps = (version === '1' ? KBPS_V1[layer] : layer === 1 ? KBPS_V2_L1 : KBPS_V2_L23)[bitrateIndex] as number;
  const bitrate = kbps * 1000;
  const padding = (b2 >> 1) & 1;
  const samples = layer === 1 ? 384 : layer === 2 || version === '1' ? 1152 : 576;
  let length: number | undefined;
  if (bitrate > 0) {
    length =
      layer === 1 ? (Math.floor((12 * bitrate) / sampleRate) + padding) * 4 : Math.floor(((samples / 8) * bitrate) / sampleRate) + padding;
  }
  return { version, layer, bitrate, sampleRate, channels: b3 >> 6 === 3 ? 1 : 2, samples, length };
}
