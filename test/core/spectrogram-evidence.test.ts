/**
 * The upload's contrast image (core/src/fingerprint/contrast-image.ts) and the evidence read on it
 * for a candidate short of votes (core/src/fingerprint/spectrogram-evidence.ts). The statistic's
 * threshold is calibrated on real music (docs/fingerprints.md; test/core/landmark-fingerprint.test.ts
 * tries it on real copies where Debian's soundtrack and the copier's tools are present); here, on
 * seeded melodies, what it must do whatever the music: stand out under the alignment of a copy,
 * not under a moved one nor on another melody, and say nothing on a window too short to judge.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CONTRAST_STEP_DB, contrastImageFromCells, TIME_REACH_FRAMES } from '../../core/src/fingerprint/contrast-image.ts';
import type { ContrastImage } from '../../core/src/fingerprint/contrast-image.ts';
import { alignSounds, indexByHash, queryTriplets, registeredTriplets } from '../../core/src/fingerprint/landmark-registry.ts';
import type { LandmarkAlignment } from '../../core/src/fingerprint/landmark-match.ts';
import { createLogSpectrogram, FRAME_SECONDS, LANDMARK_SAMPLE_RATE, LOG_BINS } from '../../core/src/fingerprint/log-spectrogram.ts';
import { createMonoInput, feedInBlocks } from '../../core/src/fingerprint/mono-input.ts';
import { uploadLandmarks } from '../../core/src/fingerprint/sound-fingerprints.ts';
import type { Peak } from '../../core/src/fingerprint/spectral-peaks.ts';
import { agreeingRegisteredPeaks, EVIDENCE_MIN_MEDIAN, segmentMedian } from '../../core/src/fingerprint/spectrogram-evidence.ts';
import { seededRandom } from '../../core/src/testing/seeded-random.ts';

const RATE = 22050;

/** A seeded melody of two voices of harmonic notes (0.15-0.45 s each), `seconds` long. */
function melody(seed: number, seconds: number): Float32Array {
  const random = seededRandom(seed);
  const out = new Float32Array(Math.round(seconds * RATE));
  for (let voice = 0; voice < 2; voice += 1) {
    let at = 0;
    while (at < out.length) {
      const length = Math.round((0.15 + 0.3 * random()) * RATE);
      const hz = 440 * 2 ** ((48 + Math.floor(random() * 30) + voice * 12 - 69) / 12);
      const level = 0.1 + 0.1 * random();
      for (let i = 0; i < length && at + i < out.length; i += 1) {
        const envelope = Math.exp((-3 * i) / length) * Math.min(1, i / 200);
        let sample = 0;
        for (let h = 1; h <= 3; h += 1) sample += Math.sin((2 * Math.PI * hz * h * i) / RATE) / h;
        out[at + i] = (out[at + i] as number) + level * envelope * sample;
      }
      at += length;
    }
  }
  return out;
}

/** Peaks, views and image of `samples` read as if sampled at `rate` (a higher rate plays it faster and higher). */
const upload = (samples: Float32Array, rate = RATE) => uploadLandmarks([samples], rate);

/** The best alignment of `query` (as an upload) with `registered`, at any votes. */
function alignmentOf(query: readonly Peak[], registered: readonly Peak[]): LandmarkAlignment {
  const alignment = alignSounds(query, registered, 2);
  assert.ok(alignment !== null, 'an alignment');
  return alignment;
}

function evidence(image: ContrastImage, queryPeaks: readonly Peak[], registered: readonly Peak[], alignment: LandmarkAlignment) {
  const query = queryTriplets(queryPeaks);
  const leftOut = agreeingRegisteredPeaks(query, indexByHash(query), registeredTriplets(registered), alignment);
  return segmentMedian(image, registered, alignment, leftOut);
}

describe('core: the evidence on an upload spectrogram', () => {
  const song = melody(1, 40);
  const registered = upload(song).peaks;

  it("is the spectrogram's contrast over its octave, max-filtered over TIME_REACH_FRAMES frames and a bin either way, a quarter dB a step", () => {
    const excerpt = song.subarray(5 * RATE, 17 * RATE);
    const { image } = upload(excerpt);
    assert.ok(image !== undefined);
    // The same frames, held whole, and the image computed from them directly.
    const rows: Float32Array[] = [];
    const spectrogram = createLogSpectrogram((_, db) => rows.push(db.slice()));
    const input = createMonoInput(RATE, 1, LANDMARK_SAMPLE_RATE, (samples) => spectrogram.push(samples));
    feedInBlocks((block) => input.feed(block), [excerpt], 65536);
    input.flush();
    spectrogram.flush();
    assert.equal(image.frames, rows.length);
    const level = rows.map((row) =>
      Array.from(row, (db, k) => {
        const from = Math.max(0, k - 12);
        const to = Math.min(LOG_BINS, k + 13);
        let mean = 0;
        for (let j = from; j < to; j += 1) mean += row[j] as number;
        return Math.min(255, Math.max(0, Math.round((db - mean / (to - from)) / CONTRAST_STEP_DB)));
      }),
    );
    let differing = 0;
    let lit = 0;
    for (let f = 0; f < rows.length; f += 1)
      for (let k = 0; k < LOG_BINS; k += 1) {
        let most = 0;
        for (let df = -TIME_REACH_FRAMES; df <= TIME_REACH_FRAMES; df += 1)
          for (let dk = -1; dk <= 1; dk += 1) most = Math.max(most, level[f + df]?.[k + dk] ?? 0);
        if (image.cells[f * LOG_BINS + k] !== most) differing += 1;
        if (most > 0) lit += 1;
      }
    assert.equal(differing, 0);
    assert.ok(lit > rows.length * 10, `${lit} cells above their octave`);
    assert.deepEqual(contrastImageFromCells(image.cells), image);
    assert.throws(() => contrastImageFromCells(image.cells.subarray(1)), /contrast image of/);
  });

  it('stands out under the alignment of a copy 3% faster (the same samples read at 22,712 Hz), and not under the alignment moved in time or pitch', () => {
    const copy = upload(song.subarray(10 * RATE, 35 * RATE), 22712);
    assert.ok(copy.image !== undefined);
    const alignment = alignmentOf(copy.peaks, registered);
    assert.ok(Math.abs(alignment.stretch - RATE / 22712) < 0.01, `stretch ${alignment.stretch}`);
    const aligned = evidence(copy.image, copy.peaks, registered, alignment);
    assert.ok((aligned.median ?? -Infinity) >= EVIDENCE_MIN_MEDIAN, `aligned: ${JSON.stringify(aligned)}`);
    const late = evidence(copy.image, copy.peaks, registered, { ...alignment, offsetSeconds: alignment.offsetSeconds + 6.3 });
    assert.ok((late.median ?? -Infinity) < 1.5, `moved 6.3 s: ${JSON.stringify(late)}`);
    const higher = evidence(copy.image, copy.peaks, registered, { ...alignment, pitch: alignment.pitch * 2 ** (5 / 24) });
    assert.ok((higher.median ?? -Infinity) < 1.5, `moved 5 bins: ${JSON.stringify(higher)}`);
  });

  it("leaves out the registered peaks of the triplets that voted, and finds nothing in another melody's spectrogram", () => {
    const copy = upload(song.subarray(10 * RATE, 35 * RATE));
    assert.ok(copy.image !== undefined);
    const alignment = alignmentOf(copy.peaks, registered);
    const query = queryTriplets(copy.peaks);
    const leftOut = agreeingRegisteredPeaks(query, indexByHash(query), registeredTriplets(registered), alignment);
    // The copy is the song from 10 s on: a registered triplet within the agreeing span whose hash
    // the copy shares is one that voted, and its first peak is left out; none far from the span is.
    const spanFrom = (alignment.offsetSeconds + alignment.queryStartSeconds) / FRAME_SECONDS;
    const spanTo = spanFrom + alignment.querySeconds / FRAME_SECONDS;
    const triplets = registeredTriplets(registered);
    const queryHashes = new Set(query.hash);
    const voted = [...triplets.hash.keys()].filter(
      (j) =>
        queryHashes.has(triplets.hash[j] as number) && (triplets.t[j] as number) >= spanFrom + 5 && (triplets.t[j] as number) <= spanTo - 5,
    );
    const firstLeftOut = voted.filter((j) => leftOut.has((triplets.t[j] as number) * 256 + (triplets.k[j] as number)));
    assert.ok(voted.length >= 20 && firstLeftOut.length >= voted.length * 0.9, `${firstLeftOut.length} of ${voted.length} left out`);
    const leftTimes = Array.from(leftOut, (key) => Math.floor(key / 256));
    assert.ok(Math.min(...leftTimes) >= spanFrom - 10 && Math.max(...leftTimes) <= spanTo + 100, 'only within the agreeing span');
    // Another melody laid where the copy lies: nothing stands out.
    const other = upload(melody(2, 25));
    assert.ok(other.image !== undefined);
    const chance = segmentMedian(other.image, registered, alignment, new Set());
    assert.ok((chance.median ?? -Infinity) < 1.5, `another melody: ${JSON.stringify(chance)}`);
  });

  it('says nothing where the window holds fewer than three segments to judge', () => {
    const copy = upload(song.subarray(10 * RATE, 16 * RATE));
    assert.ok(copy.image !== undefined);
    const alignment = alignmentOf(copy.peaks, registered);
    const short = evidence(copy.image, copy.peaks, registered, alignment);
    assert.equal(short.median, null);
    assert.ok(short.segments.filter((z) => z !== null).length < 3);
  });
});
