/**
 * LAME's algorithm quality (`-q`, ffmpeg's `-compression_level`) for bench/inference.ts: the
 * worker's setting (`LAME_ALGORITHM_QUALITY`) beside LAME 3.100's default (3) and the next
 * faster step (7, which drops the noise shaping), each a serial encode of the same PCM at
 * 320 kbps CBR, the levels in turn (median of 3 encodes each). Per level: the encoder's CPU
 * time and what the file keeps of the song, read as the signal-to-error ratio in third-octave
 * bands (50 Hz - 16 kHz, 2048-sample Hann frames): the median over bands of each band's median
 * frame, and the worst band's 5th-percentile frame (where too little noise shaping shows
 * first). The decode is ffmpeg's, from a file with its LAME tag, so it is sample-aligned with
 * the input. Native encoders only: the wasm build has no such setting.
 */
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createPowerSpectrum } from '../core/src/fingerprint/fft.ts';
import { makeTempDir } from '../core/src/testing/temp-dirs.ts';
import { LAME_ALGORITHM_QUALITY, nativeCommand } from '../inference/src/audio/encoder-backend.ts';
import { interleaveBlock } from '../inference/src/audio/encoder-thread.ts';
import { runReference } from '../test/support/reference-tools.ts';
import { childrenCpuMs } from './process-cpu.ts';

export interface LameQualityRow {
  quality: number;
  /** The worker's setting. */
  chosen: boolean;
  /** One encoder process on the whole song, median of `ENCODE_RUNS`: wall and its CPU (user + system). */
  encodeMs: number;
  encodeCpuMs: number;
  bytes: number;
  /** Median over bands of each band's median per-frame SNR, dB. */
  medianBandSnrDb: number;
  /** The lowest band's 5th-percentile per-frame SNR, dB. */
  worstBandP5SnrDb: number;
}

export const COMPARED_QUALITIES = [3, LAME_ALGORITHM_QUALITY, 7] as const;
/** Encodes of each level, the median reported. */
const ENCODE_RUNS = 3;
const FRAME = 2048;
const HOP = 1024;

const percentile = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? 0;
};

/** Per-band SNR of `decoded` against `source` (same length), one channel. */
function bandSnrs(source: Float32Array, decoded: Float32Array, sampleRate: number): number[][] {
  const spectrum = createPowerSpectrum(FRAME);
  const hann = Float64Array.from({ length: FRAME }, (_, i) => 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / FRAME));
  const edges: number[] = [];
  for (let k = 0; 50 * 2 ** (k / 3) <= 16000; k += 1) edges.push(50 * 2 ** (k / 3));
  const binOf = (hz: number): number => Math.ceil((hz * FRAME) / sampleRate);
  const bands = edges.slice(0, -1).map((lo, b) => [binOf(lo), binOf(edges[b + 1] as number)] as const);
  const frame = new Float64Array(FRAME);
  const signal = new Float64Array(FRAME / 2 + 1);
  const error = new Float64Array(FRAME / 2 + 1);
  const perBand: { signal: number[]; error: number[] }[] = bands.map(() => ({ signal: [], error: [] }));
  for (let start = 0; start + FRAME <= source.length; start += HOP) {
    for (let i = 0; i < FRAME; i += 1) frame[i] = (source[start + i] as number) * (hann[i] as number);
    spectrum.compute(frame, signal);
    for (let i = 0; i < FRAME; i += 1) frame[i] = ((source[start + i] as number) - (decoded[start + i] as number)) * (hann[i] as number);
    spectrum.compute(frame, error);
    bands.forEach(([lo, hi], b) => {
      let s = 0;
      let e = 0;
      for (let k = lo; k < hi; k += 1) {
        s += signal[k] as number;
        e += error[k] as number;
      }
      perBand[b]?.signal.push(s);
      perBand[b]?.error.push(e);
    });
  }
  // Frames where the band holds next to nothing of the song say nothing of the encoder.
  return perBand
    .filter((band) => band.signal.length > 0)
    .map((band) => {
      const floor = 1e-6 * Math.max(...band.signal);
      return band.signal.flatMap((s, i) => (s > floor ? [10 * Math.log10(s / ((band.error[i] as number) + 1e-20))] : []));
    })
    .filter((snrs) => snrs.length > 0);
}

/** The compared levels on one song's PCM; null where no native encoder or no ffmpeg to decode. */
export async function lameQualityRows(
  channels: readonly Float32Array[],
  sampleRate: number,
  backend: 'lame' | 'ffmpeg' | 'wasm',
): Promise<LameQualityRow[] | null> {
  if (backend !== 'ffmpeg') return null;
  const dir = await makeTempDir('bench-lame-quality');
  try {
    const input = join(dir.path, 'song.f32');
    await writeFile(input, interleaveBlock(channels, 0, channels[0]?.length ?? 0, 'f32le'));
    const commandFor = (quality: number): { path: string; args: string[] } => {
      const path = join(dir.path, `q${quality}.mp3`);
      // The worker's command line from a file, written to a file with its LAME tag for a gapless decode.
      const { args } = nativeCommand('ffmpeg', sampleRate, channels.length, quality);
      return {
        path,
        args: ['-y', ...args.map((a, i) => (a === 'pipe:0' ? input : a === 'pipe:1' ? path : args[i - 1] === '-write_xing' ? '1' : a))],
      };
    };
    // The levels take turns, ENCODE_RUNS rounds, so that the machine's drift falls on each alike.
    const times = new Map<number, { wall: number[]; cpu: number[] }>(COMPARED_QUALITIES.map((q) => [q, { wall: [], cpu: [] }]));
    for (let round = 0; round < ENCODE_RUNS; round += 1) {
      for (const quality of COMPARED_QUALITIES) {
        const cpu0 = childrenCpuMs();
        const t = performance.now();
        await runReference('ffmpeg', commandFor(quality).args);
        times.get(quality)?.wall.push(performance.now() - t);
        times.get(quality)?.cpu.push(childrenCpuMs() - cpu0);
      }
    }
    const rows: LameQualityRow[] = [];
    for (const quality of COMPARED_QUALITIES) {
      const { path } = commandFor(quality);
      const measured = times.get(quality) ?? { wall: [], cpu: [] };
      const { stdout } = await runReference('ffmpeg', ['-v', 'error', '-i', path, '-f', 'f32le', '-ac', String(channels.length), 'pipe:1']);
      // A copy of its own, so the samples start on a 4-byte boundary.
      const decoded = new Float32Array(Uint8Array.from(stdout).buffer);
      const length = Math.min(channels[0]?.length ?? 0, decoded.length / channels.length);
      const snrs = channels.flatMap((channel, c) => {
        const plane = new Float32Array(length);
        for (let i = 0; i < length; i += 1) plane[i] = decoded[i * channels.length + c] as number;
        return bandSnrs(channel.subarray(0, length), plane, sampleRate);
      });
      rows.push({
        quality,
        chosen: quality === LAME_ALGORITHM_QUALITY,
        encodeMs: percentile(measured.wall, 0.5),
        encodeCpuMs: percentile(measured.cpu, 0.5),
        bytes: readFileSync(path).length,
        medianBandSnrDb: percentile(
          snrs.map((band) => percentile(band, 0.5)),
          0.5,
        ),
        worstBandP5SnrDb: Math.min(...snrs.map((band) => percentile(band, 0.05))),
      });
    }
    return rows;
  } finally {
    await dir.remove();
  }
}
