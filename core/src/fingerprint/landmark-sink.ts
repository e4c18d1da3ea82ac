/**
 * The landmark fingerprint of a decoded stream in the same pass as the decode, as ./sink.ts makes
 * the Chromaprint one: fed from a decoder's `PcmSink` (core/src/audio/pcm-stream.ts) block by
 * block in the oracle's decode thread, never on the API's event loop, never holding the upload
 * whole. `bothSinks` feeds one decode to two sinks.
 */
import type { PcmSink } from '../audio/pcm-stream.ts';
import { createLandmarkFingerprinter } from './landmarks.ts';
import type { LandmarkFingerprinter } from './landmarks.ts';
import type { Peak } from './spectral-peaks.ts';

export interface LandmarkSink extends PcmSink {
  /** The peaks once the stream ended; null when it never started. */
  finish(): Peak[] | null;
}

export function landmarkSink(): LandmarkSink {
  let fingerprinter: LandmarkFingerprinter | undefined;
  let channels = 0;
  return {
    start(format) {
      fingerprinter = createLandmarkFingerprinter(format.sampleRate, format.channels);
      channels = format.channels;
    },
    block(block, frames) {
      // The decoder reuses its arrays: the fingerprinter takes what it needs before returning.
      fingerprinter?.feed(block.slice(0, channels).map((channel) => channel.subarray(0, frames)));
    },
    finish: () => fingerprinter?.finish() ?? null,
  };
}

/** One sink feeding `a` then `b`. */
export function bothSinks(a: PcmSink, b: PcmSink): PcmSink {
  return {
    start(format) {
      a.start(format);
      b.start(format);
    },
    block(block, frames) {
      a.block(block, frames);
      b.block(block, frames);
    },
  };
}
