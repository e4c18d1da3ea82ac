import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { BUILTIN_MODEL_DIR } from '../../inference/src/config.ts';
import { nativeCommand, selectEncoderBackend, systemBinaryProbe } from '../../inference/src/audio/encoder-backend.ts';
import { EncoderPool } from '../../inference/src/audio/encoder-pool.ts';
import { SEARCH_FRAMES, joinChunks, planChunks } from '../../inference/src/audio/chunk-join.ts';
import { LAME_ENCODER_DELAY, crc16 } from '../../inference/src/audio/info-tag.ts';
import { encodeMp3 } from '../../inference/src/audio/mp3-encoder.ts';
import { measureMp3, parseMp3 } from '../../inference/src/audio/mp3-frames.ts';
import { loadModel } from '../../inference/src/model/runtime.ts';
import { seedToModelInput } from '../../inference/src/model/seed.ts';
import { encodePrompt } from '../../inference/src/model/text-encoder.ts';
import { assertCbr320, decodeMp3 } from './helpers/mp3-checks.ts';

const RATE = 44100;

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
    assert.deepEqual(nativeCommand('lame', 44100, 2).args.slice(-6), ['-b', '320', '--cbr', '-t', '-', '-']);
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
