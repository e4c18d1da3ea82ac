/**
 * `npm run model:fetch` against a local server that speaks the Hugging Face Hub's URL scheme (a
 * test double for the Hub, helpers/hub-server.ts: the real Hub cannot be reached from here),
 * serving the torch-exported fixture shaped like the Hub repositories
 * (test/fixtures/acestep-export/hub: the ONNX repository's `onnx/` graphs with an external-data
 * sidecar, the checkpoint repository's silence latent and tokenizer). The real code path: the
 * `@huggingface/hub` client, HF_ENDPOINT and HF_TOKEN, then model:import and model:check. Also a
 * resumed download, a checksum mismatch, and a changed byte refused at import.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { makeTempDir } from '../../core/src/testing/temp-dirs.ts';
import type { TempDir } from '../../core/src/testing/temp-dirs.ts';
import { loadAcestepModel } from '../../inference/src/model/acestep/acestep-model.ts';
import { FETCH_PRESETS, planFetch } from '../../inference/src/model/acestep/hub-layout.ts';
import { importAcestepExport } from '../../inference/src/model/acestep/import-export.ts';
import type { RemoteFile } from '../../inference/src/model/hub-download.ts';
import { ACESTEP_MANIFEST_FILE } from '../../inference/src/model/acestep/manifest.ts';
import type { HubServer } from './helpers/hub-server.ts';
import { startHubServer } from './helpers/hub-server.ts';

const execFileAsync = promisify(execFile);
const HUB = join(import.meta.dirname, '..', 'fixtures', 'acestep-export', 'hub');
const SPLIT_HUB = join(import.meta.dirname, '..', 'fixtures', 'acestep-export', 'hub-split');
const ONNX_REPO = 'shreyask/ACE-Step-v1.5-ONNX';
const CHECKPOINT_REPO = 'ACE-Step/Ace-Step1.5';

describe('npm run model:fetch from a local Hub (test double)', () => {
  let hub: HubServer;
  let dir: TempDir;
  before(async () => {
    hub = await startHubServer({ [ONNX_REPO]: join(HUB, 'onnx'), [CHECKPOINT_REPO]: join(HUB, 'checkpoint') });
    dir = await makeTempDir('acestep-fetch');
  });
  after(async () => {
    await hub.close();
    await dir.remove();
  });

  const fetchModel = (target: string) =>
    execFileAsync(process.execPath, ['--import', 'tsx', 'scripts/model-fetch.ts', 'acestep-1.5-turbo', '--dir', target], {
      env: { ...process.env, HF_ENDPOINT: hub.url, HF_TOKEN: 'hf_songmint_test', MODEL_FETCH_STALL_SECONDS: '2' },
    });
  const fetchFailure = (target: string) =>
    fetchModel(target).then(
      () => assert.fail('model:fetch passed'),
      (err: { code: number; stdout: string; stderr: string }) => err,
    );

  it('downloads the DiT-only set with the token, prints what it needs, imports and checks it; the song sings', async () => {
    const target = join(dir.path, 'turbo');
    const done = await fetchModel(target);
    assert.match(done.stdout, /acestep-1\.5-turbo \(fp32\) from http:\/\/127\.0\.0\.1:\d+: 8 files into/);
    assert.match(done.stdout, /disk: [\d.]+ kB \([\d.]+ [kMG]B free\)/);
    assert.match(done.stdout, /memory to run \(projected from the graph sizes, not measured\)/);
    assert.match(done.stderr, /\[#{20}\] 100% .* shreyask\/ACE-Step-v1\.5-ONNX\/onnx\/dit_decoder\.onnx\.data/);
    assert.match(done.stdout, /model:fetch done: ace-step-1\.5-turbo passes model:check/);
    assert.ok(
      hub.requests.length > 0 && hub.requests.every((r) => r.authorization === 'Bearer hf_songmint_test'),
      'HF_TOKEN on every request',
    );
    const manifest = JSON.parse(await readFile(join(target, ACESTEP_MANIFEST_FILE), 'utf8')) as {
      graphs: Record<string, { file: string; external_data: { file: string }[] }>;
    };
    assert.equal(manifest.graphs.qwen3_embedding_0p6?.file, 'onnx/text_encoder.onnx');
    assert.deepEqual(
      manifest.graphs.dit_decoder?.external_data.map((e) => e.file),
      ['onnx/dit_decoder.onnx.data'],
    );
    const checked = await execFileAsync(process.execPath, ['--import', 'tsx', 'scripts/model-check.ts', target]);
    assert.match(checked.stdout, /model:check passed: ace-step-1\.5-turbo/);
    const loaded = await loadAcestepModel({ modelDir: target, device: 'cpu' });
    assert.ok(loaded.ok, loaded.ok ? '' : loaded.error.message);
    try {
      const request = { prompt: 'warm folk, 90 bpm', lyrics: '[verse]\nrain on the night road', seed: 3n, durationSeconds: 2, steps: 27 };
      const song = await loaded.value.render(request, new AbortController().signal);
      assert.equal(song.pcm.channels[0]?.length, 2 * 48_000);
      const again = await loaded.value.render(request, new AbortController().signal);
      assert.deepEqual(again.pcm.channels, song.pcm.channels, 'same seed, same samples');
    } finally {
      await loaded.value.release();
    }

    // A changed byte in the DiT's external data is refused at import, naming the file.
    const sidecar = join(target, 'onnx', 'dit_decoder.onnx.data');
    const bytes = await readFile(sidecar);
    bytes[10] = (bytes[10] ?? 0) ^ 0x01;
    await writeFile(sidecar, bytes);
    const refused = await importAcestepExport({ dir: target });
    assert.ok(!refused.ok);
    assert.equal(refused.error.code, 'MODEL_CHECKSUM_MISMATCH');
    assert.match(
      refused.error.message,
      /graph dit_decoder: onnx\/dit_decoder\.onnx\.data sha256 expected [0-9a-f]{64} \(songmint-hub-files\.json, the Hub's hashes\), found/,
    );
  });

  it('fetches the model card minimum set with the split condition encoder (q4 and fp16 graphs); a song with lyrics sings', async () => {
    const splitHub = await startHubServer({ [ONNX_REPO]: join(SPLIT_HUB, 'onnx'), [CHECKPOINT_REPO]: join(HUB, 'checkpoint') });
    const target = join(dir.path, 'split');
    try {
      const done = await execFileAsync(
        process.execPath,
        ['--import', 'tsx', 'scripts/model-fetch.ts', 'acestep-1.5-turbo', '--dir', target, '--precision', 'q4'],
        { env: { ...process.env, HF_ENDPOINT: splitHub.url, HF_TOKEN: 'hf_songmint_test' } },
      );
      assert.match(done.stdout, /acestep-1\.5-turbo \(q4\) from http:\/\/127\.0\.0\.1:\d+: 9 files into/);
      assert.match(done.stdout, /model:fetch done: ace-step-1\.5-turbo passes model:check/);
    } finally {
      await splitHub.close();
    }
    const manifest = JSON.parse(await readFile(join(target, ACESTEP_MANIFEST_FILE), 'utf8')) as {
      graphs: Record<string, { file: string; precision: string } | undefined>;
    };
    assert.equal(manifest.graphs.condition_encoder, undefined);
    assert.deepEqual(
      Object.fromEntries(Object.entries(manifest.graphs).map(([role, g]) => [role, `${g?.file ?? ''} ${g?.precision ?? ''}`])),
      {
        qwen3_embedding_0p6: 'onnx_q4/text_encoder_q4.onnx fp32',
        qwen3_token_embeddings: 'onnx_fp16/text_embed_tokens_fp16.onnx fp16',
        text_projector: 'onnx_fp16/text_projector_fp16.onnx fp16',
        lyric_encoder: 'onnx_q4/lyric_encoder_q4.onnx fp32',
        timbre_encoder: 'onnx_q4/timbre_encoder_q4.onnx fp32',
        dit_decoder: 'onnx_q4/dit_decoder_q4.onnx fp32',
        vae_decoder: 'onnx_fp16/vae_decoder_fp16.onnx fp16',
      },
    );
    const checked = await execFileAsync(process.execPath, ['--import', 'tsx', 'scripts/model-check.ts', target]);
    assert.match(checked.stdout, /model:check passed: ace-step-1\.5-turbo/);
    const loaded = await loadAcestepModel({ modelDir: target, device: 'cpu' });
    assert.ok(loaded.ok, loaded.ok ? '' : loaded.error.message);
    try {
      const request = { prompt: 'warm folk, 90 bpm', lyrics: '[verse]\nrain on the night road', seed: 5n, durationSeconds: 2, steps: 27 };
      const song = await loaded.value.render(request, new AbortController().signal);
      const left = song.pcm.channels[0] ?? new Float32Array();
      assert.equal(left.length, 2 * 48_000);
      assert.ok(left.some((x) => x !== 0) && left.every((x) => Number.isFinite(x) && Math.abs(x) <= 1));
      const again = await loaded.value.render(request, new AbortController().signal);
      assert.deepEqual(again.pcm.channels, song.pcm.channels, 'same seed, same samples');
      const otherLyrics = await loaded.value.render({ ...request, lyrics: '[chorus]\nlove in the rain' }, new AbortController().signal);
      assert.notDeepEqual(otherLyrics.pcm.channels, song.pcm.channels, 'the lyrics reach the song through the lyric encoder');
    } finally {
      await loaded.value.release();
    }
  });

  it('resumes an interrupted download where it stopped', async () => {
    const target = join(dir.path, 'resumed');
    hub.stallAfter(`${ONNX_REPO}/onnx/vae_decoder.onnx`, 50_000);
    const interrupted = await fetchFailure(target);
    assert.equal(interrupted.code, 1);
    assert.match(
      interrupted.stderr,
      /MODEL_DOWNLOAD_FAILED: shreyask\/ACE-Step-v1\.5-ONNX\/onnx\/vae_decoder\.onnx: no data for 2 s; 50000 of \d+ bytes kept in .*vae_decoder\.onnx\.part, run the command again to resume/,
    );
    const part = join(target, 'onnx', 'vae_decoder.onnx.part');
    const kept = (await stat(part)).size;
    assert.equal(kept, 50_000, 'every byte received before the stall is kept');
    const total = (await stat(join(HUB, 'onnx', 'onnx', 'vae_decoder.onnx'))).size;
    const before = hub.requests.length;
    const done = await fetchModel(target);
    assert.match(done.stdout, new RegExp(`resumed shreyask/ACE-Step-v1\\.5-ONNX/onnx/vae_decoder\\.onnx from byte ${kept}`));
    assert.ok(
      hub.requests.slice(before).some((r) => r.url.endsWith('/onnx/vae_decoder.onnx') && r.range === `bytes=${kept}-${total - 1}`),
      'a ranged request from where the part ends',
    );
    assert.ok(
      (await readFile(join(target, 'onnx', 'vae_decoder.onnx'))).equals(await readFile(join(HUB, 'onnx', 'onnx', 'vae_decoder.onnx'))),
    );
    assert.ok(kept < total);
    assert.ok(!existsSync(part));
    assert.match(done.stdout, /model:fetch done/);
  });

  it("refuses a file whose bytes do not match the Hub's LFS sha256, naming it, and imports nothing", async () => {
    const target = join(dir.path, 'corrupt');
    hub.corrupt(`${CHECKPOINT_REPO}/acestep-v15-turbo/silence_latent.pt`);
    const failed = await fetchFailure(target);
    assert.equal(failed.code, 1);
    assert.match(
      failed.stderr,
      /MODEL_CHECKSUM_MISMATCH: ACE-Step\/Ace-Step1\.5\/acestep-v15-turbo\/silence_latent\.pt: LFS sha256 expected [0-9a-f]{64} \(the Hub's\), found [0-9a-f]{64}; the download was deleted/,
    );
    assert.ok(!existsSync(join(target, 'acestep-v15-turbo', 'silence_latent.pt.part')));
    assert.ok(!existsSync(join(target, ACESTEP_MANIFEST_FILE)));
  });
});

describe("model:fetch's choice of files from a repository listing", () => {
  const preset = FETCH_PRESETS['acestep-1.5-turbo'];
  const listing = (repo: string, paths: string[]): Map<string, RemoteFile> =>
    new Map(paths.map((path) => [path, { repo, revision: 'main', path, size: 1, sha256: '0'.repeat(64) }]));
  const checkpoint = listing('ACE-Step/Ace-Step1.5', ['acestep-v15-turbo/silence_latent.pt', 'Qwen3-Embedding-0.6B/tokenizer.json']);

  it('takes the asked precision, falls back to the next larger one, and brings each graph its sidecars', () => {
    assert.ok(preset !== undefined);
    const onnx = listing(ONNX_REPO, [
      'onnx/text_encoder.onnx',
      'onnx/text_encoder.onnx.data',
      'onnx_q4/text_encoder_q4.onnx',
      'onnx_q4/text_encoder_q4.onnx.data',
      'onnx_fp16/text_embed_tokens_fp16.onnx',
      'onnx/text_embed_tokens.onnx',
      'onnx_q4/condition_encoder_q4.onnx',
      'onnx_q4/dit_decoder_q4.onnx',
      'onnx_q4/dit_decoder_q4.onnx.data',
      'onnx_fp16/vae_decoder_fp16.onnx',
      'onnx/vae_decoder.onnx',
    ]);
    const q4 = planFetch(preset, 'q4', onnx, checkpoint);
    assert.ok(q4.ok, q4.ok ? '' : q4.error.message);
    assert.deepEqual(q4.value.roles, {
      qwen3_embedding_0p6: { file: 'onnx_q4/text_encoder_q4.onnx', external_data: ['onnx_q4/text_encoder_q4.onnx.data'] },
      qwen3_token_embeddings: { file: 'onnx_fp16/text_embed_tokens_fp16.onnx', external_data: [] },
      condition_encoder: { file: 'onnx_q4/condition_encoder_q4.onnx', external_data: [] },
      dit_decoder: { file: 'onnx_q4/dit_decoder_q4.onnx', external_data: ['onnx_q4/dit_decoder_q4.onnx.data'] },
      vae_decoder: { file: 'onnx_fp16/vae_decoder_fp16.onnx', external_data: [] },
    });
    assert.equal(q4.value.files.length, 9, 'seven graph files and sidecars, the silence latent and the tokenizer');
    const fp32 = planFetch(preset, 'fp32', onnx, checkpoint);
    assert.ok(!fp32.ok);
    assert.match(fp32.error.message, /has neither a condition_encoder graph nor onnx\/text_projector\.onnx \(the text_projector role/);
  });

  it('takes the optional graphs (remix, uploads) where the repository has them, at the asked precision or a larger one', () => {
    assert.ok(preset !== undefined);
    const base = [
      'onnx/text_encoder.onnx',
      'onnx/text_embed_tokens.onnx',
      'onnx/condition_encoder.onnx',
      'onnx/dit_decoder.onnx',
      'onnx/vae_decoder.onnx',
    ];
    const without = planFetch(preset, 'fp16', listing(ONNX_REPO, base), checkpoint);
    assert.ok(without.ok, without.ok ? '' : without.error.message);
    assert.equal(Object.keys(without.value.roles).length, 5, 'none asked for, none refused');
    const withCodes = planFetch(
      preset,
      'fp16',
      listing(ONNX_REPO, [...base, 'onnx_fp16/audio_tokenizer_fp16.onnx', 'onnx/audio_detokenizer.onnx', 'onnx/vae_encoder.onnx']),
      checkpoint,
    );
    assert.ok(withCodes.ok, withCodes.ok ? '' : withCodes.error.message);
    assert.deepEqual(
      [withCodes.value.roles.audio_tokenizer?.file, withCodes.value.roles.audio_detokenizer?.file, withCodes.value.roles.vae_encoder?.file],
      ['onnx_fp16/audio_tokenizer_fp16.onnx', 'onnx/audio_detokenizer.onnx', 'onnx/vae_encoder.onnx'],
    );
    assert.equal(withCodes.value.files.length, 5 + 3 + 2);
  });

  it('takes the three parts of a split condition encoder when the repository has no combined one', () => {
    assert.ok(preset !== undefined);
    // The model card's DiT-only minimum set.
    const split = listing(ONNX_REPO, [
      'onnx_q4/dit_decoder_q4.onnx',
      'onnx_q4/text_encoder_q4.onnx',
      'onnx_fp16/text_embed_tokens_fp16.onnx',
      'onnx_q4/lyric_encoder_q4.onnx',
      'onnx_fp16/vae_decoder_fp16.onnx',
      'onnx_q4/timbre_encoder_q4.onnx',
      'onnx_fp16/text_projector_fp16.onnx',
      'onnx/text_projector.onnx',
    ]);
    const plan = planFetch(preset, 'q4', split, checkpoint);
    assert.ok(plan.ok, plan.ok ? '' : plan.error.message);
    assert.deepEqual(Object.fromEntries(Object.entries(plan.value.roles).map(([role, r]) => [role, r.file])), {
      qwen3_embedding_0p6: 'onnx_q4/text_encoder_q4.onnx',
      qwen3_token_embeddings: 'onnx_fp16/text_embed_tokens_fp16.onnx',
      text_projector: 'onnx_fp16/text_projector_fp16.onnx',
      lyric_encoder: 'onnx_q4/lyric_encoder_q4.onnx',
      timbre_encoder: 'onnx_q4/timbre_encoder_q4.onnx',
      dit_decoder: 'onnx_q4/dit_decoder_q4.onnx',
      vae_decoder: 'onnx_fp16/vae_decoder_fp16.onnx',
    });
    const partial = planFetch(preset, 'q4', new Map([...split].filter(([path]) => !path.includes('timbre_encoder'))), checkpoint);
    assert.ok(!partial.ok);
    assert.match(
      partial.error.message,
      /has neither a condition_encoder graph nor onnx_q4\/timbre_encoder_q4\.onnx or .* \(the timbre_encoder role of the split condition encoder\)/,
    );
  });
});
