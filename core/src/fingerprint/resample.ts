/**
 * Streaming sample-rate conversion of one channel to the fingerprint's rate (11,025 Hz), cheap
 * enough to run beside the MP3 encoder: halving stages (half-band FIR filters, symmetric, every
 * other tap zero: 3 or 6 multiplications per output) while the rate stays an even number of at
 * least twice the target, then, when the rate left is not the target, one polyphase Kaiser-windowed sinc
 * (β 9, 16 zero crossings at the lower rate, cutoff at 0.8 of the lower Nyquist frequency: the
 * parameters of Chromaprint's own resampler and of fpcalc's FFmpeg "compatible mode").
 *
 * The fingerprint reads only 28-3520 Hz. A half-band stage passes that band flat and folds
 * nothing into it from above; what it lets through between 3.5 and 5.5 kHz ends above the band.
 * Output sample n sits at input time n · from / to; samples before the start and after the end
 * are zero. test/core/fingerprint.test.ts compares the result with fpcalc's.
 */

const ZERO_CROSSINGS = 16;
const CUTOFF = 0.8;
const KAISER_BETA = 9;
const MAX_PHASES = 2048;
/** Half-band filter length (4k + 3): 12 non-zero side taps, 6 after folding the symmetry. */
const HALF_BAND_TAPS = 23;
/**
 * A halving from a rate of at least this many Hz folds into the fingerprint's band (up to
 * 3520 Hz) only what lies within 3520 Hz of its Nyquist frequency, far above the band: an
 * 11-tap filter (3 multiplications per output) rejects it as well.
 */
const SHORT_HALF_BAND_FROM_HZ = 35_200;
const SHORT_HALF_BAND_TAPS = 11;
const HALF_BAND_BETA = 7;

export interface StreamingResampler {
  /** Takes the next input samples; returns the output samples they complete (a view valid until the next call). */
  push(input: Float32Array): Float32Array;
  /** The output samples still owed at the end of the input (zeros after it). */
  flush(): Float32Array;
}

function gcd(a: number, b: number): number {
  while (b !== 0) [a, b] = [b, a % b];
  return a;
}

/** Modified Bessel function of the first kind, order 0 (its power series). */
function besselI0(x: number): number {
  let sum = 1;
  let term = 1;
  const quarter = (x * x) / 4;
  for (let k = 1; k < 50; k += 1) {
    term *= quarter / (k * k);
    sum += term;
    if (term < sum * 1e-17) break;
  }
  return sum;
}

const kaiser = (r: number, beta: number): number => (Math.abs(r) >= 1 ? 0 : besselI0(beta * Math.sqrt(1 - r * r)) / besselI0(beta));

/** A growable sample buffer whose absolute sample `start` is data[0]. */
interface Window {
  data: Float32Array;
  start: number;
  length: number;
}

function append(window: Window, input: Float32Array): void {
  if (window.length + input.length > window.data.length) {
    const grown = new Float32Array(Math.max(window.data.length * 2, window.length + input.length));
    grown.set(window.data.subarray(0, window.length));
    window.data = grown;
  }
  window.data.set(input, window.length);
  window.length += input.length;
}

/** Drops the samples before absolute index `from`. */
function dropBefore(window: Window, from: number): void {
  const drop = Math.min(from - window.start, window.length);
  if (drop <= 0) return;
  window.data.copyWithin(0, drop, window.length);
  window.length -= drop;
  window.start += drop;
}

/** An output buffer that grows as needed. */
function outputBuffer(): { take(count: number): Float32Array } {
  let out = new Float32Array(4096);
  return {
    take(count) {
      if (count > out.length) out = new Float32Array(Math.max(count, out.length * 2));
      return out;
    },
  };
}

interface Stage {
  push(input: Float32Array): Float32Array;
  /** Ends the input: returns the remaining outputs (ceil(total · to / from) in all). */
  flush(): Float32Array;
}

/** Decimation by 2 through a half-band filter of `length` taps centred on each even input sample. */
function halvingStage(length: number): Stage {
  // The two lengths in use, each with its unrolled loop below.
  if (length !== SHORT_HALF_BAND_TAPS && length !== HALF_BAND_TAPS) throw new RangeError(`a half-band filter of ${length} taps`);
  const half = (length - 1) / 2;
  // Side taps at odd distances 1, 3, …, half (the even ones are zero), and the centre 0.5.
  const side = new Float64Array((half + 1) / 2);
  let sum = 0.5;
  for (let k = 0; k < side.length; k += 1) {
    const x = 2 * k + 1;
    side[k] = (Math.sin((Math.PI * x) / 2) / (Math.PI * x)) * kaiser(x / (half + 1), HALF_BAND_BETA);
    sum += 2 * (side[k] as number);
  }
  for (let k = 0; k < side.length; k += 1) side[k] = (side[k] as number) / sum;
  const centre = 0.5 / sum;
  const window: Window = { data: new Float32Array(8192), start: -half, length: half };
  const out = outputBuffer();
  let next = 0; // next output n, centred on input 2n
  let total = 0;
  const produce = (): Float32Array => {
    const end = window.start + window.length;
    const count = Math.max(0, Math.floor((end - 1 - half) / 2) + 1 - next);
    const buffer = out.take(count);
    // Locals only in the loop: closure and property reads there cost more than the arithmetic.
    const data = window.data;
    const taps = side.length;
    const weights = side;
    const middle = centre;
    const first = 2 * next - window.start;
    if (taps === 3) {
      // Unrolled (the same sums in the same order as a loop over the taps): a loop's own
      // overhead was most of its time at 3 and 6 taps.
      const w0 = weights[0] as number;
      const w1 = weights[1] as number;
      const w2 = weights[2] as number;
      for (let i = 0, c = first; i < count; i += 1, c += 2) {
        let acc = (data[c] as number) * middle;
        acc += ((data[c - 1] as number) + (data[c + 1] as number)) * w0;
        acc += ((data[c - 3] as number) + (data[c + 3] as number)) * w1;
        acc += ((data[c - 5] as number) + (data[c + 5] as number)) * w2;
        buffer[i] = acc;
      }
    } else {
      const w0 = weights[0] as number;
      const w1 = weights[1] as number;
      const w2 = weights[2] as number;
      const w3 = weights[3] as number;
      const w4 = weights[4] as number;
      const w5 = weights[5] as number;
      for (let i = 0, c = first; i < count; i += 1, c += 2) {
        let acc = (data[c] as number) * middle;
        acc += ((data[c - 1] as number) + (data[c + 1] as number)) * w0;
        acc += ((data[c - 3] as number) + (data[c + 3] as number)) * w1;
        acc += ((data[c - 5] as number) + (data[c + 5] as number)) * w2;
        acc += ((data[c - 7] as number) + (data[c + 7] as number)) * w3;
        acc += ((data[c - 9] as number) + (data[c + 9] as number)) * w4;
        acc += ((data[c - 11] as number) + (data[c + 11] as number)) * w5;
        buffer[i] = acc;
      }
    }
    next += count;
    dropBefore(window, 2 * next - half);
    return buffer.subarray(0, count);
  };
  return {
    push(input) {
      total += input.length;
      append(window, input);
      return produce();
    },
    flush() {
      const owed = Math.ceil(total / 2) - next;
      append(window, new Float32Array(half + 2));
      return produce().subarray(0, Math.max(0, owed));
    },
  };
}

/** Any ratio: a polyphase Kaiser-windowed sinc. */
function polyphaseStage(from: number, to: number): Stage {
  const g = gcd(from, to);
  let up = to / g;
  let down = from / g;
  if (up > MAX_PHASES) {
    // Phases rounded: n · down / up with up = MAX_PHASES approximates the true step.
    down = Math.round((from / to) * MAX_PHASES);
    up = MAX_PHASES;
  }
  // Cutoff in cycles per input sample; the kernel spans ZERO_CROSSINGS / 2 zero crossings each side.
  const fc = 0.5 * CUTOFF * Math.min(1, to / from);
  const half = Math.ceil(ZERO_CROSSINGS / 2 / (2 * fc));
  const taps = 2 * half;
  // bank[p · taps + j]: weight of input sample (base - half + 1 + j) for phase p.
  const bank = new Float64Array(up * taps);
  for (let p = 0; p < up; p += 1) {
    const frac = p / up;
    let sum = 0;
    for (let j = 0; j < taps; j += 1) {
      const x = j - half + 1 - frac;
      const sinc = x === 0 ? 2 * fc : Math.sin(2 * Math.PI * fc * x) / (Math.PI * x);
      const weight = sinc * kaiser(x / half, KAISER_BETA);
      bank[p * taps + j] = weight;
      sum += weight;
    }
    for (let j = 0; j < taps; j += 1) bank[p * taps + j] = (bank[p * taps + j] as number) / sum;
  }
  const window: Window = { data: new Float32Array(Math.max(8192, taps * 4)), start: -half, length: half };
  const out = outputBuffer();
  let next = 0;
  let total = 0;
  const produce = (): Float32Array => {
    const end = window.start + window.length;
    // Output n reads input up to floor(n · down / up) + half.
    const count = Math.max(0, Math.floor(((end - 1 - half + 1) * up - 1) / down) + 1 - next);
    const buffer = out.take(count);
    const data = window.data;
    const filters = bank;
    const length = taps;
    const offset = 1 - half - window.start;
    const step = down;
    const phases = up;
    let position = next * step;
    for (let i = 0; i < count; i += 1) {
      const base = Math.floor(position / phases);
      const first = base + offset;
      const weights = (position - base * phases) * length;
      let acc = 0;
      for (let j = 0; j < length; j += 1) acc += (data[first + j] as number) * (filters[weights + j] as number);
      buffer[i] = acc;
      position += step;
    }
    next += count;
    dropBefore(window, Math.floor((next * down) / up) - half + 1);
    return buffer.subarray(0, count);
  };
  return {
    push(input) {
      total += input.length;
      append(window, input);
      return produce();
    },
    flush() {
      const owed = Math.ceil((total * up) / down) - next;
      append(window, new Float32Array(taps + Math.ceil(down / up) + 1));
      return produce().subarray(0, Math.max(0, owed));
    },
  };
}

/** A resampler from `from` Hz to `to` Hz (both whole). */
export function createResampler(from: number, to: number): StreamingResampler {
  if (!Number.isInteger(from) || !Number.isInteger(to) || from <= 0 || to <= 0) throw new RangeError(`rates ${from} -> ${to}`);
  const stages: Stage[] = [];
  let rate = from;
  while (rate % 2 === 0 && rate / 2 >= to) {
    stages.push(halvingStage(rate >= SHORT_HALF_BAND_FROM_HZ ? SHORT_HALF_BAND_TAPS : HALF_BAND_TAPS));
    rate /= 2;
  }
  if (rate !== to) stages.push(polyphaseStage(rate, to));
  if (stages.length === 0) return { push: (input) => input, flush: () => new Float32Array(0) };
  return {
    push(input) {
      let samples = input;
      for (const stage of stages) samples = stage.push(samples);
      return samples;
    },
    flush() {
      // Each stage's tail goes through the stages after it, then those are flushed in turn.
      let tail = new Float32Array(0);
      for (const stage of stages) {
        const pushed = stage.push(tail).slice();
        const flushed = stage.flush();
        const joined = new Float32Array(pushed.length + flushed.length);
        joined.set(pushed);
        joined.set(flushed, pushed.length);
        tail = joined;
      }
      return tail;
    },
  };
}
