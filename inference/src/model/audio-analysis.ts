/**
 * What the built-in model reads from audio it did not make (an upload it imports,
 * ./builtin-edits.ts): the tempo and the key, so new material of an edit lines up with it.
 *
 * - tempo: the autocorrelation of an onset envelope (the rise of frame energy, 512-sample hops)
 *   over 60 to 180 beats per minute, weighted toward 120 (a log-normal prior, as in
 *   Ellis 2007, "Beat tracking by dynamic programming") against half- and double-tempo picks;
 * - key: a chromagram (Goertzel power of every semitone from C2 to B6, folded to pitch classes)
 *   correlated with the Krumhansl-Kessler major and minor profiles of the 12 tonics.
 */

const HOP = 512;
const MIN_BPM = 60;
const MAX_BPM = 180;
const PRIOR_BPM = 120;
/** Width of the tempo prior in octaves. */
const PRIOR_OCTAVES = 0.9;

/** Krumhansl-Kessler key profiles, tonic first. */
const MAJOR = [6.35, 2.23, 3.48, 2.33, 4.38, 4.09, 2.52, 5.19, 2.39, 3.66, 2.29, 2.88];
const MINOR = [6.33, 2.68, 3.52, 5.38, 2.6, 3.53, 2.54, 4.75, 3.98, 2.69, 3.34, 3.17];

export interface TempoAndKey {
  bpm: number;
  /** Tonic pitch class, 0 = C. */
  key: number;
  minor: boolean;
}

function onsetEnvelope(signal: Float32Array): Float64Array {
  const frames = Math.floor(signal.length / HOP);
  const energy = new Float64Array(frames);
  for (let f = 0; f < frames; f += 1) {
    let sum = 0;
    for (let i = f * HOP; i < (f + 1) * HOP; i += 1) sum += (signal[i] ?? 0) ** 2;
    energy[f] = Math.log(1e-9 + sum);
  }
  const onset = new Float64Array(frames);
  for (let f = 1; f < frames; f += 1) onset[f] = Math.max(0, (energy[f] ?? 0) - (energy[f - 1] ?? 0));
  const mean = onset.reduce((s, v) => s + v, 0) / Math.max(1, frames);
  return onset.map((v) => v - mean);
}

function estimateTempo(signal: Float32Array, rate: number): number {
  const onset = onsetEnvelope(signal);
  const fps = rate / HOP;
  let best = PRIOR_BPM;
  let bestScore = -Infinity;
  for (let bpm = MIN_BPM; bpm <= MAX_BPM; bpm += 0.5) {
    const lag = (60 * fps) / bpm;
    const whole = Math.floor(lag);
    const frac = lag - whole;
    let score = 0;
    for (let f = whole + 1; f < onset.length; f += 1) {
      const delayed = (onset[f - whole] ?? 0) * (1 - frac) + (onset[f - whole - 1] ?? 0) * frac;
      score += (onset[f] ?? 0) * delayed;
    }
    score *= Math.exp(-0.5 * (Math.log2(bpm / PRIOR_BPM) / PRIOR_OCTAVES) ** 2);
    if (score > bestScore) {
      bestScore = score;
      best = bpm;
    }
  }
  return Math.round(best);
}

/** Power of each pitch class, from Goertzel filters over the whole signal. */
function chroma(signal: Float32Array, rate: number): Float64Array {
  const out = new Float64Array(12);
  for (let midi = 36; midi < 96; midi += 1) {
    const coefficient = 2 * Math.cos((2 * Math.PI * 440 * 2 ** ((midi - 69) / 12)) / rate);
    let s1 = 0;
    let s2 = 0;
    for (let i = 0; i < signal.length; i += 1) {
      const s0 = (signal[i] ?? 0) + coefficient * s1 - s2;
      s2 = s1;
      s1 = s0;
    }
    const index = midi % 12;
    out[index] = (out[index] ?? 0) + Math.sqrt(Math.max(0, s1 * s1 + s2 * s2 - coefficient * s1 * s2));
  }
  return out;
}

function correlation(a: readonly number[], b: Float64Array, shift: number): number {
  const meanA = a.reduce((s, v) => s + v, 0) / 12;
  const meanB = b.reduce((s, v) => s + v, 0) / 12;
  let num = 0;
  let da = 0;
  let db = 0;
  for (let i = 0; i < 12; i += 1) {
    const x = (a[i] ?? 0) - meanA;
    const y = (b[(i + shift) % 12] ?? 0) - meanB;
    num += x * y;
    da += x * x;
    db += y * y;
  }
  return num / Math.sqrt(da * db || 1);
}

/** At most this many seconds (from the start) are analysed. */
export const ANALYSIS_SECONDS = 60;

/** The tempo and key of mono `signal` at `rate` (its first `ANALYSIS_SECONDS`). */
export function estimateTempoAndKey(whole: Float32Array, rate: number): TempoAndKey {
  const signal = whole.subarray(0, ANALYSIS_SECONDS * rate);
  const pitch = chroma(signal, rate);
  let best = { key: 0, minor: false, score: -Infinity };
  for (let key = 0; key < 12; key += 1) {
    for (const minor of [false, true]) {
      const score = correlation(minor ? MINOR : MAJOR, pitch, key);
      if (score > best.score) best = { key, minor, score };
    }
  }
  return { bpm: estimateTempo(signal, rate), key: best.key, minor: best.minor };
}
