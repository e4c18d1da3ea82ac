/**
 * ACE-Step 1.5 through the API end to end, from a directory as the public exporter ships it: the
 * torch.onnx.export fixture (test/fixtures/acestep-export/exporter: 10-input condition encoder,
 * bool encoder mask, `audio` output, the export's manifest.json and io_contract*.json, a
 * torch.save silence latent) made ready by model:import. A real worker (MIT + Apache-2.0,
 * commercial use) sings songs with lyrics asked through `POST /api/generate`, the same seed gives
 * the same samples; `/health/ready` and the job's `model` field name the model, and the oracle
 * signs its mint with no override (the licence guard's positive side).
 */
import assert from 'node:assert/strict';
import { cp } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { makeTempDir } from '../../core/src/testing/temp-dirs.ts';
import type { TempDir } from '../../core/src/testing/temp-dirs.ts';
import { id3v2Length } from '../../inference/src/audio/id3-tag.ts';
import { importAcestep } from '../../inference/src/model/acestep/import.ts';
import type { WorkerProcess } from '../../inference/src/worker/process.ts';
import type { ModelLicencePolicy } from '../../oracle/src/domain/model-licence.ts';
import { startStackWorker, startStorageStack } from '../oracle/storage-stack.ts';
import type { StorageStack } from '../oracle/storage-stack.ts';

const METADATA_URI = 'ipfs://bafkreibwnxqpvx2gp2ayinmhfyd5ns7oyjfqtbspo4zrnkpbpagn5g62eq';
const LYRICS = '[verse]\nneon rain on the night road\n[chorus]\nhold on, hold on';

describe('ACE-Step 1.5 behind the API', () => {
  const policy: ModelLicencePolicy = { allowNonCommercialModels: false };
  let stack: StorageStack;
  let modelDir: TempDir;
  let worker: WorkerProcess;

  before(async () => {
    modelDir = await makeTempDir('acestep-api');
    await cp(join(import.meta.dirname, '..', 'fixtures', 'acestep-export', 'exporter'), modelDir.path, { recursive: true });
    const imported = await importAcestep({ dir: modelDir.path });
    assert.ok(imported.ok, imported.ok ? '' : imported.error.message);
    stack = await startStorageStack({ modelLicence: policy });
    worker = await startStackWorker(stack, { MODEL_DIR: modelDir.path, MODEL_DEVICE: 'cpu', ENCODER_THREADS: '2' });
  });
  after(async () => {
    await worker.stop();
    await stack.stop();
    await modelDir.remove();
  });

  it('sings the asked lyrics, names the model when ready and on the job, and gets its mint signed', async () => {
    const ready = await stack.app.request('/health/ready');
    assert.equal(ready.status, 200, ready.text);
    assert.deepEqual((ready.body as { checks: { workers: { models: string[] } } }).checks.workers.models, ['ace-step-1.5-turbo@1.5']);

    const alice = await stack.app.login();
    type Job = { status: string; lyrics?: string; duration?: number; audio_url?: string | null; model?: { name: string; version: string } };
    const generate = async (): Promise<{ jobId: string; job: Job }> => {
      const created = await stack.app.request('/api/generate', {
        token: alice.token,
        body: { prompt: 'dreamy synthwave, 96 bpm, in A minor', duration: 5, seed: 7, lyrics: LYRICS },
      });
      assert.equal(created.status, 202, created.text);
      const jobId = (created.body as { job_id: string }).job_id;
      const deadline = Date.now() + 120_000;
      let job: Job = { status: 'queued' };
      while (job.status !== 'completed') {
        const polled = await stack.app.request(`/api/generate/${jobId}`, { token: alice.token });
        job = polled.body as Job;
        assert.notEqual(job.status, 'failed', polled.text);
        assert.ok(Date.now() < deadline, 'job completed in time');
        if (job.status !== 'completed') await new Promise((r) => setTimeout(r, 100));
      }
      return { jobId, job };
    };
    const { jobId, job } = await generate();
    const again = await generate();
    // The stored MP3s past their ID3 tags (each carries its own content credentials): the same frames.
    const frames = async (url: string | null | undefined): Promise<Buffer> => {
      const stored = await stack.objectStore.get(new URL(url ?? '').pathname.slice(1));
      assert.ok(stored.ok, `stored object for ${url}`);
      return Buffer.from(stored.value.bytes.subarray(id3v2Length(stored.value.bytes)));
    };
    assert.ok((await frames(job.audio_url)).equals(await frames(again.job.audio_url)), 'same seed, same samples');
    assert.deepEqual(job.model, { name: 'ace-step-1.5-turbo', version: '1.5' });
    assert.equal(job.lyrics, LYRICS);
    assert.equal(job.duration, 5);

    const signed = await stack.app.request('/api/signature', {
      token: alice.token,
      body: { job_id: jobId, user_address: alice.address, metadata_uri: METADATA_URI },
    });
    assert.equal(signed.status, 200, signed.text);
    assert.match((signed.body as { signature: string }).signature, /^0x[0-9a-f]{130}$/);
  });
});
