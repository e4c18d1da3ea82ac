/**
 * Rational sample-rate conversion (e.g. MusicGen's 32 kHz to 48 kHz, 3:2) by a windowed-sinc
 * polyphase filter: each output sample is the input convolved with a Blackman-windowed sinc
 * whose cutoff sits just under the lower of the two Nyquist frequencies, one tap set per phase.
 */

const ZERO_CROSSINGS = 16;
const CUTOFF = 0.94;

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/** Output length for `samples` input samples: exact when `samples x to / from` is whole. */
export function resampledLength(samples: number, from: number, to: number): number {
  return Math.round((samples * to) / from);
}

export function resample(input: Float32Array, from: number, to: number): Float32Array {
  if (from === to) return input;
  const g = gcd(from, to);
  const up = to / g;
  const down = from / g;
  // Cutoff in cycles per input sample: the input's Nyquist when upsampling, the output's when down.
  const fc = 0.5 * CUTOFF * Math.min(1, up / down);
  const half = Math.ceil(ZERO_CROSSINGS / (2 * fc));
  const taps = 2 * half;
  // phases[p][j]: weight of input sample (base - half + 1 + j) for output phase p.
  const phases = Array.from({ length: up }, (_, p) => {
    const frac = ((p * down) % up) / up;
    const weights = new Float32Array(taps);
    let sum = 0;
    for (let j = 0; j < taps; j += 1) {
      const x = j - half + 1 - frac;
      const sinc = x === 0 ? 2 * fc : Math.sin(2 * Math.PI * fc * x) / (Math.PI * x);
      const w = (x + half) / (2 * half);
      const window = w <= 0 || w >= 1 ? 0 : 0.42 - 0.5 * Math.cos(2 * Math.PI * w) + 0.08 * Math.cos(4 * Math.PI * w);
      weights[j] = sinc * window;
      sum += sinc * window;
    }
    for (let j = 0; j < taps; j += 1) weights[j] = (weights[j] ?? 0) / sum;
    return weights;
  });
  const out = new Float32Array(resampledLength(input.length, from, to));
  const last = input.length - 1;
  for (let n = 0; n < out.length; n += 1) {
    const weights = phases[n % up] as Float32Array;
    const base = Math.floor((n * down) / up);
    let acc = 0;
    for (let j = 0; j < taps; j += 1) {
      const i = base - half + 1 + j;
      acc += (weights[j] ?? 0) * (input[i < 0 ? 0 : i > last ? last : i] ?? 0);
    }
    out[n] = acc;
  }
  return out;
}
