/** Small DSP measurements for the model tests: spectra, chroma, spectral centroid, onset rate. */

/** In-place radix-2 FFT; `re.length` must be a power of two. */
function fft(re: Float64Array, im: Float64Array): void {
  const n = re.length;
  for (let i = 1, j = 0; i < n; i += 1) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      [re[i], re[j]] = [re[j]!, re[i]!];
      [im[i], im[j]] = [im[j]!, im[i]!];
    }
  }
  for (let len = 2; len <= n; len <<= 1) {
    const angle = (-2 * Math.PI) / len;
    for (let i = 0; i < n; i += len) {
      for (let k = 0; k < len / 2; k += 1) {
        const wr = Math.cos(angle * k);
        const wi = Math.sin(angle * k);
        const a = i + k;
        const b = a + len / 2;
        const xr = re[b]! * wr - im[b]! * wi;
        const xi = re[b]! * wi + im[b]! * wr;
        re[b] = re[a]! - xr;
        im[b] = im[a]! - xi;
        re[a] = re[a]! + xr;
        im[a] = im[a]! + xi;
      }
    }
  }
}

/** Average magnitude spectrum over Hann-windowed frames of `size` samples. */
export function averageSpectrum(signal: Float32Array, size = 8192): Float64Array {
  const mag = new Float64Array(size / 2);
  let frames = 0;
  for (let start = 0; start + size <= signal.length; start += size) {
    const re = new Float64Array(size);
    const im = new Float64Array(size);
    for (let i = 0; i < size; i += 1) re[i] = signal[start + i]! * (0.5 - 0.5 * Math.cos((2 * Math.PI * i) / size));
    fft(re, im);
    for (let k = 0; k < size / 2; k += 1) mag[k]! += Math.hypot(re[k]!, im[k]!);
    frames += 1;
  }
  return mag.map((v) => v / Math.max(1, frames));
}

export function spectralCentroid(spectrum: Float64Array, sampleRate: number): number {
  const binHz = sampleRate / 2 / spectrum.length;
  let num = 0;
  let den = 0;
  spectrum.forEach((m, k) => {
    num += m * k * binHz;
    den += m;
  });
  return num / den;
}

/** Energy per pitch class (0 = C) of the fundamentals' range, 120-520 Hz (pad and low melody). */
export function chroma(spectrum: Float64Array, sampleRate: number): number[] {
  const binHz = sampleRate / 2 / spectrum.length;
  const out = new Array<number>(12).fill(0);
  spectrum.forEach((m, k) => {
    const hz = k * binHz;
    if (hz < 120 || hz > 520) return;
    const pc = ((Math.round(12 * Math.log2(hz / 440) + 69) % 12) + 12) % 12;
    out[pc]! += m * m;
  });
  return out;
}

/** Onsets per second: peaks of the positive energy flux over 10 ms hops. */
export function onsetRate(signal: Float32Array, sampleRate: number): number {
  const hop = Math.round(sampleRate / 100);
  const energy: number[] = [];
  for (let start = 0; start + hop <= signal.length; start += hop) {
    let e = 0;
    for (let i = start; i < start + hop; i += 1) e += signal[i]! * signal[i]!;
    energy.push(Math.sqrt(e / hop));
  }
  const flux = energy.map((e, i) => Math.max(0, e - (energy[i - 1] ?? e)));
  const threshold = 0.15 * Math.max(...flux);
  let onsets = 0;
  for (let i = 2; i < flux.length - 2; i += 1) {
    const f = flux[i]!;
    if (f > threshold && f >= flux[i - 1]! && f >= flux[i + 1]! && f > flux[i - 2]! && f > flux[i + 2]!) onsets += 1;
  }
  return onsets / (signal.length / sampleRate);
}
