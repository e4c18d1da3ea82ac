import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { BUILTIN_MODEL_DIR } from '../../inference/src/config.ts';
import {
  LAME_ALGORITHM_QUALITY,
  nativeCommand,
  selectEncoderBackend,
  systemBinaryProbe,
} from '../../inference/src/audio/encoder-backend.ts';
import { EncoderPool } from '../../inference/src/audio/encoder-pool.ts';
import { SEARCH_FRAMES, joinChunks, planChunks } from '../../inference/src/audio/chunk-join.ts';
import { LAME_ENCODER_DELAY, crc16 } from '../../inference/src/audio/info-tag.ts';
import { encodeMp3 } from '../../inference/src/audio/mp3-encoder.ts';
import { measureMp3, parseMp3 } from '../../inference/src/audio/mp3-frames.ts';
import { loadModel } from '../../inference/src/model/runtime.ts';
import { seedToModelInput } from '../../inference/src/model/seed.ts';
import { encodePrompt } from '../../inference/src/model/text-encoder.ts';
import { assertCbr320, decodeMp3, ffmpegDecode } from './helpers/mp3-checks.ts';
import { readFile, writeFile } from 'node:fs/promises';
import { runReference } from '../support/reference-tools.ts';
import { join } from 'node:path';
import { decodeAudioStream, decodeUploadedAudio, probeUploadedAudio } from '../../core/src/audio/uploaded-audio.ts';
import { createAudioProber } from '../../core/src/audio/audio-prober.ts';
import { constantFlac, uploadBombs, wavHeader } from '../support/upload-bombs.ts';
import { createHash } from 'node:crypto';
import { makeTempDir } from '../../core/src/testing/temp-dirs.ts';
import type { TempDir } from '../../core/src/testing/temp-dirs.ts';

const RATE = 44100;
/** The longest upload any tier takes. */
const BUDGET = { maxSeconds: 240 };

function snrDb(reference: Float32Array, test: Float32Array, from: number, to: number, lag = 0): number {
  let signal = 0;
  let noise = 0;
  for (let i = Math.max(0, from); i < Math.min(to, reference.length, test.length - lag); i += 1) {
    const r = reference[i]!;
    signal += r * r;
    noise += (r - test[i + lag]!) ** 2;
  }
  return 10 * Math.log10(signal / noise);
}

describe('MP3 encoding: 320 kbps CBR, exact duration, parallel chunks', () => {
  let pcm: Float32Array[];
  const seconds = 10;
  const pool = new EncoderPool(2);
  before(async () => {
    const loaded = await loadModel({ modelDir: BUILTIN_MODEL_DIR, device: 'cpu' });
    assert.ok(loaded.ok);
    const encoded = encodePrompt('rock song', loaded.value.manifest.conditioning);
    const out = await loaded.value.generate(
      {
        conditioning: encoded.conditioning,
        seed: seedToModelInput(3n),
        rhythm: Float32Array.from(loaded.value.manifest.conditioning.default_rhythm),
        numSamples: seconds * RATE,
        steps: 27,
      },
      new AbortController().signal,
    );
    pcm = out.channels.map((c) => c.slice());
    await loaded.value.release();
  });
  after(async () => {
    await pool.close();
  });

  const encode = async (parallelism: number, signal = new AbortController().signal) => {
    const result = await encodeMp3(pcm, RATE, { backend: 'wasm', pool, parallelism, signal });
    assert.ok(result.ok, result.ok ? '' : result.error.message);
    return result;
  };

  it('writes 320 kbps CBR frames behind an Info/LAME tag whose delay and padding give the exact length', async () => {
    const serial = await encode(1);
    assert.equal(serial.value.chunks, 1);
    const frames = assertCbr320(serial.value.bytes);
    const parsed = parseMp3(serial.value.bytes);
    assert.ok(parsed.ok && parsed.value.tag !== undefined);
    assert.equal(parsed.value.tag.delay, LAME_ENCODER_DELAY);
    assert.equal(parsed.value.tag.frameCount, frames - 1);
    assert.equal(parsed.value.tag.byteCount, serial.value.bytes.length);
    assert.equal((frames - 1) * 1152 - parsed.value.tag.delay - parsed.value.tag.padding, seconds * RATE);
    const measured = measureMp3(serial.value.bytes);
    assert.ok(measured.ok);
    assert.deepEqual([measured.value.samples, measured.value.seconds, measured.value.bitratesKbps], [seconds * RATE, seconds, [320]]);

    // A gapless decoder plays exactly the input's samples, aligned with it (no delay left over).
    const decoded = await decodeMp3(serial.value.bytes);
    assert.equal(decoded.errors, 0);
    assert.equal(decoded.samples, seconds * RATE);
    const aligned = snrDb(pcm[0]!, decoded.channels[0]!, 0, seconds * RATE);
    const shifted = snrDb(pcm[0]!, decoded.channels[0]!, 0, seconds * RATE - 1105, 1105);
    assert.ok(aligned > 15, `aligned SNR ${aligned.toFixed(1)} dB`);
    assert.ok(aligned > shifted + 10, `aligned ${aligned.toFixed(1)} dB vs shifted ${shifted.toFixed(1)} dB`);
  });

  it('encodes chunks in parallel threads and joins them at frame boundaries as cleanly as one encoder', async () => {
    const serial = await encode(1);
    const parallel = await encode(2);
    assert.equal(parallel.value.chunks, 2);
    assert.equal(parallel.value.serialFallback, false);
    assertCbr320(parallel.value.bytes);
    const measured = measureMp3(parallel.value.bytes);
    assert.ok(measured.ok && measured.value.samples === seconds * RATE);
    const [a, b] = await Promise.all([decodeMp3(serial.value.bytes), decodeMp3(parallel.value.bytes)]);
    assert.equal(b.errors, 0);
    assert.equal(b.samples, seconds * RATE);
    const join = (planChunks(seconds * RATE, 2).joins[0] ?? 0) * 1152;
    const from = join - 4096;
    const to = join + SEARCH_FRAMES * 1152 + 4096;
    for (const ch of [0, 1]) {
      const serialSnr = snrDb(pcm[ch]!, a.channels[ch]!, from, to);
      const parallelSnr = snrDb(pcm[ch]!, b.channels[ch]!, from, to);
      assert.ok(parallelSnr > serialSnr - 3, `around the join: parallel ${parallelSnr.toFixed(1)} dB, serial ${serialSnr.toFixed(1)} dB`);
    }
    // Encoding is deterministic: the same PCM gives the same bytes.
    assert.ok(Buffer.from((await encode(2)).value.bytes).equals(Buffer.from(parallel.value.bytes)));
  });

  it('plans chunks on frame boundaries that cover the song, with overlap for warm-up and join search', () => {
    const plan = planChunks(240 * RATE, 2);
    assert.equal(plan.ranges.length, 2);
    assert.equal(plan.ranges[0]?.start, 0);
    assert.equal(plan.ranges[1]?.end, 240 * RATE);
    assert.equal((plan.ranges[1]?.start ?? 1) % 1152, 0);
    assert.ok((plan.ranges[0]?.end ?? 0) > (plan.ranges[1]?.start ?? 0) + SEARCH_FRAMES * 1152);
    assert.equal(planChunks(2 * RATE, 2).ranges.length, 1, 'short songs are not split');
    const failed = joinChunks(
      [
        { bytes: new Uint8Array([1, 2, 3]), firstFrame: 0 },
        { bytes: new Uint8Array([4]), firstFrame: 10 },
      ],
      [12],
    );
    assert.equal(failed.ok, false);
  });

  it('aborts a running encode and the pool keeps working', async () => {
    const controller = new AbortController();
    const running = encodeMp3(pcm, RATE, { backend: 'wasm', pool, parallelism: 2, signal: controller.signal });
    // Abort while the threads are encoding (a 10 s song takes a few hundred ms).
    setTimeout(() => controller.abort(new Error('job time limit')), 30);
    await assert.rejects(running, /job time limit/);
    const after = await encode(2);
    assert.equal(assertCbr320(after.value.bytes) > 0, true);
  });

  it('CRC-16 is the LAME/ARC variant', () => {
    assert.equal(crc16(new TextEncoder().encode('123456789')), 0xbb3d);
  });

  it('picks a native lame/ffmpeg when on PATH, else the wasm encoder, and the native path encodes when present', async () => {
    assert.equal(selectEncoderBackend('auto', { lame: () => true, ffmpegWithLame: () => true }), 'lame');
    assert.equal(selectEncoderBackend('auto', { lame: () => false, ffmpegWithLame: () => true }), 'ffmpeg');
    assert.equal(selectEncoderBackend('auto', { lame: () => false, ffmpegWithLame: () => false }), 'wasm');
    assert.equal(selectEncoderBackend('wasm', { lame: () => true, ffmpegWithLame: () => true }), 'wasm');
    assert.deepEqual(nativeCommand('lame', 44100, 2).args.slice(-8), ['-q', '5', '-b', '320', '--cbr', '-t', '-', '-']);
    const ffmpegArgs = nativeCommand('ffmpeg', 44100, 2).args;
    assert.equal(ffmpegArgs[ffmpegArgs.indexOf('-compression_level') + 1], String(LAME_ALGORITHM_QUALITY));
    const backend = selectEncoderBackend('auto', systemBinaryProbe);
    if (backend === 'wasm') {
      assert.deepEqual([systemBinaryProbe.lame(), systemBinaryProbe.ffmpegWithLame()], [false, false]);
      return;
    }
    const result = await encodeMp3(pcm, RATE, { backend, pool, parallelism: 2, signal: new AbortController().signal });
    assert.ok(result.ok);
    assertCbr320(result.value.bytes);
    const measured = measureMp3(result.value.bytes);
    assert.ok(measured.ok && measured.value.samples === seconds * RATE);
    assert.equal((await decodeMp3(result.value.bytes)).errors, 0);
  });
});

describe('uploaded audio: WAV, FLAC and MP3 made by ffmpeg decode to the samples ffmpeg decodes', () => {
  let dir: TempDir;
  /** A 2 s stereo file of `codec` made by ffmpeg from a sine pair with pink noise (every byte pattern of a sample occurs). */
  const make = async (name: string, args: string[]): Promise<Uint8Array> => {
    const path = join(dir.path, name);
    await runReference('ffmpeg', [
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=440:duration=2:sample_rate=48000',
      '-f',
      'lavfi',
      '-i',
      'anoisesrc=d=2:c=pink:r=48000:a=0.3:seed=7',
      '-filter_complex',
      '[0][1]amerge=inputs=2',
      ...args,
      path,
    ]);
    return new Uint8Array(await readFile(path));
  };

  before(async () => {
    dir = await makeTempDir('uploaded-audio');
  });
  after(async () => {
    await dir.remove();
  });

  for (const [name, args, format] of [
    ['s16.wav', ['-c:a', 'pcm_s16le'], 'wav'],
    ['s24.wav', ['-c:a', 'pcm_s24le'], 'wav'],
    ['f32.wav', ['-c:a', 'pcm_f32le'], 'wav'],
    ['s16.flac', ['-c:a', 'flac', '-sample_fmt', 's16'], 'flac'],
    ['s24.flac', ['-c:a', 'flac', '-sample_fmt', 's32'], 'flac'],
    ['id3.mp3', ['-c:a', 'libmp3lame', '-b:a', '192k', '-id3v2_version', '4', '-metadata', 'title=upload'], 'mp3'],
  ] as const) {
    it(`${name}: ${format}, 48 kHz stereo, the same samples as ffmpeg's decode`, async () => {
      const bytes = await make(name, [...args]);
      const decoded = await decodeUploadedAudio(bytes, BUDGET);
      assert.ok(decoded.ok, decoded.ok ? '' : decoded.error.message);
      const audio = decoded.value;
      const reference = await ffmpegDecode(bytes, 'f32le');
      const samples = new Float32Array(reference.buffer, reference.byteOffset, reference.length / 4);
      assert.deepEqual([audio.format, audio.sampleRate, audio.channels.length, audio.frames], [format, 48000, 2, samples.length / 2]);
      let worst = 0;
      for (let i = 0; i < audio.frames; i += 1) {
        for (let c = 0; c < 2; c += 1) worst = Math.max(worst, Math.abs((samples[i * 2 + c] ?? 0) - (audio.channels[c]?.[i] ?? 0)));
      }
      // Integer PCM and FLAC exactly; MP3 within the float rounding of two mpg123 builds.
      assert.ok(worst <= (format === 'mp3' ? 1e-5 : 0), `largest difference ${worst}`);
    });
  }

  it('a mono 22.05 kHz MP3 with an ID3v1 tag: one channel at its own rate, as ffmpeg decodes it', async () => {
    const bytes = await make('mono.mp3', ['-ac', '1', '-ar', '22050', '-c:a', 'libmp3lame', '-b:a', '64k', '-write_id3v1', '1']);
    const decoded = await decodeUploadedAudio(bytes, BUDGET);
    assert.ok(decoded.ok, decoded.ok ? '' : decoded.error.message);
    const reference = await ffmpegDecode(bytes, 'f32le');
    const samples = new Float32Array(reference.buffer, reference.byteOffset, reference.length / 4);
    assert.deepEqual([decoded.value.sampleRate, decoded.value.channels.length, decoded.value.frames], [22050, 1, samples.length]);
    const channel = decoded.value.channels[0] ?? new Float32Array(0);
    assert.ok(samples.every((v, i) => Math.abs(v - (channel[i] ?? 0)) <= 1e-5));
  });

  it('refuses what is not audio, a format it does not take, and a broken stream, by code', async () => {
    const wav = await make('u8.wav', ['-c:a', 'pcm_u8']);
    const flac = await make('cut.flac', ['-c:a', 'flac']);
    const results = await Promise.all([
      decodeUploadedAudio(new TextEncoder().encode('just some text, no audio'), BUDGET),
      decodeUploadedAudio(wav, BUDGET),
      decodeUploadedAudio(flac.subarray(0, Math.floor(flac.length * 0.6)), BUDGET),
    ]);
    assert.deepEqual(
      results.map((r) => (r.ok ? 'ok' : r.error.code)),
      ['not_audio', 'unsupported', 'undecodable'],
    );
  });
});

describe("uploaded audio under a budget: the review's bombs, streamed blocks, the bounded decode thread", () => {
  const CODES: Record<string, readonly string[]> = {
    GEN_004: ['too_long'],
    UPLOAD_001: ['unsupported', 'not_audio'],
    UPLOAD_002: ['undecodable'],
  };
  let dir: TempDir;
  before(async () => {
    dir = await makeTempDir('upload-bombs');
  });
  after(async () => {
    await dir.remove();
  });

  it("refuses each bomb by code, handing out no block past a free user's 30 s; ffprobe reads each file as the stream its header says", async () => {
    const budget = { maxSeconds: 30 };
    for (const bomb of await uploadBombs()) {
      let rate = 0;
      let handed = 0;
      const decoded = await decodeAudioStream(bomb.body, budget, {
        start: (format) => (rate = format.sampleRate),
        block: (channels, frames) => {
          assert.ok(channels.every((channel) => channel.length === frames));
          handed += frames;
        },
      });
      assert.ok(!decoded.ok, bomb.name);
      assert.ok(CODES[bomb.code]?.includes(decoded.error.code), `${bomb.name}: ${decoded.error.code} ${decoded.error.message}`);
      assert.ok(handed <= budget.maxSeconds * rate, `${bomb.name}: ${handed} frames handed out at ${rate} Hz`);
      if (bomb.headers?.['content-encoding'] !== undefined) continue;
      // An independent reader takes the file for what it claims (so the refusal is ours, not a malformed file's).
      const path = join(dir.path, 'bomb');
      await writeFile(path, bomb.body);
      const probed = (
        await runReference('ffprobe', ['-v', 'error', '-show_entries', 'stream=codec_name,sample_rate,channels', '-of', 'csv=p=0', path])
      ).stdout
        .toString()
        .trim();
      assert.match(probed, /^(flac|mp3),\d+,\d$/, `${bomb.name}: ${probed}`);
    }
  });

  it('a FLAC that declares more than the budget is refused before its first frame; a WAV by its data size; one at exactly the budget is taken', async () => {
    const declared = constantFlac({ sampleRate: 48000, channels: 2, blockSize: 4800, frames: 2, totalSamples: 48000 * 31 });
    let handed = 0;
    const refused = await decodeAudioStream(declared, { maxSeconds: 30 }, { start: () => {}, block: (_c, frames) => (handed += frames) });
    assert.deepEqual([refused.ok ? 'ok' : refused.error.code, handed], ['too_long', 0]);
    const wav = new Uint8Array(44 + 8000 * 2 * 2 * 3);
    wav.set(wavHeader(8000 * 2 * 2 * 3, 8000, 2));
    assert.equal((await probeUploadedAudio(wav, { maxSeconds: 2 })).ok ? 'ok' : 'refused', 'refused');
    const exact = await probeUploadedAudio(wav, { maxSeconds: 3 });
    assert.deepEqual(exact.ok && [exact.value.frames, exact.value.sampleRate], [24000, 8000]);
  });

  it('hands the PCM out block by block: the blocks joined are the samples decodeUploadedAudio keeps, and keepSeconds keeps a prefix', async () => {
    const path = join(dir.path, 'blocks.flac');
    await runReference('ffmpeg', [
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      'anoisesrc=d=3:c=pink:r=44100:a=0.3:seed=3',
      '-ac',
      '2',
      '-c:a',
      'flac',
      path,
    ]);
    const bytes = new Uint8Array(await readFile(path));
    const blocks: number[] = [];
    const first: number[] = [];
    await decodeAudioStream(bytes, BUDGET, {
      start: (format) => assert.deepEqual(format, { format: 'flac', sampleRate: 44100, channels: 2 }),
      block: (channels, frames) => {
        blocks.push(frames);
        first.push(channels[0]?.[0] ?? Number.NaN);
      },
    });
    assert.ok(blocks.length > 1, `${blocks.length} blocks`);
    const whole = await decodeUploadedAudio(bytes, BUDGET);
    assert.ok(whole.ok);
    assert.equal(
      blocks.reduce((a, b) => a + b, 0),
      whole.value.frames,
    );
    let at = 0;
    for (const [i, frames] of blocks.entries()) {
      assert.equal(whole.value.channels[0]?.[at], first[i]);
      at += frames;
    }
    const prefix = await decodeUploadedAudio(bytes, BUDGET, 2);
    assert.ok(prefix.ok);
    assert.equal(prefix.value.frames, 2 * 44100);
    assert.deepEqual(prefix.value.channels[1], whole.value.channels[1]?.subarray(0, 2 * 44100));
  });

  it("the decode thread: the bytes move to it and back (the caller's view detached), samples come back; a thread past its limits answers exhausted", async () => {
    const prober = createAudioProber();
    const limited = createAudioProber({ resourceLimits: { maxOldGenerationSizeMb: 4, maxYoungGenerationSizeMb: 1 } });
    try {
      const path = join(dir.path, 'thread.wav');
      await runReference('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'sine=d=3:sample_rate=16000', '-c:a', 'pcm_s16le', path]);
      const file = new Uint8Array(await readFile(path));
      const sent = file.slice();
      const probed = await prober.probe(sent, { maxSeconds: 30 });
      assert.equal(sent.byteLength, 0, 'transferred, not copied');
      assert.deepEqual(Buffer.from(probed.bytes), Buffer.from(file));
      assert.equal(probed.contentHash, `0x${createHash('sha256').update(file).digest('hex')}`);
      assert.deepEqual(probed.result.ok && probed.result.value, { format: 'wav', sampleRate: 16000, channels: 1, frames: 48000 });
      // Bytes already given away cannot be sent again; the thread goes on with the next request.
      await assert.rejects(
        prober.probe(sent, { maxSeconds: 30 }),
        /detached|could not be cloned|cannot transfer|could not read the request/i,
      );
      const decoded = await prober.decode(file.slice(), { maxSeconds: 30 }, 2);
      assert.ok(decoded.ok);
      assert.deepEqual([decoded.value.frames, decoded.value.channels.length], [32000, 1]);
      // A small view on a shared buffer (Node's pool) is copied, never the pool given away.
      const pooled = Buffer.from(file.subarray(0, 100));
      const small = await prober.probe(new Uint8Array(pooled.buffer, pooled.byteOffset, pooled.byteLength), { maxSeconds: 30 });
      assert.equal(pooled.byteLength, 100);
      assert.ok(small.result.ok, 'the start of the WAV, decoded from its copy');
      const starved = await limited.probe(file.slice(), { maxSeconds: 30 });
      assert.deepEqual(starved.result.ok ? 'ok' : starved.result.error.code, 'exhausted');
    } finally {
      await prober.close();
      await limited.close();
    }
  });
});
