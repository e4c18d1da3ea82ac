/**
 * An upload's contrast image (docs/fingerprints.md, "Evidence on the upload's spectrogram"): at
 * each frame and log bin of the landmark spectrogram (./log-spectrogram.ts), how far the bin
 * stands above the mean of its frame's octave around it (./spectral-peaks.ts `octaveMeans`),
 * floored at 0 dB: a peak's contrast, read everywhere. Each cell then holds the largest of its
 * neighbours within ±1 frame and ±1 bin, so that a peak a frame or a bin off still counts where
 * it is looked for (./spectrogram-evidence.ts reads it at the registered sound's peaks).
 *
 * A byte a cell, `CONTRAST_STEP_DB` a step (at most 63.75 dB): 116 bins by 69 frames a second,
 * 1.9 MB for a 240 s upload. Streaming: fed the spectrogram's frames as they come, it holds three
 * rows besides what it has written, and the decoder's budget bounds the frames.
 */
import { LOG_BINS } from './log-spectrogram.ts';
import { octaveMeans } from './spectral-peaks.ts';

/** dB per step of a cell. */
export const CONTRAST_STEP_DB = 0.25;
const MAX_LEVEL = 255;

export interface ContrastImage {
  frames: number;
  /** `frames` × `LOG_BINS` cells, frame by frame, `CONTRAST_STEP_DB` a step. */
  cells: Uint8Array;
}

export interface ContrastImageBuilder {
  /** The spectrogram's next frame (`t` counts from 0, one after another), in dB. */
  frame(t: number, db: Float32Array): void;
  /** The image of the frames fed (the builder is done after this). */
  finish(): ContrastImage;
}

export function createContrastImageBuilder(): ContrastImageBuilder {
  let cells = new Uint8Array(LOG_BINS * 1024);
  let frames = 0;
  const prefix = new Float64Array(LOG_BINS + 1);
  const means = new Float64Array(LOG_BINS);
  const level = new Uint8Array(LOG_BINS);
  // Each frame's levels max-filtered across bins; the rows of frames t − 2, t − 1 and t.
  let older = new Uint8Array(LOG_BINS);
  let previous = new Uint8Array(LOG_BINS);
  let current = new Uint8Array(LOG_BINS);

  const write = (t: number, rows: readonly Uint8Array[]): void => {
    if ((t + 1) * LOG_BINS > cells.length) {
      const grown = new Uint8Array(cells.length * 2);
      grown.set(cells);
      cells = grown;
    }
    const at = t * LOG_BINS;
    for (let k = 0; k < LOG_BINS; k += 1) {
      let most = 0;
      for (const row of rows) if ((row[k] as number) > most) most = row[k] as number;
      cells[at + k] = most;
    }
  };

  return {
    frame(t, db) {
      if (t !== frames) throw new RangeError(`contrast image: frame ${t} after ${frames}`);
      octaveMeans(db, prefix, means);
      for (let k = 0; k < LOG_BINS; k += 1) {
        const contrast = (db[k] as number) - (means[k] as number);
        level[k] = contrast <= 0 ? 0 : Math.min(MAX_LEVEL, Math.round(contrast / CONTRAST_STEP_DB));
      }
      [older, previous, current] = [previous, current, older];
      for (let k = 0; k < LOG_BINS; k += 1)
        current[k] = Math.max(level[k] as number, k > 0 ? (level[k - 1] as number) : 0, k + 1 < LOG_BINS ? (level[k + 1] as number) : 0);
      if (t >= 1) write(t - 1, t >= 2 ? [older, previous, current] : [previous, current]);
      frames += 1;
    },
    finish() {
      if (frames >= 1) write(frames - 1, frames >= 2 ? [previous, current] : [current]);
      return { frames, cells: cells.slice(0, frames * LOG_BINS) };
    },
  };
}

/** An image as it came over the wire (its cells only), checked whole. */
export function contrastImageFromCells(cells: Uint8Array): ContrastImage {
  if (cells.length % LOG_BINS !== 0) throw new RangeError(`a contrast image of ${cells.length} bytes`);
  return { frames: cells.length / LOG_BINS, cells };
}

/** The contrast in dB at frame `f`, bin `k` (both within the image). */
export function contrastAt(image: ContrastImage, f: number, k: number): number {
  return (image.cells[f * LOG_BINS + k] as number) * CONTRAST_STEP_DB;
}
