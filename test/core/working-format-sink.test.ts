/**
 * An edit's source decoded straight into the working format (issue 49 item 5,
 * core/src/audio/working-format-sink.ts): a tiny 192 kHz 8-channel FLAC costs what its seconds
 * cost at stereo 48 kHz, measured as the bytes the sink allocates (not wall time), against the
 * baseline of keeping what it decodes to; the mix and the rate are right; the decode thread
 * answers in the working format.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createAudioProber } from '../../core/src/audio/audio-prober.ts';
import { decodeAudioStream, collectingSink } from '../../core/src/audio/uploaded-audio.ts';
import { WORKING_BYTES_PER_SECOND, workingFormatSink } from '../../core/src/audio/working-format-sink.ts';
import { wav16 } from '../support/audio-copies.ts';
import { constantFlac } from '../support/upload-bombs.ts';

const BLOCK = 65_535;
/** The documented bound: the kept seconds at stereo 48 kHz, plus one mixed block per working channel. */
const bound = (seconds: number) => WORKING_BYTES_PER_SECOND * seconds + 2 * BLOCK * 4;

describe('working-format sink: an upload decoded to the edit working rate and channels while it is read', () => {
  it('a 3 kB 192 kHz 8-channel FLAC of 29.7 s keeps 29 s of stereo 48 kHz: within the bound, 1/16 of keeping what it decodes to', async () => {
    const frames = Math.ceil((29.7 * 192_000) / BLOCK);
    const flac = constantFlac({ sampleRate: 192_000, channels: 8, blockSize: BLOCK, frames, value: 8192 });
    assert.ok(flac.length < 4000, `a tiny file: ${flac.length} bytes`);
    const seconds = 29;

    const baseline = collectingSink();
    const base = await decodeAudioStream(flac, { maxSeconds: 240 }, baseline);
    assert.ok(base.ok);
    const keptBaseline = baseline.channels().reduce((sum, channel) => sum + channel.byteLength, 0);

    const sink = workingFormatSink({ sampleRate: 48_000, channels: 2, keepSeconds: seconds });
    const decoded = await decodeAudioStream(flac, { maxSeconds: 240 }, sink);
    assert.ok(decoded.ok);
    const channels = sink.channels();
    assert.equal(channels.length, 2);
    assert.equal(channels[0]?.length, seconds * 48_000);
    assert.ok(Math.abs((channels[1]?.[1000] ?? 0) - 8192 / 32768) < 1e-6, 'the constant survives the mix and the rate');
    const allocated = sink.allocatedBytes();
    console.log(
      `192 kHz x 8 channels, ${seconds} s: working format ${(allocated / 1e6).toFixed(2)} MB (${Math.round(allocated / seconds)} B per edit second), baseline ${(keptBaseline / 1e6).toFixed(1)} MB`,
    );
    assert.ok(allocated <= bound(seconds), `${allocated} bytes within the bound ${bound(seconds)}`);
    assert.ok(keptBaseline >= 15 * allocated, `the baseline kept ${keptBaseline} bytes`);
  });

  it('down-mixes left from the even and right from the odd channels, and resamples 192 kHz to 48 kHz and 8 kHz to 48 kHz', async () => {
    const tone = (rate: number, hz: number, sign: number, seconds: number) =>
      Float32Array.from({ length: rate * seconds }, (_, i) => sign * 0.5 * Math.sin((2 * Math.PI * hz * i) / rate));
    const check = async (rate: number, sources: number) => {
      const wav = wav16(
        Array.from({ length: sources }, (_, c) => tone(rate, 440, c % 2 === 0 ? 1 : -1, 2)),
        rate,
      );
      const sink = workingFormatSink({ sampleRate: 48_000, channels: 2, keepSeconds: 2 });
      assert.ok((await decodeAudioStream(new Uint8Array(wav), { maxSeconds: 10 }, sink)).ok);
      const [left, right] = sink.channels();
      assert.equal(left?.length, 96_000);
      let error = 0;
      for (let i = 100; i < 95_000; i += 1) {
        const expected = 0.5 * Math.sin((2 * Math.PI * 440 * i) / 48_000);
        error = Math.max(error, Math.abs((left?.[i] ?? 0) - expected), Math.abs((right?.[i] ?? 0) + expected));
      }
      // A box over 4 samples (192 kHz) shifts the phase by 1.5 source samples; linear between 8 kHz samples.
      assert.ok(error < 0.05, `${rate} Hz x ${sources}: the 440 Hz tone within ${error}`);
    };
    await check(192_000, 8);
    await check(8_000, 2);
  });

  it('the decode thread answers an edit source in the working format', async () => {
    const prober = createAudioProber();
    try {
      const flac = constantFlac({ sampleRate: 192_000, channels: 8, blockSize: BLOCK, frames: 12, value: -4096 });
      const decoded = await prober.decode(flac, { maxSeconds: 10 }, { sampleRate: 44_100, channels: 2, keepSeconds: 4 });
      assert.ok(decoded.ok);
      assert.equal(decoded.value.sampleRate, 44_100);
      assert.equal(decoded.value.channels.length, 2);
      assert.equal(decoded.value.frames, 4 * 44_100);
      assert.ok(Math.abs((decoded.value.channels[0]?.[500] ?? 0) + 4096 / 32768) < 1e-6);
    } finally {
      await prober.close();
    }
  });
});
