/**
 * An upload's contrast image (docs/fingerprints.md, "Evidence on the upload's spectrogram"): at
 * each frame and log bin of the landmark spectrogram (./log-spectrogram.ts), how far the bin
 * stands above the mean of its frame's octave around it (./spectral-peaks.ts `octaveMeans`),
 * floored at 0 dB: a peak's contrast, read everywhere. Each cell then holds the largest of its
 * neighbours within `TIME_REACH_FRAMES` frames and ±1 bin, so that a peak a little off still
 * counts where it is looked for (./spectrogram-evidence.ts reads it at the registered sound's
 * peaks, through an alignment fitted on a few votes).
 *
 * The reach in time: ±1 frame until 2026-12-02. A weak copy's alignment is fitted to a stretch a
 * few tenths of a percent off at best, 0.1-0.2 s at the ends of a 25 s window, past ±1 frame
 * (15 ms): `heroes_rite` transposed a semitone down, its tempo kept, read at its fitted alignment
 * gave a median of 2.88 with ±1 frame and 3.19 with ±4, where the chance candidates' highest moved
 * from 1.54 to 1.61 (docs/fingerprints.md, "The image's reach in time").
 *
 * A byte a cell, `CONTRAST_STEP_DB` a step (at most 63.75 dB): 116 bins by 69 frames a second,
 * 1.9 MB for a 240 s upload. Streaming: fed the spectrogram's frames as they come, it holds
 * 2 × `TIME_REACH_FRAMES` + 1 rows besides what it has written, and the decoder's budget bounds
 * the frames.
 */
import { LOG_BINS } from './log-spectrogram.ts';
import { octaveMeans } from './spectral-peaks.ts';

/** dB per step of a cell. */
export const CONTRAST_STEP_DB = 0.25;
/** Frames either side whose contrast a cell holds (the largest). */
export const TIME_REACH_FRAMES = 4;
const MAX_LEVEL = 255;
/** Rows held: a frame's own and `TIME_REACH_FRAMES` either side. */
const HELD_ROWS = 2 * TIME_REACH_FRAMES + 1;

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
  // Each frame's levels max-filtered across bins, frame t's in row t % HELD_ROWS.
  const rows = Array.from({ length: HELD_ROWS }, () => new Uint8Array(LOG_BINS));

  // Frame t's cells from the rows of frames `from` … `to` (t's reach, within the frames fed).
  const write = (t: number, from: number, to: number): void => {
    if ((t + 1) * LOG_BINS > cells.length) {
      const grown = new Uint8Array(cells.length * 2);
      grown.set(cells);
      cells = grown;
    }
    const at = t * LOG_BINS;
    cells.fill(0, at, at + LOG_BINS);
    for (let u = from; u <= to; u += 1) {
      const row = rows[u % HELD_ROWS] as Uint8Array;
      for (let k = 0; k < LOG_BINS; k += 1) if ((row[k] as number) > (cells[at + k] as number)) cells[at + k] = row[k] as number;
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
      const current = rows[t % HELD_ROWS] as Uint8Array;
      for (let k = 0; k < LOG_BINS; k += 1)
        current[k] = Math.max(level[k] as number, k > 0 ? (level[k - 1] as number) : 0, k + 1 < LOG_BINS ? (level[k + 1] as number) : 0);
      // Frame t − reach now has every row it reaches.
      const ready = t - TIME_REACH_FRAMES;
      if (ready >= 0) write(ready, Math.max(0, ready - TIME_REACH_FRAMES), t);
      frames += 1;
    },
    finish() {
      for (let t = Math.max(0, frames - TIME_REACH_FRAMES); t < frames; t += 1) write(t, Math.max(0, t - TIME_REACH_FRAMES), frames - 1);
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
