/**
 * The security review's upload bombs (issue 42), rebuilt by a generator of our own: tiny files
 * that decode to far more audio than their size, or whose headers lie about their shape. Each
 * says how the oracle must refuse it (status and code). Written bit by bit from the format
 * specifications (FLAC: RFC 9639; MPEG audio: ISO/IEC 13818-3), not by our decoders' writers.
 *
 * - FLAC of constant subframes: STREAMINFO with total_samples 0 (unknown), then frames of 65,535
 *   samples x 8 channels whose every subframe is one constant (3 bytes a channel): 35 bytes a
 *   frame decode to 2 MB of samples (the review's 17,834 bytes took the oracle up 1.5 GB);
 * - FLAC at an extreme rate (1 Hz, 655,350 Hz) and FLAC whose frames carry fewer channels than
 *   its STREAMINFO says;
 * - minimal MPEG-2 layer III frames (24 bytes of silence, 576 samples each; 1 MB of them added
 *   608 MB), and an MP3 whose rate changes mid-stream;
 * - a gzip body (`Content-Encoding: gzip`) that would inflate to a 100 MiB WAV of silence;
 * - issue 49's: an MP3 with a tail of free-format frames (refused at once), one with more junk
 *   between frames than taken, FLAC whose frames carry another length than its STREAMINFO
 *   declares, and (`oneSampleFlac`) the slowest FLAC to decode per byte.
 */
import { createGzip } from 'node:zlib';

export interface UploadBomb {
  name: string;
  body: Uint8Array;
  /** Headers beyond the rights confirmation (a Content-Encoding). */
  headers?: Record<string, string>;
  /** The refusal expected from POST /api/uploads of a free user. */
  status: number;
  code: string;
}

/** MSB-first bit writer. */
class Bits {
  private readonly bytes: number[] = [];
  private current = 0;
  private used = 0;
  write(value: number, bits: number): this {
    for (let bit = bits - 1; bit >= 0; bit -= 1) {
      this.current = (this.current << 1) | (Math.floor(value / 2 ** bit) & 1);
      this.used += 1;
      if (this.used === 8) {
        this.bytes.push(this.current);
        this.current = 0;
        this.used = 0;
      }
    }
    return this;
  }
  /** The bytes so far (whole bytes only: callers write byte-aligned structures). */
  done(): Uint8Array {
    if (this.used !== 0) throw new Error('not byte-aligned');
    return Uint8Array.from(this.bytes);
  }
}

function crc8(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) {
    crc ^= byte;
    for (let i = 0; i < 8; i += 1) crc = crc & 0x80 ? ((crc << 1) ^ 0x07) & 0xff : (crc << 1) & 0xff;
  }
  return crc;
}

function crc16(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) {
    crc ^= byte << 8;
    for (let i = 0; i < 8; i += 1) crc = crc & 0x8000 ? ((crc << 1) ^ 0x8005) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

const concat = (parts: Uint8Array[]): Uint8Array => Uint8Array.from(Buffer.concat(parts));

/** FLAC's UTF-8-like coding of a frame number. */
function utf8Number(n: number): number[] {
  if (n < 0x80) return [n];
  if (n < 0x800) return [0xc0 | (n >> 6), 0x80 | (n & 0x3f)];
  if (n < 0x10000) return [0xe0 | (n >> 12), 0x80 | ((n >> 6) & 0x3f), 0x80 | (n & 0x3f)];
  if (n < 0x200000) return [0xf0 | (n >> 18), 0x80 | ((n >> 12) & 0x3f), 0x80 | ((n >> 6) & 0x3f), 0x80 | (n & 0x3f)];
  if (n < 0x4000000) {
    return [0xf8 | (n >> 24), 0x80 | ((n >> 18) & 0x3f), 0x80 | ((n >> 12) & 0x3f), 0x80 | ((n >> 6) & 0x3f), 0x80 | (n & 0x3f)];
  }
  throw new Error('frame number too large for this generator');
}

export interface ConstantFlacOptions {
  /** STREAMINFO's sample rate (20 bits: up to 1,048,575 Hz); frames take it from there. */
  sampleRate: number;
  /** STREAMINFO's channel count. */
  channels: number;
  /** Channels each frame carries (default: STREAMINFO's). */
  frameChannels?: number;
  blockSize: number;
  frames: number;
  /** STREAMINFO's total_samples (0: unknown). */
  totalSamples?: number;
  /** The constant each subframe holds (16-bit). */
  value?: number;
}

/** A 16-bit FLAC stream of constant subframes (see the header). */
export function constantFlac(options: ConstantFlacOptions): Uint8Array {
  const { sampleRate, channels, blockSize, frames } = options;
  const frameChannels = options.frameChannels ?? channels;
  const streamInfo = new Bits()
    .write(1, 1) // last metadata block
    .write(0, 7) // STREAMINFO
    .write(34, 24)
    .write(blockSize, 16)
    .write(blockSize, 16)
    .write(0, 24) // min frame size unknown
    .write(0, 24) // max frame size unknown
    .write(sampleRate, 20)
    .write(channels - 1, 3)
    .write(15, 5) // 16 bits per sample
    .write(options.totalSamples ?? 0, 36)
    .write(0, 32)
    .write(0, 32)
    .write(0, 32)
    .write(0, 32) // MD5 unset
    .done();
  const parts = [new TextEncoder().encode('fLaC'), streamInfo];
  const value = (options.value ?? 1000) & 0xffff;
  for (let n = 0; n < frames; n += 1) {
    const header = concat([
      new Bits()
        .write(0x3ffe, 14) // sync
        .write(0, 1)
        .write(0, 1) // fixed block size
        .write(0b0111, 4) // block size - 1 in 16 bits after the header
        .write(0b0000, 4) // rate from STREAMINFO
        .write(frameChannels - 1, 4) // independent channels
        .write(0b100, 3) // 16 bits per sample
        .write(0, 1)
        .done(),
      Uint8Array.from(utf8Number(n)),
      new Bits().write(blockSize - 1, 16).done(),
    ]);
    const withCrc8 = concat([header, Uint8Array.of(crc8(header))]);
    const subframes = new Bits();
    for (let c = 0; c < frameChannels; c += 1) subframes.write(0, 1).write(0, 6).write(0, 1).write(value, 16);
    const frame = concat([withCrc8, subframes.done()]);
    const crc = crc16(frame);
    parts.push(frame, Uint8Array.of(crc >> 8, crc & 0xff));
  }
  return concat(parts);
}

const CRC8_TABLE = Uint8Array.from({ length: 256 }, (_, byte) => crc8(Uint8Array.of(byte)));
const CRC16_TABLE = Uint16Array.from({ length: 256 }, (_, byte) => crc16(Uint8Array.of(byte)));

/**
 * A mono 16-bit FLAC of `frames` one-sample frames (15 bytes each), made byte by byte with table
 * CRCs: the most frames per byte, the slowest stream to decode per byte (about 1.4 MB/s on this
 * host's cores: issue 49's 69 MB took its oracle 9 s). Its audio is `frames` samples at `sampleRate`.
 */
export function oneSampleFlac(frames: number, sampleRate = 44100): Uint8Array {
  const head = constantFlac({ sampleRate, channels: 1, blockSize: 1, frames: 0 });
  const out = new Uint8Array(head.length + frames * 17);
  out.set(head);
  let at = head.length;
  for (let n = 0; n < frames; n += 1) {
    const start = at;
    // Sync and fixed block size; block size - 1 in 16 bits after the header, STREAMINFO's rate; mono, 16 bits.
    for (const byte of [0xff, 0xf8, 0x70, 0x08, ...utf8Number(n), 0x00, 0x00]) out[at++] = byte;
    let c8 = 0;
    for (let i = start; i < at; i += 1) c8 = CRC8_TABLE[c8 ^ (out[i] as number)] as number;
    out[at++] = c8;
    // A constant subframe holding 1000.
    out[at++] = 0x00;
    out[at++] = 0x03;
    out[at++] = 0xe8;
    let c16 = 0;
    for (let i = start; i < at; i += 1) c16 = ((c16 << 8) & 0xffff) ^ (CRC16_TABLE[((c16 >> 8) ^ (out[i] as number)) & 0xff] as number);
    out[at++] = c16 >> 8;
    out[at++] = c16 & 0xff;
  }
  return out.subarray(0, at);
}

/** `count` minimal MPEG-2 layer III frames (8 kbps, mono, silence) at `sampleRate` (16, 22.05 or 24 kHz). */
export function minimalMpeg2Frames(count: number, sampleRate: 16000 | 22050 | 24000 = 24000): Uint8Array {
  const rateIndex = { 22050: 0, 24000: 1, 16000: 2 }[sampleRate];
  const length = Math.floor((72 * 8000) / sampleRate);
  const frame = new Uint8Array(length);
  // MPEG-2 (version bits 10), layer III (01), no CRC; 8 kbps (index 1), the rate, no padding; mono.
  frame.set([0xff, 0xf3, (1 << 4) | (rateIndex << 2), 0xc0]);
  // Side information and main data all zero: main_data_begin 0, part2_3_length 0 (a silent granule).
  const out = new Uint8Array(length * count);
  for (let i = 0; i < count; i += 1) out.set(frame, i * length);
  return out;
}

/**
 * `count` free-format MPEG-2 layer III frames (bitrate index 0: no length in the header) of
 * `length` bytes each at 24 kHz, silent. A decoder must find each one's end by searching for the
 * next header; mpg123 fed them did so byte by byte, quadratic in the stream (issue 49).
 */
export function freeFormatMpeg2Frames(count: number, length = 48): Uint8Array {
  const frame = new Uint8Array(length);
  frame.set([0xff, 0xf3, (0 << 4) | (1 << 2), 0xc0]);
  const out = new Uint8Array(length * count);
  for (let i = 0; i < count; i += 1) out.set(frame, i * length);
  return out;
}

/** A RIFF/WAVE header for `dataBytes` of 16-bit PCM. */
export function wavHeader(dataBytes: number, sampleRate = 48000, channels = 2): Uint8Array {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(36 + dataBytes, 4);
  header.write('WAVEfmt ', 8, 'latin1');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(channels, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * channels * 2, 28);
  header.writeUInt16LE(channels * 2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'latin1');
  header.writeUInt32LE(dataBytes, 40);
  return new Uint8Array(header);
}

/** gzip of a WAV whose data is `bytes` of silence, streamed (never held inflated). */
export async function gzippedSilentWav(bytes: number): Promise<Uint8Array> {
  const gzip = createGzip({ level: 9 });
  const chunks: Buffer[] = [];
  gzip.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    gzip.on('end', resolve);
    gzip.on('error', reject);
  });
  gzip.write(wavHeader(bytes));
  const zeros = Buffer.alloc(1024 * 1024);
  for (let left = bytes; left > 0; left -= zeros.length) {
    if (!gzip.write(left >= zeros.length ? zeros : zeros.subarray(0, left))) await new Promise((resolve) => gzip.once('drain', resolve));
  }
  gzip.end();
  await ended;
  return new Uint8Array(Buffer.concat(chunks));
}

/** The review's cases, each with the refusal a free user (30 s) gets. */
export async function uploadBombs(): Promise<UploadBomb[]> {
  return [
    {
      name: 'FLAC, total_samples 0, 512 constant frames of 65,535 samples x 8 channels (760 s in 18 KB)',
      body: constantFlac({ sampleRate: 44100, channels: 8, blockSize: 65535, frames: 512 }),
      status: 400,
      code: 'GEN_004',
    },
    {
      name: 'FLAC declaring 1 Hz, 8 channels',
      body: constantFlac({ sampleRate: 1, channels: 8, blockSize: 16, frames: 2 }),
      status: 415,
      code: 'UPLOAD_001',
    },
    {
      name: 'FLAC declaring 655,350 Hz, 8 channels, 29 s',
      body: constantFlac({ sampleRate: 655350, channels: 8, blockSize: 65535, frames: 290 }),
      status: 415,
      code: 'UPLOAD_001',
    },
    {
      name: 'FLAC whose STREAMINFO says 8 channels and whose frames carry 2',
      body: constantFlac({ sampleRate: 44100, channels: 8, frameChannels: 2, blockSize: 4096, frames: 20 }),
      status: 400,
      code: 'UPLOAD_002',
    },
    {
      name: '1 MB of minimal MPEG-2 layer III frames (24 bytes, 576 samples each: 1,048 s)',
      body: minimalMpeg2Frames(Math.floor((1024 * 1024) / 24)),
      status: 400,
      code: 'GEN_004',
    },
    {
      name: 'MP3 at 24 kHz for 10 s, then at 16 kHz',
      body: concat([minimalMpeg2Frames(417, 24000), minimalMpeg2Frames(278, 16000)]),
      status: 415,
      code: 'UPLOAD_001',
    },
    {
      name: 'MP3: 2.4 s of audio, then a 2 MiB tail of free-format frames',
      body: concat([minimalMpeg2Frames(100), freeFormatMpeg2Frames(Math.floor((2 * 1024 * 1024) / 48))]),
      status: 415,
      code: 'UPLOAD_001',
    },
    {
      name: 'MP3: 2.4 s of audio, 300 KiB of junk, 2.4 s more',
      body: concat([minimalMpeg2Frames(100), new Uint8Array(300 * 1024), minimalMpeg2Frames(100)]),
      status: 400,
      code: 'UPLOAD_002',
    },
    {
      name: 'FLAC declaring 1 s (total_samples) and carrying 10 s',
      body: constantFlac({ sampleRate: 44100, channels: 2, blockSize: 4410, frames: 100, totalSamples: 44100 }),
      status: 400,
      code: 'UPLOAD_002',
    },
    {
      name: 'FLAC declaring 1 s (total_samples) and carrying 60 s',
      body: constantFlac({ sampleRate: 44100, channels: 2, blockSize: 4410, frames: 600, totalSamples: 44100 }),
      status: 400,
      code: 'GEN_004',
    },
    {
      name: 'gzip body: 100 KB inflating to a 100 MiB WAV',
      body: await gzippedSilentWav(100 * 1024 * 1024),
      headers: { 'content-encoding': 'gzip', 'content-type': 'audio/wav' },
      status: 415,
      code: 'UPLOAD_001',
    },
  ];
}
