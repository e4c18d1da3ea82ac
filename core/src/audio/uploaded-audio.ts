/**
 * Audio a person uploads (docs/api.md "Upload audio"), decoded in-process to float PCM: by the
 * oracle when it takes an upload (is it audio, how long, at what rate), and by a worker when an
 * edit starts from it (the samples the model imports). One decoder, so what the oracle measured
 * is what the worker edits. Both run it in a bounded thread (./audio-prober.ts), never on their
 * event loop.
 *
 * - WAV (./wav-decoder.ts): integer PCM of 16, 24 or 32 bits and IEEE float of 32 bits;
 * - FLAC (./flac-decoder.ts, libFLAC): 16 or 24 bits per sample, checked against the stream's
 *   MD5 signature, so a stream decoded wrongly is refused, never edited;
 * - MP3 (./mpeg-decoder.ts, mpg123), gapless, as ffmpeg decodes it.
 * Any leading ID3v2 tag is skipped before the format is recognised (a FLAC may carry one).
 *
 * Each decoder streams (./pcm-stream.ts): its PCM goes block by block to a `PcmSink`, under a
 * `DecodeBudget` checked in its frame loop. `probeUploadedAudio` keeps no sample;
 * `decodeUploadedAudio` keeps them all (or the first `keepFrames`).
 */
import { ok } from '../result.ts';
import type { Result } from '../result.ts';
import { decodeFlac } from './flac-decoder.ts';
import { decodeMpeg } from './mpeg-decoder.ts';
import { mpegFrameHeader } from './mpeg-frames.ts';
import { DISCARD, UPLOAD_FORMATS, refuse } from './pcm-stream.ts';
import type { AudioDecodeError, DecodeBudget, DecodeResult, PcmFormat, PcmSink, UploadFormat } from './pcm-stream.ts';
import { decodeWav } from './wav-decoder.ts';

export { MAX_UPLOAD_CHANNELS, MAX_UPLOAD_RATE, MIN_UPLOAD_RATE, UPLOAD_FORMATS } from './pcm-stream.ts';
export type { AudioDecodeError, AudioDecodeErrorCode, AudioSummary, DecodeBudget, PcmFormat, PcmSink, UploadFormat } from './pcm-stream.ts';

export const UPLOAD_CONTENT_TYPES: Readonly<Record<UploadFormat, string>> = {
  wav: 'audio/wav',
  flac: 'audio/flac',
  mp3: 'audio/mpeg',
};

export interface DecodedAudio {
  format: UploadFormat;
  sampleRate: number;
  /** One Float32Array per channel, samples in [-1, 1]. */
  channels: Float32Array[];
  /** Samples per channel. */
  frames: number;
}

type Decoded = Result<DecodedAudio, AudioDecodeError>;

/** Length of a leading ID3v2 tag (header, body and footer), 0 without one. */
function id3v2TagLength(bytes: Uint8Array): number {
  if (bytes.length < 10 || bytes[0] !== 0x49 || bytes[1] !== 0x44 || bytes[2] !== 0x33) return 0;
  const size =
    (((bytes[6] ?? 0) & 0x7f) << 21) | (((bytes[7] ?? 0) & 0x7f) << 14) | (((bytes[8] ?? 0) & 0x7f) << 7) | ((bytes[9] ?? 0) & 0x7f);
  const footer = ((bytes[5] ?? 0) & 0x10) !== 0 ? 10 : 0;
  return 10 + size + footer;
}

const ascii = (bytes: Uint8Array, at: number, length: number): string => Buffer.from(bytes.subarray(at, at + length)).toString('latin1');

/** The format `bytes` are in, by their first bytes (after any ID3v2 tag), or null. */
export function sniffAudioFormat(bytes: Uint8Array): { format: UploadFormat; offset: number } | null {
  if (bytes.length >= 12 && ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WAVE') return { format: 'wav', offset: 0 };
  const offset = id3v2TagLength(bytes);
  if (offset > bytes.length) return null;
  if (ascii(bytes, offset, 4) === 'fLaC') return { format: 'flac', offset };
  if (mpegFrameHeader(bytes, offset) !== undefined) return { format: 'mp3', offset };
  return null;
}

/**
 * Decodes an uploaded file under `budget`, handing its PCM to `sink` block by block: `not_audio`
 * when it is none of the formats, `unsupported` or `undecodable` when it is one but not taken or
 * broken, `too_long` past the budget (decoding stops there).
 */
export async function decodeAudioStream(bytes: Uint8Array, budget: DecodeBudget, sink: PcmSink): Promise<DecodeResult> {
  const sniffed = sniffAudioFormat(bytes);
  if (sniffed === null) return refuse('not_audio', `not a ${UPLOAD_FORMATS.map((f) => f.toUpperCase()).join(', ')} file`);
  const body = bytes.subarray(sniffed.offset);
  switch (sniffed.format) {
    case 'wav':
      return decodeWav(body, budget, sink);
    case 'flac':
      return decodeFlac(body, budget, sink);
    case 'mp3':
      return decodeMpeg(body, budget, sink);
  }
}

/** What an uploaded file is and how long, decoded under `budget` without keeping a sample. */
export function probeUploadedAudio(bytes: Uint8Array, budget: DecodeBudget): Promise<DecodeResult> {
  return decodeAudioStream(bytes, budget, DISCARD);
}

/** A sink that keeps every block's samples (or the first `keepSeconds` of each channel) and joins them at the end. */
export function collectingSink(keepSeconds = Number.POSITIVE_INFINITY): PcmSink & { channels(): Float32Array[] } {
  let format: PcmFormat | undefined;
  let parts: Float32Array[][] = [];
  let kept = 0;
  let keepFrames = 0;
  return {
    start(started) {
      format = started;
      parts = Array.from({ length: started.channels }, () => []);
      keepFrames = Math.floor(keepSeconds * started.sampleRate);
    },
    block(channels, frames) {
      const take = Math.min(frames, keepFrames - kept);
      if (take <= 0) return;
      for (const [c, channel] of channels.entries()) parts[c]?.push(channel.slice(0, take));
      kept += take;
    },
    channels() {
      if (format === undefined) return [];
      return parts.map((blocks) => {
        const out = new Float32Array(kept);
        let at = 0;
        for (const block of blocks) {
          out.set(block, at);
          at += block.length;
        }
        return out;
      });
    },
  };
}

/**
 * Decodes an uploaded file under `budget` and keeps its samples (the first `keepSeconds` per
 * channel, when given: an edit works on whole seconds).
 */
export async function decodeUploadedAudio(bytes: Uint8Array, budget: DecodeBudget, keepSeconds?: number): Promise<Decoded> {
  const sink = collectingSink(keepSeconds);
  const decoded = await decodeAudioStream(bytes, budget, sink);
  if (!decoded.ok) return decoded;
  const channels = sink.channels();
  return ok({ format: decoded.value.format, sampleRate: decoded.value.sampleRate, channels, frames: channels[0]?.length ?? 0 });
}
