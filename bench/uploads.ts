/**
 * Upload decoding benchmark (`npm run bench:uploads`): how long core/src/audio/uploaded-audio.ts
 * takes to decode the longest upload a tier takes (240 s, 48 kHz stereo pink noise) as WAV 24-bit,
 * FLAC 16 and 24-bit and MP3 320 kbps, all made by ffmpeg, against ffmpeg decoding the same file
 * to 32-bit float (the baseline, a native decoder in its own process), in the same run. Two
 * figures per file: the oracle's probe (the streaming decode under the tier's budget, keeping no
 * sample) and a worker's decode (keeping every sample). The oracle probes every upload on arrival
 * in a bounded thread (core/src/audio/audio-prober.ts): the figure is how long one upload holds
 * it, and why that is not the event loop. ffmpeg is the system's, else the npm package's
 * (test/support/reference-tools.ts).
 *
 * Memory per edit second (issue 49 item 5): the bytes a worker holds for an edit's source, decoded
 * into the working format (stereo 48 kHz, core/src/audio/working-format-sink.ts) against the
 * baseline of keeping what the file decodes to (every channel at its own rate, as before), both in
 * this run, for a tiny 192 kHz 8-channel FLAC and the FLAC above; counted as the bytes of the
 * arrays each keeps (not wall time).
 *
 * Environment: BENCH_UPLOAD_ROUNDS (default 3), BENCH_UPLOAD_SECONDS (default 240).
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { availableParallelism, cpus } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { collectingSink, decodeAudioStream, decodeUploadedAudio, probeUploadedAudio } from '../core/src/audio/uploaded-audio.ts';
import { WORKING_BYTES_PER_SECOND, workingFormatSink } from '../core/src/audio/working-format-sink.ts';
import { constantFlac } from '../test/support/upload-bombs.ts';
import { makeTempDir } from '../core/src/testing/temp-dirs.ts';
import { referenceTool, runReference } from '../test/support/reference-tools.ts';

const ROUNDS = Number(process.env.BENCH_UPLOAD_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_UPLOAD_SECONDS ?? 240);
const BUDGET = { maxSeconds: SECONDS };
const ffmpeg = referenceTool('ffmpeg');

const FORMATS = [
  { name: 'WAV 24-bit', file: 'upload.wav', args: ['-c:a', 'pcm_s24le'] },
  { name: 'FLAC 16-bit', file: 'upload16.flac', args: ['-c:a', 'flac', '-sample_fmt', 's16'] },
  { name: 'FLAC 24-bit', file: 'upload24.flac', args: ['-c:a', 'flac', '-sample_fmt', 's32'] },
  { name: 'MP3 320 kbps', file: 'upload.mp3', args: ['-c:a', 'libmp3lame', '-b:a', '320k'] },
] as const;

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

const dir = await makeTempDir('bench-uploads');
const rows: { format: string; bytes: number; probeMs: number; decodeMs: number; ffmpegMs: number }[] = [];
const memory: { source: string; bytes: number; seconds: number; baselinePerSecond: number; workingPerSecond: number }[] = [];

/** Bytes per edit second kept for `bytes` (of `seconds` whole seconds): the baseline, then the working format. */
async function memoryPerEditSecond(source: string, bytes: Uint8Array, seconds: number): Promise<void> {
  const baseline = collectingSink(seconds);
  if (!(await decodeAudioStream(bytes, { maxSeconds: SECONDS }, baseline)).ok) throw new Error(`${source} did not decode`);
  const kept = baseline.channels().reduce((sum, channel) => sum + channel.byteLength, 0);
  const working = workingFormatSink({ sampleRate: 48_000, channels: 2, keepSeconds: seconds });
  if (!(await decodeAudioStream(bytes, { maxSeconds: SECONDS }, working)).ok) throw new Error(`${source} did not decode`);
  memory.push({
    source,
    bytes: bytes.length,
    seconds,
    baselinePerSecond: Math.round(kept / seconds),
    workingPerSecond: Math.round(working.allocatedBytes() / seconds),
  });
}

try {
  await memoryPerEditSecond(
    'FLAC 192 kHz, 8 channels (constant)',
    constantFlac({ sampleRate: 192_000, channels: 8, blockSize: 65_535, frames: Math.ceil((29.7 * 192_000) / 65_535) }),
    29,
  );
  for (const format of FORMATS) {
    const path = join(dir.path, format.file);
    await runReference('ffmpeg', [
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      `anoisesrc=d=${SECONDS}:c=pink:r=48000:a=0.3`,
      '-ac',
      '2',
      ...format.args,
      path,
    ]);
    const bytes = new Uint8Array(await readFile(path));
    const probes: number[] = [];
    const decodes: number[] = [];
    const baseline: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      let started = performance.now();
      const probed = await probeUploadedAudio(bytes, BUDGET);
      probes.push(performance.now() - started);
      if (!probed.ok || probed.value.frames !== SECONDS * 48000) throw new Error(`${format.name} did not probe whole`);
      started = performance.now();
      const decoded = await decodeUploadedAudio(bytes, BUDGET);
      decodes.push(performance.now() - started);
      if (!decoded.ok || decoded.value.frames !== SECONDS * 48000) throw new Error(`${format.name} did not decode whole`);
      started = performance.now();
      await runReference('ffmpeg', ['-v', 'error', '-i', path, '-f', 'f32le', '-y', join(dir.path, 'out.raw')]);
      baseline.push(performance.now() - started);
    }
    if (format.file === 'upload16.flac') await memoryPerEditSecond(`${format.name}, 48 kHz stereo (pink noise)`, bytes, SECONDS);
    rows.push({
      format: format.name,
      bytes: bytes.length,
      probeMs: Math.round(median(probes)),
      decodeMs: Math.round(median(decodes)),
      ffmpegMs: Math.round(median(baseline)),
    });
  }
} finally {
  await dir.remove();
}

const report = {
  date: new Date().toISOString(),
  machine: { cores: availableParallelism(), cpu: cpus()[0]?.model ?? 'unknown', node: process.version },
  ffmpeg: ffmpeg.source,
  seconds: SECONDS,
  rounds: ROUNDS,
  rows,
  memory,
};
const results = fileURLToPath(new URL('./results/', import.meta.url));
await mkdir(results, { recursive: true });
await writeFile(join(results, 'uploads.json'), `${JSON.stringify(report, null, 2)}\n`);
const table = rows
  .map(
    (r) =>
      `| ${r.format} | ${(r.bytes / 1e6).toFixed(1)} MB | ${r.probeMs} | ${Math.round((SECONDS * 1000) / r.probeMs)}x | ${r.decodeMs} | ${r.ffmpegMs} |`,
  )
  .join('\n');
const markdown = `# Upload decoding: core/src/audio/uploaded-audio.ts vs ffmpeg

${report.machine.cores} cores (${report.machine.cpu}), Node ${report.machine.node}; ${SECONDS} s of 48 kHz stereo pink noise made by ffmpeg (${ffmpeg.source === 'system' ? "the system's" : 'the npm package'}); median of ${ROUNDS} rounds.

| format | file | probe ms (oracle) | realtime | decode ms (worker, keeps samples) | ffmpeg to f32 ms (baseline, own process) |
|---|---:|---:|---:|---:|---:|
${table}

The oracle probes an upload on arrival in a bounded decode thread (core/src/audio/audio-prober.ts), off its event loop: "probe ms" is how long the longest upload a tier takes holds that thread (the streaming decode under the tier's budget, no sample kept). A worker decodes an upload an edit starts from, keeping its samples ("decode ms").

## Worker memory per edit second

What a worker holds for an edit's source: the baseline keeps what the file decodes to (every channel at the file's rate, as the worker did before issue 49), the working format keeps stereo at 48 kHz, down-mixed and resampled block by block while decoding (core/src/audio/working-format-sink.ts). Bytes of the arrays kept, output and scratch, divided by the seconds kept; the documented bound is ${WORKING_BYTES_PER_SECOND.toLocaleString('en-US')} B per edit second plus one mixed block per channel (2 x 65,535 x 4 B).

| source | file | seconds | baseline B per edit s | working format B per edit s | ratio |
|---|---:|---:|---:|---:|---:|
${memory
  .map(
    (m) =>
      `| ${m.source} | ${m.bytes.toLocaleString('en-US')} B | ${m.seconds} | ${m.baselinePerSecond.toLocaleString('en-US')} | ${m.workingPerSecond.toLocaleString('en-US')} | ${(m.baselinePerSecond / m.workingPerSecond).toFixed(1)}x |`,
  )
  .join('\n')}
`;
await writeFile(join(results, 'uploads.md'), markdown);
process.stdout.write(markdown);
