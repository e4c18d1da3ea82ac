/**
 * Inference benchmark (npm run bench:inference): 30 s, 120 s and 240 s songs through the worker's
 * pipeline (built-in model on CPU, MP3 320 kbps in parallel chunks with the encoder the worker
 * would pick, the PCM hash and the fingerprints (Chromaprint, landmark peaks) read beside the encode, sha256, upload to a real S3 server on
 * loopback) up to what `completed` needs, split by stage; then the lossless masters the worker
 * makes after completion (WAV + FLAC with their manifests, and their uploads). Every step is
 * printed as a share of the same run's MP3 encode. Baselines measured in the same run:
 * - encode: the parallel encode alone (nothing beside it), one serial encoder (one chunk), and
 *   the other encoder (wasm LAME when a native lame/ffmpeg is picked);
 * - the PCM hash and the fingerprint alone (not beside the encode), libFLAC (wasm) beside a
 *   native FLAC (ffmpeg);
 * - the masters made on the way to `completed` (the layout before issue 44) against after it;
 * - model: a plain copy of the same PCM (the floor any generator pays to produce the buffer).
 * Content credentials (ID3 tags + signed C2PA manifest, finishMp3) are reported beside the
 * encoder: the time and bytes they add per song.
 * Then the tiny MusicGen- and ACE-Step-1.5-format models through the same pipeline, with the
 * ACE-Step turbo projection (bench/acestep.ts).
 * Writes bench/results/inference.json and inference.md.
 */
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
import { uploadLosslessMasters } from '../inference/src/worker/masters.ts';
import { losslessStepTimes } from './lossless-options.ts';
import { lameQualityRows } from './lame-quality.ts';
import type { LameQualityRow } from './lame-quality.ts';
import { fingerprintPcm } from '../core/src/fingerprint/chromaprint.ts';
import { landmarkPeaks } from '../core/src/fingerprint/landmarks.ts';
import { createSoundFingerprinter } from '../core/src/fingerprint/sound-fingerprints.ts';
import type { LosslessStepTimes } from './lossless-options.ts';
import { ensureDevelopmentIdentity } from '../inference/src/audio/development-identity.ts';
import { loadSigningIdentity } from '../inference/src/audio/signing-identity.ts';
import { processCpuMs } from './process-cpu.ts';

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
  /** The MP3 encode (parallel chunks), with the PCM hash read beside it. */
  encodeMs: number;
  /** From the model's end until the MP3 and the PCM hash were both done. */
  sideBySideMs: number;
  /** The PCM hash's and the fingerprint's own time on the main thread beside the encode. */
  pcmHashBesideMs: number;
  fingerprintBesideMs: number;
  /** When both were done (from the encode's start). */
  besideDoneMs: number;
  /** The Chromaprint fingerprint of the same PCM alone (nothing beside it). */
  fingerprintAloneMs: number;
  /** The landmark peaks (the copy registry's fingerprint) of the same PCM alone. */
  landmarksAloneMs: number;
  /** Both fingerprints in one pass (one down-mix and resample, what the worker runs) alone. */
  bothAloneMs: number;
  fingerprintItems: number;
  credentialsMs: number;
  hashMs: number;
  uploadMs: number;
  otherMs: number;
  /** To `completed`: everything the job completes with (MP3 published, PCM hash known). */
  totalMs: number;
  /** CPU time to `completed` (all threads and encoder processes): independent of other load. */
  cpuMs: number;
  realtimeFactor: number;
  outsideModelAndEncoderShare: number;
  bytes: number;
  /** After completion: the WAV and FLAC with their manifests, then both uploads (side by side). */
  mastersEncodeMs: number;
  mastersUploadMs: number;
  /** From the job's start until its masters were stored. */
  mastersReadyMs: number;
  wavBytes: number;
  flacBytes: number;
  /** The parallel encode of the same PCM alone, nothing beside it. */
  encodeAloneMs: number;
  encodeSerialMs: number;
  parallelEncodeSpeedup: number;
  pcmCopyMs: number;
  modelVsCopy: number;
  /** The portable wasm encoder on the same PCM, when the worker picked a native one. */
  wasmEncodeMs: number | null;
  /** Each lossless step alone on the same PCM. */
  lossless: LosslessStepTimes;
}

/**
 * The layout before issue 44, run in the same process: the masters made and uploaded on the way
 * to `completed` (after the MP3, as the worker did), one upload after the other.
 */
interface InlineRow {
  durationSeconds: number;
  totalMs: number;
  /** CPU time to `completed` (all threads and encoder processes). */
  cpuMs: number;
  modelMs: number;
  encodeMs: number;
  outsideModelAndEncoderShare: number;
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
  const inlineRows: InlineRow[] = [];
  const credentialRows: CredentialRow[] = [];
  /** LAME's quality levels on the longest song's PCM (bench/lame-quality.ts); null without ffmpeg. */
  let lameQuality: LameQualityRow[] | null = null;
  const request = (duration: number, seed: number) => ({
    prompt: PROMPT,
    durationSeconds: duration,
    seed: BigInt(seed),
    steps: 27,
    lyrics: null,
    withLyrics: false,
    jobId: 'bench',
    kind: 'song' as const,
  });
  for (const duration of DURATIONS) {
    const credentialSamples: Omit<CredentialRow, 'durationSeconds'>[] = [];
    const samples: {
      model: number;
      encode: number;
      sideBySide: number;
      pcmHashBeside: number;
      fingerprintBeside: number;
      besideDone: number;
      credentials: number;
      hash: number;
      upload: number;
      total: number;
      cpu: number;
      outside: number;
      bytes: number;
      mastersEncode: number;
      mastersUpload: number;
      mastersReady: number;
      wavBytes: number;
      flacBytes: number;
    }[] = [];
    for (let run = 0; run < REPEATS; run += 1) {
      const cpu0 = processCpuMs();
      const t0 = performance.now();
      const song = await generateSong(request(duration, run + 1), deps, signal, () => undefined);
      const tUpload = performance.now();
      const put = await store.put(`audio/bench_${duration}_${run}.mp3`, song.bytes, { contentType: 'audio/mpeg' });
      if (!put.ok) throw new Error(put.error.message);
      const t1 = performance.now();
      const total = t1 - t0;
      const cpu = processCpuMs() - cpu0;
      // After completion, as the worker does: the masters, checked against the song's PCM hash.
      if (song.lossless === null || song.pcmHash === null) throw new Error('a song without masters');
      const masters = await uploadLosslessMasters(store, `bench-${duration}-${run}`, song.lossless, song.pcmHash, signal);
      const mastersReady = performance.now() - t0;
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
        sideBySide: song.timings.sideBySideMs,
        pcmHashBeside: song.timings.pcmHashMs,
        fingerprintBeside: song.timings.fingerprintMs,
        besideDone: song.timings.besideDoneMs,
        credentials: song.timings.credentialsMs,
        hash: song.timings.hashMs,
        upload: t1 - tUpload,
        total,
        cpu,
        outside: (total - song.timings.modelMs - song.timings.encodeMs) / total,
        bytes: song.bytes.length,
        mastersEncode: masters.timings.encodeMs,
        mastersUpload: masters.timings.uploadMs,
        mastersReady,
        wavBytes: masters.record.wav_bytes,
        flacBytes: masters.record.flac_bytes,
      });
    }
    // The layout before issue 44 on the same songs: masters made and uploaded before `completed`.
    const inline: InlineRow[] = [];
    for (let run = 0; run < REPEATS; run += 1) {
      const cpu0 = processCpuMs();
      const t0 = performance.now();
      const song = await generateSong(request(duration, run + 1), deps, signal, () => undefined);
      if (song.lossless === null) throw new Error('a song without masters');
      const files = await song.lossless.make(signal);
      for (const [key, bytes] of [
        [`audio/inline_${duration}_${run}.mp3`, song.bytes],
        [`lossless/inline_${duration}_${run}.wav`, files.wav],
        [`lossless/inline_${duration}_${run}.flac`, files.flac],
      ] as const) {
        const stored = await store.put(key, bytes, { contentType: 'application/octet-stream' });
        if (!stored.ok) throw new Error(stored.error.message);
      }
      const totalMs = performance.now() - t0;
      inline.push({
        durationSeconds: duration,
        totalMs,
        cpuMs: processCpuMs() - cpu0,
        modelMs: song.timings.modelMs,
        encodeMs: song.timings.encodeMs,
        outsideModelAndEncoderShare: (totalMs - song.timings.modelMs - song.timings.encodeMs) / totalMs,
      });
    }
    const inlineMedian = [...inline].sort((x, y) => x.totalMs - y.totalMs)[Math.floor(inline.length / 2)];
    if (inlineMedian !== undefined) inlineRows.push(inlineMedian);

    // Baselines on the same PCM: the encode alone and serial, a plain copy, the other encoder,
    // each lossless step alone.
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
    const alone: number[] = [];
    for (let i = 0; i < REPEATS; i += 1) {
      const t = performance.now();
      const mp3 = await encodeMp3(pcm.channels, pcm.sampleRate, { backend, pool, parallelism: threads, signal });
      if (!mp3.ok) throw new Error(mp3.error.message);
      alone.push(performance.now() - t);
    }
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
    const lossless = await losslessStepTimes(pcm.channels, pcm.sampleRate, REPEATS);
    if (duration === DURATIONS[DURATIONS.length - 1]) lameQuality = await lameQualityRows(pcm.channels, pcm.sampleRate, backend);
    const fingerprints: number[] = [];
    const landmarkTimes: number[] = [];
    const bothTimes: number[] = [];
    let fingerprintItems = 0;
    for (let i = 0; i < REPEATS; i += 1) {
      t = performance.now();
      fingerprintItems = fingerprintPcm(pcm.channels, pcm.sampleRate).length;
      fingerprints.push(performance.now() - t);
      t = performance.now();
      landmarkPeaks(pcm.channels, pcm.sampleRate);
      landmarkTimes.push(performance.now() - t);
      t = performance.now();
      const both = createSoundFingerprinter(pcm.sampleRate, pcm.channels.length);
      both.feed(pcm.channels);
      both.finish();
      bothTimes.push(performance.now() - t);
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
    const m = (pick: (x: (typeof samples)[number]) => number): number => median(samples.map(pick));
    const modelMs = m((x) => x.model);
    const encodeMs = m((x) => x.encode);
    const totalMs = m((x) => x.total);
    const credentials = m((x) => x.credentials);
    const hashMs = m((x) => x.hash);
    const uploadMs = m((x) => x.upload);
    const sideBySideMs = m((x) => x.sideBySide);
    const pcmCopyMs = median(copies);
    rows.push({
      durationSeconds: duration,
      runs: REPEATS,
      modelMs,
      encodeMs,
      sideBySideMs,
      pcmHashBesideMs: m((x) => x.pcmHashBeside),
      fingerprintBesideMs: m((x) => x.fingerprintBeside),
      besideDoneMs: m((x) => x.besideDone),
      fingerprintAloneMs: median(fingerprints),
      landmarksAloneMs: median(landmarkTimes),
      bothAloneMs: median(bothTimes),
      fingerprintItems,
      credentialsMs: credentials,
      hashMs,
      uploadMs,
      otherMs: Math.max(0, totalMs - modelMs - sideBySideMs - credentials - hashMs - uploadMs),
      totalMs,
      cpuMs: m((x) => x.cpu),
      realtimeFactor: duration / (totalMs / 1000),
      outsideModelAndEncoderShare: m((x) => x.outside),
      bytes: samples[0]?.bytes ?? 0,
      mastersEncodeMs: m((x) => x.mastersEncode),
      mastersUploadMs: m((x) => x.mastersUpload),
      mastersReadyMs: m((x) => x.mastersReady),
      wavBytes: samples[0]?.wavBytes ?? 0,
      flacBytes: samples[0]?.flacBytes ?? 0,
      encodeAloneMs: median(alone),
      encodeSerialMs,
      parallelEncodeSpeedup: encodeSerialMs / median(alone),
      pcmCopyMs,
      modelVsCopy: modelMs / pcmCopyMs,
      wasmEncodeMs,
      lossless,
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
    mastersOnTheWay: inlineRows,
    contentCredentials: credentialRows,
    lameQuality,
    formats: formatRows,
    acestep: acestep.json,
    targets: {
      song240TotalMsAtMost: 3000,
      song240TotalMs: longest?.totalMs ?? null,
      song240Met: longest !== undefined && longest.totalMs <= 3000,
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
    'To `completed`: what a job completes with (the MP3 published, its hash, the PCM hash and the two fingerprints, Chromaprint and the landmark peaks, read beside the encode). The WAV and FLAC follow after completion (next tables).',
    '',
    '| song | model s | encode s (PCM hash, fingerprint beside) | credentials s | hash s | upload s | other s | to completed s | CPU s (threads + encoder processes) | x realtime | outside model+encoder | MP3 bytes | masters ready s (from start) |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.durationSeconds} s | ${fmt(r.modelMs)} | ${fmt(r.encodeMs)} | ${fmt(r.credentialsMs)} | ${fmt(r.hashMs)} | ${fmt(r.uploadMs)} | ${fmt(r.otherMs)} | ${fmt(r.totalMs)} | ${fmt(r.cpuMs)} | ${r.realtimeFactor.toFixed(1)} | ${(100 * r.outsideModelAndEncoderShare).toFixed(1)}% | ${r.bytes} | ${fmt(r.mastersReadyMs)} |`,
    ),
    '',
    "## Each step against the same run's MP3 encode",
    '',
    'ms (share of the MP3 encode of the same run and song). "Beside" steps run on the main thread while the encoder pool encodes; their own time is measured alone on the same PCM. "After" steps run once the job completed.',
    '',
    `| step | when | ${rows.map((r) => `${r.durationSeconds} s`).join(' | ')} |`,
    `|---|---|${rows.map(() => '---').join('|')}|`,
    ...(
      [
        ['model', 'on the way', (r) => r.modelMs],
        [`MP3 encode (${threads} chunks, PCM hash and fingerprints beside)`, 'on the way', (r) => r.encodeMs],
        ['MP3 encode alone (baseline)', '-', (r) => r.encodeAloneMs],
        ['PCM hash, its time beside the encode', 'beside', (r) => r.pcmHashBesideMs],
        ['PCM hash alone (quantize, pack, SHA-256; baseline)', '-', (r) => r.lossless.pcmHashMs],
        ['fingerprints (Chromaprint and landmark peaks), their time beside the encode', 'beside', (r) => r.fingerprintBesideMs],
        ['Chromaprint alone (baseline)', '-', (r) => r.fingerprintAloneMs],
        ['landmark peaks alone (baseline)', '-', (r) => r.landmarksAloneMs],
        ['both in one pass, one down-mix and resample (what the worker runs), alone', '-', (r) => r.bothAloneMs],
        ['PCM hash + fingerprints done (from the encode start)', 'beside', (r) => r.besideDoneMs],
        ['encode + beside window', 'on the way', (r) => r.sideBySideMs],
        [
          'encode, then PCM hash and fingerprints (sequential; derived from the three alone)',
          '-',
          (r) => r.encodeAloneMs + r.lossless.pcmHashMs + r.bothAloneMs,
        ],
        ['ID3 + C2PA (finishMp3)', 'on the way', (r) => r.credentialsMs],
        ['audio hash', 'on the way', (r) => r.hashMs],
        ['MP3 upload', 'on the way', (r) => r.uploadMs],
        ['other (to completed)', 'on the way', (r) => r.otherMs],
        ['quantize to 24-bit (alone)', 'after', (r) => r.lossless.quantizeMs],
        ['FLAC, libFLAC wasm (alone)', 'after', (r) => r.lossless.flacWasmMs],
        ['FLAC, ffmpeg native (alone, not used)', '-', (r) => r.lossless.flacNativeMs],
        ['WAV + FLAC with manifests', 'after', (r) => r.mastersEncodeMs],
        ['WAV + FLAC uploads (side by side)', 'after', (r) => r.mastersUploadMs],
      ] as [string, string, (r: Row) => number | null][]
    ).map(
      ([name, when, pick]) =>
        `| ${name} | ${when} | ${rows
          .map((r) => {
            const ms = pick(r);
            return ms === null ? '-' : `${ms.toFixed(0)} (${((100 * ms) / r.encodeMs).toFixed(1)}%)`;
          })
          .join(' | ')} |`,
    ),
    '',
    `Fingerprints: ${rows.map((r) => `${r.durationSeconds} s ${r.fingerprintItems} items`).join(', ')}. Masters: WAV ${rows.map((r) => `${r.durationSeconds} s ${r.wavBytes} B`).join(', ')}; FLAC (libFLAC level 5) ${rows
      .map((r) => `${r.durationSeconds} s ${r.flacBytes} B`)
      .join(', ')}; ffmpeg's FLAC level 5 ${rows.map((r) => `${r.durationSeconds} s ${r.lossless.flacNativeBytes ?? '-'} B`).join(', ')}.`,
    '',
    '## The options for the masters (same run, same songs)',
    '',
    "On the way (the layout before issue 44): the WAV and FLAC made and uploaded before `completed`. Native FLAC on the way: that layout with ffmpeg's FLAC in place of libFLAC (derived: its measured total less the two encoders' difference measured alone). After completion (chosen): the job completes with the MP3 and the PCM hash read beside the encode; the masters follow.",
    '',
    '| song | on the way: to completed s | CPU s | outside model+encoder | native FLAC on the way (derived) s | after completion (chosen): to completed s | CPU s | outside model+encoder | masters ready s |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rows.map((r) => {
      const inline = inlineRows.find((i) => i.durationSeconds === r.durationSeconds);
      if (inline === undefined) return `| ${r.durationSeconds} s | - | - | - | - | - | - | - | - |`;
      const native = r.lossless.flacNativeMs === null ? null : inline.totalMs - (r.lossless.flacWasmMs - r.lossless.flacNativeMs);
      return `| ${r.durationSeconds} s | ${fmt(inline.totalMs)} | ${fmt(inline.cpuMs)} | ${(100 * inline.outsideModelAndEncoderShare).toFixed(1)}% | ${native === null ? '-' : fmt(native)} | ${fmt(r.totalMs)} | ${fmt(r.cpuMs)} | ${(100 * r.outsideModelAndEncoderShare).toFixed(1)}% | ${fmt(r.mastersReadyMs)} |`;
    }),
    '',
    '## Baselines (same run, same PCM)',
    '',
    '| song | serial encode s (1 chunk) | parallel encode alone s | speed-up | PCM copy ms | model / copy | wasm encode s (parallel) |',
    '|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.durationSeconds} s | ${fmt(r.encodeSerialMs)} | ${fmt(r.encodeAloneMs)} | ${r.parallelEncodeSpeedup.toFixed(2)}x | ${r.pcmCopyMs.toFixed(1)} | ${r.modelVsCopy.toFixed(1)}x | ${r.wasmEncodeMs === null ? '(is the main encoder)' : fmt(r.wasmEncodeMs)} |`,
    ),
    '',
    `## LAME's algorithm quality (${DURATIONS[DURATIONS.length - 1]} s song, same PCM, one encoder process each, median of 3 taken in turn)`,
    '',
    ...(lameQuality === null
      ? ['Not measured: it needs ffmpeg (the wasm encoder has no such setting).']
      : [
          "The worker's level beside LAME 3.100's default (3) and the next faster step (7, no noise shaping). SNR of the decoded file against the song in third-octave bands from 50 Hz to 16 kHz (2048-sample Hann frames): the median over bands of each band's median frame, and the worst band's 5th-percentile frame.",
          '',
          '| -q | encode s | encoder CPU s | CPU against -q 3 | median band SNR dB | worst band, 5th percentile dB | bytes |',
          '|---|---|---|---|---|---|---|',
          ...lameQuality.map((q) => {
            const reference = lameQuality?.find((r) => r.quality === 3)?.encodeCpuMs ?? q.encodeCpuMs;
            return `| ${q.quality}${q.chosen ? ' (the worker)' : ''} | ${fmt(q.encodeMs)} | ${fmt(q.encodeCpuMs)} | ${((100 * q.encodeCpuMs) / reference).toFixed(0)}% | ${q.medianBandSnrDb.toFixed(1)} | ${q.worstBandP5SnrDb.toFixed(1)} | ${q.bytes} |`;
          }),
        ]),
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
    `Targets for 240 s (issue 44): to completed <= 3 s: ${result.targets.song240Met ? 'met' : 'NOT met'} (${fmt(result.targets.song240TotalMs ?? 0)} s); ` +
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
