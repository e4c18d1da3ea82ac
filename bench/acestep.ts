/**
 * The ACE-Step part of `npm run bench:inference`: the tiny ACE-Step-1.5-format model through the
 * worker's pipeline (real-time factor, share of time outside the model, time per diffusion step
 * from the per-step progress reports, peak resident memory while it renders), and the projection
 * to the real turbo model's widths: floating-point work counted from ACE-Step 1.5's architecture,
 * divided by this machine's measured ONNX Runtime matmul throughput (baseline measured in the same
 * run) for CPU, and by stated H100 throughputs for the GPU target (not measured: no GPU here).
 */
import * as ort from 'onnxruntime-node';
import { makeTempDir } from '../core/src/testing/temp-dirs.ts';
import { PROGRESS_ENCODED, PROGRESS_SAMPLED } from '../inference/src/model/acestep/acestep-model.ts';
import { ACE_STEP_15_WIDTHS, FRAMES_PER_SECOND, PATCH_SIZE } from '../inference/src/model/acestep/layouts.ts';
import { writeTinyAcestep } from '../test/support/tiny-models/acestep.ts';
import type { Device, DevicePreference } from '../inference/src/model/device.ts';
import { gpuPresent, systemGpuProbe } from '../inference/src/model/device.ts';
import { loadSongModel } from '../inference/src/model/load-song-model.ts';
import { GraphBuilder, encodeModel } from '../inference/src/model/onnx-builder.ts';
import type { SongModel } from '../inference/src/model/song-model.ts';
import type { PipelineDeps } from '../inference/src/worker/pipeline.ts';
import { generateSong } from '../inference/src/worker/pipeline.ts';

const DURATIONS = [10, 30, 240] as const;
const LYRICS = '[verse]\nneon rain on the night road\nwe keep driving till the morning\n[chorus]\nhold on, hold on, the city is singing';

export interface AcestepRow {
  durationSeconds: number;
  device: string;
  modelMs: number;
  totalMs: number;
  realtimeFactor: number;
  outsideModelShare: number;
  diffusionSteps: number;
  msPerDiffusionStep: number;
  peakRssMb: number;
}

/**
 * ACE-Step 1.5 turbo, DiT-only, in floating-point operations (multiply-add = 2). DiT: 24 layers,
 * hidden 2048, ~1.58 B parameters (6.3 GB fp32), over frames / 2 tokens, self-attention over those
 * tokens and cross-attention over the condition (~650 tokens with a full lyric sheet). VAE
 * (AutoencoderOobleck decoder, channels 128 x [16, 8, 4, 2, 1], strides 10, 6, 4, 4, 2, three
 * residual units of a k7 and a k1 convolution per block): ~122 GFLOP per second of audio by the
 * same count. Qwen3-Embedding-0.6B over ~150 caption tokens and the condition encoder's lyric
 * (~0.4 B) and timbre (~0.2 B) encoders: ~1 TFLOP per song.
 */
export function turboFlops(
  durationSeconds: number,
  steps = 8,
): { ditPerStep: number; dit: number; vae: number; encoders: number; total: number } {
  const layers = 24;
  const hidden = ACE_STEP_15_WIDTHS.encoder_hidden;
  const ditParams = 1.58e9;
  const tokens = (durationSeconds * FRAMES_PER_SECOND) / PATCH_SIZE;
  const conditionTokens = 650;
  const ditPerStep = 2 * ditParams * tokens + 4 * layers * tokens * tokens * hidden + 4 * layers * tokens * conditionTokens * hidden;
  const vaePerSecond = oobleckDecoderFlopsPerSecond();
  const encoders = 2 * 0.6e9 * 150 + 2 * 0.4e9 * 500 + 2 * 0.2e9 * ACE_STEP_15_WIDTHS.timbre_frames;
  const dit = ditPerStep * steps;
  const vae = vaePerSecond * durationSeconds;
  return { ditPerStep, dit, vae, encoders, total: dit + vae + encoders };
}

function oobleckDecoderFlopsPerSecond(): number {
  const channels = [2048, 1024, 512, 256, 128, 128];
  const strides = [10, 6, 4, 4, 2];
  let rate = FRAMES_PER_SECOND;
  let flops = 2 * 7 * ACE_STEP_15_WIDTHS.latent_channels * (channels[0] ?? 0) * rate;
  for (const [i, stride] of strides.entries()) {
    const cIn = channels[i] ?? 0;
    const cOut = channels[i + 1] ?? 0;
    flops += 2 * 2 * stride * cIn * cOut * rate;
    rate *= stride;
    flops += 3 * 2 * (7 + 1) * cOut * cOut * rate;
  }
  return flops + 2 * 7 * 128 * 2 * rate;
}

/** This machine's ONNX Runtime CPU matmul throughput, GFLOP/s, on DiT-sized operands (the baseline). */
async function measuredMatmulGflops(): Promise<number> {
  const [m, k, n] = [512, 2048, 2048];
  const g = new GraphBuilder('');
  const a = g.input('a', 'float', [m, k]);
  const b = g.input('b', 'float', [k, n]);
  g.output(g.op('MatMul', [a, b]), 'c', 'float', [m, n]);
  const session = await ort.InferenceSession.create(encodeModel(g.graph('matmul'), 'bench matmul'));
  const feeds = {
    a: new ort.Tensor('float32', new Float32Array(m * k).fill(0.5), [m, k]),
    b: new ort.Tensor('float32', new Float32Array(k * n).fill(0.25), [k, n]),
  };
  await session.run(feeds);
  const runs = 5;
  const t0 = performance.now();
  for (let i = 0; i < runs; i += 1) await session.run(feeds);
  const seconds = (performance.now() - t0) / 1000;
  await session.release();
  return (2 * m * k * n * runs) / seconds / 1e9;
}

async function benchDevice(device: Device, dir: string, depsFor: (model: SongModel) => PipelineDeps): Promise<AcestepRow[]> {
  const loaded = await loadSongModel({ modelDir: dir, device });
  if (!loaded.ok) throw new Error(loaded.error.message);
  const model = loaded.value;
  const signal = new AbortController().signal;
  const rows: AcestepRow[] = [];
  // Warm-up: session arenas.
  await generateSong(
    { prompt: 'warm up', durationSeconds: 2, seed: 1n, steps: 27, lyrics: LYRICS, withLyrics: false, jobId: 'bench', kind: 'song' },
    depsFor(model),
    signal,
    () => undefined,
  );
  for (const duration of DURATIONS) {
    // The step reports: the render's progress between the encoders' share and the sampler's end.
    const stepTimes: number[] = [];
    let lastReport = 0;
    let peakRss = process.memoryUsage().rss;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 10);
    const timed: SongModel = {
      ...model,
      render: (request, s, progress) =>
        model.render(request, s, (fraction) => {
          const now = performance.now();
          if (fraction > PROGRESS_ENCODED && fraction <= PROGRESS_SAMPLED + 1e-9) stepTimes.push(now - lastReport);
          lastReport = now;
          progress?.(fraction);
        }),
    };
    const t0 = performance.now();
    const song = await generateSong(
      {
        prompt: 'dreamy synthwave, 96 bpm, in A minor',
        durationSeconds: duration,
        seed: 7n,
        steps: 27,
        lyrics: LYRICS,
        withLyrics: false,
        jobId: 'bench',
        kind: 'song',
      },
      depsFor(timed),
      signal,
      () => undefined,
    );
    const totalMs = performance.now() - t0;
    clearInterval(sampler);
    rows.push({
      durationSeconds: duration,
      device: model.device,
      modelMs: song.timings.modelMs,
      totalMs,
      realtimeFactor: duration / (totalMs / 1000),
      outsideModelShare: (totalMs - song.timings.modelMs) / totalMs,
      diffusionSteps: stepTimes.length,
      msPerDiffusionStep: stepTimes.reduce((a, b) => a + b, 0) / Math.max(1, stepTimes.length),
      peakRssMb: peakRss / 2 ** 20,
    });
  }
  await model.release();
  return rows;
}

/** CPU always; CUDA beside it where a GPU is present (unless MODEL_DEVICE=cpu). */
export async function benchAcestep(
  preference: DevicePreference,
  depsFor: (model: SongModel) => PipelineDeps,
): Promise<{ rows: AcestepRow[]; markdown: string[]; json: object }> {
  const dir = await makeTempDir('bench-acestep');
  await writeTinyAcestep(dir.path);
  const devices: Device[] = preference !== 'cpu' && (preference === 'cuda' || gpuPresent(systemGpuProbe)) ? ['cpu', 'cuda'] : ['cpu'];
  const rows: AcestepRow[] = [];
  for (const device of devices) rows.push(...(await benchDevice(device, dir.path, depsFor)));
  await dir.remove();

  const gflops = await measuredMatmulGflops();
  const real = turboFlops(240);
  // H100 SXM dense peaks (NVIDIA datasheet): 989 TFLOPS bf16/fp16, 495 TF32 (ORT's CUDA provider uses TF32 for fp32 by default); 40 % of peak assumed.
  const h100 = { fp16: 989e12 * 0.4, tf32: 495e12 * 0.4 };
  const projection = {
    flops240: real,
    cpuMatmulGflops: gflops,
    cpuSeconds240: real.total / (gflops * 1e9),
    cpuSecondsPerDitStep240: real.ditPerStep / (gflops * 1e9),
    h100Fp16Seconds240: real.total / h100.fp16,
    h100Tf32Seconds240: real.total / h100.tf32,
    targetSeconds: 2,
  };
  const fmt = (ms: number) => (ms / 1000).toFixed(2);
  const tf = (flops: number) => (flops / 1e12).toFixed(1);
  const markdown = [
    '## ACE-Step 1.5 format (tiny model, same pipeline)',
    '',
    "The tiny ACE-Step-1.5-format model (`npm run build:acestep-tiny`: the five DiT-only graphs with the real names, ranks, dtypes and 1920 samples per frame at 48 kHz stereo, small widths, random weights) through the worker pipeline with lyrics, turbo schedule (8 steps). Its figures measure the backend's loop (tokenizing, graph calls, the sampler, padding, chunked VAE, MP3 of 48 kHz stereo), not ACE-Step's compute. Peak memory: the bench process's resident set while the song renders and encodes (it also holds the other models and the encoder pool).",
    '',
    '| song | device | model s | total s | x realtime | outside model | diffusion steps | ms per step | peak RSS MB |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.durationSeconds} s | ${r.device} | ${fmt(r.modelMs)} | ${fmt(r.totalMs)} | ${r.realtimeFactor.toFixed(1)} | ${(100 * r.outsideModelShare).toFixed(1)}% | ${r.diffusionSteps} | ${r.msPerDiffusionStep.toFixed(1)} | ${r.peakRssMb.toFixed(0)} |`,
    ),
    '',
    '### Projection to the real ACE-Step 1.5 turbo widths (240 s song, 8 steps)',
    '',
    `Work (counted from the architecture, see bench/acestep.ts): DiT ${tf(real.ditPerStep)} TFLOP per step x 8 = ${tf(real.dit)}, VAE ${tf(real.vae)}, encoders ${tf(real.encoders)}: ${tf(real.total)} TFLOP.`,
    '',
    `| where | throughput | 240 s song | per DiT step |`,
    '|---|---|---|---|',
    `| this CPU (measured baseline: ORT MatMul 512x2048x2048, same run) | ${gflops.toFixed(0)} GFLOP/s | ${projection.cpuSeconds240.toFixed(0)} s | ${projection.cpuSecondsPerDitStep240.toFixed(1)} s |`,
    `| H100, fp32 graphs (TF32 at 40 % of 495 TFLOPS; not measured) | ${(h100.tf32 / 1e12).toFixed(0)} TFLOP/s | ${projection.h100Tf32Seconds240.toFixed(2)} s | ${((real.ditPerStep / h100.tf32) * 1000).toFixed(0)} ms |`,
    `| H100, fp16/bf16 graphs (40 % of 989 TFLOPS; not measured) | ${(h100.fp16 / 1e12).toFixed(0)} TFLOP/s | ${projection.h100Fp16Seconds240.toFixed(2)} s | ${((real.ditPerStep / h100.fp16) * 1000).toFixed(0)} ms |`,
    '',
    `Target for the real turbo model on one H100: a 240 s song in at most ${projection.targetSeconds} s of model time: ${projection.h100Tf32Seconds240 <= projection.targetSeconds ? 'met by the projection' : 'NOT met by the projection'} (fp32/TF32), to be confirmed on a GPU host with the real weights (where a GPU is present this bench runs the tiny rows on CUDA beside CPU).`,
    '',
  ];
  return { rows, markdown, json: { rows, projection } };
}
