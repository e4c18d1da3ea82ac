import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { storagePublicUrl } from '../../core/src/config/object-store-env.ts';
import { BUILTIN_MODEL_DIR, loadWorkerConfig } from '../../inference/src/config.ts';

describe('worker configuration', () => {
  const signing = { C2PA_SIGN_CERT: '/etc/songmint/c2pa-chain.pem', C2PA_PRIVATE_KEY: '/etc/songmint/c2pa-key.pem' };
  const base = {
    DATABASE_URL: 'postgres://u:p@127.0.0.1:5432/db',
    S3_ENDPOINT: 'http://127.0.0.1:9000',
    S3_ACCESS_KEY_ID: 'id',
    S3_SECRET_ACCESS_KEY: 'very-secret',
    ...signing,
  };

  it('applies the spec defaults: built-in model, auto device and encoder, 300 s limit, fleet cap 10', () => {
    const loaded = loadWorkerConfig(base);
    assert.ok(loaded.ok);
    const c = loaded.value;
    assert.deepEqual(
      [
        c.MODEL_DIR,
        c.MODEL_DEVICE,
        c.MP3_ENCODER,
        c.JOB_TIME_LIMIT_MS,
        c.FLEET_SLOTS,
        c.WORKER_CONCURRENCY,
        c.INFERENCE_TEST_SLOW_MODEL_MS,
      ],
      [BUILTIN_MODEL_DIR, 'auto', 'auto', 300_000, 10, 1, 0],
    );
    assert.equal(storagePublicUrl(c), 'http://127.0.0.1:9000/songmint');
  });

  it('reports every problem with the variable name and never echoes secrets', () => {
    const loaded = loadWorkerConfig({
      S3_ENDPOINT: 'http://127.0.0.1:9000',
      S3_SECRET_ACCESS_KEY: 'very-secret',
      MODEL_DEVICE: 'tpu',
      WORKER_CONCURRENCY: '11',
      DATABASE_URL: '',
    });
    assert.equal(loaded.ok, false);
    const problems = loaded.ok ? [] : loaded.error.problems;
    for (const key of ['DATABASE_URL', 'MODEL_DEVICE', 'WORKER_CONCURRENCY']) {
      assert.ok(
        problems.some((p) => p.startsWith(key)),
        `${key} reported: ${problems.join(' | ')}`,
      );
    }
    assert.ok(problems.some((p) => p.includes('at most 10')));
    const creds = loadWorkerConfig({
      DATABASE_URL: base.DATABASE_URL,
      S3_ENDPOINT: base.S3_ENDPOINT,
      S3_SECRET_ACCESS_KEY: 'very-secret',
      ...signing,
    });
    const credProblems = creds.ok ? [] : creds.error.problems;
    assert.ok(
      credProblems.some((p) => p.startsWith('S3_ACCESS_KEY_ID')),
      credProblems.join(' | '),
    );
    assert.ok(![...problems, ...credProblems].join(' ').includes('very-secret'));
    const aws = loadWorkerConfig({ DATABASE_URL: base.DATABASE_URL, S3_BUCKET: 'songs', S3_REGION: 'eu-west-1', ...signing });
    assert.ok(aws.ok, aws.ok ? '' : aws.error.problems.join(' | '));
    assert.equal(storagePublicUrl(aws.value), 'https://songs.s3.eu-west-1.amazonaws.com');
  });
});
