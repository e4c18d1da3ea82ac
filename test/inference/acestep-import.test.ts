/**
 * The known ACE-Step layouts made by independent tools, and the `.pt` reader:
 * - the public exporter's 2B directory: test/fixtures/acestep-export/exporter, written by
 *   `torch.onnx.export` (Debian's python3-torch 1.13, scripts/fixtures/export_acestep_tiny.py) with
 *   the exporter's forward signatures (a 10-input condition encoder, a bool encoder mask, `vt`,
 *   `audio`), its own `manifest.json` and `io_contract*.json`, a `torch.save` silence latent;
 * - the XL Turbo files a working public pipeline runs: test/fixtures/acestep-export/xl-turbo,
 *   written by torch.onnx.export and onnx's helpers (scripts/fixtures/export_acestep_xl_tiny.py:
 *   the pipeline's exact names and dtypes, 4-bit com.microsoft MatMulNBits packed per onnxruntime's
 *   contrib spec, the DiT's weights in three shards, files at their Hub paths, a Qwen3-structured
 *   tokenizer.json, a torch.save silence latent), checked here against a float reference;
 * - `.pt` files torch.save (and a zip writer fed torch.save's bytes) wrote that the reader must read
 *   right or refuse within its budgets (scripts/fixtures/export_hostile_pt.py).
 * Here: `npm run model:import` and `npm run model:check` on each, songs with lyrics from them, the
 * reference's tiled VAE decoding and peak normalisation, and the refusals.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import * as ort from 'onnxruntime-node';
import onnxProto from 'onnx-proto';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { makeTempDir } from '../../core/src/testing/temp-dirs.ts';
import type { TempDir } from '../../core/src/testing/temp-dirs.ts';
import { loadAcestepModel, normalisePeak } from '../../inference/src/model/acestep/acestep-model.ts';
import { importAcestep } from '../../inference/src/model/acestep/import.ts';
import { ACESTEP_MANIFEST_FILE } from '../../inference/src/model/acestep/manifest.ts';
import { decodeKeptLatents } from '../../inference/src/model/kept-latents.ts';
import type { SongModel, SongModelRequest } from '../../inference/src/model/song-model.ts';
import { EditUnsupportedError } from '../../inference/src/model/song-model.ts';
import { filesUnder, XL_FIXTURE, XL_REPOS, xlFolder } from './helpers/xl-fixture.ts';
import { PT_BUDGETS, readFloatTensor } from '../../inference/src/model/torch-pt.ts';

const run = promisify(execFile);
const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'acestep-export');
const EXPORTER = join(FIXTURES, 'exporter');
const XL = XL_FIXTURE;
const CHECKS = join(FIXTURES, 'xl-turbo-checks');
const XL_REPO = 'emb1ter/ACE-Step-v1.5-XL-Turbo-ONNX-WebGPU';

const signal = new AbortController().signal;
const REQUEST: SongModelRequest = {
  prompt: 'dreamy synthwave, 96 bpm, in A minor',
  lyrics: '[verse]\nneon rain on the night road\n[chorus]\nlove at night',
  seed: 42n,
  durationSeconds: 3,
  steps: 27,
};

async function load(dir: string): Promise<SongModel> {
  const loaded = await loadAcestepModel({ modelDir: dir, device: 'cpu' });
  if (!loaded.ok) throw new Error(`${loaded.error.code}: ${loaded.error.message}`);
  return loaded.value;
}

const peakOf = (channels: Float32Array[]): number => Math.max(...channels.map((c) => c.reduce((m, x) => Math.max(m, Math.abs(x)), 0)));

describe('reading a torch.save .pt without running it', () => {
  it('reads the silence latent torch.save wrote: [1, 8, 300] float32, the values torch.load gives', async () => {
    const read = readFloatTensor(await readFile(join(EXPORTER, 'silence_latent.pt')));
    assert.ok(read.ok, read.ok ? '' : read.error.message);
    assert.deepEqual(read.value.shape, [1, 8, 300]);
    assert.equal(read.value.storedAs, 'float32');
    // torch.load(...)[0, 0, :3] printed by python3-torch 1.13: -0.2929, -0.1933, 0.2414
    const first = Array.from(read.value.data.subarray(0, 3), (x) => Math.round(x * 1e4) / 1e4);
    assert.deepEqual(first, [-0.2929, -0.1933, 0.2414]);
  });

  it("reads bfloat16 exactly, negative values included (its 16 bits are a float32's upper half)", async () => {
    const read = readFloatTensor(await readFile(join(FIXTURES, 'bad-pt', 'bfloat16.pt')));
    assert.ok(read.ok, read.ok ? '' : read.error.message);
    assert.equal(read.value.storedAs, 'bfloat16');
    assert.deepEqual(read.value.shape, [1, 1, 6]);
    // torch.tensor([-1.5, 2.0, -0.0078125, 3.140625, -65280.0, 0.0], dtype=torch.bfloat16): exact in bfloat16.
    assert.deepEqual(Array.from(read.value.data), [-1.5, 2, -0.0078125, 3.140625, -65280, 0]);
  });

  it('refuses, within its budgets, the shapes that walk or inflate without bound', async () => {
    const read = async (file: string) => readFloatTensor(await readFile(join(FIXTURES, 'bad-pt', file)));
    // 44 levels of [x, x] through the memo: 2^44 nodes to a naive walk; refused at the node budget, quickly.
    const started = performance.now();
    const shared = await read('shared-lists.pt');
    assert.ok(!shared.ok);
    assert.match(shared.error.message, /the pickle's value has more than 100000 nodes \(shared references counted each time\)/);
    assert.ok(performance.now() - started < 10_000, 'refused in bounded time');
    // A one-element storage viewed as [1, 8, 50,000,000] with stride 0 (1.6 GB read out).
    const strided = await read('stride-zero.pt');
    assert.ok(!strided.ok);
    assert.match(
      strided.error.message,
      /the tensor \[1, 8, 50000000\] \(strides \[\d+, 0, 0\]\) reads 400000000 elements from a storage of 1: it repeats its storage/,
    );
    // Four directory entries pointing at one deflated 32 MiB member the tensor does not need: never inflated.
    const before = process.memoryUsage().arrayBuffers;
    const aliases = await read('zip-aliases.pt');
    assert.ok(aliases.ok, aliases.ok ? '' : aliases.error.message);
    assert.deepEqual(Array.from(aliases.value.data), [0.25]);
    assert.ok(process.memoryUsage().arrayBuffers - before < 16 << 20, 'the unneeded members were not inflated');
    // The storage's entry records 4 bytes and its stream inflates to 32 MiB: inflation stops at 4.
    const lying = await read('zip-lying-size.pt');
    assert.ok(!lying.ok);
    assert.match(lying.error.message, /zip entry archive\/data\/0 does not inflate to the 4 bytes its directory records/);
    assert.ok(process.memoryUsage().arrayBuffers - before < 16 << 20, 'inflation stopped at the recorded size');
    // The budgets are parameters: a pickle over its budget is refused before it is inflated.
    const small = readFloatTensor(await readFile(join(EXPORTER, 'silence_latent.pt')), { ...PT_BUDGETS, maxPickleBytes: 16 });
    assert.ok(!small.ok);
    assert.match(small.error.message, /^the pickle \(zip entry .*data\.pkl\) records \d+ bytes, more than its budget of 16$/);
  });

  it('refuses a pickle that names other code, two tensors, an integer tensor and the pre-1.6 format, saying which', async () => {
    const refusal = async (file: string) => {
      const read = readFloatTensor(await readFile(join(FIXTURES, 'bad-pt', file)));
      assert.ok(!read.ok, `${file} was read`);
      assert.equal(read.error.code, 'MODEL_PT_INVALID');
      return read.error.message;
    };
    assert.match(await refusal('executes-code.pt'), /names posix\.system: only tensors are read .* refused, never run/);
    assert.match(await refusal('two-tensors.pt'), /holds 2 tensors \(\[a\], \[b\]\); a silence latent is exactly one/);
    assert.match(await refusal('int64.pt'), /the tensor is int64; a silence latent is a float tensor/);
    assert.match(await refusal('legacy.pt'), /not a zip archive .*before PyTorch 1\.6/);
    assert.match(readFloatTensor(Buffer.from('not a pt file at all, just text')).ok ? '' : 'refused', /refused/);
  });
});

describe('npm run model:import on the exporter layout', () => {
  let dir: TempDir;
  let imported: string;
  let model: SongModel;
  before(async () => {
    dir = await makeTempDir('acestep-import');
    imported = join(dir.path, 'export');
    await cp(EXPORTER, imported, { recursive: true });
    const done = await run(process.execPath, ['--import', 'tsx', 'scripts/model-import.ts', imported]);
    assert.match(
      done.stdout,
      /verified against manifest\.json: qwen3_embedding_0p6\.onnx, qwen3_token_embedding_0p6\.onnx, condition_encoder\.onnx/,
    );
    assert.match(
      done.stdout,
      /widths read from the graphs: text_hidden=16, latent_channels=8, context_channels=16, encoder_hidden=24, timbre_frames=12/,
    );
    assert.match(done.stdout, /model:import done: ace-step-1\.5-turbo passes model:check/);
    model = await load(imported);
  });
  after(async () => {
    await model.release();
    await dir.remove();
  });

  it('writes songmint-acestep.json beside the untouched export: roles, widths, licences, the reference VAE tiling', async () => {
    const manifest = JSON.parse(await readFile(join(imported, ACESTEP_MANIFEST_FILE), 'utf8')) as Record<string, unknown> & {
      layout: string;
      graphs: Record<string, { file: string }>;
    };
    assert.equal(manifest.layout, 'exporter-2b');
    assert.equal(manifest.graphs.lyric_embedding?.file, 'qwen3_token_embedding_0p6.onnx');
    assert.equal(manifest.graphs.audio_tokenizer?.file, 'audio_tokenizer.onnx', "the export's FSQ pair is taken: remix runs");
    assert.equal(manifest.graphs.audio_detokenizer?.file, 'audio_detokenizer.onnx');
    assert.equal(manifest.graphs.vae_encoder?.file, 'vae_encoder.onnx', 'the encoder export script added it to manifest.json');
    assert.equal(model.editSupport.remix, null);
    assert.equal(model.importSupport, null);
    assert.deepEqual(manifest.silence_latent, {
      file: 'silence_latent.bin',
      sha256: (manifest.silence_latent as { sha256: string }).sha256,
      dtype: 'float32',
      shape: [300, 8],
    });
    assert.equal(manifest.vae_chunk_frames, 512);
    assert.equal(manifest.vae_overlap_frames, 64);
    for (const file of ['manifest.json', 'io_contract_core.json', 'condition_encoder.onnx'])
      assert.ok((await readFile(join(imported, file))).equals(await readFile(join(EXPORTER, file))), `${file} untouched`);
    assert.deepEqual(model.licence, { spdx: 'MIT AND Apache-2.0', commercial_use: true });
    assert.equal(model.sings, true);
    // Per file: which licence covers it and whether it allows commercial minting.
    const licences = manifest.licences as { spdx: string; commercial_use: boolean; files: string[] }[];
    assert.deepEqual(
      licences.map((l) => [l.spdx, l.commercial_use, l.files.includes('dit_decoder.onnx'), l.files.includes('tokenizer.json')]),
      [
        ['MIT', true, true, false],
        ['Apache-2.0', true, false, true],
      ],
    );
    // The channels-first [1, 8, 300] latent is stored frames-major: frame 0 holds channel c's first value.
    const bin = new Float32Array((await readFile(join(imported, 'silence_latent.bin'))).buffer.slice(0));
    const pt = readFloatTensor(await readFile(join(EXPORTER, 'silence_latent.pt')));
    assert.ok(pt.ok);
    assert.equal(bin[1], pt.value.data[300], 'frame 0, channel 1');
    assert.equal(bin[8], pt.value.data[1], 'frame 1, channel 0');
  });

  it('npm run model:check passes on it, and on the export before the import says to import it', async () => {
    const raw = join(dir.path, 'raw');
    await cp(EXPORTER, raw, { recursive: true });
    const failed = await run(process.execPath, ['--import', 'tsx', 'scripts/model-check.ts', raw]).then(
      () => assert.fail('model:check passed an export that was not imported'),
      (err: { code: number; stderr: string }) => err,
    );
    assert.equal(failed.code, 1);
    assert.match(
      failed.stderr,
      /MODEL_MANIFEST_MISSING: .* holds an ACE-Step 1\.5 export \(io_contract_core\.json\) without songmint-acestep\.json: run npm run model:import -- /,
    );

    const checked = await run(process.execPath, ['--import', 'tsx', 'scripts/model-check.ts', imported]);
    assert.match(checked.stdout, /model:check passed: ace-step-1\.5-turbo 1\.5 \(acestep-onnx\) loads on CPU/);
  });

  it('sings lyrics: 48 kHz stereo, same seed same samples, other lyrics another song, peak normalised to 1', async () => {
    const first = await model.render(REQUEST, signal);
    assert.equal(first.pcm.sampleRate, 48_000);
    assert.equal(first.pcm.channels.length, 2);
    for (const channel of first.pcm.channels) assert.equal(channel.length, 3 * 48_000);
    assert.ok(Number(first.conditioning.lyric_tokens) > 10);
    const again = await model.render(REQUEST, signal);
    assert.deepEqual(again.pcm.channels, first.pcm.channels);
    const other = await model.render({ ...REQUEST, lyrics: '[verse]\nanother story entirely' }, signal);
    assert.notDeepEqual(other.pcm.channels[0], first.pcm.channels[0]);
    // The torch VAE is 1.6 tanh(...): louder than full scale, so the song is divided by its peak.
    assert.ok(Math.abs(peakOf(first.pcm.channels) - 1) < 1e-6, `peak ${peakOf(first.pcm.channels)}`);
  });

  it("remixes through the torch-exported audio_tokenizer and audio_detokenizer: the source's length, another take", async () => {
    const source = await model.render(REQUEST, signal);
    assert.ok(source.kept !== null);
    const remix = await model.edit({ ...REQUEST, seed: 5n, edit: { task: 'remix', strength: 1 }, sourceKept: source.kept }, signal);
    const plain = await model.render({ ...REQUEST, seed: 5n }, signal);
    for (const channel of remix.pcm.channels) assert.equal(channel.length, 3 * 48_000);
    assert.notDeepEqual(remix.pcm.channels[0], plain.pcm.channels[0], "conditioned on the source's codes");
    assert.notDeepEqual(remix.pcm.channels[0], source.pcm.channels[0]);
  });

  it('imports uploaded audio through the torch-exported vae_encoder: one latent frame per 1920 samples at 48 kHz, padded', async () => {
    const upload = { sampleRate: 24_000, channels: [Float32Array.from({ length: 24_000 + 100 }, (_, i) => 0.5 * Math.sin(i / 7))] };
    const kept = decodeKeptLatents(await model.importAudio(upload, signal));
    assert.ok(kept.ok);
    assert.deepEqual(kept.value.header.shape, [26, 8], '1.004 s at 48 kHz is 25 whole frames and one padded');
    assert.ok(kept.value.data.some((x) => Math.abs(x) > 1e-3));
  });

  it('decodes in the reference tiled_decode windows: the frame-local VAE gives the samples of one call', async () => {
    const tiled = join(dir.path, 'tiled');
    await cp(imported, tiled, { recursive: true });
    const path = join(tiled, ACESTEP_MANIFEST_FILE);
    const manifest = JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;
    await writeFile(path, JSON.stringify({ ...manifest, vae_chunk_frames: 20, vae_overlap_frames: 4 }));
    const windows = await load(tiled);
    try {
      let reports = 0;
      const song = await windows.render(REQUEST, signal, () => (reports += 1));
      // 75 frames, windows of 20 with 4 each side: cores of 12 frames, 7 calls.
      assert.equal(reports, 1 + 8 + 7);
      const whole = await model.render(REQUEST, signal);
      for (const [ch, channel] of song.pcm.channels.entries()) {
        const reference = whole.pcm.channels[ch] ?? new Float32Array();
        let worst = 0;
        for (let i = 0; i < channel.length; i += 1) worst = Math.max(worst, Math.abs((channel[i] ?? 0) - (reference[i] ?? 0)));
        assert.ok(worst < 1e-5, `channel ${ch} differs by ${worst}`);
      }
    } finally {
      await windows.release();
    }
  });

  it('normalises only a peak above 1, over both channels', () => {
    const quiet = [Float32Array.from([0.5, -0.9]), Float32Array.from([0.2, 1])];
    assert.deepEqual(normalisePeak(quiet), quiet);
    const loud = normalisePeak([Float32Array.from([0.5, -2]), Float32Array.from([1, 0])]);
    assert.deepEqual(loud, [Float32Array.from([0.25, -1]), Float32Array.from([0.5, 0])]);
  });

  it('refuses a copy with one changed graph byte, naming the file, and writes nothing', async () => {
    const changed = join(dir.path, 'changed');
    await cp(EXPORTER, changed, { recursive: true });
    const dit = join(changed, 'dit_decoder.onnx');
    const bytes = await readFile(dit);
    bytes[bytes.length - 3] = (bytes[bytes.length - 3] ?? 0) ^ 0x01;
    await writeFile(dit, bytes);
    const result = await importAcestep({ dir: changed });
    assert.ok(!result.ok);
    assert.equal(result.error.code, 'MODEL_CHECKSUM_MISMATCH');
    assert.match(result.error.message, /graph dit: dit_decoder\.onnx sha256 expected [0-9a-f]{64} \(manifest\.json\), found [0-9a-f]{64}/);
    assert.ok(!existsSync(join(changed, ACESTEP_MANIFEST_FILE)));
    const failed = await run(process.execPath, ['--import', 'tsx', 'scripts/model-import.ts', changed]).then(
      () => assert.fail('model:import passed a changed graph'),
      (err: { code: number; stderr: string }) => err,
    );
    assert.equal(failed.code, 1);
    assert.match(failed.stderr, /model:import FAILED .*\n {2}MODEL_CHECKSUM_MISMATCH: graph dit: dit_decoder\.onnx sha256 expected/);
  });

  it('refuses a silence latent that runs code, naming the file', async () => {
    const bad = join(dir.path, 'bad-latent');
    await cp(EXPORTER, bad, { recursive: true });
    const result = await importAcestep({ dir: bad, silenceLatent: join(FIXTURES, 'bad-pt', 'executes-code.pt') });
    assert.ok(!result.ok);
    assert.equal(result.error.code, 'MODEL_PT_INVALID');
    assert.match(result.error.message, /^executes-code\.pt: the pickle names posix\.system/);
    assert.ok(!existsSync(join(bad, ACESTEP_MANIFEST_FILE)));
  });

  it('refuses an export manifest whose path leaves the directory', async () => {
    const escaping = join(dir.path, 'escaping');
    await cp(EXPORTER, escaping, { recursive: true });
    const path = join(escaping, 'manifest.json');
    const manifest = JSON.parse(await readFile(path, 'utf8')) as { models: { core: Record<string, { path: string }> } };
    const dit = manifest.models.core['dit_decoder.onnx'];
    assert.ok(dit !== undefined);
    dit.path = '../../etc/dit_decoder.onnx';
    await writeFile(path, JSON.stringify(manifest));
    const result = await importAcestep({ dir: escaping });
    assert.ok(!result.ok);
    assert.equal(result.error.code, 'MODEL_EXPORT_INVALID');
    assert.match(result.error.message, /manifest\.json: .*a path inside the model directory/s);
  });
});

describe('npm run model:import on the XL Turbo files (torch.onnx.export + MatMulNBits, at their Hub paths)', () => {
  let dir: TempDir;
  let folder: string;
  let model: SongModel;
  before(async () => {
    dir = await makeTempDir('acestep-xl-import');
    folder = await xlFolder(join(dir.path, 'xl'));
    const done = await run(process.execPath, ['--import', 'tsx', 'scripts/model-import.ts', folder]);
    assert.match(done.stdout, /^layout: xl-turbo \(standard quality\)$/m);
    assert.match(done.stdout, /hashed here \(no recorded hash\): onnx\/text_encoder_q4\.onnx, onnx\/text_encoder_q4\.onnx\.data, /);
    assert.match(
      done.stdout,
      /widths read from the graphs: text_hidden=16, latent_channels=8, context_channels=16, encoder_hidden=24, timbre_frames=12/,
    );
    assert.match(done.stdout, /^licence Apache-2\.0 \(commercial minting allowed\): onnx\/text_encoder_q4\.onnx, /m);
    assert.match(done.stdout, /^note: 17 file\(s\) differ from the acestep-1\.5-xl-turbo preset's pinned revisions: /m);
    assert.match(done.stdout, /model:import done: ace-step-1\.5-xl-turbo passes model:check/);
    model = await load(folder);
  });
  after(async () => {
    await model.release();
    await dir.remove();
  });

  it("packs its 4-bit weights as onnxruntime's MatMulNBits computes them: the q4 DiT gives its float twin's velocity", async () => {
    const dit = onnxProto.onnx.ModelProto.decode(await readFile(join(XL, XL_REPO, 'dit_decoder_xl_turbo_q4.onnx')));
    const nbits = dit.graph?.node?.filter((n) => n.opType === 'MatMulNBits') ?? [];
    assert.ok(nbits.length >= 8, `${nbits.length} MatMulNBits nodes`);
    assert.ok(nbits.every((n) => n.domain === 'com.microsoft'));
    const locations = new Set((dit.graph?.initializer ?? []).map((t) => t.externalData?.find((e) => e.key === 'location')?.value));
    assert.deepEqual(
      [...locations].sort(),
      [0, 1, 2].map((i) => `dit_decoder_xl_turbo_q4.onnx.data.${i}`),
    );
    const q4 = await ort.InferenceSession.create(join(XL, XL_REPO, 'dit_decoder_xl_turbo_q4.onnx'));
    const float = await ort.InferenceSession.create(join(CHECKS, 'dit_decoder_float.onnx'));
    try {
      const F = 130;
      const draw = (n: number, k: number) => Float32Array.from({ length: n }, (_, i) => Math.sin(i * 12.9898 + k) * 0.8);
      const feeds = {
        hidden_states: new ort.Tensor('float32', draw(F * 8, 1), [1, F, 8]),
        timestep: new ort.Tensor('float32', Float32Array.from([0.75]), [1]),
        encoder_hidden_states: new ort.Tensor('float32', draw(20 * 24, 2), [1, 20, 24]),
        context_latents: new ort.Tensor('float32', draw(F * 16, 3), [1, F, 16]),
      };
      const a = (await q4.run(feeds)).velocity?.data as Float32Array;
      const b = (await float.run(feeds)).velocity?.data as Float32Array;
      assert.equal(a.length, F * 8);
      let worst = 0;
      for (let i = 0; i < a.length; i += 1) worst = Math.max(worst, Math.abs((a[i] ?? 0) - (b[i] ?? 0)));
      assert.ok(worst < 1e-5, `worst difference ${worst}`);
      assert.ok(b.some((x) => Math.abs(x) > 0.1));
    } finally {
      await Promise.all([q4.release(), float.release()]);
    }
  });

  it("records the layout, the q4 graphs with their shards, the tokenizer config and every file's licence; the model sings", async () => {
    const manifest = JSON.parse(await readFile(join(folder, ACESTEP_MANIFEST_FILE), 'utf8')) as {
      layout: string;
      quality: string;
      graphs: Record<string, { file: string; precision: string; external_data: { file: string }[] }>;
      tokenizer: { file: string; config: { file: string } };
      licences: { spdx: string; commercial_use: boolean; files: string[] }[];
    };
    assert.equal(manifest.layout, 'xl-turbo');
    assert.equal(manifest.quality, 'standard');
    assert.deepEqual(
      Object.fromEntries(Object.entries(manifest.graphs).map(([role, g]) => [role, `${g.file} ${g.precision} ${g.external_data.length}`])),
      {
        text_encoder: 'onnx/text_encoder_q4.onnx q4 1',
        lyric_embedding: 'onnx/text_embed_tokens_fp16.onnx fp16 1',
        condition_encoder: 'condition_encoder_xl_turbo_q4.onnx q4 1',
        dit: 'dit_decoder_xl_turbo_q4.onnx q4 3',
        vae_decoder: 'vae_decoder_fp32.onnx fp32 1',
        audio_detokenizer: 'audio_code_detokenizer_xl_fp16.onnx fp16 1',
      },
    );
    assert.equal(manifest.tokenizer.file, 'Qwen3-Embedding-0.6B/tokenizer.json');
    assert.equal(manifest.tokenizer.config.file, 'Qwen3-Embedding-0.6B/tokenizer_config.json');
    const licenceOf = (file: string) => manifest.licences.find((l) => l.files.includes(file));
    assert.deepEqual(
      ['onnx/text_encoder_q4.onnx', 'dit_decoder_xl_turbo_q4.onnx.data.2', 'acestep-v15-turbo/silence_latent.pt'].map((f) => [
        licenceOf(f)?.spdx,
        licenceOf(f)?.commercial_use,
      ]),
      [
        ['Apache-2.0', true],
        ['MIT', true],
        ['MIT', true],
      ],
    );
    assert.deepEqual(model.licence, { spdx: 'Apache-2.0 AND MIT', commercial_use: true });
    assert.equal(model.sings, true);
    const song = await model.render(REQUEST, signal);
    for (const channel of song.pcm.channels) assert.equal(channel.length, 3 * 48_000);
    assert.deepEqual((await model.render(REQUEST, signal)).pcm.channels, song.pcm.channels, 'same seed, same samples');
    assert.notDeepEqual(
      (await model.render({ ...REQUEST, lyrics: '[verse]\nanother story entirely' }, signal)).pcm.channels[0],
      song.pcm.channels[0],
    );
    assert.notDeepEqual((await model.render({ ...REQUEST, seed: 43n }, signal)).pcm.channels[0], song.pcm.channels[0]);
  });

  it('extends and repaints on XL; refuses remix, naming the audio tokenizer the XL files lack', async () => {
    const source = await model.render(REQUEST, signal);
    assert.ok(source.kept !== null);
    const extended = await model.edit({ ...REQUEST, durationSeconds: 6, edit: { task: 'extend' }, sourceKept: source.kept }, signal);
    const cut = 3 * 48_000 - Math.round(0.025 * 48_000);
    for (const [ch, channel] of extended.pcm.channels.entries()) {
      assert.equal(channel.length, 6 * 48_000);
      assert.deepEqual(channel.subarray(0, cut), source.pcm.channels[ch]?.subarray(0, cut), 'the source plays until its last 0.025 s');
    }
    const repainted = await model.edit(
      { ...REQUEST, seed: 9n, edit: { task: 'repaint', start: 1, end: 2 }, sourceKept: source.kept },
      signal,
    );
    assert.deepEqual(repainted.pcm.channels[0]?.subarray(0, 46_000), source.pcm.channels[0]?.subarray(0, 46_000));
    assert.notDeepEqual(repainted.pcm.channels[0]?.subarray(50_000, 90_000), source.pcm.channels[0]?.subarray(50_000, 90_000));
    const lack =
      /^remix needs an audio tokenizer \(25 Hz latents to 5 Hz codes\) that the XL Turbo files lack: the model directory has no audio_tokenizer_xl\.onnx/;
    assert.match(model.editSupport.remix ?? '', lack);
    assert.equal(model.editSupport.extend, null);
    await assert.rejects(
      model.edit({ ...REQUEST, edit: { task: 'remix', strength: 0.5 }, sourceKept: source.kept }, signal),
      (error: unknown) => error instanceof EditUnsupportedError && lack.test(error.message),
    );
  });

  it('refuses a condition encoder that takes the timbre sequence in place of the packed reference, with the interfaces side by side', async () => {
    const wrong = await xlFolder(join(dir.path, 'timbre-sequence'));
    await cp(join(CHECKS, 'condition_encoder_timbre_sequence.onnx'), join(wrong, 'condition_encoder_xl_turbo_q4.onnx'));
    const result = await importAcestep({ dir: wrong });
    assert.ok(!result.ok);
    assert.equal(result.error.code, 'MODEL_LAYOUT_INVALID');
    const message = result.error.message;
    assert.match(
      message.split('\n')[0] ?? '',
      /^graph condition_encoder \(condition_encoder_xl_turbo_q4\.onnx\) does not have the ACE-Step 1\.5 XL Turbo, as Emb1ter\/ai-music-js 0\.4\.0 runs it interface \(3 differences\):$/,
    );
    assert.match(
      message,
      /✗ input refer_audio_acoustic_hidden_states_packed float32 \[references, timbre_frames, latent_channels\] +\(none\) <- missing/,
    );
    assert.match(message, /✗ input refer_audio_order_mask int64 \[references\] +\(none\) <- missing/);
    assert.match(message, /✗ input \(none\) +timbre_hidden_states float32 \[references, timbre_length, 24\] <- not in the layout/);
    assert.match(message, / {3}input is_covers float32 \[batch\] +is_covers float32 \[batch_size\]\n/, 'a float is_covers is the layout');
    assert.ok(!existsSync(join(wrong, ACESTEP_MANIFEST_FILE)), 'nothing written');
    assert.ok(!existsSync(join(wrong, 'silence_latent.bin')), 'nothing written');
  });

  it("verifies a folder huggingface-cli downloaded against its etags (the LFS sha256, a small file's git sha1), naming a changed file", async () => {
    const cli = await xlFolder(join(dir.path, 'cli'));
    const metadata = join(cli, '.cache', 'huggingface', 'download');
    for (const repo of XL_REPOS)
      for (const path of filesUnder(join(XL, repo))) {
        const bytes = await readFile(join(XL, repo, path));
        const etag =
          bytes.length >= 1024
            ? createHash('sha256').update(bytes).digest('hex')
            : createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
        await mkdir(dirname(join(metadata, path)), { recursive: true });
        await writeFile(join(metadata, `${path}.metadata`), `${'0'.repeat(40)}\n${etag}\n1764288000.0\n`);
      }
    const imported = await importAcestep({ dir: cli });
    assert.ok(imported.ok, imported.ok ? '' : imported.error.message);
    assert.equal(imported.value.hashedOnly.length, 0);
    assert.equal(imported.value.verified.length, 17);
    assert.match(imported.value.source, /huggingface-cli's \.cache\/huggingface\/download metadata/);
    const shard = join(cli, 'dit_decoder_xl_turbo_q4.onnx.data.2');
    const bytes = await readFile(shard);
    bytes[3] = (bytes[3] ?? 0) ^ 0x10;
    await writeFile(shard, bytes);
    const refused = await importAcestep({ dir: cli });
    assert.ok(!refused.ok);
    assert.equal(refused.error.code, 'MODEL_CHECKSUM_MISMATCH');
    assert.match(
      refused.error.message,
      /^graph dit external data: dit_decoder_xl_turbo_q4\.onnx\.data\.2 sha256 expected [0-9a-f]{64} \(huggingface-cli's/,
    );
    const config = join(cli, 'Qwen3-Embedding-0.6B', 'tokenizer_config.json');
    await writeFile(shard, await readFile(join(XL, XL_REPO, 'dit_decoder_xl_turbo_q4.onnx.data.2')));
    await writeFile(config, `${await readFile(config, 'utf8')} `);
    const small = await importAcestep({ dir: cli });
    assert.ok(!small.ok);
    assert.match(small.error.message, /^tokenizer config: Qwen3-Embedding-0\.6B\/tokenizer_config\.json git sha1 expected [0-9a-f]{40}/);
  });

  it('refuses a folder of neither layout, saying what each needs', async () => {
    const empty = join(dir.path, 'empty');
    await mkdir(empty);
    const result = await importAcestep({ dir: empty });
    assert.ok(!result.ok);
    assert.equal(result.error.code, 'MODEL_FILE_MISSING');
    assert.match(
      result.error.message,
      /holds neither ACE-Step 1\.5 XL Turbo.*\(dit_decoder_xl_turbo_q4\.onnx or dit_decoder_xl_turbo_q8\.onnx .*\) nor .*\(manifest\.json and dit_decoder\.onnx\)/,
    );
  });
});
