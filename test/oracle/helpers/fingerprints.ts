/**
 * Fingerprints for the API tests that need no audio: sequences with the dynamics of Chromaprint's
 * (each item a few bits away from the one before), distinct per seed, and copies of a stretch of
 * one placed in another with a few bits flipped (a re-encode's errors). The audio path itself is
 * tested with real songs and ffmpeg copies (test/core/fingerprint.test.ts, test/oracle/jobs.test.ts).
 */
import { fingerprintToBytes } from '../../../core/src/fingerprint/encoding.ts';

function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), state | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `items` items (about 8 a second) changing 2 to 6 bits from one to the next. */
export function syntheticFingerprint(seed: number, items: number): Uint32Array {
  const next = random(seed);
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
