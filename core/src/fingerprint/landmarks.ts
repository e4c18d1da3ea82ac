/**
 * The landmark fingerprint of a sound (docs/fingerprints.md, issue 50): its spectral peaks on a
 * log-frequency axis (./log-spectrogram.ts, ./spectral-peaks.ts), from which the registry's and
 * a query's triplets are made (./triplets.ts). Streaming like ./chromaprint.ts: blocks of PCM in
 * (channels mixed down), the peaks out at the end; run where the PCM already is (the worker
 * beside its encode, the oracle's decode thread), never on an event loop.
 *
 * Stored raw as `LANDMARK_PEAK_BYTES` bytes a peak: t (frames, 32-bit big-endian), k, contrast
 * in half dB (capped at 127.5 dB).
 */
import { createLogSpectrogram, LANDMARK_SAMPLE_RATE } from './log-spectrogram.ts';
import { createMonoInput, feedInBlocks } from './mono-input.ts';
import { createPeakFinder } from './spectral-peaks.ts';
import type { Peak } from './spectral-peaks.ts';

export const LANDMARK_PEAK_BYTES = 6;

export interface LandmarkFingerprinter {
  /** Feeds the next block: one array per channel, equal lengths, samples in [-1, 1]. */
  feed(channels: readonly Float32Array[]): void;
  /** Ends the stream and returns its peaks in time order (the fingerprinter is done after this). */
  finish(): Peak[];
}

/**
 * `alsoFrame` is shown each spectrogram frame after the peak finder (an upload's contrast image,
 * ./contrast-image.ts, is read from the same frames).
 */
export function createLandmarkFingerprinter(
  sampleRate: number,
  channels: number,
  alsoFrame?: (t: number, db: Float32Array) => void,
): LandmarkFingerprinter {
  const finder = createPeakFinder();
  const spectrogram = createLogSpectrogram((t, db) => {
    finder.frame(t, db);
    alsoFrame?.(t, db);
  });
  const input = createMonoInput(sampleRate, channels, LANDMARK_SAMPLE_RATE, (samples) => spectrogram.push(samples));
  return {
    feed(block) {
      input.feed(block);
    },
    finish() {
      input.flush();
      spectrogram.flush();
      return finder.finish();
    },
  };
}

/** The peaks of whole PCM (`channels` arrays at `sampleRate`), fed in blocks as a stream would be. */
export function landmarkPeaks(channels: readonly Float32Array[], sampleRate: number, blockFrames = 65536): Peak[] {
  const fingerprinter = createLandmarkFingerprinter(sampleRate, channels.length);
  feedInBlocks((block) => fingerprinter.feed(block), channels, blockFrames);
  return fingerprinter.finish();
}

export function peaksToBytes(peaks: readonly Peak[]): Uint8Array {
  const out = new Uint8Array(peaks.length * LANDMARK_PEAK_BYTES);
  const view = new DataView(out.buffer);
  peaks.forEach((p, i) => {
    view.setUint32(i * LANDMARK_PEAK_BYTES, p.t);
    view.setUint8(i * LANDMARK_PEAK_BYTES + 4, p.k);
    view.setUint8(i * LANDMARK_PEAK_BYTES + 5, Math.min(255, Math.round(p.contrast * 2)));
  });
  return out;
}

export function peaksFromBytes(bytes: Uint8Array): Peak[] {
  if (bytes.length % LANDMARK_PEAK_BYTES !== 0) throw new RangeError(`landmark peaks of ${bytes.length} bytes`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const peaks: Peak[] = [];
  for (let o = 0; o < bytes.length; o += LANDMARK_PEAK_BYTES)
    peaks.push({ t: view.getUint32(o), k: view.getUint8(o + 4), contrast: view.getUint8(o + 5) / 2 });
  return peaks;
}
