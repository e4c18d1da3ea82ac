/**
 * Chromaprint's audio fingerprint (AcoustID; algorithm 2, `CHROMAPRINT_ALGORITHM_TEST2`, fpcalc's
 * default), computed here from float PCM in TypeScript, streaming: blocks of samples in, one
 * 32-bit sub-fingerprint out every 1365 samples at 11,025 Hz (about 0.124 s). The steps, as in
 * Chromaprint 1.5 (MIT-licensed parts: fingerprinter, chroma, classifiers; docs/fingerprints.md):
 *
 * 1. down-mix to mono (the channels' mean) and resample to 11,025 Hz (./mono-input.ts), rounded to
 *    16-bit samples, which is what Chromaprint consumes;
 * 2. frames of 4096 samples every 1365 (overlap 2731), Hamming window, power spectrum (./fft.ts);
 * 3. chroma: the energy of the FFT bins from 28 Hz to 3520 Hz summed into 12 pitch classes;
 * 4. a 5-tap filter over time (0.25, 0.75, 1, 0.75, 0.25), then each 12-vector scaled to unit
 *    Euclidean norm (zero under 0.01);
 * 5. the rows go into an integral image; 16 classifiers (a Haar-like filter over up to 16 rows
 *    and some of the 12 pitch classes, log ratio of two areas, quantized into 4 levels by three
 *    thresholds) give 2 bits each (Gray code): one 32-bit sub-fingerprint per new row once 16
 *    rows are in.
 *
 * Checked against Debian's `fpcalc -raw` (test/core/fingerprint.test.ts): identical for 16-bit
 * mono 11,025 Hz input; other rates differ only by the resampler (bit error measured there).
 */
import { roundClipped } from '../audio/round-sample.ts';
import { createPowerSpectrum } from './fft.ts';
import { createMonoInput, feedInBlocks } from './mono-input.ts';

/** AcoustID's algorithm number for what this computes (`CHROMAPRINT_ALGORITHM_TEST2` + 1, as fpcalc prints it). */
export const CHROMAPRINT_ALGORITHM = 2;
/** What the compressed form's first byte carries for this algorithm (the library's enum value). */
export const CHROMAPRINT_ALGORITHM_ID = 1;
export const FINGERPRINT_SAMPLE_RATE = 11025;
export const FRAME_SIZE = 4096;
export const FRAME_STEP = FRAME_SIZE / 3 - (FRAME_SIZE % 3) / 3; // 1365
/** Seconds of audio per sub-fingerprint. */
export const ITEM_SECONDS = FRAME_STEP / FINGERPRINT_SAMPLE_RATE;

const MIN_FREQ = 28;
const MAX_FREQ = 3520;
const BANDS = 12;
const CHROMA_FILTER = [0.25, 0.75, 1.0, 0.75, 0.25] as const;

/** Filter(type, y, height, width) and its quantizer's three thresholds: Chromaprint's `kClassifiersTest2`. */
const CLASSIFIERS: readonly (readonly [number, number, number, number, number, number, number])[] = [
  [0, 4, 3, 15, 1.98215, 2.35817, 2.63523],
  [4, 4, 6, 15, -1.03809, -0.651211, -0.282167],
  [1, 0, 4, 16, -0.298702, 0.119262, 0.558497],
  [3, 8, 2, 12, -0.105439, 0.0153946, 0.135898],
  [3, 4, 4, 8, -0.142891, 0.0258736, 0.200632],
  [4, 0, 3, 5, -0.826319, -0.590612, -0.368214],
  [1, 2, 2, 9, -0.557409, -0.233035, 0.0534525],
  [2, 7, 3, 4, -0.0646826, 0.00620476, 0.0784847],
  [2, 6, 2, 16, -0.192387, -0.029699, 0.215855],
  [2, 1, 3, 2, -0.0397818, -0.00568076, 0.0292026],
  [5, 10, 1, 15, -0.53823, -0.369934, -0.190235],
  [3, 6, 2, 10, -0.124877, 0.0296483, 0.139239],
  [2, 1, 1, 14, -0.101475, 0.0225617, 0.231971],
  [3, 5, 6, 4, -0.0799915, -0.00729616, 0.063262],
  [1, 9, 2, 12, -0.272556, 0.019424, 0.302559],
  [3, 4, 2, 14, -0.164292, -0.0321188, 0.0846339],
];
const MAX_FILTER_WIDTH = 16;
/** Rows the rolling integral image keeps (more than any filter spans). */
const IMAGE_ROWS = 32;
const GRAY_CODE = [0, 1, 3, 2] as const;

export interface Fingerprinter {
  /** Feeds the next block: one array per channel, equal lengths, samples in [-1, 1]. */
  feed(channels: readonly Float32Array[]): void;
  /** Ends the stream and returns the sub-fingerprints (the fingerprinter is done after this). */
  finish(): Uint32Array;
}

/** Frequency bin -> pitch class, over the bins from MIN_FREQ to MAX_FREQ. */
function pitchClasses(): { first: number; end: number; notes: Uint8Array } {
  const freqToIndex = (freq: number): number => {
    const x = (FRAME_SIZE * freq) / FINGERPRINT_SAMPLE_RATE;
    return x >= 0 ? Math.floor(x + 0.5) : Math.ceil(x - 0.5);
  };
  const first = Math.max(1, freqToIndex(MIN_FREQ));
  const end = Math.min(FRAME_SIZE / 2, freqToIndex(MAX_FREQ));
  const notes = new Uint8Array(FRAME_SIZE);
  const base = 440 / 16;
  for (let i = first; i < end; i += 1) {
    const freq = (i * FINGERPRINT_SAMPLE_RATE) / FRAME_SIZE;
    const octave = Math.log(freq / base) / Math.log(2);
    notes[i] = Math.trunc(BANDS * (octave - Math.floor(octave)));
  }
  return { first, end, notes };
}

/** A streaming fingerprinter for PCM at `sampleRate` with `channels` channels. */
export function createFingerprinter(sampleRate: number, channels: number): Fingerprinter {
  const spectrum = createPowerSpectrum(FRAME_SIZE);
  const { first, end, notes } = pitchClasses();
  const window = new Float64Array(FRAME_SIZE);
  for (let i = 0; i < FRAME_SIZE; i += 1) window[i] = (0.54 - 0.46 * Math.cos((i * 2 * Math.PI) / (FRAME_SIZE - 1))) / 32767;

  // 16-bit samples at 11,025 Hz waiting to fill a frame.
  const pending = new Int16Array(FRAME_SIZE * 2);
  let pendingLength = 0;
  const frame = new Float64Array(FRAME_SIZE);
  const power = new Float64Array(FRAME_SIZE / 2 + 1);
  // The last 5 chroma vectors (the time filter's taps), oldest first once 5 are in.
  const chromaHistory = Array.from({ length: CHROMA_FILTER.length }, () => new Float64Array(BANDS));
  let chromaCount = 0;
  // Rolling integral image: row r (r-th filtered vector) at rows[(r % IMAGE_ROWS)].
  const image = new Float64Array(IMAGE_ROWS * BANDS);
  let rows = 0;
  const items: number[] = [];
  let done = false;

  const area = (r1: number, c1: number, r2: number, c2: number): number => {
    if (r1 === r2 || c1 === c2) return 0;
    const row2 = ((r2 - 1) % IMAGE_ROWS) * BANDS;
    if (r1 === 0) {
      return c1 === 0 ? (image[row2 + c2 - 1] as number) : (image[row2 + c2 - 1] as number) - (image[row2 + c1 - 1] as number);
    }
    const row1 = ((r1 - 1) % IMAGE_ROWS) * BANDS;
    if (c1 === 0) return (image[row2 + c2 - 1] as number) - (image[row1 + c2 - 1] as number);
    return (
      (image[row2 + c2 - 1] as number) -
      (image[row1 + c2 - 1] as number) -
      (image[row2 + c1 - 1] as number) +
      (image[row1 + c1 - 1] as number)
    );
  };
  const logRatio = (a: number, b: number): number => Math.log((1 + a) / (1 + b));

  const filterValue = (type: number, x: number, y: number, h: number, w: number): number => {
    switch (type) {
      case 0:
        return logRatio(area(x, y, x + w, y + h), 0);
      case 1: {
        const h2 = Math.floor(h / 2);
        return logRatio(area(x, y + h2, x + w, y + h), area(x, y, x + w, y + h2));
      }
      case 2: {
        const w2 = Math.floor(w / 2);
        return logRatio(area(x + w2, y, x + w, y + h), area(x, y, x + w2, y + h));
      }
      case 3: {
        const w2 = Math.floor(w / 2);
        const h2 = Math.floor(h / 2);
        const a = area(x, y + h2, x + w2, y + h) + area(x + w2, y, x + w, y + h2);
        const b = area(x, y, x + w2, y + h2) + area(x + w2, y + h2, x + w, y + h);
        return logRatio(a, b);
      }
      case 4: {
        const h3 = Math.floor(h / 3);
        const a = area(x, y + h3, x + w, y + 2 * h3);
        const b = area(x, y, x + w, y + h3) + area(x, y + 2 * h3, x + w, y + h);
        return logRatio(a, b);
      }
      default: {
        const w3 = Math.floor(w / 3);
        const a = area(x + w3, y, x + 2 * w3, y + h);
        const b = area(x, y, x + w3, y + h) + area(x + 2 * w3, y, x + w, y + h);
        return logRatio(a, b);
      }
    }
  };

  const addRow = (features: Float64Array): void => {
    const row = (rows % IMAGE_ROWS) * BANDS;
    let running = 0;
    for (let c = 0; c < BANDS; c += 1) {
      running += features[c] as number;
      image[row + c] = running;
    }
    if (rows > 0) {
      const last = ((rows - 1) % IMAGE_ROWS) * BANDS;
      for (let c = 0; c < BANDS; c += 1) image[row + c] = (image[last + c] as number) + (image[row + c] as number);
    }
    rows += 1;
    if (rows < MAX_FILTER_WIDTH) return;
    const x = rows - MAX_FILTER_WIDTH;
    let bits = 0;
    for (const [type, y, height, width, t0, t1, t2] of CLASSIFIERS) {
      const value = filterValue(type, x, y, height, width);
      const level = value < t1 ? (value < t0 ? 0 : 1) : value < t2 ? 2 : 3;
      bits = ((bits << 2) | GRAY_CODE[level]) >>> 0;
    }
    items.push(bits);
  };

  const filtered = new Float64Array(BANDS);
  const chroma = new Float64Array(BANDS);
  const consumeFrame = (): void => {
    spectrum.compute(frame, power);
    chroma.fill(0);
    for (let i = first; i < end; i += 1) chroma[notes[i] as number] = (chroma[notes[i] as number] as number) + (power[i] as number);
    // Time filter over the last five chroma vectors (a ring of five: slot chromaCount % 5 is the oldest).
    (chromaHistory[chromaCount % CHROMA_FILTER.length] as Float64Array).set(chroma);
    chromaCount += 1;
    if (chromaCount < CHROMA_FILTER.length) return;
    filtered.fill(0);
    for (let c = 0; c < BANDS; c += 1) {
      let sum = 0;
      for (let j = 0; j < CHROMA_FILTER.length; j += 1) {
        const vector = chromaHistory[(chromaCount + j) % CHROMA_FILTER.length] as Float64Array;
        sum += (vector[c] as number) * CHROMA_FILTER[j]!;
      }
      filtered[c] = sum;
    }
    let squares = 0;
    for (let c = 0; c < BANDS; c += 1) squares += (filtered[c] as number) * (filtered[c] as number);
    const norm = squares > 0 ? Math.sqrt(squares) : 0;
    if (norm < 0.01) filtered.fill(0);
    else for (let c = 0; c < BANDS; c += 1) filtered[c] = (filtered[c] as number) / norm;
    addRow(filtered);
  };

  const take = (samples: Float32Array): void => {
    let at = 0;
    while (at < samples.length) {
      const room = Math.min(samples.length - at, pending.length - pendingLength);
      for (let i = 0; i < room; i += 1) {
        pending[pendingLength + i] = roundClipped((samples[at + i] as number) * 32768, -32768, 32767);
      }
      pendingLength += room;
      at += room;
      let offset = 0;
      while (pendingLength - offset >= FRAME_SIZE) {
        for (let i = 0; i < FRAME_SIZE; i += 1) frame[i] = (pending[offset + i] as number) * (window[i] as number);
        consumeFrame();
        offset += FRAME_STEP;
      }
      if (offset > 0) {
        pending.copyWithin(0, offset, pendingLength);
        pendingLength -= offset;
      }
    }
  };
  const input = createMonoInput(sampleRate, channels, FINGERPRINT_SAMPLE_RATE, take);

  return {
    feed(block) {
      if (done) throw new Error('fingerprinter already finished');
      input.feed(block);
    },
    finish() {
      if (!done) {
        input.flush();
        done = true;
      }
      return Uint32Array.from(items);
    },
  };
}

/** The fingerprint of whole PCM (`channels`, each `[-1, 1]` at `sampleRate`), fed in blocks of `blockFrames`. */
export function fingerprintPcm(channels: readonly Float32Array[], sampleRate: number, blockFrames = 65536): Uint32Array {
  const fingerprinter = createFingerprinter(sampleRate, channels.length);
  feedInBlocks((block) => fingerprinter.feed(block), channels, blockFrames);
  return fingerprinter.finish();
}
