/**
 * MP3 uploads (and MPEG-1/2/2.5 layers I/II, mpg123 through mpg123-decoder), gapless: the
 * encoder's delay and padding (its LAME/Info tag) are trimmed, as ffmpeg does.
 *
 * The stream is walked frame by frame (./mpeg-frames.ts) and its frames, and only its frames,
 * are fed to mpg123 in chunks of about `CHUNK_BYTES`, so that the budget (samples, deadline, stop
 * flag) is checked after each chunk and a stream of tiny frames is refused after at most one chunk
 * past it. Bytes between frames (a resync, trailing tags) are skipped by the walker, at most
 * `MAX_MPEG_JUNK_BYTES` of them in a stream, and never reach mpg123: fed to it, junk that holds
 * free-format headers made it search byte by byte, quadratic in the junk (issue 49). Every frame
 * must be at the first frame's rate and channel mode: a stream that changes either mid-way is
 * refused (mpg123 would report the last frame's rate for all of them, and the duration would be
 * wrong). The duration is the sum of the frames' decoded samples, at that one rate. A free-format
 * frame (bitrate index 0: its length is in no header) where a frame is due, first or after
 * another, is refused at once (`unsupported`, 415 UPLOAD_001): it is not taken.
 */
import { MPEGDecoder } from 'mpg123-decoder';
import { ok } from '../result.ts';
import { mpegFrameHeader } from './mpeg-frames.ts';
import type { MpegFrameHeader } from './mpeg-frames.ts';
import { DISCARD, checkShape, frameBudget, interrupted, refuse, tooLong } from './pcm-stream.ts';
import type { DecodeBudget, DecodeResult, PcmSink } from './pcm-stream.ts';

/** Bytes of whole frames fed to mpg123 at a time (about 8 frames of 320 kbps, 340 of the smallest). */
const CHUNK_BYTES = 8 * 1024;

/** Bytes between frames a stream may hold in all (an ID3v1 tag is 128, an APEv2 tag a few KiB); more is refused. */
export const MAX_MPEG_JUNK_BYTES = 256 * 1024;

/** A header at `at` that a frame of the same stream follows (or that ends the data): the next frame after a resync. */
function chains(bytes: Uint8Array, at: number, header: MpegFrameHeader): boolean {
  if (header.length === undefined) return false;
  const next = at + header.length;
  if (next >= bytes.length) return true;
  const following = mpegFrameHeader(bytes, next);
  return following !== undefined && following.version === header.version && following.layer === header.layer;
}

const freeFormat = (at: number) =>
  refuse('unsupported', `MP3: a free-format frame at byte ${at} (no bitrate in its header; free-format streams are not taken)`);

/** Decodes an MPEG audio stream (`bytes` from its first frame on). */
export async function decodeMpeg(bytes: Uint8Array, budget: DecodeBudget, sink: PcmSink = DISCARD): Promise<DecodeResult> {
  const first = mpegFrameHeader(bytes, 0);
  if (first === undefined) return refuse('undecodable', 'MP3: no frame header');
  if (first.length === undefined) return freeFormat(0);
  const shape = checkShape('MP3', first.sampleRate, first.channels);
  if (shape !== null) return shape;
  const limit = frameBudget(budget, first.sampleRate);
  const decoder = new MPEGDecoder({ enableGapless: true });
  await decoder.ready;
  try {
    sink.start({ format: 'mp3', sampleRate: first.sampleRate, channels: first.channels });
    let frames = 0;
    let frameIndex = 0;
    let junk = 0;
    let at = 0;
    let synced = true;
    /** Decodes the frames in `from`..`to` and hands out their samples; a refusal, or undefined. */
    const feed = (from: number, to: number): DecodeResult | undefined => {
      if (to <= from) return undefined;
      const out = decoder.decode(bytes.subarray(from, to));
      const error = out.errors[0];
      if (error !== undefined) return refuse('undecodable', `MP3: ${out.errors.length} frames do not decode (first: ${error.message})`);
      if (out.samplesDecoded === 0) return undefined;
      if (out.sampleRate !== first.sampleRate) {
        return refuse('unsupported', `MP3: frames decode at ${out.sampleRate} Hz, the stream starts at ${first.sampleRate} Hz`);
      }
      frames += out.samplesDecoded;
      if (frames > limit) return tooLong('MP3', frames, first.sampleRate, budget);
      // mpg123-decoder hands a mono stream as two equal channels.
      const channels = out.channelData.slice(0, first.channels).map((channel) => channel.subarray(0, out.samplesDecoded));
      sink.block(channels, out.samplesDecoded);
      return undefined;
    };
    while (at < bytes.length) {
      const stopped = interrupted('MP3', budget);
      if (stopped !== null) return stopped;
      // Walk whole frames up to the chunk's end, feeding each run of frames; junk is skipped.
      const chunkEnd = at + CHUNK_BYTES;
      let run = at;
      while (at < bytes.length && at < chunkEnd) {
        const header = mpegFrameHeader(bytes, at);
        if (synced && header !== undefined && header.length === undefined) return freeFormat(at);
        if (header === undefined || header.length === undefined || (!synced && !chains(bytes, at, header))) {
          if (synced) {
            const refused = feed(run, at);
            if (refused !== undefined) return refused;
          }
          synced = false;
          junk += 1;
          if (junk > MAX_MPEG_JUNK_BYTES) {
            return refuse(
              'undecodable',
              `MP3: more than ${MAX_MPEG_JUNK_BYTES} bytes between frames (the stream is not MPEG audio throughout)`,
            );
          }
          at += 1;
          continue;
        }
        if (!synced) run = at;
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
      if (synced) {
        const refused = feed(run, Math.min(at, bytes.length));
        if (refused !== undefined) return refused;
      }
    }
    if (frames === 0) return refuse('undecodable', 'MP3: no audio frames decode');
    return ok({ format: 'mp3', sampleRate: first.sampleRate, channels: first.channels, frames });
  } finally {
    decoder.free();
  }
}
