/**
 * The fingerprints' numeric primitives against their definitions written the plain way: the
 * power spectrum (core/src/fingerprint/fft.ts: two radix-2 stages at a time) against a direct
 * DFT at every size the stages can pair up or leave one over, and the peak finder
 * (core/src/fingerprint/spectral-peaks.ts: the running max by van Herk's method) against a scan
 * of each peak's whole neighbourhood, and the selection of each second's strongest peaks (ranked
 * by insertion) against sorting each second. Chromaprint against fpcalc is test/core/fingerprint.test.ts.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createPowerSpectrum } from '../../core/src/fingerprint/fft.ts';
import { FRAME_SECONDS, LOG_BINS } from '../../core/src/fingerprint/log-spectrogram.ts';
import { createPeakFinder, MIN_CONTRAST_DB, PEAK_BINS, PEAK_FRAMES, strongestPeaks } from '../../core/src/fingerprint/spectral-peaks.ts';
import type { Peak } from '../../core/src/fingerprint/spectral-peaks.ts';
import { seededRandom } from '../../core/src/testing/seeded-random.ts';

/** |X[k]|² for k = 0 … n/2 by the DFT's definition. */
function directPower(frame: Float64Array): Float64Array {
  const n = frame.length;
  const out = new Float64Array(n / 2 + 1);
  for (let k = 0; k <= n / 2; k += 1) {
    let re = 0;
    let im = 0;
    for (let t = 0; t < n; t += 1) {
      const angle = (-2 * Math.PI * ((k * t) % n)) / n;
      re += (frame[t] as number) * Math.cos(angle);
      im += (frame[t] as number) * Math.sin(angle);
    }
    out[k] = re * re + im * im;
  }
  return out;
}

describe('core: the fingerprints’ spectral primitives', () => {
  it('the power spectrum equals the direct DFT at every size from 4 to 4096', () => {
    const random = seededRandom(5);
    for (let size = 4; size <= 4096; size *= 2) {
      const spectrum = createPowerSpectrum(size);
      const frame = Float64Array.from({ length: size }, () => random() * 2 - 1);
      // A tone on a bin and one between bins, so that some bins dwarf the rest.
      for (let t = 0; t < size; t += 1)
        frame[t] = (frame[t] as number) + 4 * Math.cos((2 * Math.PI * 3 * t) / size) + Math.sin((2 * Math.PI * 5.5 * t) / size);
      const out = new Float64Array(size / 2 + 1);
      spectrum.compute(frame, out);
      const expected = directPower(frame);
      const total = expected.reduce((sum, p) => sum + p, 0);
      let worst = 0;
      expected.forEach((p, k) => (worst = Math.max(worst, Math.abs((out[k] as number) - p))));
      assert.ok(worst <= total * 1e-12, `size ${size}: off by ${worst} of ${total}`);
    }
  });

  it('the peak finder finds exactly the points largest in their neighbourhood, against a plain scan', () => {
    const random = seededRandom(17);
    const frames = 400;
    // Smooth noise with plateaus (ties) and silent stretches, in dB.
    const spectrogram = Array.from({ length: frames }, (_, t) =>
      Float32Array.from({ length: LOG_BINS }, (_, k) =>
        t % 37 < 3 ? -90 : Math.round(-20 + 30 * Math.sin(t / 5 + k / 7) * Math.cos(k / 11 - t / 13) + random() * 8),
      ),
    );
    const finder = createPeakFinder();
    spectrogram.forEach((db, t) => finder.frame(t, db));
    const found = finder.finish().map((p: Peak) => `${p.t}:${p.k}:${p.contrast.toFixed(4)}`);

    const expected: string[] = [];
    const at = (t: number, k: number): number => (spectrogram[t] as Float32Array)[k] as number;
    for (let t = 0; t < frames; t += 1)
      for (let k = 0; k < LOG_BINS; k += 1) {
        const v = at(t, k);
        if (v < -30) continue;
        let largest = true;
        for (let dt = -PEAK_FRAMES; dt <= PEAK_FRAMES && largest; dt += 1)
          for (let dk = -PEAK_BINS; dk <= PEAK_BINS && largest; dk += 1) {
            const u = t + dt;
            const j = k + dk;
            if ((dt === 0 && dk === 0) || u < 0 || u >= frames || j < 0 || j >= LOG_BINS) continue;
            const other = at(u, j);
            // Ties go to the earlier frame; within a frame, to no one (a flat top in a frame is one peak).
            if (other > v || (other === v && dt < 0)) largest = false;
          }
        if (!largest) continue;
        const from = Math.max(0, k - 12);
        const to = Math.min(LOG_BINS, k + 13);
        let sum = 0;
        for (let j = from; j < to; j += 1) sum += at(t, j);
        // The finder keeps each mean as a 32-bit float.
        const contrast = v - Math.fround(sum / (to - from));
        if (contrast >= MIN_CONTRAST_DB) expected.push(`${t}:${k}:${contrast.toFixed(4)}`);
      }
    assert.ok(expected.length > 50, `enough peaks to tell (${expected.length})`);
    assert.deepEqual(found, expected);
  });

  it("keeps each second's strongest peaks as sorting each second would, ties of contrast and time included", () => {
    const random = seededRandom(41);
    const second = Math.round(1 / FRAME_SECONDS);
    // Peaks in time order, a few a frame, contrast in whole dB so that ties are common; some seconds empty, some sparse.
    const peaks: Peak[] = [];
    for (let t = 0; t < 40 * second; t += 1) {
      if (Math.floor(t / second) % 7 === 3) continue;
      const bins = [...new Set(Array.from({ length: Math.floor(random() * 4) }, () => Math.floor(random() * LOG_BINS)))].sort(
        (a, b) => a - b,
      );
      for (const k of bins) peaks.push({ t, k, contrast: 6 + Math.floor(random() * 4) });
    }
    const sortingEachSecond = (perSecond: number): Peak[] => {
      const out: Peak[] = [];
      for (let s = 0; s * second <= (peaks.at(-1)?.t ?? 0); s += 1)
        out.push(
          ...peaks
            .filter((p) => Math.floor(p.t / second) === s)
            .sort((a, b) => b.contrast - a.contrast || a.t - b.t || a.k - b.k)
            .slice(0, perSecond)
            .sort((a, b) => a.t - b.t || a.k - b.k),
        );
      return out;
    };
    for (const perSecond of [1, 3, 8, 10, 200])
      assert.deepEqual(strongestPeaks(peaks, perSecond), sortingEachSecond(perSecond), `${perSecond} a second`);
    assert.deepEqual(strongestPeaks([], 8), []);
  });
});
