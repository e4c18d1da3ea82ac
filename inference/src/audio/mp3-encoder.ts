/**
 * MP3 320 kbps CBR encoding off the main thread: the PCM is split into overlapping chunks that
 * the pool's threads encode in parallel, the streams are joined at frame boundaries (see
 * chunk-join.ts), and an Info/LAME tag frame records the encoder delay and padding so the file
 * plays exactly the input's samples. A join that cannot be made falls back to one serial encode.
 */
import type { DomainError, Result } from '../../../core/src/result.ts';
import { fail, ok } from '../../../core/src/result.ts';
import type { EncoderBackend } from './encoder-backend.ts';
import type { EncoderPool } from './encoder-pool.ts';
import { joinChunks, planChunks } from './chunk-join.ts';
import { LAME_ENCODER_DELAY, buildInfoFrame } from './info-tag.ts';
import type { Frame } from './mp3-frames.ts';
import { SAMPLES_PER_FRAME, parseMp3 } from './mp3-frames.ts';

export interface EncodeOptions {
  backend: EncoderBackend;
  pool: EncoderPool;
  /** Chunks to encode in parallel; 1 encodes serially. */
  parallelism: number;
  signal: AbortSignal;
}

export interface EncodedMp3 {
  bytes: Uint8Array;
  backend: EncoderBackend;
  chunks: number;
  /** True when the parallel join failed and the song was encoded serially. */
  serialFallback: boolean;
}

function slicePcm(channels: readonly Float32Array[], start: number, end: number): Float32Array[] {
  return channels.map((c) => c.slice(start, end));
}

/** One stream of bare frames: its bytes, its frame count and its first frame. */
interface EncodedFrames {
  bytes: Uint8Array;
  frames: number;
  first: Frame;
}

async function encodeParts(
  channels: readonly Float32Array[],
  sampleRate: number,
  parts: number,
  options: EncodeOptions,
): Promise<{ stream: Result<EncodedFrames, DomainError<'MP3_ENCODE_FAILED' | 'MP3_JOIN_FAILED'>>; chunks: number }> {
  const samples = channels[0]?.length ?? 0;
  const plan = planChunks(samples, parts);
  const encoded = await Promise.all(
    plan.ranges.map((r) =>
      options.pool.run({ backend: options.backend, sampleRate, channels: slicePcm(channels, r.start, r.end) }, options.signal),
    ),
  );
  const only = encoded.length === 1 ? encoded[0] : undefined;
  if (only !== undefined) {
    const parsed = parseMp3(only);
    if (!parsed.ok) return { stream: fail({ code: 'MP3_ENCODE_FAILED', message: parsed.error.message }), chunks: 1 };
    const first = parsed.value.frames[0];
    if (first === undefined) return { stream: fail({ code: 'MP3_ENCODE_FAILED', message: 'no frames' }), chunks: 1 };
    return { stream: ok({ bytes: only, frames: parsed.value.frames.length, first }), chunks: 1 };
  }
  // The joiner parsed every chunk: its count and first frame stand for the joined stream's.
  const joined = joinChunks(
    encoded.map((bytes, k) => ({ bytes, firstFrame: (plan.ranges[k]?.start ?? 0) / SAMPLES_PER_FRAME })),
    plan.joins,
  );
  return { stream: joined, chunks: encoded.length };
}

export type EncodeResult = Result<EncodedMp3, DomainError<'MP3_ENCODE_FAILED'>>;

export async function encodeMp3(channels: readonly Float32Array[], sampleRate: number, options: EncodeOptions): Promise<EncodeResult> {
  const samples = channels[0]?.length ?? 0;
  if (samples === 0 || channels.length < 1 || channels.length > 2) {
    return fail({ code: 'MP3_ENCODE_FAILED', message: `need 1 or 2 channels of PCM, got ${channels.length} x ${samples}` });
  }
  let { stream, chunks } = await encodeParts(channels, sampleRate, Math.max(1, options.parallelism), options);
  let serialFallback = false;
  if (!stream.ok && stream.error.code === 'MP3_JOIN_FAILED') {
    ({ stream, chunks } = await encodeParts(channels, sampleRate, 1, options));
    serialFallback = true;
  }
  if (!stream.ok) return fail({ code: 'MP3_ENCODE_FAILED', message: stream.error.message });
  const { bytes, frames: audioFrames, first: template } = stream.value;
  const padding = audioFrames * SAMPLES_PER_FRAME - LAME_ENCODER_DELAY - samples;
  if (padding < 0 || padding > 4095) {
    return fail({ code: 'MP3_ENCODE_FAILED', message: `unexpected frame count ${audioFrames} for ${samples} samples` });
  }
  const info = buildInfoFrame({
    template,
    templateHeader: bytes.subarray(0, 4),
    audioFrames,
    audioBytes: bytes,
    delay: LAME_ENCODER_DELAY,
    padding,
  });
  const out = new Uint8Array(info.length + bytes.length);
  out.set(info, 0);
  out.set(bytes, info.length);
  return ok({ bytes: out, backend: options.backend, chunks, serialFallback });
}
