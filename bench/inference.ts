/**
 * Inference benchmark (npm run bench:inference): 30 s, 120 s and 240 s songs through the worker's
 * pipeline (built-in model on CPU, MP3 320 kbps in parallel chunks with the encoder the worker
 * would pick, sha256, upload to a real S3 server on loopback), split by stage, with baselines
 * measured in the same run:
 * - encode: one serial encoder (one chunk) vs the parallel chunked encode, and the other encoder
 *   (wasm LAME when a native lame/ffmpeg is picked);
 * - model: a plain copy of the same PCM (the floor any generator pays to produce the buffer).
 * Content credentials (ID3 tags + signed C2PA manifest, finishMp3) are reported beside the
 * encoder: the time and bytes they add per song.
 * Then the tiny MusicGen- and ACE-Step-1.5-format models through the same pipeline, with the
 * ACE-Step turbo projection (bench/acestep.ts).
 * Writes bench/results/inference.json and inference.md.
 */
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { createObjectStore } from '../core/src/object-store.ts';
import { startTestS3, testObjectStoreOptions } from '../core/src/testing/s3.ts';
import { selectEncoderBackend, systemBinaryProbe } from '../inference/src/audio/encoder-backend.ts';
import { EncoderPool } from '../inference/src/audio/encoder-pool.ts';
import { encodeMp3 } from '../inference/src/audio/mp3-encoder.ts';
import { BUILTIN_MODEL_DIR } from '../inference/src/config.ts';
import { builtinLyricsGenerator } from '../inference/src/lyrics/builtin-lyrics.ts';
import type { DevicePreference } from '../inference/src/model/device.ts';
import { benchAcestep } from './acestep.ts';
import { writeTinyMusicgen } from '../test/support/tiny-models/musicgen.ts';
import { songModelFromOnnx } from '../inference/src/model/onnx-song-model.ts';
import { loadModel } from '../inference/src/model/runtime.ts';
import { loadSongModel } from '../inference/src/model/load-song-model.ts';
import type { SongModel } from '../inference/src/model/song-model.ts';
import { makeTempDir } from '../core/src/testing/temp-dirs.ts';
import { seedToModelInput } from '../inference/src/model/seed.ts';
import { encodePrompt } from '../inference/src/model/text-encoder.ts';
import { generateSong } from '../inference/src/worker/pipeline.ts';
import { ensureDevelopmentIdentity } from '../inference/src/audio/development-identity.ts';
import { loadSigningIdentity } from '../inference/src/audio/signing-identity.ts';

const DURATIONS = [30, 120, 240] as const;
/** The tiny MusicGen-format model generates token by token: shorter songs keep the run short. */
const MUSICGEN_DURATIONS = [10, 30] as const;
/** CPU by default here; MODEL_DEVICE=cuda (or auto) on a GPU host, as the worker reads it. */
const DEVICE: DevicePreference = (['auto', 'cuda', 'cpu'] as const).find((d) => d === process.env.MODEL_DEVICE) ?? 'auto';

interface FormatRow {
  model: string;
  format: string;
  device: string;
  durationSeconds: number;
  modelMs: number;
  totalMs: number;
  /** Decoder tokens (50 a second of audio) per second of model time; null for a one-pass graph. */
  tokensPerSecond: number | null;
  realtimeFactor: number;
  outsideModelShare: number;
}
const REPEATS = 3;
const PROMPT = 'upbeat synth pop with a driving beat';

interface Row {
  durationSeconds: number;
  runs: number;
  modelMs: number;
  encodeMs: number;
  hashMs: number;
  uploadMs: number;
  otherMs: number;
  totalMs: number;
  /** CPU time of the whole job (all threads and encoder processes): independent of other load. */
  cpuMs: number;
  realtimeFactor: number;
  outsideModelAndEncoderShare: number;
  bytes: number;
  encodeSerialMs: number;
  parallelEncodeSpeedup: number;
  pcmCopyMs: number;
  modelVsCopy: number;
  /** The portable wasm encoder on the same PCM, when the worker picked a native one. */
  wasmEncodeMs: number | null;
}

/** What the content credentials (finishMp3) add to one song: time beside the encoder's, bytes. */
interface CredentialRow {
  durationSeconds: number;
  credentialsMs: number;
  encodeMs: number;
  manifestBytes: number;
  tagBytes: number;
  bytes: number;
}

/**
 * CPU time of this process and its finished children (native encoder processes), in ms: utime,
 * stime, cutime, cstime from /proc/self/stat; without /proc, this process only.
 */
function cpuMs(): number {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i] ?? 0), 0);
    return ticks * 10;
  } catch {
    const usage = process.cpuUsage();
    return (usage.user + usage.system) / 1000;
  }
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
};

async function main(): Promise<void> {
  const threads = Math.max(1, Math.min(4, availableParallelism()));
  const s3 = await startTestS3();
  const store = createObjectStore(testObjectStoreOptions(s3));
  const loaded = await loadModel({ modelDir: BUILTIN_MODEL_DIR, device: DEVICE });
  if (!loaded.ok) throw new Error(loaded.error.message);
  const model = loaded.value;
  const pool = new EncoderPool(threads);
  const backend = selectEncoderBackend('auto', systemBinaryProbe);
  const identityDir = await makeTempDir('bench-c2pa');
  const identity = loadSigningIdentity(await ensureDevelopmentIdentity(identityDir.path));
  if (!identity.ok) throw new Error(identity.error.message);
  const signingIdentity = identity.value;
  const depsFor = (songModel: SongModel) => ({
    model: songModel,
    lyrics: builtinLyricsGenerator,
    encoder: { backend, pool, parallelism: threads },
    signingIdentity,
    slowModelMs: 0,
  });
  const deps = depsFor(songModelFromOnnx(model));
  const signal = new AbortController().signal;

  // Warm-up: session arenas, encoder threads and wasm instances, S3 connection.
  const warm = await generateSong(
    { prompt: PROMPT, durationSeconds: 30, seed: 1n, steps: 27, lyrics: null, withLyrics: false, jobId: 'bench', kind: 'song' },
    deps,
    signal,
    () => undefined,
  );
  await store.put('audio/warmup.mp3', warm.bytes, { contentType: 'audio/mpeg' });

  const rows: Row[] = [];
  const credentialRows: CredentialRow[] = [];
  for (const duration of DURATIONS) {
    const credentialSamples: Omit<CredentialRow, 'durationSeconds'>[] = [];
    const samples: {
      model: number;
      encode: number;
      hash: number;
      upload: number;
      total: number;
      cpu: number;
      outside: number;
      bytes: number;
    }[] = [];
    for (let run = 0; run < REPEATS; run += 1) {
      const cpu0 = cpuMs();
      const t0 = performance.now();
      const song = await generateSong(
        {
          prompt: PROMPT,
          durationSeconds: duration,
          seed: BigInt(run + 1),
          steps: 27,
          lyrics: null,
          withLyrics: false,
          jobId: 'bench',
          kind: 'song',
        },
        deps,
        signal,
        () => undefined,
      );
      const tUpload = performance.now();
      const put = await store.put(`audio/bench_${duration}_${run}.mp3`, song.bytes, { contentType: 'audio/mpeg' });
      if (!put.ok) throw new Error(put.error.message);
      const t1 = performance.now();
      const total = t1 - t0;
      credentialSamples.push({
        credentialsMs: song.timings.credentialsMs,
        encodeMs: song.timings.encodeMs,
        manifestBytes: song.credentials.manifestBytes,
        tagBytes: song.credentials.tagBytes,
        bytes: song.bytes.length,
      });
      samples.push({
        model: song.timings.modelMs,
        encode: song.timings.encodeMs,
        hash: song.timings.hashMs,
        upload: t1 - tUpload,
        total,
        cpu: cpuMs() - cpu0,
        outside: (total - song.timings.modelMs - song.timings.encodeMs) / total,
        bytes: song.bytes.length,
      });
    }
    // Baselines on the same PCM: serial encode, a plain copy, native encoder when present.
    const encoded = encodePrompt(PROMPT, model.manifest.conditioning);
    const pcm = await model.generate(
      {
        conditioning: encoded.conditioning,
        seed: seedToModelInput(1n),
        rhythm: Float32Array.from(model.manifest.conditioning.default_rhythm),
        numSamples: duration * model.manifest.sample_rate,
        steps: 27,
      },
      signal,
    );
    let t = performance.now();
    const serial = await encodeMp3(pcm.channels, pcm.sampleRate, { backend, pool, parallelism: 1, signal });
    const encodeSerialMs = performance.now() - t;
    if (!serial.ok) throw new Error(serial.error.message);
    const copies: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      t = performance.now();
      const copy = pcm.channels.map((c) => c.slice());
      copies.push(performance.now() - t);
      if (copy[0]?.length !== pcm.channels[0]?.length) throw new Error('copy failed');
    }
    let wasmEncodeMs: number | null = null;
    if (backend !== 'wasm') {
      t = performance.now();
      const w = await encodeMp3(pcm.channels, pcm.sampleRate, { backend: 'wasm', pool, parallelism: threads, signal });
      wasmEncodeMs = w.ok ? performance.now() - t : null;
    }
    const credentialsMs = median(credentialSamples.map((c) => c.credentialsMs));
    const encodeOnlyMs = median(credentialSamples.map((c) => c.encodeMs));
    const first = credentialSamples[0];
    if (first !== undefined)
      credentialRows.push({
        durationSeconds: duration,
        credentialsMs,
        encodeMs: encodeOnlyMs,
        manifestBytes: first.manifestBytes,
        tagBytes: first.tagBytes,
        bytes: first.bytes,
      });
    const modelMs = median(samples.map((s) => s.model));
    const encodeMs = median(samples.map((s) => s.encode));
    const hashMs = median(samples.map((s) => s.hash));
    const uploadMs = median(samples.map((s) => s.upload));
    const totalMs = median(samples.map((s) => s.total));
    const pcmCopyMs = median(copies);
    rows.push({
      durationSeconds: duration,
      runs: REPEATS,
      modelMs,
      encodeMs,
      hashMs,
      uploadMs,
      otherMs: Math.max(0, totalMs - modelMs - encodeMs - hashMs - uploadMs),
      totalMs,
      cpuMs: median(samples.map((x) => x.cpu)),
      realtimeFactor: duration / (totalMs / 1000),
      outsideModelAndEncoderShare: median(samples.map((x) => x.outside)),
      bytes: samples[0]?.bytes ?? 0,
      encodeSerialMs,
      parallelEncodeSpeedup: encodeSerialMs / encodeMs,
      pcmCopyMs,
      modelVsCopy: modelMs / pcmCopyMs,
      wasmEncodeMs,
    });
  }

  // The built-in graph beside the tiny MusicGen-format model (text encoder, decoder token by
  // token with KV cache and guidance, EnCodec, 32 -> 48 kHz), one run each, same pipeline.
  const musicgenDir = await makeTempDir('bench-musicgen');
  await writeTinyMusicgen(musicgenDir.path);
  const musicgen = await loadSongModel({ modelDir: musicgenDir.path, device: DEVICE });
  if (!musicgen.ok) throw new Error(musicgen.error.message);
  const formatRows: FormatRow[] = [];
  for (const songModel of [deps.model, musicgen.value]) {
    for (const duration of MUSICGEN_DURATIONS) {
      const t0 = performance.now();
      const song = await generateSong(
        { prompt: PROMPT, durationSeconds: duration, seed: 1n, steps: 27, lyrics: null, withLyrics: false, jobId: 'bench', kind: 'song' },
        depsFor(songModel),
        signal,
        () => undefined,
      );
      const totalMs = performance.now() - t0;
      formatRows.push({
        model: `${songModel.name}@${songModel.version}`,
        format: songModel.format,
        device: songModel.device,
        durationSeconds: duration,
        modelMs: song.timings.modelMs,
        totalMs,
        tokensPerSecond: song.modelTokens === 0 ? null : song.modelTokens / (song.timings.modelMs / 1000),
        realtimeFactor: duration / (totalMs / 1000),
        outsideModelShare: (totalMs - song.timings.modelMs) / totalMs,
      });
    }
  }
  await musicgen.value.release();
  await musicgenDir.remove();
  const acestep = await benchAcestep(DEVICE, depsFor);

  const longest = rows.find((r) => r.durationSeconds === 240);
  const result = {
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, cpu: cpus()[0]?.model ?? 'unknown', node: process.version, loadAverage: loadavg() },
    device: model.device,
    model: `${model.manifest.name}@${model.manifest.version}`,
    encoder: { backend, threads },
    steps: 27,
    rows,
    contentCredentials: credentialRows,
    formats: formatRows,
    acestep: acestep.json,
    targets: {
      song240TotalMsAtMost: 8000,
      song240TotalMs: longest?.totalMs ?? null,
      song240Met: longest !== undefined && longest.totalMs <= 8000,
      outsideShareAtMost: 0.1,
      song240OutsideShare: longest?.outsideModelAndEncoderShare ?? null,
      outsideMet: longest !== undefined && longest.outsideModelAndEncoderShare <= 0.1,
    },
  };
  const fmt = (ms: number): string => (ms / 1000).toFixed(2);
  const md = [
    '# Inference benchmark',
    '',
    `${result.date}; ${result.machine.cpus} x ${result.machine.cpu}; Node ${result.machine.node}; device ${result.device}; model ${result.model}; ` +
      `MP3 320 kbps CBR, ${backend === 'wasm' ? 'wasm LAME' : `native ${backend}`} in ${threads} parallel chunks; upload to s3rver on loopback; median of ${REPEATS} runs (27 steps).`,
    '',
    '| song | model s | encode s | hash s | upload s | other s | total s | CPU s (threads + encoder processes) | x realtime | outside model+encoder | MP3 bytes |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.durationSeconds} s | ${fmt(r.modelMs)} | ${fmt(r.encodeMs)} | ${fmt(r.hashMs)} | ${fmt(r.uploadMs)} | ${fmt(r.otherMs)} | ${fmt(r.totalMs)} | ${fmt(r.cpuMs)} | ${r.realtimeFactor.toFixed(1)} | ${(100 * r.outsideModelAndEncoderShare).toFixed(1)}% | ${r.bytes} |`,
    ),
    '',
    '## Baselines (same run, same PCM)',
    '',
    '| song | serial encode s (1 chunk) | parallel encode s | speed-up | PCM copy ms | model / copy | wasm encode s (parallel) |',
    '|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.durationSeconds} s | ${fmt(r.encodeSerialMs)} | ${fmt(r.encodeMs)} | ${r.parallelEncodeSpeedup.toFixed(2)}x | ${r.pcmCopyMs.toFixed(1)} | ${r.modelVsCopy.toFixed(1)}x | ${r.wasmEncodeMs === null ? '(is the main encoder)' : fmt(r.wasmEncodeMs)} |`,
    ),
    '',
    '## Content credentials (ID3 tags + signed C2PA manifest) beside the encoder, per song',
    '',
    'finishMp3 after the encoder: TIT2/TSSE/COMM tags and a C2PA manifest store (claim v2, actions, generation assertion, data hash over the whole file, ES256 signature with the development certificate) in a GEOB frame; median of the same runs.',
    '',
    '| song | encode ms | credentials ms | credentials / encode | manifest bytes | tag bytes (manifest included) | share of the MP3 |',
    '|---|---|---|---|---|---|---|',
    ...credentialRows.map(
      (c) =>
        `| ${c.durationSeconds} s | ${c.encodeMs.toFixed(0)} | ${c.credentialsMs.toFixed(1)} | ${((100 * c.credentialsMs) / c.encodeMs).toFixed(1)}% | ${c.manifestBytes} | ${c.tagBytes} | ${((100 * c.tagBytes) / c.bytes).toFixed(2)}% |`,
    ),
    '',
    '## Model formats (same pipeline, one run each)',
    '',
    "The built-in one-pass graph beside the tiny MusicGen-format model (the public export's layout: text encoder, merged decoder run token by token with its key/value cache and classifier-free guidance, EnCodec decoder, 32 -> 48 kHz). The tiny model's weights are random and small: its figures measure the backend's loop (graph calls, sampling, cache hand-over), not MusicGen's compute.",
    '',
    '| model | format | device | song | model s | total s | tokens/s | x realtime | outside model |',
    '|---|---|---|---|---|---|---|---|---|',
    ...formatRows.map(
      (r) =>
        `| ${r.model} | ${r.format} | ${r.device} | ${r.durationSeconds} s | ${fmt(r.modelMs)} | ${fmt(r.totalMs)} | ${r.tokensPerSecond === null ? '-' : r.tokensPerSecond.toFixed(0)} | ${r.realtimeFactor.toFixed(1)} | ${(100 * r.outsideModelShare).toFixed(1)}% |`,
    ),
    '',
    ...acestep.markdown,
    `Load average at the end of the run: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(', ')} (wall times stretch when other processes share the cores; CPU time does not).`,
    '',
    `Targets for 240 s: total <= 8 s: ${result.targets.song240Met ? 'met' : 'NOT met'} (${fmt(result.targets.song240TotalMs ?? 0)} s); ` +
      `outside model and encoder <= 10%: ${result.targets.outsideMet ? 'met' : 'NOT met'} (${(100 * (result.targets.song240OutsideShare ?? 0)).toFixed(1)}%).`,
    '',
  ].join('\n');
  await mkdir(new URL('./results/', import.meta.url), { recursive: true });
  await writeFile(new URL('./results/inference.json', import.meta.url), `${JSON.stringify(result, null, 2)}\n`);
  await writeFile(new URL('./results/inference.md', import.meta.url), md);
  console.log(md);

  await pool.close();
  await identityDir.remove();
  await model.release();
  store.close();
  await s3.stop();
}

await main();
