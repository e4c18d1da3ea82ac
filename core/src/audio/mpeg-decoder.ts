/**
 * MP3 uploads (and MPEG-1/2/2.5 layers I/II, mpg123 through mpg123-decoder), gapless: the
 * encoder's delay and padding (its LAME/Info tag) are trimmed, as ffmpeg does.
 *
 * The stream is walked frame by frame (./mpeg-frames.ts) and fed to mpg123 in chunks of about
 * `CHUNK_BYTES`, so that the budget is checked after each chunk's samples and a stream of tiny
 * frames is refused after at most one chunk past it. Every frame must be at the first frame's
 * rate and channel mode: a stream that changes either mid-way is refused (mpg123 would report the
 * last frame's rate for all of them, and the duration would be wrong). The duration is the sum of
 * the frames' decoded samples, at that one rate. A free-format stream (no bitrate in its
 * headers) is not taken.
 */
import { MPEGDecoder } from 'mpg123-decoder';
import { ok } from '../result.ts';
import { mpegFrameHeader } from './mpeg-frames.ts';
import type { MpegFrameHeader } from './mpeg-frames.ts';
import { DISCARD, checkShape, frameBudget, refuse, tooLong } from './pcm-stream.ts';
import type { DecodeBudget, DecodeResult, PcmSink } from './pcm-stream.ts';

/** Bytes of whole frames fed to mpg123 at a time (about 8 frames of 320 kbps, 340 of the smallest). */
const CHUNK_BYTES = 8 * 1024;

/** A header at `at` that a frame of the same stream follows (or that ends the data): the next frame after a resync. */
function chains(bytes: Uint8Array, at: number, header: MpegFrameHeader): boolean {
  if (header.length === undefined) return false;
  const next = at + header.length;
  if (next >= bytes.length) return true;
  const following = mpegFrameHeader(bytes, next);
  return following !== undefined && following.version === header.version && following.layer === header.layer;
}

/** Decodes an MPEG audio stream (`bytes` from its first frame on). */
export async function decodeMpeg(bytes: Uint8Array, budget: DecodeBudget, sink: PcmSink = DISCARD): Promise<DecodeResult> {
  const first = mpegFrameHeader(bytes, 0);
  if (first === undefined) return refuse('undecodable', 'MP3: no frame header');
  if (first.length === undefined) return refuse('unsupported', 'MP3: a free-format stream (no bitrate in its frame headers)');
  const shape = checkShape('MP3', first.sampleRate, first.channels);
  if (shape !== null) return shape;
  const limit = frameBudget(budget, first.sampleRate);
  const decoder = new MPEGDecoder({ enableGapless: true });
  await decoder.ready;
  try {
    sink.start({ format: 'mp3', sampleRate: first.sampleRate, channels: first.channels });
    let frames = 0;
    let frameIndex = 0;
    let at = 0;
    let fed = 0;
    let synced = true;
    while (fed < bytes.length) {
      // Walk whole frames up to the chunk's end; junk between frames goes to mpg123 as it is.
      const chunkEnd = fed + CHUNK_BYTES;
      while (at < bytes.length && at < chunkEnd) {
        const header = mpegFrameHeader(bytes, at);
        if (header === undefined || header.length === undefined || (!synced && !chains(bytes, at, header))) {
          synced = false;
          at += 1;
          continue;
        }
        synced = true;
        frameIndex += 1;
        if (header.sampleRate !== first.sampleRate) {
          return refuse(
            'unsupported',
            `MP3: the sample rate changes from ${first.sampleRate} Hz to ${header.sampleRate} Hz at frame ${frameIndex} (one rate per stream)`,
          );
        }
        if (header.channels !== first.channels) {
          return refuse('unsupported', `MP3: the channels change from ${first.channels} to ${header.channels} at frame ${frameIndex}`);
        }
        at += header.length;
      }
      const end = Math.min(at, bytes.length);
      const out = decoder.decode(bytes.subarray(fed, end));
      fed = end;
      const error = out.errors[0];
      if (error !== undefined) return refuse('undecodable', `MP3: ${out.errors.length} frames do not decode (first: ${error.message})`);
      if (out.samplesDecoded === 0) continue;
      if (out.sampleRate !== first.sampleRate) {
        return refuse('unsupported', `MP3: frames decode at ${out.sampleRate} Hz, the stream starts at ${first.sampleRate} Hz`);
      }
      frames += out.samplesDecoded;
      if (frames > limit) return tooLong('MP3', frames, first.sampleRate, budget);
      // mpg123-decoder hands a mono stream as two equal channels.
      const channels = out.channelData.slice(0, first.channels).map((channel) => channel.subarray(0, out.samplesDecoded));
      sink.block(channels, out.samplesDecoded);
    }
    if (frames === 0) return refuse('undecodable', 'MP3: no audio frames decode');
    return ok({ format: 'mp3', sampleRate: first.sampleRate, channels: first.channels, frames });
  } finally {
    decoder.free();
  }
}
