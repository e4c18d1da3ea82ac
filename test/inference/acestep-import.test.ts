/**
 * ACE-Step 1.5 exports as the public exporter ships them, made by an independent tool: the tiny
 * graphs under test/fixtures/acestep-export/exporter were written by `torch.onnx.export` (Debian's
 * python3-torch 1.13, scripts/fixtures/export_acestep_tiny.py) with the exporter's forward
 * signatures: a 10-input condition encoder (three inputs dropped by the exporter), a bool encoder
 * mask, a VAE whose output is `audio`, `qwen3_token_embedding_0p6.onnx`, the export's own
 * `manifest.json` and `io_contract*.json`, and a `silence_latent.pt` from `torch.save`. Here:
 * the `.pt` reader, `npm run model:import` and `npm run model:check` on it, songs with lyrics from
 * it, the reference's tiled VAE decoding and peak normalisation, and the refusals.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { makeTempDir } from '../../core/src/testing/temp-dirs.ts';
import type { TempDir } from '../../core/src/testing/temp-dirs.ts';
import { loadAcestepModel, normalisePeak } from '../../inference/src/model/acestep/acestep-model.ts';
import { importAcestepExport } from '../../inference/src/model/acestep/import-export.ts';
import { ACESTEP_MANIFEST_FILE } from '../../inference/src/model/acestep/manifest.ts';
import { decodeKeptLatents } from '../../inference/src/model/kept-latents.ts';
import type { SongModel, SongModelRequest } from '../../inference/src/model/song-model.ts';
import { readFloatTensor } from '../../inference/src/model/torch-pt.ts';

const run = promisify(execFile);
const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'acestep-export');
const EXPORTER = join(FIXTURES, 'exporter');
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
      /verified against the export's manifest\.json: qwen3_embedding_0p6\.onnx, qwen3_token_embedding_0p6\.onnx, condition_encoder\.onnx/,
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
      graphs: Record<string, { file: string }>;
    };
    assert.equal(manifest.graphs.qwen3_token_embeddings?.file, 'qwen3_token_embedding_0p6.onnx');
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
    const result = await importAcestepExport({ dir: changed });
    assert.ok(!result.ok);
    assert.equal(result.error.code, 'MODEL_CHECKSUM_MISMATCH');
    assert.match(
      result.error.message,
      /graph dit_decoder: dit_decoder\.onnx sha256 expected [0-9a-f]{64} \(manifest\.json\), found [0-9a-f]{64}/,
    );
    assert.ok(!existsSync(join(changed, ACESTEP_MANIFEST_FILE)));
    const failed = await run(process.execPath, ['--import', 'tsx', 'scripts/model-import.ts', changed]).then(
      () => assert.fail('model:import passed a changed graph'),
      (err: { code: number; stderr: string }) => err,
    );
    assert.equal(failed.code, 1);
    assert.match(
      failed.stderr,
      /model:import FAILED .*\n {2}MODEL_CHECKSUM_MISMATCH: graph dit_decoder: dit_decoder\.onnx sha256 expected/,
    );
  });

  it('refuses a silence latent that runs code, naming the file', async () => {
    const bad = join(dir.path, 'bad-latent');
    await cp(EXPORTER, bad, { recursive: true });
    const result = await importAcestepExport({ dir: bad, silenceLatent: join(FIXTURES, 'bad-pt', 'executes-code.pt') });
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
    const result = await importAcestepExport({ dir: escaping });
    assert.ok(!result.ok);
    assert.equal(result.error.code, 'MODEL_EXPORT_INVALID');
    assert.match(result.error.message, /manifest\.json: .*a path inside the model directory/s);
  });
});
