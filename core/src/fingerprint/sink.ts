/**
 * The fingerprint of a decoded stream in the same pass as the decode (./chromaprint.ts fed from a
 * decoder's `PcmSink`, core/src/audio/pcm-stream.ts): an upload is fingerprinted block by block as
 * the decode thread decodes it, never held whole for it.
 */
import type { PcmSink } from '../audio/pcm-stream.ts';
import { createFingerprinter } from './chromaprint.ts';
import type { Fingerprinter } from './chromaprint.ts';

export interface FingerprintSink extends PcmSink {
  /** The items once the stream ended; null when it never started. */
  finish(): Uint32Array | null;
}

export function fingerprintSink(): FingerprintSink {
  let fingerprinter: Fingerprinter | undefined;
  let channels = 0;
  return {
    start(format) {
      fingerprinter = createFingerprinter(format.sampleRate, format.channels);
      channels = format.channels;
    },
    block(block, frames) {
      // The decoder reuses its arrays: the fingerprinter takes what it needs before returning.
      fingerprinter?.feed(block.slice(0, channels).map((channel) => channel.subarray(0, frames)));
    },
    finish: () => fingerprinter?.finish() ?? null,
  };
}
