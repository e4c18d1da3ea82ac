/**
 * The worker running an ACE-Step-1.5-format model directory end to end: the tiny model the
 * project builds behind MODEL_DIR, jobs with lyrics through PostgreSQL and pg-boss, MP3 to S3,
 * the model and its (commercial) licence recorded on each job, the same decoded samples for the
 * same seed; a directory as the public exporter ships it (the torch.onnx.export fixtures), made
 * ready by model:import, and the XL Turbo files (the torch.onnx.export + MatMulNBits fixture at its
 * Hub paths) made ready by model:import, each singing through the same queue; edits (extend,
 * repaint, remix through the 5 Hz FSQ round trip) through the queue, each naming its source as a
 * C2PA ingredient; the worker's heartbeat naming what remix lacks on XL (what the oracle's
 * EDIT_005 shows); and a directory with a wrong sha256 refused at start with a message naming it.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { makeTempDir } from '../../core/src/testing/temp-dirs.ts';
import type { TempDir } from '../../core/src/testing/temp-dirs.ts';
import { measureMp3 } from '../../inference/src/audio/mp3-frames.ts';
import { importAcestep } from '../../inference/src/model/acestep/import.ts';
import { writeTinyAcestep } from '../support/tiny-models/acestep.ts';
import { decodeKeptLatents } from '../../inference/src/model/kept-latents.ts';
import { assertCbr320, decodeMp3, fetchPublishedMp3 } from './helpers/mp3-checks.ts';
import { readC2pa, validationFailures } from '../support/c2pa.ts';
import type { Stack } from './helpers/stack.ts';
import { allCompleted, jobRow, startStack } from './helpers/stack.ts';
import { xlFolder } from './helpers/xl-fixture.ts';

/** The tiny model's latent channels (test/support/tiny-models/acestep.ts; the real model has 64). */
const TINY_LATENT_CHANNELS = 8;
const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'acestep-export');

describe('inference worker with an ACE-Step-1.5-format model (MODEL_DIR)', () => {
  let stack: Stack;
  let dir: TempDir;
  before(async () => {
    dir = await makeTempDir('acestep-worker');
    await writeTinyAcestep(join(dir.path, 'model'));
    stack = await startStack();
  });
  after(async () => {
    await stack.stop();
    await dir.remove();
  });

  it("sings each job's lyrics into a decodable 320 kbps stereo MP3: same seed same samples, other lyrics or seed other audio", async () => {
    const song = {
      prompt: 'dreamy synthwave, 96 bpm, in A minor',
      duration: 5,
      seed: 42n,
      lyrics: '[verse]\nneon rain on the night road\n[chorus]\nhold on',
    };
    const ids = [
      await stack.enqueue(song),
      await stack.enqueue(song),
      await stack.enqueue({ ...song, seed: 43n }),
      await stack.enqueue({ ...song, lyrics: '[verse]\nanother story entirely' }),
      await stack.enqueue({ ...song, lyrics: undefined, withLyrics: true }),
    ];
    const worker = await stack.startWorker({ MODEL_DIR: join(dir.path, 'model'), MODEL_DEVICE: 'cpu' });
    const rows = await allCompleted(stack, ids, 'five completions', 120_000);
    await worker.stop();
    const [first, again, otherSeed, otherLyrics, written] = rows;
    assert.ok(first !== undefined && again !== undefined && otherSeed !== undefined && otherLyrics !== undefined && written !== undefined);
    const [firstMp3, againMp3, otherSeedMp3, otherLyricsMp3] = await Promise.all(
      [first, again, otherSeed, otherLyrics].map((row) => fetchPublishedMp3(row.audio_url)),
    );
    assert.equal(firstMp3?.audioFramesHash, againMp3?.audioFramesHash, 'same seed, same audio frames');
    assert.notEqual(first.audio_hash, again.audio_hash, 'each file carries its own content credentials');
    assert.notEqual(firstMp3?.audioFramesHash, otherSeedMp3?.audioFramesHash, 'another seed, other audio');
    assert.notEqual(firstMp3?.audioFramesHash, otherLyricsMp3?.audioFramesHash, 'other lyrics, other audio: the lyrics are sung');
    assert.equal(first.used_lyrics, song.lyrics);
    assert.match(written.used_lyrics ?? '', /\[verse\]/, 'the lyrics step wrote lyrics for the model to sing');

    assert.ok(firstMp3 !== undefined && againMp3 !== undefined);
    const bytes = firstMp3.bytes;
    assert.equal(`0x${createHash('sha256').update(bytes).digest('hex')}`, first.audio_hash);
    assertCbr320(bytes);
    const measured = measureMp3(bytes);
    assert.ok(measured.ok);
    assert.equal(measured.value.samples, 5 * 48_000, '125 latent frames x 1920 samples at 48 kHz');
    assert.ok(Math.abs((first.actual_duration ?? 0) - 5) <= 1152 / 48_000, `duration ${first.actual_duration} within one frame of 5 s`);
    const decoded = await decodeMp3(bytes);
    assert.equal(decoded.errors, 0);
    assert.equal(decoded.sampleRate, 48_000);
    assert.equal(decoded.channels.length, 2);
    assert.notDeepEqual(decoded.channels[0], decoded.channels[1], 'stereo');
    assert.ok(Math.abs(decoded.samples - 5 * 48_000) <= 1152, `decoded ${decoded.samples} samples`);
    const decodedAgain = await decodeMp3(againMp3.bytes);
    assert.deepEqual(decodedAgain.channels, decoded.channels, 'same seed, same decoded samples');

    const model = await stack.db.one<{
      model_name: string;
      model_version: string;
      model_licence: string;
      model_commercial_use: boolean;
      steps: number;
    }>('SELECT model_name, model_version, model_licence, model_commercial_use, steps FROM generation_jobs WHERE id = $1', [first.id]);
    assert.deepEqual(model, {
      model_name: 'songmint-acestep-1.5-tiny',
      model_version: '1.5.0-tiny',
      model_licence: 'MIT AND Apache-2.0',
      model_commercial_use: true,
      steps: 27,
    });
  });

  it('edits through the queue: extend 10 s to 20 s and repaint 4-6 s keep the source outside the blended edges; remix makes a new take', async () => {
    const lyrics = '[verse]\nneon rain on the night road\n[chorus]\nhold on';
    const sourceId = await stack.enqueue({ prompt: 'dreamy synthwave, 96 bpm', duration: 10, seed: 11n, lyrics });
    const worker = await stack.startWorker({ MODEL_DIR: join(dir.path, 'model'), MODEL_DEVICE: 'cpu' });
    const done = (ids: string[]) =>
      stack.waitFor(
        'completions',
        async () => {
          const r = await Promise.all(ids.map((id) => jobRow(stack.db, id)));
          const failed = r.find((x) => x.status === 'failed');
          if (failed !== undefined) throw new Error(failed.error_message ?? 'failed');
          return r.every((x) => x.status === 'completed') ? r : undefined;
        },
        120_000,
      );
    const [source] = await done([sourceId]);
    const extendId = await stack.enqueue({ prompt: 'dreamy synthwave, 96 bpm', duration: 20, lyrics, edit: { task: 'extend', sourceId } });
    const repaintId = await stack.enqueue({
      prompt: 'dreamy synthwave, 96 bpm',
      duration: 10,
      lyrics,
      edit: { task: 'repaint', start: 4, end: 6, sourceId },
    });
    const remixId = await stack.enqueue({
      prompt: 'bright disco, 96 bpm',
      duration: 10,
      lyrics,
      edit: { task: 'remix', strength: 0.5, sourceId },
    });
    const [extended, repainted, remixed] = await done([extendId, repaintId, remixId]);
    await worker.stop();

    // Kept latents: 25 frames per second of the latent channels (64 in the real model); the kept frames are the source's.
    const kept = async (id: string) => {
      const row = await stack.db.one<{ latents_key: string }>('SELECT latents_key FROM generation_jobs WHERE id = $1', [id]);
      const got = await stack.store.get(row.latents_key);
      assert.ok(got.ok);
      const decoded = decodeKeptLatents(got.value.bytes);
      assert.ok(decoded.ok);
      assert.deepEqual(decoded.value.header.shape, [id === extendId ? 500 : 250, TINY_LATENT_CHANNELS]);
      return decoded.value.data;
    };
    const [a, ext, rep, mix] = await Promise.all([kept(sourceId), kept(extendId), kept(repaintId), kept(remixId)]);
    const C = TINY_LATENT_CHANNELS;
    assert.equal(a.length, 250 * C);
    assert.equal(ext.length, 500 * C);
    // The reference's crossfade at its default repaint strength: 12 frames each side of the range, in the kept frames.
    assert.deepEqual(
      ext.subarray(0, 238 * C),
      a.subarray(0, 238 * C),
      "extend: the first 9.52 s of latents are the source's (then a 12-frame blend on its right side)",
    );
    assert.notDeepEqual(ext.subarray(249 * C, 250 * C), a.subarray(249 * C, 250 * C), "extend: the source's last frame blends");
    assert.deepEqual(rep.subarray(0, 88 * C), a.subarray(0, 88 * C), 'repaint: frames before the blend into 4 s kept');
    assert.deepEqual(rep.subarray(162 * C), a.subarray(162 * C), 'repaint: frames after the blend out of 6 s kept');
    assert.notDeepEqual(rep.subarray(115 * C, 135 * C), a.subarray(115 * C, 135 * C), 'repaint: the range is new');

    // Decoded audio: the source's own samples outside the range and its 0.025 s crossfade (equal within the codec), new inside.
    const rate = 48_000;
    const decode = async (row: typeof source) => (await decodeMp3((await fetchPublishedMp3(row?.audio_url ?? null)).bytes)).channels[0]!;
    const [x, y, z, r] = await Promise.all([decode(source), decode(extended), decode(repainted), decode(remixed)]);
    const relativeError = (p: Float32Array, q: Float32Array, from: number, to: number) => {
      let diff = 0;
      let energy = 0;
      for (let i = Math.round(from * rate); i < Math.round(to * rate); i += 1) {
        diff += ((p[i] ?? 0) - (q[i] ?? 0)) ** 2;
        energy += (q[i] ?? 0) ** 2;
      }
      return Math.sqrt(diff / energy);
    };
    const errors = {
      extendKept: relativeError(y, x, 0, 9.9),
      repaintBefore: relativeError(z, x, 0, 3.9),
      repaintAfter: relativeError(z, x, 6.1, 10),
      repaintRange: relativeError(z, x, 4.5, 5.5),
    };
    assert.ok(errors.extendKept < 0.01 && errors.repaintBefore < 0.01 && errors.repaintAfter < 0.01, JSON.stringify(errors));
    assert.ok(errors.repaintRange > 0.3, JSON.stringify(errors));

    // Remix: the source's length (its kept latents are 250 frames above), every frame new.
    assert.notDeepEqual(mix.subarray(0, 25 * C), a.subarray(0, 25 * C), 'remix: no frame is kept');
    assert.ok(Math.abs(r.length - 10 * rate) <= 1152, `remix decodes to ${r.length} samples`);
    assert.ok(relativeError(r, x, 0, 10) > 0.3, 'remix: the audio differs from the source');
    // Its content credentials name the source as parentOf, as every edit's do (c2pa-rs, the reference reader).
    const manifestLabel = async (id: string) =>
      (await stack.db.one<{ m: string }>(`SELECT content_credentials->>'manifest' AS m FROM generation_jobs WHERE id = $1`, [id])).m;
    const report = await readC2pa((await fetchPublishedMp3(remixed?.audio_url ?? null)).bytes, stack.c2paCaPem);
    assert.equal(report.validation_state, 'Trusted', JSON.stringify(report.validation_status));
    assert.deepEqual(validationFailures(report), []);
    const remixManifest = report.manifests[await manifestLabel(remixId)];
    assert.deepEqual(
      remixManifest?.ingredients?.map((i) => [i.relationship, i.active_manifest]),
      [['parentOf', await manifestLabel(sourceId)]],
    );
    const generation = remixManifest?.assertions.find((x) => x.label === 'com.songmint.generation')?.data as { editOf?: { task?: string } };
    assert.equal(generation.editOf?.task, 'remix');
  });

  /**
   * Two jobs with the same seed and lyrics through a worker on `modelDir`: both decode to the same
   * samples. `remix` is what its heartbeat says about remix (null, or a lack matching it).
   */
  async function singsTwice(
    modelDir: string,
    remix: RegExp | null,
    expected = { model_name: 'ace-step-1.5-turbo', model_licence: 'MIT AND Apache-2.0', model_commercial_use: true },
  ): Promise<void> {
    const song = { prompt: 'dreamy synthwave, 96 bpm', duration: 5, seed: 7n, lyrics: '[verse]\nneon rain on the night road' };
    const ids = [await stack.enqueue(song), await stack.enqueue(song)];
    const worker = await stack.startWorker({ MODEL_DIR: modelDir, MODEL_DEVICE: 'cpu' });
    const beat = await stack.db.one<{ edit_tasks: Record<string, string | null>; sings: boolean }>(
      'SELECT edit_tasks, sings FROM worker_heartbeats ORDER BY last_seen DESC LIMIT 1',
    );
    // ACE-Step sings the lyrics: its heartbeat says so, and the API promises sung lyrics on it.
    assert.equal(beat.sings, true);
    if (remix === null) assert.equal(beat.edit_tasks.remix, null);
    else assert.match(beat.edit_tasks.remix ?? '', remix);
    assert.equal(beat.edit_tasks.repaint, null);
    const rows = await allCompleted(stack, ids, 'two completions', 120_000);
    await worker.stop();
    const [first, again] = rows;
    assert.ok(first !== undefined && again !== undefined);
    assert.equal(first.used_lyrics, song.lyrics);
    const [firstMp3, againMp3] = await Promise.all([first, again].map((row) => fetchPublishedMp3(row.audio_url)));
    assert.ok(firstMp3 !== undefined && againMp3 !== undefined);
    assertCbr320(firstMp3.bytes);
    const [decoded, decodedAgain] = await Promise.all([decodeMp3(firstMp3.bytes), decodeMp3(againMp3.bytes)]);
    assert.equal(decoded.channels.length, 2);
    assert.ok(Math.abs(decoded.samples - 5 * 48_000) <= 1152, `decoded ${decoded.samples} samples`);
    assert.deepEqual(decodedAgain.channels, decoded.channels, 'same seed, same decoded samples');
    const model = await stack.db.one<{ model_name: string; model_licence: string; model_commercial_use: boolean }>(
      'SELECT model_name, model_licence, model_commercial_use FROM generation_jobs WHERE id = $1',
      [first.id],
    );
    assert.deepEqual(model, expected);
  }

  it('sings lyrics from an exporter-layout directory made ready by model:import: same seed, same samples', async () => {
    const exported = join(dir.path, 'exported');
    await cp(join(FIXTURES, 'exporter'), exported, { recursive: true });
    const imported = await importAcestep({ dir: exported });
    assert.ok(imported.ok, imported.ok ? '' : imported.error.message);
    await singsTwice(exported, null);
  });

  it('sings lyrics from the XL Turbo files made ready by model:import; its heartbeat names the audio tokenizer remix lacks', async () => {
    const xl = await xlFolder(join(dir.path, 'xl'));
    const imported = await importAcestep({ dir: xl });
    assert.ok(imported.ok, imported.ok ? '' : imported.error.message);
    await singsTwice(
      xl,
      /^remix needs an audio tokenizer \(25 Hz latents to 5 Hz codes\) that the XL Turbo files lack: the model directory has no audio_tokenizer_xl\.onnx/,
      {
        model_name: 'ace-step-1.5-xl-turbo',
        model_licence: 'Apache-2.0 AND MIT',
        model_commercial_use: true,
      },
    );
  });

  it('refuses to start on a directory whose file does not match its sha256, naming the file', async () => {
    const broken = join(dir.path, 'broken');
    await writeTinyAcestep(broken);
    const dit = join(broken, 'dit_decoder.onnx');
    const bytes = await readFile(dit);
    bytes[bytes.length - 2] = (bytes[bytes.length - 2] ?? 0) ^ 0x40;
    await writeFile(dit, bytes);
    await assert.rejects(
      stack.startWorker({ MODEL_DIR: broken, MODEL_DEVICE: 'cpu' }),
      /MODEL_CHECKSUM_MISMATCH: graph dit: dit_decoder\.onnx sha256 expected [0-9a-f]{64}, found [0-9a-f]{64}/,
    );
  });
});
