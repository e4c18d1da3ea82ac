import assert from 'node:assert/strict';
import { test } from 'node:test';
import { objectStoreOptionsFromEnv } from '../../core/src/config/object-store-env.ts';
import { loadWorkerConfig } from '../../inference/src/config.ts';
import { loadConfig } from '../../oracle/src/config.ts';

// The worker publishes audio_url and the oracle recognises its own audio URLs and reads the
// objects back: for the same environment both must reach the same bucket under the same URLs.
const environments: Record<string, string>[] = [
  { S3_ENDPOINT: 'http://127.0.0.1:9000', S3_ACCESS_KEY_ID: 'id', S3_SECRET_ACCESS_KEY: 'secret-value' },
  {
    S3_ENDPOINT: 'http://minio:9000/',
    S3_ACCESS_KEY_ID: 'id',
    S3_SECRET_ACCESS_KEY: 'secret-value',
    S3_BUCKET: 'audio-bucket',
    STORAGE_PUBLIC_URL: 'https://cdn.example/songs/',
  },
  { S3_REGION: 'eu-west-1', S3_BUCKET: 'songmint-prod' },
  { S3_BUCKET: 'songmint-prod', STORAGE_PUBLIC_URL: 'https://cdn.example', S3_STORED_CHECKSUMS: 'false', S3_FORCE_PATH_STYLE: 'true' },
];

test('the oracle and the workers derive the same object store and public URLs from one environment', () => {
  for (const env of environments) {
    const oracle = loadConfig(env);
    const worker = loadWorkerConfig({
      ...env,
      DATABASE_URL: 'postgres://u:p@127.0.0.1:5432/db',
      C2PA_SIGN_CERT: 'chain.pem',
      C2PA_PRIVATE_KEY: 'key.pem',
    });
    assert.ok(oracle.ok && worker.ok, JSON.stringify([oracle, worker]));
    const fromOracle = objectStoreOptionsFromEnv(oracle.value);
    assert.deepEqual(objectStoreOptionsFromEnv(worker.value), fromOracle);
    assert.doesNotMatch(fromOracle.publicBaseUrl, /\/$/);
  }
});

test('both refuse an S3 endpoint without credentials, naming the variable', () => {
  const env = { S3_ENDPOINT: 'http://127.0.0.1:9000', S3_SECRET_ACCESS_KEY: 'secret-value' };
  const oracle = loadConfig(env);
  const worker = loadWorkerConfig({
    ...env,
    DATABASE_URL: 'postgres://u:p@127.0.0.1:5432/db',
    C2PA_SIGN_CERT: 'chain.pem',
    C2PA_PRIVATE_KEY: 'key.pem',
  });
  for (const result of [oracle, worker]) {
    assert.equal(result.ok, false);
    const problems = result.ok ? [] : result.error.problems;
    assert.ok(
      problems.some((problem) => problem.startsWith('S3_ACCESS_KEY_ID: S3_ENDPOINT needs')),
      problems.join(' | '),
    );
    assert.ok(!problems.join(' ').includes('secret-value'));
  }
});
