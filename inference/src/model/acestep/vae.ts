/**
 * The VAE as the reference's `tiled_decode` (and `tiled_encode` alike, ace-step/ACE-Step-1.5
 * acestep/handler.py): a song of at most `chunk` latent frames in one call, a longer one in windows
 * of `chunk` frames whose core is kept and whose `overlap` frames each side are computed as context
 * and dropped, so memory stays bounded at 240 s.
 */
import * as ort from 'onnxruntime-node';
import type { BoundGraph } from './graph-session.ts';
import { BoundGraph as Graph } from './graph-session.ts';

export interface Window {
  from: number;
  to: number;
  start: number;
  end: number;
}

/** Windows [from, to) whose cores [start, end) tile the frames. */
export function vaeWindows(frames: number, chunk: number, overlapFrames: number): Window[] {
  const overlap = frames <= chunk ? 0 : overlapFrames;
  const core = frames <= chunk ? frames : chunk - 2 * overlap;
  const windows: Window[] = [];
  for (let start = 0; start < frames; start += core) {
    const end = Math.min(frames, start + core);
    windows.push({ from: Math.max(0, start - overlap), to: Math.min(frames, end + overlap), start, end });
  }
  return windows;
}

export interface Tiling {
  channels: number;
  samplesPerFrame: number;
  chunk: number;
  overlap: number;
}

function abortError(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error('aborted');
}

/** `[frames, C]` latents to two channels of `frames x samplesPerFrame` samples. */
export async function decodeLatents(
  vae: BoundGraph,
  latent: Float32Array,
  frames: number,
  tiling: Tiling,
  signal: AbortSignal,
  progress: (fraction: number) => void,
): Promise<Float32Array[]> {
  const { channels: C, samplesPerFrame: spf } = tiling;
  const out = [new Float32Array(frames * spf), new Float32Array(frames * spf)];
  for (const { from, to, start, end } of vaeWindows(frames, tiling.chunk, tiling.overlap)) {
    if (signal.aborted) throw abortError(signal);
    const width = to - from;
    // [frames, C] -> [1, C, width]
    const input = new Float32Array(C * width);
    for (let f = 0; f < width; f += 1) for (let c = 0; c < C; c += 1) input[c * width + f] = latent[(from + f) * C + c] ?? 0;
    const wave = Graph.float(await vae.run({ latents: new ort.Tensor('float32', input, [1, C, width]) }), 'waveform', 'vae_decoder');
    if (wave.dims.length !== 3 || wave.dims[1] !== 2 || wave.dims[2] !== width * spf)
      throw new Error(`vae_decoder waveform is [${wave.dims.join(', ')}], expected [1, 2, ${width * spf}]`);
    const data = wave.data as Float32Array;
    const skip = (start - from) * spf;
    const take = (end - start) * spf;
    for (const [ch, target] of out.entries())
      target.set(data.subarray(ch * width * spf + skip, ch * width * spf + skip + take), start * spf);
    progress(end / frames);
  }
  return out;
}

/** Two channels of `frames x samplesPerFrame` samples to `[frames, C]` latent means. */
export async function encodeAudio(
  encoder: BoundGraph,
  audio: Float32Array[],
  frames: number,
  tiling: Tiling,
  signal: AbortSignal,
): Promise<Float32Array> {
  const { channels: C, samplesPerFrame: spf } = tiling;
  const latent = new Float32Array(frames * C);
  for (const { from, to, start, end } of vaeWindows(frames, tiling.chunk, tiling.overlap)) {
    if (signal.aborted) throw abortError(signal);
    const width = to - from;
    const input = new Float32Array(2 * width * spf);
    for (const [ch, channel] of audio.entries()) input.set(channel.subarray(from * spf, to * spf), ch * width * spf);
    const mean = Graph.float(await encoder.run({ audio: new ort.Tensor('float32', input, [1, 2, width * spf]) }), 'latents', 'vae_encoder');
    if (mean.dims.length !== 3 || mean.dims[1] !== C || mean.dims[2] !== width)
      throw new Error(`vae_encoder latents is [${mean.dims.join(', ')}], expected [1, ${C}, ${width}]`);
    const data = mean.data as Float32Array;
    // [1, C, width] -> the kept [frames, C], the window's core only.
    for (let f = start; f < end; f += 1) for (let c = 0; c < C; c += 1) latent[f * C + c] = data[c * width + (f - from)] ?? 0;
  }
  return latent;
}
