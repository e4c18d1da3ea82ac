/**
 * Audio a person uploads (docs/api.md "Upload audio"), decoded in-process to float PCM: by the
 * oracle when it takes an upload (is it audio, how long, at what rate), and by a worker when an
 * edit starts from it (the samples the model imports). One decoder, so what the oracle measured
 * is what the worker edits.
 *
 * - WAV (RIFF/WAVE, read here): integer PCM of 16, 24 or 32 bits and IEEE float of 32 bits,
 *   plain or WAVE_FORMAT_EXTENSIBLE;
 * - FLAC (libFLAC through libflacjs): 16 or 24 bits per sample; the samples are checked against
 *   the stream's MD5 signature, so a stream decoded wrongly is refused, never edited;
 * - MP3 (and MPEG-1/2 layers I/II, mpg123 through mpg123-decoder), gapless: the encoder's delay
 *   and padding (its LAME/Info tag) are trimmed, as ffmpeg does.
 * Any leading ID3v2 tag is skipped before the format is recognised (a FLAC may carry one).
 */
import { createHash } from 'node:crypto';
import { MPEGDecoder } from 'mpg123-decoder';
import { fail, ok } from '../result.ts';
import type { Result } from '../result.ts';
import { loadLibFlac } from './libflac.ts';
import type { FlacStreamInfo } from './libflac.ts';

export const UPLOAD_FORMATS = ['wav', 'flac', 'mp3'] as const;
export type UploadFormat = (typeof UPLOAD_FORMATS)[number];

export const UPLOAD_CONTENT_TYPES: Readonly<Record<UploadFormat, string>> = {
  wav: 'audio/wav',
  flac: 'audio/flac',
  mp3: 'audio/mpeg',
};

/** At most this many channels (7.1); the models down-mix to their own. */
export const MAX_UPLOAD_CHANNELS = 8;

export interface DecodedAudio {
  format: UploadFormat;
  sampleRate: number;
  /** One Float32Array per channel, samples in [-1, 1]. */
  channels: Float32Array[];
  /** Samples per channel. */
  frames: number;
}

export type AudioDecodeErrorCode = 'not_audio' | 'unsupported' | 'undecodable';

export interface AudioDecodeError {
  code: AudioDecodeErrorCode;
  message: string;
}

type Decoded = Result<DecodedAudio, AudioDecodeError>;

const refuse = (code: AudioDecodeErrorCode, message: string): Decoded => fail({ code, message });

/** Length of a leading ID3v2 tag (header, body and footer), 0 without one. */
function id3v2TagLength(bytes: Uint8Array): number {
  if (bytes.length < 10 || bytes[0] !== 0x49 || bytes[1] !== 0x44 || bytes[2] !== 0x33) return 0;
  const size =
    (((bytes[6] ?? 0) & 0x7f) << 21) | (((bytes[7] ?? 0) & 0x7f) << 14) | (((bytes[8] ?? 0) & 0x7f) << 7) | ((bytes[9] ?? 0) & 0x7f);
  const footer = ((bytes[5] ?? 0) & 0x10) !== 0 ? 10 : 0;
  return 10 + size + footer;
}

const ascii = (bytes: Uint8Array, at: number, length: number): string => Buffer.from(bytes.subarray(at, at + length)).toString('latin1');

/** An MPEG audio frame header at `at`: sync, a known version, a layer, a bitrate and a rate that are not reserved. */
function isMpegFrameHeader(bytes: Uint8Array, at: number): boolean {
  const b1 = bytes[at + 1] ?? 0;
  const b2 = bytes[at + 2] ?? 0;
  return (
    bytes[at] === 0xff && (b1 & 0xe0) === 0xe0 && (b1 & 0x18) !== 0x08 && (b1 & 0x06) !== 0 && (b2 & 0xf0) !== 0xf0 && (b2 & 0x0c) !== 0x0c
  );
}

/** The format `bytes` are in, by their first bytes (after any ID3v2 tag), or null. */
export function sniffAudioFormat(bytes: Uint8Array): { format: UploadFormat; offset: number } | null {
  if (bytes.length >= 12 && ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WAVE') return { format: 'wav', offset: 0 };
  const offset = id3v2TagLength(bytes);
  if (offset > bytes.length) return null;
  if (ascii(bytes, offset, 4) === 'fLaC') return { format: 'flac', offset };
  if (isMpegFrameHeader(bytes, offset)) return { format: 'mp3', offset };
  return null;
}

/** Decodes an uploaded file; `not_audio` when it is none of the formats, `undecodable` when it is one but broken. */
export async function decodeUploadedAudio(bytes: Uint8Array): Promise<Decoded> {
  const sniffed = sniffAudioFormat(bytes);
  if (sniffed === null) return refuse('not_audio', `not a ${UPLOAD_FORMATS.map((f) => f.toUpperCase()).join(', ')} file`);
  const body = bytes.subarray(sniffed.offset);
  switch (sniffed.format) {
    case 'wav':
      return decodeWav(body);
    case 'flac':
      return decodeFlac(body);
    case 'mp3':
      return decodeMpeg(body);
  }
}

const WAVE_FORMAT_PCM = 1;
const WAVE_FORMAT_IEEE_FLOAT = 3;
const WAVE_FORMAT_EXTENSIBLE = 0xfffe;

/** RIFF/WAVE: the `fmt ` chunk, then the `data` chunk's samples (a streamed file's unset sizes read to the end). */
function decodeWav(bytes: Uint8Array): Decoded {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let fmt: { tag: number; channels: number; sampleRate: number; bits: number; blockAlign: number } | null = null;
  let at = 12;
  while (at + 8 <= bytes.length) {
    const id = ascii(bytes, at, 4);
    const declared = view.getUint32(at + 4, true);
    const size = Math.min(declared, bytes.length - at - 8);
    if (id === 'fmt ') {
      if (size < 16) return refuse('undecodable', 'WAV: the fmt chunk is too short');
      let tag = view.getUint16(at + 8, true);
      if (tag === WAVE_FORMAT_EXTENSIBLE && size >= 40) tag = view.getUint16(at + 8 + 24, true);
      fmt = {
        tag,
        channels: view.getUint16(at + 10, true),
        sampleRate: view.getUint32(at + 12, true),
        blockAlign: view.getUint16(at + 20, true),
        bits: view.getUint16(at + 22, true),
      };
    } else if (id === 'data') {
      if (fmt === null) return refuse('undecodable', 'WAV: the data chunk comes before the fmt chunk');
      return wavSamples(view, at + 8, size, fmt);
    }
    at += 8 + size + (size % 2);
  }
  return refuse('undecodable', fmt === null ? 'WAV: no fmt chunk' : 'WAV: no data chunk');
}

function wavSamples(
  view: DataView,
  start: number,
  size: number,
  fmt: { tag: number; channels: number; sampleRate: number; bits: number; blockAlign: number },
): Decoded {
  const float = fmt.tag === WAVE_FORMAT_IEEE_FLOAT && fmt.bits === 32;
  const integer = fmt.tag === WAVE_FORMAT_PCM && (fmt.bits === 16 || fmt.bits === 24 || fmt.bits === 32);
  if (!float && !integer) {
    return refuse('unsupported', `WAV: format ${fmt.tag} with ${fmt.bits} bits is not supported (16, 24 or 32-bit PCM, 32-bit float)`);
  }
  if (fmt.channels < 1 || fmt.channels > MAX_UPLOAD_CHANNELS) return refuse('unsupported', `WAV: ${fmt.channels} channels`);
  if (fmt.sampleRate < 8000 || fmt.sampleRate > 192000) return refuse('unsupported', `WAV: a sample rate of ${fmt.sampleRate} Hz`);
  const width = fmt.bits / 8;
  if (fmt.blockAlign !== width * fmt.channels) return refuse('undecodable', `WAV: block align ${fmt.blockAlign} does not fit the format`);
  const frames = Math.floor(size / fmt.blockAlign);
  const channels = Array.from({ length: fmt.channels }, () => new Float32Array(frames));
  for (let i = 0; i < frames; i += 1) {
    for (let c = 0; c < fmt.channels; c += 1) {
      const at = start + i * fmt.blockAlign + c * width;
      let value: number;
      if (float) {
        value = view.getFloat32(at, true);
        if (!Number.isFinite(value)) return refuse('undecodable', `WAV: sample ${i} is not a finite number`);
      } else if (width === 2) value = view.getInt16(at, true) / 0x8000;
      else if (width === 3) value = ((view.getUint8(at) | (view.getUint8(at + 1) << 8) | (view.getInt8(at + 2) << 16)) >> 0) / 0x800000;
      else value = view.getInt32(at, true) / 0x80000000;
      (channels[c] as Float32Array)[i] = value;
    }
  }
  return ok({ format: 'wav', sampleRate: fmt.sampleRate, channels, frames });
}

/**
 * One block's part of FLAC's MD5 signature: the interleaved samples, little-endian, in whole
 * bytes of the stream's depth (2 or 3).
 */
function interleavedBytes(block: Int32Array[], width: 2 | 3): Uint8Array {
  const length = block[0]?.length ?? 0;
  const out = new Uint8Array(length * block.length * width);
  let at = 0;
  for (let i = 0; i < length; i += 1) {
    for (const channel of block) {
      const value = channel[i] ?? 0;
      out[at] = value & 0xff;
      out[at + 1] = (value >> 8) & 0xff;
      if (width === 3) out[at + 2] = (value >> 16) & 0xff;
      at += width;
    }
  }
  return out;
}

async function decodeFlac(bytes: Uint8Array): Promise<Decoded> {
  const flac = await loadLibFlac();
  const decoder = flac.create_libflac_decoder(false);
  if (decoder === 0) throw new Error('libFLAC could not create a decoder');
  let info: FlacStreamInfo | undefined;
  const blocks: Int32Array[][] = [];
  const problems: { message: string; unsupported: boolean }[] = [];
  let read = 0;
  try {
    const status = flac.init_decoder_stream(
      decoder,
      (wanted) => {
        const end = Math.min(bytes.length, read + wanted);
        const buffer = bytes.subarray(read, end);
        read = end;
        return { buffer, readDataLength: buffer.length, error: false };
      },
      (data, block) => {
        // libflacjs hands 16-bit samples as int16 and 24-bit ones as int32, little-endian.
        const width = block.bitsPerSample === 16 ? 2 : block.bitsPerSample === 24 ? 4 : 0;
        if (width === 0) {
          problems.push({ message: `FLAC: ${block.bitsPerSample} bits per sample is not supported (16 or 24)`, unsupported: true });
          return;
        }
        // Each channel's bytes start a fresh buffer, so the views are aligned.
        blocks.push(
          data.map((channel) =>
            width === 2
              ? Int32Array.from(new Int16Array(channel.buffer, channel.byteOffset, block.blocksize))
              : new Int32Array(channel.buffer, channel.byteOffset, block.blocksize),
          ),
        );
      },
      (_code, description) => {
        problems.push({ message: `FLAC: ${description}`, unsupported: false });
      },
      (metadata) => {
        if (metadata !== undefined) info = metadata;
      },
    );
    if (status !== 0) return refuse('undecodable', `FLAC: the decoder did not start (status ${status})`);
    const decoded = flac.FLAC__stream_decoder_process_until_end_of_stream(decoder);
    flac.FLAC__stream_decoder_finish(decoder);
    const problem = problems[0];
    if (problem !== undefined) return refuse(problem.unsupported ? 'unsupported' : 'undecodable', problem.message);
    if (!decoded || info === undefined) return refuse('undecodable', 'FLAC: the stream does not decode');
  } finally {
    flac.FLAC__stream_decoder_delete(decoder);
  }
  const stream: FlacStreamInfo = info;
  if (stream.bitsPerSample !== 16 && stream.bitsPerSample !== 24) {
    return refuse('unsupported', `FLAC: ${stream.bitsPerSample} bits per sample is not supported (16 or 24)`);
  }
  if (stream.channels < 1 || stream.channels > MAX_UPLOAD_CHANNELS) return refuse('unsupported', `FLAC: ${stream.channels} channels`);
  const frames = blocks.reduce((sum, block) => sum + (block[0]?.length ?? 0), 0);
  if (stream.total_samples !== 0 && stream.total_samples !== frames) {
    return refuse('undecodable', `FLAC: ${frames} samples decoded, the stream declares ${stream.total_samples}`);
  }
  // An unset signature is all zeros; a set one must match what was decoded.
  if (!/^0+$/.test(stream.md5sum)) {
    const md5 = createHash('md5');
    for (const block of blocks) md5.update(interleavedBytes(block, stream.bitsPerSample === 16 ? 2 : 3));
    if (md5.digest('hex') !== stream.md5sum) {
      return refuse('undecodable', 'FLAC: the decoded samples do not match the MD5 signature of the stream');
    }
  }
  const scale = 1 / 2 ** (stream.bitsPerSample - 1);
  const channels = Array.from({ length: stream.channels }, (_, c) => {
    const out = new Float32Array(frames);
    let at = 0;
    for (const block of blocks) {
      const channel = block[c] ?? new Int32Array(0);
      for (let i = 0; i < channel.length; i += 1) out[at + i] = (channel[i] ?? 0) * scale;
      at += channel.length;
    }
    return out;
  });
  return ok({ format: 'flac', sampleRate: stream.sampleRate, channels, frames });
}

async function decodeMpeg(bytes: Uint8Array): Promise<Decoded> {
  const decoder = new MPEGDecoder({ enableGapless: true });
  await decoder.ready;
  try {
    const out = decoder.decode(bytes);
    const first = out.errors[0];
    if (first !== undefined) return refuse('undecodable', `MP3: ${out.errors.length} frames do not decode (first: ${first.message})`);
    if (out.samplesDecoded === 0 || out.channelData.length === 0) return refuse('undecodable', 'MP3: no audio frames decode');
    // mpg123-decoder hands a mono stream as two equal channels: the first frame's mode says which it is.
    const mono = (bytes[3] ?? 0) >> 6 === 3;
    const channels = (mono ? out.channelData.slice(0, 1) : out.channelData).map((channel) => channel.slice(0, out.samplesDecoded));
    return ok({ format: 'mp3', sampleRate: out.sampleRate, channels, frames: out.samplesDecoded });
  } finally {
    decoder.free();
  }
}
