/**
 * The worker running a MusicGen-format model directory end to end: the tiny model the project
 * builds (public export layout and graph signatures) behind MODEL_DIR, jobs through PostgreSQL
 * and pg-boss, MP3 to S3, the model and its licence recorded on each job.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { makeTempDir } from '../../core/src/testing/temp-dirs.ts';
import type { TempDir } from '../../core/src/testing/temp-dirs.ts';
import { measureMp3 } from '../../inference/src/audio/mp3-frames.ts';
import { writeTinyMusicgen } from '../support/tiny-models/musicgen.ts';
import { assertCbr320, decodeMp3, fetchPublishedMp3 } from './helpers/mp3-checks.ts';
import type { Stack } from './helpers/stack.ts';
import { allCompleted, startStack } from './helpers/stack.ts';

describe('inference worker with a MusicGen-format model (MODEL_DIR)', () => {
  let stack: Stack;
  let dir: TempDir;
  before(async () => {
    dir = await makeTempDir('musicgen-worker');
    await writeTinyMusicgen(dir.path, { licence: { spdx: 'CC-BY-NC-4.0', commercial_use: false } });
    stack = await startStack();
  });
  after(async () => {
    await stack.stop();
    await dir.remove();
  });

  it('publishes a decodable 320 kbps MP3 of the asked duration, the same for a seed and different for another', async () => {
    const song = { prompt: 'dreamy synthwave, 96 bpm, in A minor', duration: 5, seed: 42n, withLyrics: true };
    const ids = [await stack.enqueue(song), await stack.enqueue(song), await stack.enqueue({ ...song, seed: 43n })];
    const worker = await stack.startWorker({ MODEL_DIR: dir.path });
    const rows = await allCompleted(stack, ids, 'three completions', 120_000);
    await worker.stop();
    const [first, again, other] = rows;
    assert.ok(first !== undefined && again !== undefined && other !== undefined);
    const [firstMp3, againMp3, otherMp3] = await Promise.all([first, again, other].map((row) => fetchPublishedMp3(row.audio_url)));
    assert.equal(firstMp3?.audioFramesHash, againMp3?.audioFramesHash, 'same seed, same audio frames');
    assert.notEqual(first.audio_hash, again.audio_hash, 'each file carries its own content credentials');
    assert.notEqual(firstMp3?.audioFramesHash, otherMp3?.audioFramesHash, 'another seed, other audio');
    assert.match(first.used_lyrics ?? '', /\[verse\]/, 'the lyrics step ran and conditioned the music');

    assert.ok(firstMp3 !== undefined);
    const bytes = firstMp3.bytes;
    assert.equal(`0x${createHash('sha256').update(bytes).digest('hex')}`, first.audio_hash);
    assertCbr320(bytes);
    const measured = measureMp3(bytes);
    assert.ok(measured.ok);
    assert.equal(measured.value.samples, 5 * 48_000, '32 kHz MusicGen audio resampled to 48 kHz');
    assert.ok(Math.abs((first.actual_duration ?? 0) - 5) <= 1152 / 48_000, `duration ${first.actual_duration} within one frame of 5 s`);
    const decoded = await decodeMp3(bytes);
    assert.equal(decoded.errors, 0);
    assert.equal(decoded.sampleRate, 48_000);
    assert.deepEqual(decoded.channels.at(-1), decoded.channels[0], 'mono (a decoder may output it on two channels)');
    assert.ok(Math.abs(decoded.samples - 5 * 48_000) <= 1152, `decoded ${decoded.samples} samples`);

    const model = await stack.db.one<{ model_name: string; model_version: string; model_licence: string; model_commercial_use: boolean }>(
      'SELECT model_name, model_version, model_licence, model_commercial_use FROM generation_jobs WHERE id = $1',
      [first.id],
    );
    assert.deepEqual(model, {
      model_name: 'songmint-musicgen-tiny',
      model_version: '1.0.0',
      model_licence: 'CC-BY-NC-4.0',
      model_commercial_use: false,
    });
  });
});
