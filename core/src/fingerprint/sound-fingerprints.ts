/**
 * Both fingerprints of one sound in one pass: Chromaprint (./chromaprint.ts) and the landmark
 * peaks (./landmarks.ts) read the same mono samples at 11,025 Hz, so the channels are mixed down
 * and resampled once for both instead of once each (the resampler was a fifth of their CPU time
 * beside the worker's MP3 encode; docs/fingerprints.md). Each fingerprint is what it would be fed
 * alone: the same down-mix (./mixdown.ts) and the same resampler, which at 11,025 Hz passes the
 * samples through.
 *
 * Streaming, like each of its parts: blocks in, nothing held whole. `soundFingerprintSink` feeds
 * it from a decoder (core/src/audio/pcm-stream.ts) in the oracle's decode thread.
 */
import type { PcmSink } from '../audio/pcm-stream.ts';
import { createFingerprinter, FINGERPRINT_SAMPLE_RATE } from './chromaprint.ts';
import { createLandmarkFingerprinter } from './landmarks.ts';
import { LANDMARK_SAMPLE_RATE } from './log-spectrogram.ts';
import { mixDown } from './mixdown.ts';
import { createResampler } from './resample.ts';
import type { Peak } from './spectral-peaks.ts';

export interface SoundFingerprints {
  /** Chromaprint's items (./chromaprint.ts). */
  chromaprint: Uint32Array;
  /** The landmark peaks in time order (./landmarks.ts). */
  landmarks: Peak[];
}

export interface SoundFingerprinter {
  /** Feeds the next block: one array per channel, equal lengths, samples in [-1, 1]. */
  feed(channels: readonly Float32Array[]): void;
  /** Ends the stream and returns both fingerprints (the fingerprinter is done after this). */
  finish(): SoundFingerprints;
}

if ((FINGERPRINT_SAMPLE_RATE as number) !== LANDMARK_SAMPLE_RATE) throw new Error('the fingerprints must share their sample rate');

export function createSoundFingerprinter(sampleRate: number, channels: number): SoundFingerprinter {
  if (!Number.isInteger(channels) || channels < 1) throw new RangeError(`${channels} channels`);
  const resampler = createResampler(sampleRate, FINGERPRINT_SAMPLE_RATE);
  const chromaprint = createFingerprinter(FINGERPRINT_SAMPLE_RATE, 1);
  const landmarks = createLandmarkFingerprinter(LANDMARK_SAMPLE_RATE, 1);
  let mono = new Float32Array(0);
  const take = (samples: Float32Array): void => {
    if (samples.length === 0) return;
    chromaprint.feed([samples]);
    landmarks.feed([samples]);
  };
  return {
    feed(block) {
      if (block.length !== channels) throw new RangeError(`expected ${channels} channels, got ${block.length}`);
      const length = block[0]?.length ?? 0;
      if (block.some((channel) => channel.length !== length)) throw new RangeError('channels of unequal length');
      if (length === 0) return;
      if (channels === 1) {
        take(resampler.push(block[0] as Float32Array));
        return;
      }
      if (mono.length < length) mono = new Float32Array(length);
      take(resampler.push(mixDown(block, mono)));
    },
    finish() {
      take(resampler.flush());
      return { chromaprint: chromaprint.finish(), landmarks: landmarks.finish() };
    },
  };
}

export interface SoundFingerprintSink extends PcmSink {
  /** Both fingerprints once the stream ended; null when it never started. */
  finish(): SoundFingerprints | null;
}

/** A decoder's sink that fingerprints what it decodes, block by block. */
export function soundFingerprintSink(): SoundFingerprintSink {
  let fingerprinter: SoundFingerprinter | undefined;
  let channels = 0;
  return {
    start(format) {
      fingerprinter = createSoundFingerprinter(format.sampleRate, format.channels);
      channels = format.channels;
    },
    block(block, frames) {
      // The decoder reuses its arrays: the fingerprinter takes what it needs before returning.
      fingerprinter?.feed(block.slice(0, channels).map((channel) => channel.subarray(0, frames)));
    },
    finish: () => fingerprinter?.finish() ?? null,
  };
}
