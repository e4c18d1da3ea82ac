/**
 * The options issue 44 names for a song's lossless masters, measured on one song's PCM for
 * bench/inference.ts: each step of the masters alone (the PCM hash, WAV, libFLAC in WebAssembly,
 * a native FLAC encoder), so each can be set against the MP3 encode of the same run.
 */
import { spawn } from 'node:child_process';
import { rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { encodeFlac, pcmHashOf, quantizePcm } from '../inference/src/audio/lossless.ts';
import type { LosslessPcm } from '../inference/src/audio/lossless.ts';
import { commandOutput } from '../inference/src/system-command.ts';
import { makeTempDir } from '../core/src/testing/temp-dirs.ts';

export interface LosslessStepTimes {
  /** The PCM hash on its own (one pass: quantize, pack, SHA-256), nothing beside it. */
  pcmHashMs: number;
  /** Quantizing to the 24-bit integers both files hold. */
  quantizeMs: number;
  /** libFLAC (WebAssembly, level 5): the worker's FLAC encoder. */
  flacWasmMs: number;
  /** ffmpeg's native FLAC encoder (level 5, 24-bit) on the same samples; null without ffmpeg. */
  flacNativeMs: number | null;
  flacWasmBytes: number;
  flacNativeBytes: number | null;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

async function timed(runs: number, step: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const t = performance.now();
    await step();
    times.push(performance.now() - t);
  }
  return median(times);
}

/** FLAC by ffmpeg from s32le on stdin (24 bits in the top three bytes) to a seekable file, so its STREAMINFO is complete. */
async function ffmpegFlac(pcm: LosslessPcm, input: Buffer, path: string): Promise<number> {
  const args = ['-hide_banner', '-loglevel', 'error', '-f', 's32le', '-ar', String(pcm.sampleRate), '-ac', String(pcm.channels)];
  args.push('-i', 'pipe:0', '-c:a', 'flac', '-sample_fmt', 's32', '-bits_per_raw_sample', '24', '-compression_level', '5', '-y', path);
  await new Promise<void>((resolve, reject) => {
    const child = spawn('ffmpeg', args, { stdio: ['pipe', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`ffmpeg flac exited ${code}: ${err.slice(0, 300)}`))));
    child.stdin.end(input);
  });
  return (await stat(path)).size;
}

/** Each lossless step alone on `channels`, median of `runs`. */
export async function losslessStepTimes(channels: readonly Float32Array[], sampleRate: number, runs: number): Promise<LosslessStepTimes> {
  const pcmHashMs = await timed(runs, () => pcmHashOf(channels));
  const quantizeMs = await timed(runs, () => quantizePcm(channels, sampleRate));
  const pcm = await quantizePcm(channels, sampleRate);
  let flacWasmBytes = 0;
  const flacWasmMs = await timed(runs, async () => (flacWasmBytes = (await encodeFlac(pcm)).length));
  let flacNativeMs: number | null = null;
  let flacNativeBytes: number | null = null;
  if (commandOutput('ffmpeg', ['-hide_banner', '-encoders'])?.includes(' flac ') === true) {
    const dir = await makeTempDir('bench-flac');
    try {
      // The conversion to s32le is the bench's, not the encoder's: made before the clock starts.
      const s32 = new Int32Array(pcm.interleaved.length);
      for (let i = 0; i < s32.length; i += 1) s32[i] = (pcm.interleaved[i] ?? 0) * 256;
      const input = Buffer.from(s32.buffer);
      const path = join(dir.path, 'song.flac');
      flacNativeMs = await timed(runs, async () => (flacNativeBytes = await ffmpegFlac(pcm, input, path)));
      await rm(path, { force: true });
    } finally {
      await dir.remove();
    }
  }
  return { pcmHashMs, quantizeMs, flacWasmMs, flacNativeMs, flacWasmBytes, flacNativeBytes };
}
