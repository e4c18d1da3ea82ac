/**
 * `npm run model:fetch -- acestep-1.5-xl-turbo` and `MODEL=<preset> npm start`'s fetch, against a
 * loopback server that speaks the Hugging Face Hub's URL scheme as `@huggingface/hub` uses it (a
 * test double for the Hub, helpers/hub-server.ts: POST paths-info for each pinned file's size and
 * LFS sha256, GET resolve with Range for its bytes; the real Hub cannot be reached from here),
 * serving the tiny XL Turbo set written by torch.onnx.export and onnx's helpers
 * (test/fixtures/acestep-export/xl-turbo, one folder per repository, files at their Hub paths).
 * The real code path: the client, HF_ENDPOINT and HF_TOKEN, the pinned revisions, the size check,
 * progress, resume, the sha256 check, then model:import and model:check. The preset the double
 * serves is the real one with the fixture's sizes (the same repositories, revisions and paths).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { makeTempDir } from '../../core/src/testing/temp-dirs.ts';
import type { TempDir } from '../../core/src/testing/temp-dirs.ts';
import { loadAcestepModel } from '../../inference/src/model/acestep/acestep-model.ts';
import { preparePresetModel } from '../../inference/src/model/acestep/fetch.ts';
import { HUB_PRESETS, HUB_RECORD_FILE, planPreset } from '../../inference/src/model/acestep/hub-presets.ts';
import { importAcestep } from '../../inference/src/model/acestep/import.ts';
import { ACESTEP_MANIFEST_FILE } from '../../inference/src/model/acestep/manifest.ts';
import type { HubServer } from './helpers/hub-server.ts';
import { startHubServer } from './helpers/hub-server.ts';
import { filesUnder, fixturePreset, XL_FIXTURE, XL_REPOS } from './helpers/xl-fixture.ts';

const run = promisify(execFile);
const XL = XL_FIXTURE;
const PRESET = HUB_PRESETS['acestep-1.5-xl-turbo'];
const REPOS = XL_REPOS;
const DIT = 'emb1ter/ACE-Step-v1.5-XL-Turbo-ONNX-WebGPU';

describe('model:fetch -- acestep-1.5-xl-turbo --dry-run', () => {
  it('names every file with its pinned revision and size, and the disk needed, for each quality, without asking anyone', async () => {
    const standard = await run(process.execPath, ['--import', 'tsx', 'scripts/model-fetch.ts', 'acestep-1.5-xl-turbo', '--dry-run'], {
      env: { ...process.env, HF_ENDPOINT: 'http://127.0.0.1:9' },
    });
    const lines = standard.stdout.trim().split('\n');
    assert.match(
      lines[0] ?? '',
      /^acestep-1\.5-xl-turbo \(standard\) into .*models\/acestep-1\.5-xl-turbo: nothing downloaded \(--dry-run\)$/,
    );
    assert.deepEqual(lines.slice(1), [
      'shreyask/ACE-Step-v1.5-ONNX@bdabfb5684fd70fcc76f98cbb51bb9ebc47ee342 onnx/text_encoder_q4.onnx 4280307',
      'shreyask/ACE-Step-v1.5-ONNX@bdabfb5684fd70fcc76f98cbb51bb9ebc47ee342 onnx/text_encoder_q4.onnx.data 1684127744',
      'shreyask/ACE-Step-v1.5-ONNX@bdabfb5684fd70fcc76f98cbb51bb9ebc47ee342 onnx/text_embed_tokens_fp16.onnx 2208',
      'shreyask/ACE-Step-v1.5-ONNX@bdabfb5684fd70fcc76f98cbb51bb9ebc47ee342 onnx/text_embed_tokens_fp16.onnx.data 310618112',
      'emb1ter/ACE-Step-v1.5-XL-Turbo-ONNX-WebGPU@cf185389395b3a725d948a59262f3ab4be4b0ad8 condition_encoder_xl_turbo_q4.onnx 2136693',
      'emb1ter/ACE-Step-v1.5-XL-Turbo-ONNX-WebGPU@cf185389395b3a725d948a59262f3ab4be4b0ad8 condition_encoder_xl_turbo_q4.onnx.data 347366896',
      'emb1ter/ACE-Step-v1.5-XL-Turbo-ONNX-WebGPU@cf185389395b3a725d948a59262f3ab4be4b0ad8 dit_decoder_xl_turbo_q4.onnx 9017416',
      'emb1ter/ACE-Step-v1.5-XL-Turbo-ONNX-WebGPU@cf185389395b3a725d948a59262f3ab4be4b0ad8 dit_decoder_xl_turbo_q4.onnx.data.0 949514240',
      'emb1ter/ACE-Step-v1.5-XL-Turbo-ONNX-WebGPU@cf185389395b3a725d948a59262f3ab4be4b0ad8 dit_decoder_xl_turbo_q4.onnx.data.1 942622720',
      'emb1ter/ACE-Step-v1.5-XL-Turbo-ONNX-WebGPU@cf185389395b3a725d948a59262f3ab4be4b0ad8 dit_decoder_xl_turbo_q4.onnx.data.2 811806720',
      'emb1ter/ACE-Step-v1.5-XL-Turbo-ONNX-WebGPU@cf185389395b3a725d948a59262f3ab4be4b0ad8 vae_decoder_fp32.onnx 1076526',
      'emb1ter/ACE-Step-v1.5-XL-Turbo-ONNX-WebGPU@cf185389395b3a725d948a59262f3ab4be4b0ad8 vae_decoder_fp32.onnx.data 337707008',
      'emb1ter/ACE-Step-v1.5-XL-Turbo-ONNX-WebGPU@cf185389395b3a725d948a59262f3ab4be4b0ad8 audio_code_detokenizer_xl_fp16.onnx 127091',
      'emb1ter/ACE-Step-v1.5-XL-Turbo-ONNX-WebGPU@cf185389395b3a725d948a59262f3ab4be4b0ad8 audio_code_detokenizer_xl_fp16.onnx.data 210820224',
      'ACE-Step/Ace-Step1.5@19671f406d603126926c1b7e2adc169acbcade22 Qwen3-Embedding-0.6B/tokenizer.json 11423705',
      'ACE-Step/Ace-Step1.5@19671f406d603126926c1b7e2adc169acbcade22 Qwen3-Embedding-0.6B/tokenizer_config.json 5404',
      'ACE-Step/Ace-Step1.5@19671f406d603126926c1b7e2adc169acbcade22 acestep-v15-turbo/silence_latent.pt 3841215',
      // The sum of the sizes above (the pipeline's TOTAL_DOWNLOAD_BYTES for its standard quality).
      '17 files, 5626494229 bytes (5.63 GB) of disk needed',
    ]);
    const high = await run(
      process.execPath,
      ['--import', 'tsx', 'scripts/model-fetch.ts', 'acestep-1.5-xl-turbo', '--quality', 'high', '--dry-run'],
      { env: { ...process.env, HF_ENDPOINT: 'http://127.0.0.1:9' } },
    );
    assert.match(high.stdout, /@cf185389395b3a725d948a59262f3ab4be4b0ad8 dit_decoder_xl_turbo_q8\.onnx\.data\.5 80547840\n/);
    assert.match(high.stdout, /@cf185389395b3a725d948a59262f3ab4be4b0ad8 condition_encoder_xl_turbo_q8\.onnx\.data\.0 656270832\n/);
    assert.doesNotMatch(
      high.stdout,
      /xl_turbo_q4/,
      'the q8 condition encoder and DiT in place of the q4 ones (the text encoder is q4 in both)',
    );
    assert.match(high.stdout, /20 files, 8004092572 bytes \(8\.00 GB\) of disk needed\n$/);
  });

  it('pins every revision to a commit and covers every file the layout needs at both qualities', () => {
    assert.ok(PRESET !== undefined);
    for (const r of PRESET.repositories) assert.match(r.revision, /^[0-9a-f]{40}$/);
    for (const quality of ['standard', 'high'] as const) {
      const plan = planPreset(PRESET, quality);
      assert.ok(plan.ok, plan.ok ? '' : plan.error.message);
      assert.equal(new Set(plan.value.map((f) => f.path)).size, plan.value.length);
    }
  });
});

describe('model:fetch from a local Hub (test double)', () => {
  let hub: HubServer;
  let dir: TempDir;
  let presetFile: string;
  before(async () => {
    hub = await startHubServer(Object.fromEntries(REPOS.map((repo) => [repo, join(XL, repo)])));
    dir = await makeTempDir('acestep-fetch');
    presetFile = join(dir.path, 'preset.json');
    await writeFile(presetFile, JSON.stringify(fixturePreset()));
  });
  after(async () => {
    await hub.close();
    await dir.remove();
  });

  const fetchModel = (target: string) =>
    run(process.execPath, ['--import', 'tsx', 'scripts/model-fetch.ts', presetFile, '--dir', target], {
      env: { ...process.env, HF_ENDPOINT: hub.url, HF_TOKEN: 'hf_songmint_test', MODEL_FETCH_STALL_SECONDS: '2' },
    });
  const fetchFailure = (target: string) =>
    fetchModel(target).then(
      () => assert.fail('model:fetch passed'),
      (err: { code: number; stdout: string; stderr: string }) => err,
    );

  it('downloads the pinned files with the token, checks them, imports and checks the folder; the song sings', async () => {
    const target = join(dir.path, 'xl');
    const done = await fetchModel(target);
    assert.match(done.stdout, /acestep-1\.5-xl-turbo-fixture \(standard\) from http:\/\/127\.0\.0\.1:\d+: 17 files, [\d.]+ kB, into/);
    assert.match(done.stdout, /disk: [\d.]+ kB still to download \([\d.]+ [kMG]B free\)/);
    assert.match(done.stderr, /\[#{20}\] 100% .* emb1ter\/ACE-Step-v1\.5-XL-Turbo-ONNX-WebGPU\/dit_decoder_xl_turbo_q4\.onnx\.data\.2/);
    assert.match(done.stdout, /verified every file against the Hub's size and sha256; wrote songmint-hub-files\.json/);
    assert.match(done.stdout, /model:fetch done: ace-step-1\.5-xl-turbo passes model:check/);
    assert.ok(
      hub.requests.length > 0 && hub.requests.every((r) => r.authorization === 'Bearer hf_songmint_test'),
      'HF_TOKEN on every request',
    );
    const pinned = new Map(PRESET?.repositories.map((r) => [r.repo, r.revision]));
    for (const request of hub.requests) {
      const repo = REPOS.find((r) => request.url.includes(`/${r}/`));
      assert.equal(
        request.revision,
        repo === undefined ? undefined : pinned.get(repo),
        `${request.method} ${request.url} at the pinned revision`,
      );
    }
    assert.ok(hub.requests.some((r) => r.method === 'POST' && r.url.endsWith('/paths-info/cf185389395b3a725d948a59262f3ab4be4b0ad8')));
    // Files at their Hub paths, the three repositories in one folder; each recorded with the Hub's sha256.
    const record = JSON.parse(await readFile(join(target, HUB_RECORD_FILE), 'utf8')) as {
      files: Record<string, { repo: string; sha256: string; size: number }>;
      sources: { repo: string; revision: string }[];
    };
    for (const repo of REPOS)
      for (const path of filesUnder(join(XL, repo))) {
        const bytes = await readFile(join(XL, repo, path));
        assert.ok(bytes.equals(await readFile(join(target, path))), `${path} byte for byte`);
        assert.deepEqual(record.files[path], { repo, sha256: createHash('sha256').update(bytes).digest('hex'), size: bytes.length });
      }
    assert.deepEqual(
      record.sources,
      PRESET?.repositories.map((r) => ({ repo: r.repo, revision: r.revision })),
    );
    const manifest = JSON.parse(await readFile(join(target, ACESTEP_MANIFEST_FILE), 'utf8')) as {
      layout: string;
      sources: unknown;
      graphs: Record<string, { file: string; precision: string; external_data: { file: string }[] }>;
    };
    assert.equal(manifest.layout, 'xl-turbo');
    assert.deepEqual(manifest.sources, record.sources);
    assert.deepEqual(
      manifest.graphs.dit?.external_data.map((e) => e.file),
      [0, 1, 2].map((i) => `dit_decoder_xl_turbo_q4.onnx.data.${i}`),
    );
    assert.equal(manifest.graphs.dit?.precision, 'q4');
    const checked = await run(process.execPath, ['--import', 'tsx', 'scripts/model-check.ts', target]);
    assert.match(checked.stdout, /model:check passed: ace-step-1\.5-xl-turbo .*; sings lyrics/);
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

    // A changed byte in a DiT shard is refused at import, naming the file and the Hub's hash.
    const shard = join(target, 'dit_decoder_xl_turbo_q4.onnx.data.1');
    const bytes = await readFile(shard);
    bytes[10] = (bytes[10] ?? 0) ^ 0x01;
    await writeFile(shard, bytes);
    const refused = await importAcestep({ dir: target });
    assert.ok(!refused.ok);
    assert.equal(refused.error.code, 'MODEL_CHECKSUM_MISMATCH');
    assert.match(
      refused.error.message,
      /^graph dit external data: dit_decoder_xl_turbo_q4\.onnx\.data\.1 sha256 expected [0-9a-f]{64} \(songmint-hub-files\.json, the Hub's hashes\), found [0-9a-f]{64}$/,
    );
  });

  it('resumes an interrupted download where it stopped', async () => {
    const target = join(dir.path, 'resumed');
    hub.stallAfter(`${DIT}/dit_decoder_xl_turbo_q4.onnx.data.0`, 1500);
    const interrupted = await fetchFailure(target);
    assert.equal(interrupted.code, 1);
    assert.match(
      interrupted.stderr,
      /MODEL_DOWNLOAD_FAILED: emb1ter\/ACE-Step-v1\.5-XL-Turbo-ONNX-WebGPU\/dit_decoder_xl_turbo_q4\.onnx\.data\.0: no data for 2 s; 1500 of \d+ bytes kept in .*dit_decoder_xl_turbo_q4\.onnx\.data\.0\.part, run the command again to resume/,
    );
    const part = join(target, 'dit_decoder_xl_turbo_q4.onnx.data.0.part');
    assert.equal((await stat(part)).size, 1500, 'every byte received before the stall is kept');
    const total = (await stat(join(XL, DIT, 'dit_decoder_xl_turbo_q4.onnx.data.0'))).size;
    const before = hub.requests.length;
    const done = await fetchModel(target);
    assert.match(
      done.stdout,
      /resumed emb1ter\/ACE-Step-v1\.5-XL-Turbo-ONNX-WebGPU\/dit_decoder_xl_turbo_q4\.onnx\.data\.0 from byte 1500/,
    );
    assert.ok(
      hub.requests
        .slice(before)
        .some((r) => r.url.endsWith('/dit_decoder_xl_turbo_q4.onnx.data.0') && r.range === `bytes=1500-${total - 1}`),
      'a ranged request from where the part ends',
    );
    assert.ok(!existsSync(part));
    assert.match(done.stdout, /model:fetch done/);
  });

  it('refuses a file the Hub lists at another size than the pinned one, naming it, before downloading anything', async () => {
    const target = join(dir.path, 'resized');
    hub.misreport(`${DIT}/vae_decoder_fp32.onnx.data`, 999);
    try {
      const failed = await fetchFailure(target);
      assert.equal(failed.code, 1);
      assert.match(
        failed.stderr,
        /MODEL_SIZE_MISMATCH: emb1ter\/ACE-Step-v1\.5-XL-Turbo-ONNX-WebGPU@cf185389395b3a725d948a59262f3ab4be4b0ad8 vae_decoder_fp32\.onnx\.data: the Hub lists 999 bytes, the preset pins \d+/,
      );
      assert.deepEqual(filesUnder(target), [], 'nothing downloaded');
    } finally {
      hub.restore(`${DIT}/vae_decoder_fp32.onnx.data`);
    }
  });

  it("refuses a file whose bytes do not match the Hub's LFS sha256, naming it, and imports nothing", async () => {
    const target = join(dir.path, 'corrupt');
    hub.corrupt('ACE-Step/Ace-Step1.5/acestep-v15-turbo/silence_latent.pt');
    const failed = await fetchFailure(target).finally(() => hub.restore('ACE-Step/Ace-Step1.5/acestep-v15-turbo/silence_latent.pt'));
    assert.equal(failed.code, 1);
    assert.match(
      failed.stderr,
      /MODEL_CHECKSUM_MISMATCH: ACE-Step\/Ace-Step1\.5\/acestep-v15-turbo\/silence_latent\.pt: LFS sha256 expected [0-9a-f]{64} \(the Hub's\), found [0-9a-f]{64}; the download was deleted/,
    );
    assert.ok(!existsSync(join(target, 'acestep-v15-turbo', 'silence_latent.pt.part')));
    assert.ok(!existsSync(join(target, ACESTEP_MANIFEST_FILE)));
  });

  it("MODEL=<preset> npm start's step: fetches and imports on the first start, reuses the folder on the next without asking the Hub", async () => {
    const target = join(dir.path, 'started');
    const lines: string[] = [];
    const options = {
      model: presetFile,
      quality: 'standard' as const,
      dir: target,
      connection: { hubUrl: hub.url },
      stallMs: 2000,
      log: (line: string) => lines.push(line),
      progress: () => undefined,
    };
    const first = await preparePresetModel(options);
    assert.ok(first.ok, first.ok ? '' : first.error.message);
    assert.deepEqual(first.value, { dir: target, reused: false, name: 'ace-step-1.5-xl-turbo' });
    assert.ok(existsSync(join(target, ACESTEP_MANIFEST_FILE)));
    const asked = hub.requests.length;
    const second = await preparePresetModel(options);
    assert.ok(second.ok, second.ok ? '' : second.error.message);
    assert.equal(second.value.reused, true);
    assert.equal(hub.requests.length, asked, 'the second start asked the Hub nothing');
    assert.match(lines.join('\n'), /reusing .*started \(imported earlier; the worker checks it at start\)/);
    const other = await preparePresetModel({ ...options, model: 'no-such-preset' });
    assert.ok(!other.ok);
    assert.match(other.error.message, /no preset no-such-preset: the presets are acestep-1\.5-xl-turbo/);
  });
});
