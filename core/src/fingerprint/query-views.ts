/**
 * An upload looked up as it is and played back a semitone slower and faster (its "views").
 *
 * The landmark fingerprint's peaks are read on a log-frequency axis interpolated from a 1024-point
 * FFT (./log-spectrogram.ts). Below 368 Hz a log bin is narrower than an FFT bin, so a low partial's
 * peak sits on the FFT's grid: transposed by a semitone it moves by one or two FFT bins, not by
 * the two log bins the matcher expects, and a triplet of such peaks hashes to another key. A copy
 * transposed (rubberband's phase vocoder) or sped up (sox `speed`) therefore keeps few of its
 * song's triplets: 7 agreeing votes for the weakest of 204 copies of 12 wesnoth tracks, where the
 * threshold is `MIN_VOTES` (10) and distinct tracks reach 7. Played back a semitone the other way,
 * its partials lie where the song's did, and they snap to the FFT's grid as the song's did: the
 * weakest of those copies then holds 10 votes, distinct tracks at most 9 (docs/fingerprints.md,
 * "Views of an upload").
 *
 * A view is the upload's 11,025 Hz mono read as if it were sampled at `viewSampleRate` and
 * resampled to 11,025 Hz: `semitones` +1 plays it a semitone lower and 5.9% longer, undoing a copy
 * made a semitone up. The matcher then finds the rest of the change (a semitone copy whose tempo
 * was kept shows as 5.9% slower in the view). A view may claim only an alignment whose change,
 * counted back to the upload as sent, lies within what the matcher searches on the upload itself
 * (`alignmentInView`): views bring back the peaks a transposition moved, not a wider search,
 * which would bring distinct tracks closer by chance.
 */
import { createContrastImageBuilder } from './contrast-image.ts';
import type { ContrastImage } from './contrast-image.ts';
import type { LandmarkAlignment } from './landmark-match.ts';
import { MAX_SHIFT_BINS, MAX_STRETCH } from './landmark-match.ts';
import { createLandmarkFingerprinter } from './landmarks.ts';
import type { LandmarkFingerprinter } from './landmarks.ts';
import { BINS_PER_OCTAVE, LANDMARK_SAMPLE_RATE } from './log-spectrogram.ts';
import type { Peak } from './spectral-peaks.ts';

/** The views looked up after the upload itself: a semitone either way. */
export const VIEW_SEMITONES: readonly number[] = [-1, 1];

export interface ViewPeaks {
  /** The transposition the view undoes: +1 reads the upload a semitone lower. */
  semitones: number;
  peaks: Peak[];
  /** The view's contrast image (./contrast-image.ts), where the evidence may be read on it. */
  image?: ContrastImage | undefined;
}

/** The rate the 11,025 Hz stream is taken to have in the view of `semitones` (whole Hz). */
export function viewSampleRate(semitones: number): number {
  return Math.round(LANDMARK_SAMPLE_RATE * 2 ** (-semitones / 12));
}

/** Duration in the view per duration in the upload. */
const viewStretch = (semitones: number): number => LANDMARK_SAMPLE_RATE / viewSampleRate(semitones);

/** The semitones the matcher searches either way (`MAX_SHIFT_BINS` log bins). */
const MAX_SHIFT_SEMITONES = (MAX_SHIFT_BINS * 12) / BINS_PER_OCTAVE;

/**
 * `alignment` (of the view of `semitones` with a registered sound) counted back to the upload as
 * sent: its stretch, pitch and query times in the upload's own time.
 */
export function alignmentOfUpload(semitones: number, alignment: LandmarkAlignment): LandmarkAlignment {
  const stretch = viewStretch(semitones);
  return {
    ...alignment,
    stretch: alignment.stretch / stretch,
    pitch: alignment.pitch * stretch,
    querySeconds: alignment.querySeconds / stretch,
    queryStartSeconds: alignment.queryStartSeconds / stretch,
  };
}

/**
 * Whether an alignment found in the view of `semitones` is one the matcher could have found on
 * the upload itself: its stretch within `MAX_STRETCH` either way, its transposition within
 * `MAX_SHIFT_BINS` log bins.
 */
export function alignmentInView(semitones: number, alignment: LandmarkAlignment): boolean {
  const upload = alignmentOfUpload(semitones, alignment);
  const tolerance = 1e-9;
  return (
    upload.stretch >= 1 / MAX_STRETCH - tolerance &&
    upload.stretch <= MAX_STRETCH + tolerance &&
    Math.abs(12 * Math.log2(upload.pitch)) <= MAX_SHIFT_SEMITONES + tolerance
  );
}

export interface ViewFingerprinters {
  /** The next samples of the upload's mono stream at 11,025 Hz. */
  push(samples: Float32Array): void;
  /** Ends the stream: each view's peaks and contrast image. */
  finish(): ViewPeaks[];
}

/**
 * Landmark fingerprinters of `VIEW_SEMITONES`, fed the stream the upload's own peaks are read
 * from, each with its view's contrast image.
 */
export function createViewFingerprinters(): ViewFingerprinters {
  const views = VIEW_SEMITONES.map((semitones) => {
    const image = createContrastImageBuilder();
    const fingerprinter: LandmarkFingerprinter = createLandmarkFingerprinter(viewSampleRate(semitones), 1, (t, db) => image.frame(t, db));
    return { semitones, fingerprinter, image };
  });
  return {
    push(samples) {
      for (const view of views) view.fingerprinter.feed([samples]);
    },
    finish: () => views.map(({ semitones, fingerprinter, image }) => ({ semitones, peaks: fingerprinter.finish(), image: image.finish() })),
  };
}

/**
 * The views on the wire between the decode thread and the oracle: semitones, peak bytes
 * (./landmarks.ts) and the contrast image's cells.
 */
export interface ViewPeakBytes {
  semitones: number;
  peaks: Uint8Array;
  image?: Uint8Array | undefined;
}
