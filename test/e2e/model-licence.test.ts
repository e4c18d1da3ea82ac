/**
 * The licence guard end to end: a song generated through the API by a real worker running a
 * model licensed for non-commercial use only (the tiny MusicGen-format model, declared
 * CC-BY-NC-4.0 like MusicGen's weights) gets no mint signature (SIGN_005, Variant A shape);
 * with the operator's override it does.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { makeTempDir } from '../../core/src/testing/temp-dirs.ts';
import type { TempDir } from '../../core/src/testing/temp-dirs.ts';
import { writeTinyMusicgen } from '../support/tiny-models/musicgen.ts';
import type { WorkerProcess } from '../../inference/src/worker/process.ts';
import type { ModelLicencePolicy } from '../../oracle/src/domain/model-licence.ts';
import { assertVariantAError } from '../oracle/helpers/shapes.ts';
import { startStackWorker, startStorageStack } from '../oracle/storage-stack.ts';
import type { StorageStack } from '../oracle/storage-stack.ts';

const METADATA_URI = 'ipfs://bafkreibwnxqpvx2gp2ayinmhfyd5ns7oyjfqtbspo4zrnkpbpagn5g62eq';

describe('mint signatures and the licence of the model that made the audio', () => {
  // The operator's setting, as the oracle read it at start; the test flips it as a restart would.
  const policy: ModelLicencePolicy = { allowNonCommercialModels: false };
  let stack: StorageStack;
  let modelDir: TempDir;
  let worker: WorkerProcess;

  before(async () => {
    modelDir = await makeTempDir('musicgen-nc');
    await writeTinyMusicgen(modelDir.path, { name: 'musicgen-nc-tiny', licence: { spdx: 'CC-BY-NC-4.0', commercial_use: false } });
    stack = await startStorageStack({ modelLicence: policy });
    worker = await startStackWorker(stack, { MODEL_DIR: modelDir.path, ENCODER_THREADS: '2' });
  });
  after(async () => {
    await worker.stop();
    await stack.stop();
    await modelDir.remove();
  });

  it('refuses with SIGN_005 for a non-commercial model, and signs with the override', async () => {
    const alice = await stack.app.login();
    const created = await stack.app.request('/api/generate', {
      token: alice.token,
      body: { prompt: 'dreamy synthwave', duration: 5, seed: 7 },
    });
    assert.equal(created.status, 202, created.text);
    const jobId = (created.body as { job_id: string }).job_id;
    const deadline = Date.now() + 120_000;
    let status = '';
    while (status !== 'completed') {
      const polled = await stack.app.request(`/api/generate/${jobId}`, { token: alice.token });
      status = (polled.body as { status: string }).status;
      assert.notEqual(status, 'failed', polled.text);
      assert.ok(Date.now() < deadline, 'job completed in time');
      if (status !== 'completed') await new Promise((r) => setTimeout(r, 100));
    }

    const body = { job_id: jobId, user_address: alice.address, metadata_uri: METADATA_URI };
    const refused = await stack.app.request('/api/signature', { token: alice.token, body });
    assert.equal(refused.status, 403, refused.text);
    assertVariantAError(refused.body, 'SIGN_005');
    const error = (refused.body as { error: { message: string; details: string } }).error;
    assert.equal(error.message, 'Model licence forbids commercial use');
    assert.match(error.details, /musicgen-nc-tiny@1\.0\.0, licensed CC-BY-NC-4\.0/);
    assert.match(error.details, /ALLOW_NONCOMMERCIAL_MODEL_MINTING/);
    const unsigned = await stack.app.db.one<{ signature: string | null }>(
      'SELECT signature FROM generation_jobs WHERE id = substring($1 from 5)::uuid',
      [jobId],
    );
    assert.equal(unsigned.signature, null, 'nothing was claimed');

    policy.allowNonCommercialModels = true;
    const issued = await stack.app.request('/api/signature', { token: alice.token, body });
    assert.equal(issued.status, 200, issued.text);
    assert.match((issued.body as { signature: string }).signature, /^0x[0-9a-f]{130}$/);
  });
});
