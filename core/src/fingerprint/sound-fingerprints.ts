/**
 * Both fingerprints of one sound in one pass: Chromaprint (./chromaprint.ts) and the landmark
 * peaks (./landmarks.ts) read the same mono samples at 11,025 Hz, so the channels are mixed down
 * and resampled once for both instead of once each (the resampler was a fifth of their CPU time
 * beside the worker's MP3 encode; docs/fingerprints.md). Each fingerprint is what it would be fed
 * alone: the same input (./mono-input.ts), whose resampler at 11,025 Hz passes the samples
 * through.
 *
 * Streaming, like each of its parts: blocks in, nothing held whole. `soundFingerprintSink` feeds
 * it from a decoder (core/src/audio/pcm-stream.ts) in the oracle's decode thread, where an
 * upload's landmark peaks are also read in its views (./query-views.ts) from the same stream.
 */
import type { PcmSink } from '../audio/pcm-stream.ts';
import { createFingerprinter, FINGERPRINT_SAMPLE_RATE } from './chromaprint.ts';
import { createContrastImageBuilder } from './contrast-image.ts';
import type { ContrastImage } from './contrast-image.ts';
import { createLandmarkFingerprinter } from './landmarks.ts';
import { LANDMARK_SAMPLE_RATE } from './log-spectrogram.ts';
import { createMonoInput, feedInBlocks } from './mono-input.ts';
import { createViewFingerprinters } from './query-views.ts';
import type { ViewPeaks } from './query-views.ts';
import type { Peak } from './spectral-peaks.ts';

export interface SoundFingerprints {
  /** Chromaprint's items (./chromaprint.ts). */
  chromaprint: Uint32Array;
  /** The landmark peaks in time order (./landmarks.ts). */
  landmarks: Peak[];
  /** The landmark peaks of the sound's views (./query-views.ts), when asked for; otherwise empty. */
  views: ViewPeaks[];
  /** The sound's contrast image (./contrast-image.ts), with its views; otherwise null. */
  image: ContrastImage | null;
}

export interface SoundFingerprintOptions {
  /**
   * Also read the landmark peaks of the sound's views, and the contrast images of the sound and
   * its views (an upload, to be looked up with the evidence of ./spectrogram-evidence.ts).
   */
  views?: boolean;
}

export interface SoundFingerprinter {
  /** Feeds the next block: one array per channel, equal lengths, samples in [-1, 1]. */
  feed(channels: readonly Float32Array[]): void;
  /** Ends the stream and returns both fingerprints (the fingerprinter is done after this). */
  finish(): SoundFingerprints;
}

if ((FINGERPRINT_SAMPLE_RATE as number) !== LANDMARK_SAMPLE_RATE) throw new Error('the fingerprints must share their sample rate');

export function createSoundFingerprinter(sampleRate: number, channels: number, options: SoundFingerprintOptions = {}): SoundFingerprinter {
  const chromaprint = createFingerprinter(FINGERPRINT_SAMPLE_RATE, 1);
  const image = options.views === true ? createContrastImageBuilder() : null;
  const landmarks = createLandmarkFingerprinter(LANDMARK_SAMPLE_RATE, 1, image === null ? undefined : (t, db) => image.frame(t, db));
  const views = options.views === true ? createViewFingerprinters() : null;
  const input = createMonoInput(sampleRate, channels, FINGERPRINT_SAMPLE_RATE, (samples) => {
    chromaprint.feed([samples]);
    landmarks.feed([samples]);
    views?.push(samples);
  });
  return {
    feed(block) {
      input.feed(block);
    },
    finish() {
      input.flush();
      return {
        chromaprint: chromaprint.finish(),
        landmarks: landmarks.finish(),
        views: views?.finish() ?? [],
        image: image?.finish() ?? null,
      };
    },
  };
}

export interface SoundFingerprintSink extends PcmSink {
  /** Both fingerprints once the stream ended; null when it never started. */
  finish(): SoundFingerprints | null;
}

/** A decoder's sink that fingerprints what it decodes, block by block. */
export function soundFingerprintSink(options: SoundFingerprintOptions = {}): SoundFingerprintSink {
  let fingerprinter: SoundFingerprinter | undefined;
  let channels = 0;
  return {
    start(format) {
      fingerprinter = createSoundFingerprinter(format.sampleRate, format.channels, options);
      channels = format.channels;
    },
    block(block, frames) {
      // The decoder reuses its arrays: the fingerprinter takes what it needs before returning.
      fingerprinter?.feed(block.slice(0, channels).map((channel) => channel.subarray(0, frames)));
    },
    finish: () => fingerprinter?.finish() ?? null,
  };
}

/**
 * An upload's landmark peaks, its views' and their contrast images from whole PCM, fed in blocks as the decode thread's
 * sink is: what `findEarlierClaim` is asked with for an upload (benches and tests).
 */
export function uploadLandmarks(
  channels: readonly Float32Array[],
  sampleRate: number,
  blockFrames = 65536,
): { peaks: Peak[]; views: ViewPeaks[]; image: ContrastImage | undefined } {
  const fingerprinter = createSoundFingerprinter(sampleRate, channels.length, { views: true });
  feedInBlocks((block) => fingerprinter.feed(block), channels, blockFrames);
  const { landmarks, views, image } = fingerprinter.finish();
  return { peaks: landmarks, views, image: image ?? undefined };
}
