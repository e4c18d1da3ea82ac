/**
 * The landmark fingerprint's spectrogram (docs/fingerprints.md, issue 50): mono PCM resampled to
 * 11,025 Hz (Chromaprint's rate: from 44.1 and 22.05 kHz by halvings alone), 1024-sample Hann
 * frames every 160 samples (14.5 ms), each frame's power spectrum read on a
 * logarithmic frequency axis of `BINS_PER_OCTAVE` bins per octave from `MIN_HZ` to `MAX_HZ` (a
 * constant-Q-like axis: a pitch change of r moves every peak by the same number of bins,
 * log2(r) · BINS_PER_OCTAVE), in decibels. Where the log bins are narrower than the FFT's
 * (below ~500 Hz) the power is interpolated between the two FFT bins around the centre; above,
 * a log bin takes the largest FFT bin it spans.
 *
 * The band is what every copy keeps: the telephone band (300-3400 Hz) lies inside it, a 200 Hz
 * high-pass removes its bottom only, and a semitone either way moves 6% of it out.
 *
 * Streaming: `push` takes mono samples at `LANDMARK_SAMPLE_RATE` (./mono-input.ts mixes down and
 * resamples) and calls `onFrame` with each finished frame's log spectrum (a view reused for the
 * next frame).
 */
import { createPowerSpectrum } from './fft.ts';

export const LANDMARK_SAMPLE_RATE = 11025;
export const FRAME_SAMPLES = 1024;
export const HOP_SAMPLES = 160;
/** Seconds between frames (14.5 ms). */
export const FRAME_SECONDS = HOP_SAMPLES / LANDMARK_SAMPLE_RATE;
export const MIN_HZ = 130;
export const MAX_HZ = 3700;
export const BINS_PER_OCTAVE = 24;
export const LOG_BINS = Math.floor(Math.log2(MAX_HZ / MIN_HZ) * BINS_PER_OCTAVE) + 1;

/** The FFT reading of each log bin: interpolation weights below the crossover, a max over a range above. */
interface LogAxis {
  lower: Int32Array;
  upper: Int32Array;
  weight: Float64Array;
}

function logAxis(): LogAxis {
  const hzPerBin = LANDMARK_SAMPLE_RATE / FRAME_SAMPLES;
  const lower = new Int32Array(LOG_BINS);
  const upper = new Int32Array(LOG_BINS);
  const weight = new Float64Array(LOG_BINS);
  for (let k = 0; k < LOG_BINS; k += 1) {
    const centre = MIN_HZ * 2 ** (k / BINS_PER_OCTAVE);
    const from = Math.ceil((centre * 2 ** (-0.5 / BINS_PER_OCTAVE)) / hzPerBin);
    const to = Math.floor((centre * 2 ** (0.5 / BINS_PER_OCTAVE)) / hzPerBin);
    if (to > from) {
      lower[k] = from;
      upper[k] = to;
      weight[k] = -1;
    } else {
      const x = centre / hzPerBin;
      lower[k] = Math.floor(x);
      upper[k] = Math.floor(x) + 1;
      weight[k] = x - Math.floor(x);
    }
  }
  return { lower, upper, weight };
}

export interface LogSpectrogram {
  /** Next samples of the one channel at `LANDMARK_SAMPLE_RATE`. */
  push(samples: Float32Array): void;
  /** The end of the stream: the last samples (zero-padded) make their frames. */
  flush(): void;
  /** Frames made so far. */
  readonly frames: number;
}

/** A streaming log-frequency spectrogram of one channel at `LANDMARK_SAMPLE_RATE`; `onFrame(t, db)` per frame. */
export function createLogSpectrogram(onFrame: (t: number, db: Float32Array) => void): LogSpectrogram {
  const spectrum = createPowerSpectrum(FRAME_SAMPLES);
  const axis = logAxis();
  const hann = new Float64Array(FRAME_SAMPLES);
  for (let i = 0; i < FRAME_SAMPLES; i += 1) hann[i] = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / FRAME_SAMPLES);
  const pending = new Float32Array(FRAME_SAMPLES * 4);
  let pendingLength = 0;
  const frame = new Float64Array(FRAME_SAMPLES);
  const power = new Float64Array(FRAME_SAMPLES / 2 + 1);
  const db = new Float32Array(LOG_BINS);
  let frames = 0;

  const emitFrames = (): void => {
    let start = 0;
    while (pendingLength - start >= FRAME_SAMPLES) {
      for (let i = 0; i < FRAME_SAMPLES; i += 1) frame[i] = (pending[start + i] as number) * (hann[i] as number);
      spectrum.compute(frame, power);
      for (let k = 0; k < LOG_BINS; k += 1) {
        const lo = axis.lower[k] as number;
        const hi = axis.upper[k] as number;
        const w = axis.weight[k] as number;
        let p: number;
        if (w < 0) {
          p = power[lo] as number;
          for (let j = lo + 1; j <= hi; j += 1) if ((power[j] as number) > p) p = power[j] as number;
        } else {
          p = (1 - w) * (power[lo] as number) + w * (power[hi] as number);
        }
        db[k] = 10 * Math.log10(p + 1e-10);
      }
      onFrame(frames, db);
      frames += 1;
      start += HOP_SAMPLES;
    }
    pending.copyWithin(0, start, pendingLength);
    pendingLength -= start;
  };

  const append = (samples: Float32Array): void => {
    let offset = 0;
    while (offset < samples.length) {
      const take = Math.min(samples.length - offset, pending.length - pendingLength);
      pending.set(samples.subarray(offset, offset + take), pendingLength);
      pendingLength += take;
      offset += take;
      emitFrames();
    }
  };

  return {
    push(samples) {
      append(samples);
    },
    flush() {
      if (pendingLength > 0) append(new Float32Array(FRAME_SAMPLES - pendingLength));
    },
    get frames() {
      return frames;
    },
  };
}
