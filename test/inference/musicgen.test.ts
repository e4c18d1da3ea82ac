/**
 * The MusicGen backend on the tiny MusicGen-format model the project builds (the public export's
 * layout and graph signatures, seeded random weights): the delay pattern, the windows, the seeded
 * sampler, the merged decoder's key/value cache checked against recomputation without a cache,
 * and whole songs rendered by the real backend.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import * as ort from 'onnxruntime-node';
import { makeTempDir } from '../../core/src/testing/temp-dirs.ts';
import type { TempDir } from '../../core/src/testing/temp-dirs.ts';
import { resample } from '../../inference/src/audio/resample.ts';
import { licenceFromSpdx, modelCardLicence } from '../../inference/src/model/licence.ts';
import { forcedToken, framesFromColumns, promptColumns, windowColumns } from '../../inference/src/model/musicgen/delay-pattern.ts';
import { planWindows } from '../../inference/src/model/musicgen/generate-codes.ts';
import { advanceCache, emptyCache, presentNames } from '../../inference/src/model/musicgen/kv-cache.ts';
import { GRAPH_FILES, readMusicgenSpec } from '../../inference/src/model/musicgen/layout.ts';
import { MUSICGEN_OUTPUT_RATE, loadMusicgenModel } from '../../inference/src/model/musicgen/musicgen-model.ts';
import { guidedLogits, sampleToken } from '../../inference/src/model/musicgen/sampler.ts';
import { seededRandom } from '../../inference/src/model/seed.ts';
import { TINY_DIMS, tinyMusicgenFiles, writeTinyMusicgen } from '../support/tiny-models/musicgen.ts';
import { loadSongModel } from '../../inference/src/model/load-song-model.ts';

const TOKENS = { bos: 64, pad: 64 };

describe('MusicGen delay pattern', () => {
  it('puts frame c-1-k of codebook k in column c: start tokens before, pad after, prompt forced, the rest sampled', () => {
    const prompt = [Int32Array.from([10, 11]), Int32Array.from([20, 21]), Int32Array.from([30, 31]), Int32Array.from([40, 41])];
    const frames = 5;
    assert.equal(windowColumns(frames, 4), 9);
    assert.equal(forcedToken(0, 0, prompt, frames, TOKENS), 64, 'column 0 is the start token');
    assert.equal(forcedToken(1, 0, prompt, frames, TOKENS), 10);
    assert.equal(forcedToken(1, 1, prompt, frames, TOKENS), 64, 'codebook 1 starts a column later');
    assert.equal(forcedToken(3, 2, prompt, frames, TOKENS), 30);
    assert.equal(forcedToken(4, 2, prompt, frames, TOKENS), 31);
    assert.equal(forcedToken(3, 0, prompt, frames, TOKENS), undefined, 'frame 2 of codebook 0 is generated');
    assert.equal(forcedToken(5, 3, prompt, frames, TOKENS), 41);
    assert.equal(forcedToken(6, 3, prompt, frames, TOKENS), undefined);
    assert.equal(forcedToken(8, 3, prompt, frames, TOKENS), undefined, 'the last column holds the last frame of the last codebook');
    assert.equal(forcedToken(8, 2, prompt, frames, TOKENS), 64, 'after its last frame a codebook is padded');
  });

  it('lays a prompt out delayed and takes frames back out of the columns exactly', () => {
    const K = 4;
    const frames = 6;
    const song = Array.from({ length: K }, (_, k) => Int32Array.from({ length: frames }, (_, f) => k * 10 + f));
    const columns = windowColumns(frames, K);
    const delayed = Array.from({ length: K }, (_, k) =>
      Int32Array.from({ length: columns }, (_, c) => forcedToken(c, k, song, frames, TOKENS) ?? -1),
    );
    assert.deepEqual(framesFromColumns(delayed, 0, frames), song);
    assert.deepEqual(
      framesFromColumns(delayed, 2, 5),
      song.map((codes) => codes.slice(2, 5)),
    );
    const first = promptColumns(
      song.map((c) => c.slice(0, 3)),
      K,
      4,
      frames,
      TOKENS,
    );
    assert.deepEqual(Array.from(first.subarray(0, 4), Number), [64, 0, 1, 2]);
    assert.deepEqual(Array.from(first.subarray(12, 16), Number), [64, 64, 64, 64], 'codebook 3 is still in its delay');
    assert.throws(
      () =>
        promptColumns(
          song.map((c) => c.slice(0, 3)),
          K,
          5,
          frames,
          TOKENS,
        ),
      /not determined/,
    );
  });

  it('plans windows that cover the song once, each continuing from the last frames of the one before', () => {
    assert.deepEqual(planWindows(100, 124, 49), [{ promptFrames: 0, newFrames: 100 }]);
    const plan = planWindows(12_000, 1496, 598);
    assert.equal(
      plan.reduce((sum, w) => sum + w.newFrames, 0),
      12_000,
      '240 s at 50 frames a second',
    );
    assert.ok(plan.every((w) => w.promptFrames + w.newFrames <= 1496));
    assert.deepEqual(plan[0], { promptFrames: 0, newFrames: 1496 });
    assert.deepEqual(plan[1], { promptFrames: 598, newFrames: 898 });
    assert.throws(() => planWindows(10, 5, 5), /no new frames/);
  });
});

describe('MusicGen sampling', () => {
  it('draws the same tokens for the same seed, others for another, and only from the top k', () => {
    const logits = Float32Array.from({ length: 64 }, (_, i) => Math.sin(i * 1.7) * 3);
    const draw = (seed: bigint) => {
      const random = seededRandom(seed, 'codes');
      return Array.from({ length: 50 }, () => sampleToken(logits, { temperature: 1, topK: 5 }, random));
    };
    assert.deepEqual(draw(7n), draw(7n));
    assert.notDeepEqual(draw(7n), draw(8n));
    const top5 = Array.from(logits.keys())
      .sort((a, b) => (logits[b] ?? 0) - (logits[a] ?? 0))
      .slice(0, 5);
    assert.ok(draw(9n).every((t) => top5.includes(t)));
    assert.equal(sampleToken(logits, { temperature: 1, topK: 1 }, seededRandom(1n, 'x')), top5[0], 'top-1 is greedy');
  });

  it('mixes guidance as uncond + (cond - uncond) x scale', () => {
    const mixed = guidedLogits(Float32Array.from([1, 2]), Float32Array.from([0.5, 4]), 3);
    assert.deepEqual(Array.from(mixed), [2, -2]);
    assert.equal(guidedLogits(Float32Array.from([1]), undefined, 3)[0], 1);
  });
});

describe('resampling', () => {
  it('converts 32 kHz to 48 kHz keeping a tone at its frequency and level', () => {
    const tone = Float32Array.from({ length: 32_000 }, (_, n) => Math.sin((2 * Math.PI * 440 * n) / 32_000) * 0.5);
    const out = resample(tone, 32_000, 48_000);
    assert.equal(out.length, 48_000);
    let worst = 0;
    for (let n = 1000; n < 47_000; n += 1)
      worst = Math.max(worst, Math.abs((out[n] ?? 0) - Math.sin((2 * Math.PI * 440 * n) / 48_000) * 0.5));
    assert.ok(worst < 0.01, `max deviation from the ideal 48 kHz tone: ${worst}`);
  });
});

describe('model licences', () => {
  it('reads the SPDX id of a model card and knows which ids settle commercial use', () => {
    assert.equal(modelCardLicence('---\nlibrary_name: transformers.js\nlicense: cc-by-nc-4.0\n---\n# MusicGen'), 'cc-by-nc-4.0');
    assert.equal(modelCardLicence('# no front matter\nlicense: mit'), undefined);
    assert.deepEqual(licenceFromSpdx('cc-by-nc-4.0'), { spdx: 'CC-BY-NC-4.0', commercial_use: false });
    assert.deepEqual(licenceFromSpdx('Apache-2.0'), { spdx: 'Apache-2.0', commercial_use: true });
    assert.equal(licenceFromSpdx('other'), undefined, 'a custom licence must be declared');
  });
});

describe('the tiny MusicGen-format model and the backend', () => {
  let dir: TempDir;
  before(async () => {
    dir = await makeTempDir('musicgen-tiny');
    await writeTinyMusicgen(dir.path);
  });
  after(() => dir.remove());

  it('is built deterministically in the public export layout with its graph signatures', async () => {
    const again = tinyMusicgenFiles();
    for (const [name, bytes] of Object.entries(again))
      assert.ok(Buffer.from(bytes).equals(await readFile(join(dir.path, name))), `${name} rebuilt byte for byte`);
    const text = await ort.InferenceSession.create(join(dir.path, GRAPH_FILES.textEncoder));
    assert.deepEqual(text.inputNames, ['input_ids', 'attention_mask']);
    assert.deepEqual(text.outputNames, ['last_hidden_state']);
    const decoder = await ort.InferenceSession.create(join(dir.path, GRAPH_FILES.decoder));
    const pasts = Array.from({ length: TINY_DIMS.layers }, (_, l) =>
      ['decoder.key', 'decoder.value', 'encoder.key', 'encoder.value'].map((p) => `past_key_values.${l}.${p}`),
    ).flat();
    assert.deepEqual(decoder.inputNames, ['encoder_attention_mask', 'input_ids', 'encoder_hidden_states', ...pasts, 'use_cache_branch']);
    assert.deepEqual(decoder.outputNames.slice().sort(), ['logits', ...presentNames(TINY_DIMS.layers)].sort());
    const codec = await ort.InferenceSession.create(join(dir.path, GRAPH_FILES.codec));
    assert.deepEqual(codec.inputNames, ['audio_codes']);
    assert.deepEqual(codec.outputNames, ['audio_values']);
    await Promise.all([text.release(), decoder.release(), codec.release()]);
    const spec = await readMusicgenSpec(dir.path);
    assert.ok(spec.ok);
    assert.equal(spec.value.frameRate, 50, '32 kHz / (8 x 5 x 4 x 4)');
    assert.equal(spec.value.bosTokenId, TINY_DIMS.codebookSize);
  });

  it('gives the same logits from the key/value cache as from recomputing the whole sequence', async () => {
    const spec = await readMusicgenSpec(dir.path);
    assert.ok(spec.ok);
    const session = await ort.InferenceSession.create(spec.value.files.decoder);
    const { codebooks: K, textHidden: Dt, heads, layers } = TINY_DIMS;
    const batch = 2;
    const E = 5;
    const hidden = Float32Array.from({ length: batch * E * Dt }, (_, i) => (i < E * Dt ? Math.cos(i) : 0));
    const mask = BigInt64Array.from({ length: batch * E }, (_, i) => (i < E ? 1n : 0n));
    const encoder = {
      encoder_hidden_states: new ort.Tensor('float32', hidden, [batch, E, Dt]),
      encoder_attention_mask: new ort.Tensor('int64', mask, [batch, E]),
    };
    const shape = { layers, batch, heads, headDim: TINY_DIMS.hidden / heads };
    const columns = 7;
    const ids = (from: number, to: number) => {
      const out = new BigInt64Array(batch * K * (to - from));
      for (let r = 0; r < batch * K; r += 1)
        for (let c = from; c < to; c += 1) out[r * (to - from) + c - from] = BigInt(c === 0 ? 64 : (r * 7 + c * 3) % 64);
      return new ort.Tensor('int64', out, [batch * K, to - from]);
    };
    const flag = (on: boolean) => new ort.Tensor('bool', Uint8Array.from([on ? 1 : 0]), [1]);
    const fetches = ['logits', ...presentNames(layers)];
    const last = (t: ort.Tensor | undefined) => {
      assert.ok(t !== undefined);
      const [rows, width, vocab] = t.dims as [number, number, number];
      const data = t.data as Float32Array;
      return Array.from({ length: rows }, (_, r) =>
        Array.from(data.subarray((r * width + width - 1) * vocab, (r * width + width) * vocab)),
      );
    };

    const full = await session.run(
      { ...encoder, ...emptyCache(shape).feeds, input_ids: ids(0, columns), use_cache_branch: flag(false) },
      fetches,
    );

    let cache = emptyCache(shape);
    let out = await session.run({ ...encoder, ...cache.feeds, input_ids: ids(0, 3), use_cache_branch: flag(false) }, fetches);
    cache = advanceCache(cache, out, shape, 3);
    for (let c = 3; c < columns; c += 1) {
      // The cached branch must not need the text again: zero states here prove it reuses the cache.
      const zeroed = { ...encoder, encoder_hidden_states: new ort.Tensor('float32', new Float32Array(batch * E * Dt), [batch, E, Dt]) };
      out = await session.run({ ...zeroed, ...cache.feeds, input_ids: ids(c, c + 1), use_cache_branch: flag(true) }, fetches);
      cache = advanceCache(cache, out, shape, 1);
    }
    assert.equal(cache.length, columns);
    const cached = last(out.logits);
    const recomputed = last(full.logits);
    for (let r = 0; r < cached.length; r += 1) {
      for (let v = 0; v < (cached[r]?.length ?? 0); v += 1)
        assert.ok(Math.abs((cached[r]?.[v] ?? 0) - (recomputed[r]?.[v] ?? 0)) < 1e-4, `row ${r} logit ${v}`);
    }

    // A cache that forgets the tokens fed, or loses the cross-attention entries, is refused.
    assert.throws(() => advanceCache(cache, out, shape, 2), /is \[2, 2, 7, 8\], expected \[2, 2, 9, 8\]/);
    const withoutCross = Object.fromEntries(Object.entries(out).filter(([name]) => !name.includes('encoder')));
    assert.throws(
      () => advanceCache({ ...cache, length: columns - 1, useCache: false }, withoutCross, shape, 1),
      /no present\.0\.encoder\.key/,
    );
    await session.release();
  });

  it('renders exactly the asked duration at 48 kHz, the same for a seed and different for another, over several windows', async () => {
    const loaded = await loadSongModel({ modelDir: dir.path, device: 'cpu' });
    assert.ok(loaded.ok, loaded.ok ? '' : loaded.error.message);
    const model = loaded.value;
    assert.equal(model.format, 'musicgen-onnx');
    assert.deepEqual(model.licence, { spdx: 'MIT', commercial_use: true });
    const render = (seed: bigint, lyrics: string | null = null) =>
      model.render({ prompt: 'dreamy synthwave, 96 bpm', lyrics, seed, durationSeconds: 5, steps: 27 }, new AbortController().signal);
    const first = await render(42n);
    assert.equal(first.pcm.sampleRate, MUSICGEN_OUTPUT_RATE);
    assert.equal(first.pcm.channels.length, 1);
    assert.equal(first.pcm.channels[0]?.length, 5 * 48_000);
    assert.equal(first.tokens, 250, '50 tokens a second');
    assert.ok((first.conditioning.windows as number) >= 3, `a 5 s song spans ${first.conditioning.windows} windows of the tiny decoder`);
    const rms = Math.sqrt((first.pcm.channels[0] ?? new Float32Array()).reduce((s, v) => s + v * v, 0) / (5 * 48_000));
    assert.ok(rms > 0.01 && rms < 1, `audible, not clipped: rms ${rms}`);
    assert.deepEqual((await render(42n)).pcm.channels[0], first.pcm.channels[0]);
    assert.notDeepEqual((await render(43n)).pcm.channels[0], first.pcm.channels[0]);
    assert.notDeepEqual((await render(42n, '[verse]\nneon lights')).pcm.channels[0], first.pcm.channels[0], 'lyrics condition the music');
    await model.release();
  });

  it('renders a 240 s song (the spec maximum) by windowed continuation', async () => {
    const loaded = await loadMusicgenModel({ modelDir: dir.path, device: 'cpu', windowFrames: 1000 });
    assert.ok(loaded.ok);
    const song = await loaded.value.render(
      { prompt: 'rock', lyrics: null, seed: 1n, durationSeconds: 240, steps: 60 },
      new AbortController().signal,
    );
    assert.equal(song.pcm.channels[0]?.length, 240 * 48_000);
    assert.equal(song.conditioning.windows, 20);
    await loaded.value.release();
  });

  it('refuses a directory without a licence, and an aborted render', async () => {
    const bare = await makeTempDir('musicgen-nolicence');
    try {
      await writeTinyMusicgen(bare.path);
      const { rm } = await import('node:fs/promises');
      await rm(join(bare.path, 'songmint.json'));
      const missing = await loadSongModel({ modelDir: bare.path, device: 'cpu' });
      assert.equal(missing.ok ? 'loaded' : missing.error.code, 'MODEL_LICENCE_MISSING');
      const { writeFile } = await import('node:fs/promises');
      await writeFile(join(bare.path, 'README.md'), '---\nlicense: cc-by-nc-4.0\n---\n');
      const fromCard = await loadSongModel({ modelDir: bare.path, device: 'cpu' });
      assert.ok(fromCard.ok);
      assert.deepEqual(fromCard.value.licence, { spdx: 'CC-BY-NC-4.0', commercial_use: false });
      const controller = new AbortController();
      controller.abort(new Error('time limit'));
      await assert.rejects(
        fromCard.value.render({ prompt: 'x', lyrics: null, seed: 1n, durationSeconds: 5, steps: 27 }, controller.signal),
        /time limit/,
      );
      await fromCard.value.release();
    } finally {
      await bare.remove();
    }
  });
});
