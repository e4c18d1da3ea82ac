/**
 * The ACE-Step 1.5 backend on the tiny model the project builds in the public exporter's 2B layout
 * (test/support/tiny-models/acestep.ts: the layout table's names, ranks and dtypes, small widths,
 * seeded random weights): the sampler against a reference computed here, the prompt templates, the
 * edits' arithmetic against the reference's (repaint strength, soft masks, silence padding), the
 * start-up checks that name the first mismatch (binding by exact names, the refusal showing the
 * expected and found interface side by side), `npm run model:check`, and whole songs.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { makeTempDir } from '../../core/src/testing/temp-dirs.ts';
import type { TempDir } from '../../core/src/testing/temp-dirs.ts';
import { loadAcestepModel } from '../../inference/src/model/acestep/acestep-model.ts';
import { flowTimesteps, gaussianNoise, guidedVelocity, sampleFlow } from '../../inference/src/model/acestep/flow-sampler.ts';
import { ACESTEP_MANIFEST_FILE, IO_CONTRACT_CORE_FILE } from '../../inference/src/model/acestep/manifest.ts';
import {
  COVER_INSTRUCTION,
  REPAINT_INSTRUCTION,
  captionText,
  lyricText,
  promptMetadata,
} from '../../inference/src/model/acestep/prompt.ts';
import { Tokenizer } from '@huggingface/tokenizers';
import { tinyAcestepFiles, writeTinyAcestep } from '../support/tiny-models/acestep.ts';
import type { SessionValue } from '../../inference/src/model/acestep/bind.ts';
import { bindGraph } from '../../inference/src/model/acestep/bind.ts';
import { padWithSilence, silenceFrames } from '../../inference/src/model/acestep/condition.ts';
import { injectionSteps, planRepaint, repaintConfig, roundHalfEven, softMask } from '../../inference/src/model/acestep/edits.ts';
import { EXPORTER_2B, XL_TURBO } from '../../inference/src/model/acestep/layouts.ts';
import { MIN_LATENT_FRAMES, latentFrames } from '../../inference/src/model/acestep/sampling.ts';
import { loadSongModel } from '../../inference/src/model/load-song-model.ts';
import { GraphBuilder, encodeModel } from '../../inference/src/model/onnx-builder.ts';
import { seededRandom } from '../../inference/src/model/seed.ts';
import type { SongModel, SongModelRequest } from '../../inference/src/model/song-model.ts';
import { EditUnsupportedError } from '../../inference/src/model/song-model.ts';
import { decodeKeptLatents } from '../../inference/src/model/kept-latents.ts';
import { resample } from '../../inference/src/audio/resample.ts';

const run = promisify(execFile);
const signal = new AbortController().signal;
const REQUEST: SongModelRequest = {
  prompt: 'dreamy synthwave, 96 bpm, in A minor, 3/4',
  lyrics: '[verse]\nneon rain on the night road',
  seed: 42n,
  durationSeconds: 3,
  steps: 27,
};

async function load(dir: string): Promise<SongModel> {
  const loaded = await loadAcestepModel({ modelDir: dir, device: 'cpu' });
  if (!loaded.ok) throw new Error(`${loaded.error.code}: ${loaded.error.message}`);
  return loaded.value;
}

const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/** Edits the manifest of a copy of the tiny model. */
async function editManifest(
  dir: string,
  edit: (manifest: Record<string, unknown> & { graphs: Record<string, { sha256: string; inputs: { name: string }[] }> }) => void,
): Promise<void> {
  const path = join(dir, ACESTEP_MANIFEST_FILE);
  const manifest = JSON.parse(await readFile(path, 'utf8')) as Parameters<typeof edit>[0];
  edit(manifest);
  await writeFile(path, JSON.stringify(manifest));
}

describe('ACE-Step flow-matching sampler', () => {
  it('gives the turbo schedule: 8 steps at shift 3, and the plain linear one at shift 1', () => {
    const turbo = flowTimesteps(8, 3);
    const expected = [1, 0.9545, 0.9, 0.8333, 0.75, 0.6429, 0.5, 0.3];
    assert.equal(turbo.length, 8);
    turbo.forEach((t, i) => assert.ok(Math.abs(t - (expected[i] ?? NaN)) < 5e-5, `t_${i} = ${t}, expected ${expected[i]}`));
    assert.deepEqual(flowTimesteps(4, 1), [1, 0.75, 0.5, 0.25]);
  });

  it('integrates exactly as x <- x - v (t_i - t_i+1), the last step x - t_last v, against a reference computed here', async () => {
    // A velocity field that depends on x and t, on a 6-value latent.
    const velocity = (x: ArrayLike<number>, t: number) => Float32Array.from(x, (value, k) => 0.5 * value - t * (k + 1) * 0.1);
    const noise = Float32Array.from([0.3, -1.2, 0.8, 0.05, -0.4, 1.7]);
    const timesteps = [1, 0.9545454545454546, 0.9, 0.8333333333333334, 0.75, 0.6428571428571429, 0.5, 0.3];
    // Reference: plain double arithmetic, rounding to float32 after each step as the backend stores.
    let reference = Array.from(noise);
    for (let i = 0; i < timesteps.length; i += 1) {
      const t = timesteps[i] ?? 0;
      const v = Array.from(velocity(Float32Array.from(reference), t));
      reference = reference.map((value, k) =>
        Math.fround(value - (v[k] ?? 0) * (i === timesteps.length - 1 ? t : t - (timesteps[i + 1] ?? 0))),
      );
    }
    const seen: number[] = [];
    const result = await sampleFlow(noise, {
      timesteps: flowTimesteps(8, 3),
      signal,
      velocity: (x, t) => Promise.resolve(velocity(x, t)),
      onStep: (done) => seen.push(done),
    });
    result.forEach((value, k) =>
      assert.ok(Math.abs(value - (reference[k] ?? NaN)) < 1e-5, `x0[${k}] = ${value}, reference ${reference[k]}`),
    );
    assert.deepEqual(seen, [1, 2, 3, 4, 5, 6, 7, 8], 'one report per diffusion step');
    assert.deepEqual(
      Array.from(noise),
      [0.30000001192092896, -1.2000000476837158, 0.800000011920929, 0.05000000074505806, -0.4000000059604645, 1.7000000476837158],
      'the noise is not modified',
    );
  });

  it('mixes guided velocities as uncond + g (cond - uncond) and stops at an abort', async () => {
    assert.deepEqual(Array.from(guidedVelocity(Float32Array.from([1, 2]), Float32Array.from([0.5, 3]), 3)), [2, 0]);
    const controller = new AbortController();
    let calls = 0;
    await assert.rejects(
      sampleFlow(new Float32Array(4), {
        timesteps: flowTimesteps(8, 3),
        signal: controller.signal,
        velocity: (x) => {
          calls += 1;
          if (calls === 3) controller.abort(new Error('job cancelled'));
          return Promise.resolve(new Float32Array(x.length));
        },
      }),
      /job cancelled/,
    );
    assert.equal(calls, 3);
  });

  it('draws the same standard normal noise for a seed and other noise for another', () => {
    const a = gaussianNoise(20_000, seededRandom(7n, 'acestep-noise'));
    assert.deepEqual(a, gaussianNoise(20_000, seededRandom(7n, 'acestep-noise')));
    assert.notDeepEqual(a, gaussianNoise(20_000, seededRandom(8n, 'acestep-noise')));
    const mean = a.reduce((s, x) => s + x, 0) / a.length;
    const variance = a.reduce((s, x) => s + (x - mean) ** 2, 0) / a.length;
    assert.ok(Math.abs(mean) < 0.03 && Math.abs(variance - 1) < 0.05, `mean ${mean}, variance ${variance}`);
  });
});

describe('ACE-Step prompt templates', () => {
  it('fills SFT_GEN_PROMPT with the instruction, caption and metadata block from the prompt', () => {
    const meta = promptMetadata(REQUEST.prompt, 93);
    assert.deepEqual(meta, { bpm: 96, keyscale: 'A minor', timeSignature: 3, durationSeconds: 93 });
    assert.equal(
      captionText('  dreamy synthwave ', meta),
      '# Instruction\nFill the audio semantic mask based on the given conditions:\n\n# Caption\ndreamy synthwave\n\n# Metas\n- bpm: 96\n- timesignature: 3\n- keyscale: A minor\n- duration: 93 seconds\n<|endoftext|>\n',
    );
    assert.equal(
      captionText('lofi', promptMetadata('lofi in Bb', 30)).split('# Metas\n')[1],
      '- bpm: N/A\n- timesignature: N/A\n- keyscale: Bb major\n- duration: 30 seconds\n<|endoftext|>\n',
    );
    // The reference's TASK_INSTRUCTIONS for the edits: repaint (and extend, its outpainting) and cover (remix).
    assert.match(
      captionText('lofi', meta, REPAINT_INSTRUCTION),
      /^# Instruction\nRepaint the mask area based on the given conditions:\n\n# Caption\nlofi\n/,
    );
    assert.match(
      captionText('lofi', meta, COVER_INSTRUCTION),
      /^# Instruction\nGenerate audio semantic tokens based on the given conditions:\n\n/,
    );
  });

  it('writes the lyric text with its language line, and sings an instrumental without lyrics', () => {
    assert.equal(lyricText('[verse]\nla la\n'), '# Languages\nunknown\n\n# Lyric\n[verse]\nla la<|endoftext|>');
    assert.equal(lyricText(null), '# Languages\nunknown\n\n# Lyric\n[Instrumental]<|endoftext|>');
    assert.equal(lyricText('  '), lyricText(null));
  });
});

describe('the tiny ACE-Step-1.5-format model and the backend', () => {
  let dir: TempDir;
  let model: SongModel;
  before(async () => {
    dir = await makeTempDir('acestep-tiny');
    await writeTinyAcestep(join(dir.path, 'turbo'));
    model = await load(join(dir.path, 'turbo'));
  });
  after(async () => {
    await model.release();
    await dir.remove();
  });

  it('is built deterministically, and npm run build:acestep-tiny writes the same bytes', async () => {
    const again = tinyAcestepFiles();
    for (const [name, bytes] of Object.entries(again))
      assert.ok(Buffer.from(bytes).equals(await readFile(join(dir.path, 'turbo', name))), `${name} rebuilt byte for byte`);
    await run(process.execPath, ['--import', 'tsx', 'scripts/build-acestep-tiny.ts', join(dir.path, 'script')]);
    for (const [name, bytes] of Object.entries(again))
      assert.ok(Buffer.from(bytes).equals(await readFile(join(dir.path, 'script', name))), `script's ${name} byte for byte`);
  });

  it('names the model, its licences (commercial use), the request steps and the device', () => {
    assert.equal(model.format, 'acestep-onnx');
    assert.equal(model.name, 'songmint-acestep-1.5-tiny');
    assert.deepEqual(model.licence, { spdx: 'MIT AND Apache-2.0', commercial_use: true });
    assert.deepEqual(model.steps, [27, 60]);
    assert.equal(model.device, 'cpu');
    assert.equal(model.sampleRate, 48_000);
  });

  it('renders the asked duration in 48 kHz stereo, the same samples for a seed, one progress report per diffusion step', async () => {
    const progress: number[] = [];
    const first = await model.render(REQUEST, signal, (f) => progress.push(f));
    assert.equal(first.pcm.sampleRate, 48_000);
    assert.equal(first.pcm.channels.length, 2);
    for (const channel of first.pcm.channels) assert.equal(channel.length, 3 * 48_000, '75 latent frames x 1920 samples');
    assert.notDeepEqual(first.pcm.channels[0], first.pcm.channels[1], 'two channels, not one copied');
    const peak = Math.max(...first.pcm.channels.map((c) => c.reduce((m, x) => Math.max(m, Math.abs(x)), 0)));
    assert.ok(peak > 0.01 && peak <= 1, `peak ${peak}`);
    assert.equal(first.conditioning.diffusion_steps, 8, 'request steps 27 runs the turbo schedule');
    assert.equal(first.conditioning.latent_frames, 75);
    assert.equal(first.conditioning.keyscale, 'A minor');
    // Progress: the encoders, each of the 8 steps, the VAE chunks (75 frames in 48-frame chunks), rising to 1.
    assert.ok(
      progress.every((p, i) => i === 0 || p > (progress[i - 1] ?? 0)),
      `progress rises: ${progress.join(', ')}`,
    );
    assert.equal(progress.length, 1 + 8 + 2);
    assert.equal(progress.at(-1), 1);

    const again = await model.render({ ...REQUEST, steps: 60 }, signal);
    assert.deepEqual(again.pcm.channels, first.pcm.channels, 'same seed, same samples (60 maps to the same turbo schedule)');
    const other = await model.render({ ...REQUEST, seed: 43n }, signal);
    assert.notDeepEqual(other.pcm.channels[0], first.pcm.channels[0], 'another seed, other samples');
  });

  it('sings the lyrics it is given: they reach the lyric input and change the song', async () => {
    const sung = await model.render(REQUEST, signal);
    const other = await model.render({ ...REQUEST, lyrics: '[chorus]\nlove love love' }, signal);
    const instrumental = await model.render({ ...REQUEST, lyrics: null }, signal);
    const tokenizer = JSON.parse(await readFile(join(dir.path, 'turbo', 'tokenizer.json'), 'utf8')) as {
      added_tokens: { content: string }[];
    };
    assert.ok(tokenizer.added_tokens.some((t) => t.content === '<|endoftext|>'));
    assert.ok(Number(sung.conditioning.lyric_tokens) > Number(instrumental.conditioning.lyric_tokens), 'the lyric text is tokenized whole');
    assert.notDeepEqual(other.pcm.channels[0], sung.pcm.channels[0], 'other lyrics, other song');
    assert.notDeepEqual(instrumental.pcm.channels[0], sung.pcm.channels[0]);
    const caption = await model.render({ ...REQUEST, prompt: 'dreamy synthwave, 120 bpm, in A minor, 3/4' }, signal);
    assert.notDeepEqual(caption.pcm.channels[0], sung.pcm.channels[0], 'the BPM in the metadata block conditions the song');
  });

  it('runs the DiT on at least 128 frames and an odd length padded to the patch size, both cropped back; VAE chunks give the samples of one call', async () => {
    // 1 s is 25 frames: the loop runs on 128 (the reference's max(128, length)) and keeps the first 25.
    const short = await model.render({ ...REQUEST, durationSeconds: 1 }, signal);
    assert.equal(short.conditioning.latent_frames, 25);
    assert.equal(short.pcm.channels[0]?.length, 48_000);
    // 7 s is 175 frames, odd: the DiT (which reshapes frame pairs) gets 176 and the velocity is cropped back.
    const odd = await model.render({ ...REQUEST, durationSeconds: 7 }, signal);
    assert.equal(odd.conditioning.latent_frames, 175);
    assert.equal(odd.pcm.channels[0]?.length, 7 * 48_000);
    await writeTinyAcestep(join(dir.path, 'one-chunk'), { vaeChunkFrames: 1000 });
    const whole = await load(join(dir.path, 'one-chunk'));
    try {
      assert.deepEqual((await whole.render({ ...REQUEST, durationSeconds: 1 }, signal)).pcm.channels, short.pcm.channels);
      assert.deepEqual((await whole.render({ ...REQUEST, durationSeconds: 7 }, signal)).pcm.channels, odd.pcm.channels);
    } finally {
      await whole.release();
    }
  });

  it('remixes through the 5 Hz FSQ round trip: strength 0 is the plain song of its seed, the source and strength shape the rest', async () => {
    const source = await model.render(REQUEST, signal);
    const otherSource = await model.render({ ...REQUEST, seed: 99n }, signal);
    const plain = await model.render({ ...REQUEST, seed: 7n }, signal);
    assert.ok(source.kept !== null && otherSource.kept !== null);
    const remix = (strength: number, sourceKept: Uint8Array) =>
      model.edit({ ...REQUEST, seed: 7n, edit: { task: 'remix', strength }, sourceKept }, signal);
    assert.equal(model.editSupport.remix, null, 'the tiny model ships both FSQ graphs');
    const none = await remix(0, source.kept);
    assert.deepEqual(none.pcm.channels, plain.pcm.channels, 'strength 0: every step on the plain text-to-music condition');
    const half = await remix(0.5, source.kept);
    const full = await remix(1, source.kept);
    assert.equal(full.pcm.channels[0]?.length, 3 * 48_000, "the source's length");
    assert.notDeepEqual(half.pcm.channels[0], plain.pcm.channels[0], "the source's codes condition the first half of the steps");
    assert.notDeepEqual(full.pcm.channels[0], half.pcm.channels[0], 'strength moves the switch to the plain condition');
    assert.notDeepEqual(full.pcm.channels[0], source.pcm.channels[0], 'a new take, not the source');
    // Each task's caption under its own instruction: the tokens the condition encoder got.
    const tokenizer = new Tokenizer(JSON.parse(await readFile(join(dir.path, 'turbo', 'tokenizer.json'), 'utf8')) as object, {});
    const tokens = (instruction: string) =>
      tokenizer.encode(captionText(REQUEST.prompt, promptMetadata(REQUEST.prompt, REQUEST.durationSeconds), instruction)).ids.length;
    assert.equal(full.conditioning.caption_tokens, tokens(COVER_INSTRUCTION));
    const repainted = await model.edit(
      { ...REQUEST, seed: 7n, edit: { task: 'repaint', start: 1, end: 2 }, sourceKept: source.kept },
      signal,
    );
    assert.equal(repainted.conditioning.caption_tokens, tokens(REPAINT_INSTRUCTION));
    // Outside the range and its 0.025 s crossfade the repaint plays the source's own samples.
    const [edge, end] = [Math.round(0.975 * 48_000), Math.round(2.025 * 48_000)];
    for (const [ch, channel] of repainted.pcm.channels.entries()) {
      const original = source.pcm.channels[ch] ?? new Float32Array();
      assert.deepEqual(channel.subarray(0, edge), original.subarray(0, edge), 'before the crossfade: the source');
      assert.deepEqual(channel.subarray(end), original.subarray(end), 'after the crossfade: the source');
      assert.notDeepEqual(channel.subarray(48_000, 96_000), original.subarray(48_000, 96_000), 'the range is new');
    }
    assert.notEqual(tokens(REPAINT_INSTRUCTION), tokens(COVER_INSTRUCTION));
    const ofOther = await remix(1, otherSource.kept);
    assert.notDeepEqual(ofOther.pcm.channels[0], full.pcm.channels[0], 'another source, another remix');
    await assert.rejects(
      model.edit({ ...REQUEST, durationSeconds: 4, edit: { task: 'remix', strength: 1 }, sourceKept: source.kept }, signal),
      (error: unknown) => error instanceof EditUnsupportedError && /as long as its source/.test(error.message),
    );

    await writeTinyAcestep(join(dir.path, 'no-detokenizer'), { optionalGraphs: ['audio_tokenizer'] });
    const lacking = await load(join(dir.path, 'no-detokenizer'));
    try {
      const lack = /^remix needs the audio_tokenizer and audio_detokenizer graphs .*; the model directory has no audio_detokenizer\.onnx$/;
      assert.match(lacking.editSupport.remix ?? '', lack);
      assert.equal(lacking.editSupport.repaint, null);
      await assert.rejects(
        lacking.edit({ ...REQUEST, edit: { task: 'remix', strength: 1 }, sourceKept: source.kept }, signal),
        (error: unknown) => error instanceof EditUnsupportedError && lack.test(error.message),
      );
    } finally {
      await lacking.release();
    }
  });

  it('imports uploaded audio through the VAE encoder (44.1 kHz mono resampled, made stereo), and a repaint of it keeps its encoded frames', async () => {
    assert.equal(model.importSupport, null, 'the tiny model ships a vae_encoder');
    // An earlier song as an upload: its two channels mixed to mono and resampled to 44.1 kHz.
    const song = await model.render(REQUEST, signal);
    const [left, right] = song.pcm.channels;
    assert.ok(left !== undefined && right !== undefined);
    const mono = resample(
      left.map((x, i) => (x + (right[i] ?? 0)) / 2),
      48_000,
      44_100,
    );
    assert.equal(mono.length, 3 * 44_100);
    const kept = await model.importAudio({ sampleRate: 44_100, channels: [mono] }, signal);
    const encoded = decodeKeptLatents(kept);
    assert.ok(encoded.ok);
    assert.deepEqual(encoded.value.header.model, { name: 'songmint-acestep-1.5-tiny', version: '1.5.0-tiny' });
    assert.deepEqual(encoded.value.header.shape, [75, 8], '3 s at 25 latent frames a second, 8 tiny channels');
    const frames = encoded.value.data;
    // The same upload, the same source; at 48 kHz stereo with equal channels, the same too.
    const same = decodeKeptLatents(await model.importAudio({ sampleRate: 44_100, channels: [mono] }, signal));
    assert.ok(same.ok);
    assert.deepEqual(same.value.data, frames);
    const stereo48 = resample(mono, 44_100, 48_000);
    const asStereo = decodeKeptLatents(await model.importAudio({ sampleRate: 48_000, channels: [stereo48, stereo48] }, signal));
    assert.ok(asStereo.ok);
    assert.deepEqual(asStereo.value.data, frames, 'mono is doubled to stereo, then resampled to 48 kHz');

    const repainted = await model.edit({ ...REQUEST, seed: 9n, edit: { task: 'repaint', start: 1, end: 2 }, sourceKept: kept }, signal);
    assert.equal(repainted.pcm.channels[0]?.length, 3 * 48_000);
    const result = decodeKeptLatents(repainted.kept ?? new Uint8Array());
    assert.ok(result.ok);
    const C = 8;
    // The range is frames [25, 50); 12 frames each side blend (the reference's crossfade at strength 0.5).
    assert.deepEqual(result.value.data.subarray(0, 13 * C), frames.subarray(0, 13 * C), 'frames before the blend: the encoded upload');
    assert.deepEqual(result.value.data.subarray(62 * C), frames.subarray(62 * C), 'frames after the blend: the encoded upload');
    assert.notDeepEqual(result.value.data.subarray(24 * C, 25 * C), frames.subarray(24 * C, 25 * C), 'the frame next to the range blends');
    assert.notDeepEqual(result.value.data.subarray(35 * C, 40 * C), frames.subarray(35 * C, 40 * C), 'the range is new');

    // Windows of the decoder's tiling give the frames of one call (the tiny encoder is frame-local).
    await writeTinyAcestep(join(dir.path, 'one-window'), { vaeChunkFrames: 1000 });
    const oneWindow = await load(join(dir.path, 'one-window'));
    await writeTinyAcestep(join(dir.path, 'no-encoder'), { optionalGraphs: ['audio_tokenizer', 'audio_detokenizer'] });
    const lacking = await load(join(dir.path, 'no-encoder'));
    try {
      const whole = decodeKeptLatents(await oneWindow.importAudio({ sampleRate: 44_100, channels: [mono] }, signal));
      assert.ok(whole.ok);
      assert.deepEqual(whole.value.data, frames);
      assert.match(lacking.importSupport ?? '', /needs a vae_encoder graph .*no vae_encoder\.onnx$/);
      await assert.rejects(
        lacking.importAudio({ sampleRate: 44_100, channels: [mono] }, signal),
        (error: unknown) => error instanceof EditUnsupportedError && /no vae_encoder\.onnx/.test(error.message),
      );
    } finally {
      await Promise.all([oneWindow.release(), lacking.release()]);
    }
  });

  it('runs a base/SFT-style schedule with classifier-free guidance from the manifest', async () => {
    await writeTinyAcestep(join(dir.path, 'guided'), { guidanceScale: 4 });
    const guided = await load(join(dir.path, 'guided'));
    try {
      let reports = 0;
      const song = await guided.render({ ...REQUEST, durationSeconds: 1 }, signal, () => (reports += 1));
      assert.equal(song.conditioning.diffusion_steps, 27);
      assert.equal(song.conditioning.guidance_scale, 4);
      assert.equal(reports, 1 + 27 + 1);
      assert.equal(song.pcm.channels[0]?.length, 48_000);
    } finally {
      await guided.release();
    }
  });
});

describe('ACE-Step directory checks (worker start and npm run model:check)', () => {
  let dir: TempDir;
  let good: string;
  before(async () => {
    dir = await makeTempDir('acestep-checks');
    good = join(dir.path, 'good');
    await writeTinyAcestep(good);
  });
  after(() => dir.remove());

  const copy = async (name: string): Promise<string> => {
    const target = join(dir.path, name);
    await cp(good, target, { recursive: true });
    return target;
  };
  const failure = async (modelDir: string) => {
    const loaded = await loadSongModel({ modelDir, device: 'cpu' });
    if (loaded.ok) {
      await loaded.value.release();
      assert.fail('the directory loaded');
    }
    return loaded;
  };

  it("is picked by its manifest even beside a public export's own manifest.json", async () => {
    const withExportManifest = await copy('with-export-manifest');
    await writeFile(join(withExportManifest, 'manifest.json'), JSON.stringify({ files: [{ path: 'dit_decoder.onnx', sha256: 'x' }] }));
    const loaded = await loadSongModel({ modelDir: withExportManifest, device: 'cpu' });
    assert.ok(loaded.ok, loaded.ok ? '' : loaded.error.message);
    assert.equal(loaded.value.format, 'acestep-onnx');
    await loaded.value.release();
  });

  it('fails on a wrong sha256, naming the file and both hashes', async () => {
    const broken = await copy('wrong-sha');
    const vae = join(broken, 'vae_decoder.onnx');
    const bytes = await readFile(vae);
    bytes[bytes.length - 1] = (bytes[bytes.length - 1] ?? 0) ^ 1;
    await writeFile(vae, bytes);
    const loaded = await failure(broken);
    assert.equal(loaded.error.code, 'MODEL_CHECKSUM_MISMATCH');
    assert.match(loaded.error.message, /graph vae_decoder: vae_decoder\.onnx sha256 expected [0-9a-f]{64}, found [0-9a-f]{64}/);
    assert.ok(loaded.error.message.includes(sha256(bytes)));
  });

  /** A copy whose graph has `from` renamed to `to` (same length, so the protobuf stays well formed), its sha256 updated. */
  const renamedInGraph = async (name: string, graph: string, from: string, to: string): Promise<string> => {
    const target = await copy(name);
    const file = EXPORTER_2B.graphs[graph as 'dit']?.files[0]?.file ?? `${graph}.onnx`;
    const path = join(target, file);
    const bytes = Buffer.from((await readFile(path)).toString('latin1').replaceAll(from, to), 'latin1');
    await writeFile(path, bytes);
    await editManifest(target, (m) => {
      const entry = m.graphs[graph];
      if (entry !== undefined) entry.sha256 = sha256(bytes);
    });
    return target;
  };

  it('refuses a graph whose input has another name, with the expected and found interface side by side', async () => {
    const broken = await renamedInGraph('wrong-input', 'condition_encoder', 'lyric_attention_mask', 'lyric_attention_masq');
    const loaded = await failure(broken);
    assert.equal(loaded.error.code, 'MODEL_LAYOUT_INVALID');
    const lines = loaded.error.message.split('\n');
    assert.match(
      lines[0] ?? '',
      /^graph condition_encoder \(condition_encoder\.onnx\) does not have the ACE-Step 1\.5 turbo \(2B\), the public exporter's directory interface \(2 differences\):$/,
    );
    assert.match(loaded.error.message, /✗ input lyric_attention_mask float32 \[batch, lyric_tokens\] +\(none\) <- missing/);
    assert.match(loaded.error.message, /✗ input \(none\) +lyric_attention_masq float32 \[batch, lyric_tokens\] <- not in the layout/);
    assert.match(
      loaded.error.message,
      /  {3}input text_attention_mask float32 \[batch, caption_tokens\] +text_attention_mask float32/,
      'matching lines shown too',
    );
  });

  it("refuses an output under another name (no binding a graph's only output whatever its name), an unknown input, a width that disagrees, and an io_contract_core.json that is not the graph", async () => {
    const vae = await renamedInGraph('vae-output', 'vae_decoder', 'audio', 'audiX');
    await rm(join(vae, IO_CONTRACT_CORE_FILE));
    const refused = (await failure(vae)).error.message;
    assert.match(refused, /✗ output audio float32 \[batch, 2, samples\] +\(none\) <- missing/);
    assert.match(refused, /✗ output \(none\) +audiX float32/);

    const unknown = await renamedInGraph('unknown-input', 'dit', 'timestep_r', 'timestep_x');
    await rm(join(unknown, IO_CONTRACT_CORE_FILE));
    assert.match((await failure(unknown)).error.message, /✗ input \(none\) +timestep_x float32 \[batch\] <- not in the layout/);

    const widths = await copy('manifest-widths');
    await editManifest(widths, (m) => {
      (m.dims as Record<string, number>).encoder_hidden = 2048;
    });
    assert.match(
      (await failure(widths)).error.message,
      /✗ output encoder_hidden_states float32 \[batch, condition_tokens, encoder_hidden=2048\] +encoder_hidden_states float32 \[batch, condition_tokens, 24\] <- dimension 2 is 24, expected encoder_hidden=2048/,
    );

    const io = await copy('io-contract');
    const contract = JSON.parse(await readFile(join(io, IO_CONTRACT_CORE_FILE), 'utf8')) as { inputs: Record<string, string[]> };
    contract.inputs.dit_decoder = (contract.inputs.dit_decoder ?? []).filter((n) => n !== 'encoder_attention_mask');
    await writeFile(join(io, IO_CONTRACT_CORE_FILE), JSON.stringify(contract));
    assert.match(
      (await failure(io)).error.message,
      /graph dit: the ONNX file declares input encoder_attention_mask, io_contract_core\.json lists/,
    );
  });

  it('checks the optional graphs as the others: a role on the wrong graph, codes whose width the detokenizer does not take', async () => {
    const swapped = await copy('swapped-tokenizer');
    await editManifest(swapped, (m) => {
      m.graphs.audio_tokenizer = m.graphs.audio_detokenizer!;
    });
    assert.match(
      (await failure(swapped)).error.message,
      /graph audio_tokenizer \(audio_detokenizer\.onnx\) does not have [\s\S]*✗ input hidden_states float32 \[batch, frames, latent_channels=8\] +\(none\) <- missing/,
    );

    const wide = await copy('wide-detokenizer');
    const g = new GraphBuilder('');
    const codes = g.input('quantized', 'float', ['batch', 'codes', 12]);
    g.output(g.op('MatMul', [codes, g.f(new Array<number>(12 * 8).fill(0.1), [12, 8])]), 'lm_hints_25hz', 'float', ['batch', 'frames', 8]);
    const bytes = encodeModel(g.graph('audio_detokenizer'), 'a detokenizer of 12-wide codes');
    await writeFile(join(wide, 'wide.onnx'), bytes);
    await editManifest(wide, (m) => {
      Object.assign(m.graphs.audio_detokenizer ?? {}, { file: 'wide.onnx', sha256: sha256(bytes) });
    });
    const refused = await failure(wide);
    assert.equal(refused.error.code, 'MODEL_LAYOUT_INVALID');
    assert.match(refused.error.message, /graph audio_detokenizer: input quantized has width 12, audio_tokenizer's quantized output has 16/);
  });

  it('npm run model:check passes on the tiny directory and fails on a broken one with the mismatch', async () => {
    const passed = await run(process.execPath, ['--import', 'tsx', 'scripts/model-check.ts', good]);
    assert.match(passed.stdout, /model:check passed: songmint-acestep-1\.5-tiny/);
    assert.match(passed.stdout, /edits: extend yes, repaint yes, remix yes; uploaded audio yes/);
    assert.match(passed.stdout, /request steps 27 -> 8, 60 -> 8 diffusion steps, shift 3/);
    const broken = await copy('check-broken');
    await writeFile(join(broken, 'silence_latent.bin'), new Uint8Array(16));
    const failed = await run(process.execPath, ['--import', 'tsx', 'scripts/model-check.ts', broken]).then(
      () => assert.fail('model:check passed a broken directory'),
      (err: { code: number; stderr: string }) => err,
    );
    assert.equal(failed.code, 1);
    assert.match(failed.stderr, /MODEL_CHECKSUM_MISMATCH: silence latent: silence_latent\.bin sha256 expected/);
  });
});

describe('binding by exact names (layouts.ts), and the reference arithmetic of the loop and the edits', () => {
  const dims = { text_hidden: 16, latent_channels: 8, context_channels: 16, encoder_hidden: 24, timbre_frames: 12 };
  const value = (name: string, type: string, shape: (number | string)[]): SessionValue => ({ name, type, shape });

  it("binds the XL Turbo DiT's four inputs (no masks, no timestep_r) and a float is_covers as normal; refuses the 2B DiT's seven there", () => {
    const xl = [
      value('hidden_states', 'float32', ['batch', 'frames', 8]),
      value('timestep', 'float32', ['batch']),
      value('encoder_hidden_states', 'float32', ['batch', 'tokens', 24]),
      value('context_latents', 'float32', ['batch', 'frames', 16]),
    ];
    const velocity = [value('velocity', 'float32', ['batch', 'frames', 8])];
    const bound = bindGraph(XL_TURBO, 'dit', 'dit_decoder_xl_turbo_q4.onnx', dims, xl, velocity);
    assert.ok(bound.ok, bound.ok ? '' : bound.error.message);
    assert.deepEqual([...bound.value.inputs.keys()], ['hidden_states', 'timestep', 'encoder_hidden_states', 'context_latents']);
    assert.deepEqual(bound.value.outputs.get('velocity'), { name: 'velocity', type: 'float32' });
    // The 2B DiT (masks, timestep_r, `vt`) is not the XL interface, and the other way round.
    const twoB = bindGraph(
      XL_TURBO,
      'dit',
      'dit_decoder_xl_turbo_q4.onnx',
      dims,
      [...xl, value('timestep_r', 'float32', ['batch']), value('attention_mask', 'float32', ['batch', 'frames'])],
      [value('vt', 'float32', ['batch', 'frames', 8])],
    );
    assert.ok(!twoB.ok);
    assert.match(twoB.error.message, /\(4 differences\)/);
    const missingMasks = bindGraph(EXPORTER_2B, 'dit', 'dit_decoder.onnx', dims, xl, velocity);
    assert.ok(!missingMasks.ok);
    assert.match(missingMasks.error.message, /✗ input encoder_attention_mask float32 \[batch, condition_tokens\] +\(none\) <- missing/);
    // `is_covers`: bool in the exporter's graph, float32 in the XL one.
    const cover = (layout: typeof XL_TURBO, type: string) =>
      bindGraph(layout, 'condition_encoder', 'c.onnx', dims, [value('is_covers', type, ['batch'])], []).ok ||
      !/is_covers[^\n]*<- dtype/.test(
        (
          bindGraph(layout, 'condition_encoder', 'c.onnx', dims, [value('is_covers', type, ['batch'])], []) as {
            error: { message: string };
          }
        ).error.message,
      );
    assert.ok(cover(XL_TURBO, 'float32') && cover(EXPORTER_2B, 'bool'));
    assert.ok(!cover(XL_TURBO, 'bool') && !cover(EXPORTER_2B, 'float32'));
  });

  it('refuses a rank or dtype that differs, naming what it found', () => {
    const refused = bindGraph(
      XL_TURBO,
      'text_encoder',
      'onnx/text_encoder_q4.onnx',
      dims,
      [value('input_ids', 'int32', ['batch', 'tokens'])],
      [value('hidden_states', 'float32', ['batch', 16])],
    );
    assert.ok(!refused.ok);
    assert.match(
      refused.error.message,
      /✗ input input_ids int64 \[batch, caption_tokens\] +input_ids int32 \[batch, tokens\] <- dtype int32, expected int64/,
    );
    assert.match(
      refused.error.message,
      /✗ output hidden_states float32\|float16 \[batch, caption_tokens, text_hidden=16\] +hidden_states float32 \[batch, 16\] <- rank 2, expected 3/,
    );
  });

  it('pads the loop to at least 128 frames with the silence latent, as the reference: its first frames after a source, tiled for text-to-music', () => {
    assert.equal(MIN_LATENT_FRAMES, 128);
    assert.deepEqual([latentFrames(25), latentFrames(128), latentFrames(175)], [128, 128, 175]);
    const silence = { data: Float32Array.from({ length: 3 * 2 }, (_, i) => 100 + i), frames: 3, channels: 2 };
    assert.deepEqual(Array.from(silenceFrames(silence, 4)), [100, 101, 102, 103, 104, 105, 100, 101]);
    // A 2-frame source padded to 5: then the silence latent's frames 0, 1, 2 (not 2, 3, 4: `cat([latent, silence[:pad]])`).
    assert.deepEqual(
      Array.from(padWithSilence(Float32Array.from([1, 2, 3, 4]), 2, 5, silence)),
      [1, 2, 3, 4, 100, 101, 102, 103, 104, 105],
    );
  });

  it("resolves the reference's repaint settings at its default strength: injection 0.5, 12 crossfade frames (Python's round(12.5)), 0.025 s", () => {
    assert.deepEqual(repaintConfig(), { injectionRatio: 0.5, crossfadeFrames: 12, waveformCrossfadeSeconds: 0.025 });
    assert.deepEqual(repaintConfig(0), { injectionRatio: 1, crossfadeFrames: 25, waveformCrossfadeSeconds: 0.05 });
    assert.deepEqual(repaintConfig(1), { injectionRatio: 0, crossfadeFrames: 0, waveformCrossfadeSeconds: 0 });
    assert.deepEqual([0.5, 1.5, 2.5, 12.5, 2.6, -0.4].map(roundHalfEven), [0, 2, 2, 12, 3, 0]);
    assert.equal(injectionSteps(repaintConfig(), 8), 4);
    assert.equal(injectionSteps(repaintConfig(), 27), 14, 'round(13.5) = 14');
  });

  it('blends over ramps outside the repainted range (linspace(0, 1, n + 2)[1:-1]), the rest 0 or 1; no ramp over the whole song', () => {
    assert.deepEqual(Array.from(softMask(10, 4, 6, 3)), [0, 0.25, 0.5, 0.75, 1, 1, 0.75, 0.5, 0.25, 0]);
    // At the song's edges the ramp is what fits; an extend's range runs to the end: one ramp, on the source's right side.
    assert.deepEqual(Array.from(softMask(6, 1, 6, 3)), [0.5, 1, 1, 1, 1, 1]);
    assert.deepEqual(Array.from(softMask(8, 5, 8, 2)), [0, 0, 0, 1 / 3, 2 / 3, 1, 1, 1].map(Math.fround));
    assert.deepEqual(Array.from(softMask(4, 0, 4, 2)), [1, 1, 1, 1]);
    // A repaint plan: the clean source padded with the silence latent's first frames, the range silenced at its positions.
    const silence = { data: Float32Array.from({ length: 4 * 1 }, (_, i) => 10 + i), frames: 4, channels: 1 };
    const plan = planRepaint(Float32Array.from([1, 2, 3, 4, 5]), 5, 1, 3, 7, silence);
    assert.deepEqual(Array.from(plan.clean), [1, 2, 3, 4, 5, 10, 11]);
    assert.deepEqual(Array.from(plan.source), [1, 11, 12, 4, 5, 10, 11]);
    assert.deepEqual(Array.from(plan.chunkMask), [0, 1, 1, 0, 0, 0, 0]);
    assert.deepEqual(Array.from(plan.generate), [0, 1, 1, 0, 0, 0, 0]);
  });
});
