/**
 * Fingerprints for the API tests that need no audio: Chromaprint sequences with the dynamics of
 * real ones (each item a few bits away from the one before), distinct per seed, for the outside
 * lookup; landmark peaks (what the registry's checks read) at random places, distinct per seed, and
 * copies of a stretch of one placed in another with a peak in ten lost (a re-encode's). The
 * audio path itself is tested with real music and songs and their copies by ffmpeg, sox,
 * rubberband and espeak-ng (test/core/landmark-fingerprint.test.ts, test/oracle/jobs.test.ts).
 */
import { fingerprintToBytes } from '../../../core/src/fingerprint/encoding.ts';
import { FRAME_SECONDS, LOG_BINS } from '../../../core/src/fingerprint/log-spectrogram.ts';
import { peaksToBytes } from '../../../core/src/fingerprint/landmarks.ts';
import type { Peak } from '../../../core/src/fingerprint/spectral-peaks.ts';
import { seededRandom } from '../../../core/src/testing/seeded-random.ts';

/** `items` items (about 8 a second) changing 2 to 6 bits from one to the next. */
export function syntheticFingerprint(seed: number, items: number): Uint32Array {
  const next = seededRandom(seed);
  const out = new Uint32Array(items);
  let item = Math.floor(next() * 2 ** 32);
  for (let i = 0; i < items; i += 1) {
    const flips = 2 + Math.floor(next() * 5);
    for (let f = 0; f < flips; f += 1) item ^= 1 << Math.floor(next() * 32);
    out[i] = item >>> 0;
  }
  return out;
}

/** `host` with `source[from, from + length)` written over it at `at`, one bit flipped in every tenth item. */
export function withCopy(host: Uint32Array, source: Uint32Array, from: number, length: number, at: number): Uint32Array {
  const out = Uint32Array.from(host);
  for (let i = 0; i < length; i += 1) out[at + i] = ((source[from + i] as number) ^ (i % 10 === 0 ? 1 << (i % 32) : 0)) >>> 0;
  return out;
}

/** The raw column value of `items`. */
export function fingerprintColumn(items: Uint32Array): Buffer {
  return Buffer.from(fingerprintToBytes(items));
}

/** Frames of one second: the blocks in which the registry keeps the strongest peaks. */
const SECOND_FRAMES = Math.round(1 / FRAME_SECONDS);

/** `seconds` of landmark peaks, 14 a second at random frames, bins and strengths. */
export function syntheticPeaks(seed: number, seconds: number): Peak[] {
  const next = seededRandom(seed);
  const peaks: Peak[] = [];
  for (let second = 0; second < seconds; second += 1)
    for (let i = 0; i < 14; i += 1)
      peaks.push({
        t: second * SECOND_FRAMES + Math.floor(next() * SECOND_FRAMES),
        k: Math.floor(next() * LOG_BINS),
        contrast: 6 + Math.round(next() * 40) / 2,
      });
  return peaks.sort((a, b) => a.t - b.t || a.k - b.k);
}

/** `host` with seconds `[from, from + seconds)` of `source` written over it from second `at`, every tenth peak lost. */
export function withCopiedPeaks(host: readonly Peak[], source: readonly Peak[], from: number, seconds: number, at: number): Peak[] {
  const [start, end] = [at * SECOND_FRAMES, (at + seconds) * SECOND_FRAMES];
  const copied = source
    .filter((p) => p.t >= from * SECOND_FRAMES && p.t < (from + seconds) * SECOND_FRAMES)
    .filter((_, i) => i % 10 !== 9)
    .map((p) => ({ ...p, t: p.t - from * SECOND_FRAMES + start }));
  return [...host.filter((p) => p.t < start || p.t >= end), ...copied].sort((a, b) => a.t - b.t || a.k - b.k);
}

/** The raw column value of `peaks`. */
export function landmarksColumn(peaks: readonly Peak[]): Buffer {
  return Buffer.from(peaksToBytes(peaks));
}
