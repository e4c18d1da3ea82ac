/**
 * Data safety (issue 12, item 5) and a failing pinning service (item 2): a backup of PostgreSQL
 * (online base backup, scripts/backup.ts) and of the bucket taken while the services run,
 * restored into a fresh PostgreSQL and a fresh bucket behind a new oracle process: the jobs and
 * objects match, a signature issued before the backup is not issued again, and a job unsigned at
 * the backup is signed exactly once after the restore. Then a pinning service that fails and
 * recovers: metadata upload answers 503 in the error shape with nothing stored, and succeeds on
 * retry.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { startEmbeddedPostgres } from '../../../core/src/embedded-postgres.ts';
import type { EmbeddedPostgresServer } from '../../../core/src/embedded-postgres.ts';
import { createObjectStore } from '../../../core/src/object-store.ts';
import { freePort } from '../../../core/src/testing/free-port.ts';
import { startTestS3, testObjectStoreOptions } from '../../../core/src/testing/s3.ts';
import type { TestS3 } from '../../../core/src/testing/s3.ts';
import { makeTempDir } from '../../../core/src/testing/temp-dirs.ts';
import type { TempDir } from '../../../core/src/testing/temp-dirs.ts';
import { closeDatabase, createDatabase } from '../../../core/src/db/database.ts';
import { backupPostgres, copyBucket, restorePostgres } from '../../../scripts/backup.ts';
import { assertVariantAError } from '../../oracle/helpers/shapes.ts';
import { recordFigure } from '../support/figures.ts';
import type { FaultCluster, OracleReplica, Session } from '../support/cluster.ts';
import { httpRequest, startFaultCluster, waitFor } from '../support/cluster.ts';

const PIN_TOKEN = 'faults-pin-token';

/** The part of the IPFS Pinning Service API the client uses; fails while `failing` is set. */
async function startFlakyPinningService(): Promise<{ url: string; failing: boolean; requests: number; close(): Promise<void> }> {
  const service = { url: '', failing: true, requests: 0, close: async () => undefined as void };
  const server: Server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => {
      service.requests++;
      res.setHeader('content-type', 'application/json');
      if (service.failing || req.headers.authorization !== `Bearer ${PIN_TOKEN}`) {
        res.statusCode = 503;
        res.end('{"error":{"reason":"UNAVAILABLE"}}');
        return;
      }
      const { cid } = JSON.parse(text) as { cid: string };
      res.statusCode = 202;
      res.end(
        JSON.stringify({
          requestid: `req-${service.requests}`,
          status: 'queued',
          created: new Date().toISOString(),
          pin: { cid },
          delegates: [],
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  service.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/psa`;
  service.close = () => new Promise((resolve) => server.close(() => resolve()));
  return service;
}

async function completedJob(
  cluster: FaultCluster,
  oracle: OracleReplica,
  user: Session,
  prompt: string,
): Promise<{ jobId: string; audioUrl: string }> {
  const created = await httpRequest(`${oracle.url}/api/generate`, { token: user.token, body: { prompt, duration: 5 } });
  assert.equal(created.status, 202, created.text);
  const jobId = (created.body as { job_id: string }).job_id;
  const audioUrl = await waitFor(
    `${jobId} to complete`,
    async () => {
      const status = await httpRequest(`${oracle.url}/api/generate/${jobId}`, { token: user.token });
      const body = status.body as { status: string; audio_url?: string };
      if (body.status === 'failed') throw new Error(`${jobId} failed`);
      return body.status === 'completed' ? body.audio_url : undefined;
    },
    120_000,
    250,
  );
  return { jobId, audioUrl };
}

describe('backup and restore; a failing pinning service', { timeout: 600_000 }, () => {
  let cluster: FaultCluster;
  let oracle: OracleReplica;
  let user: Session;
  const cleanups: Array<() => Promise<void>> = [];
  before(async () => {
    cluster = await startFaultCluster();
    oracle = cluster.oracles[0] as OracleReplica;
    await cluster.startWorker();
    user = await cluster.login(oracle, { tier: 'pro' });
  });
  after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
    await cluster?.stop();
  });

  it('a restore keeps jobs and objects, and a signature issued before the backup is not issued twice', async () => {
    const signedBefore = await completedJob(cluster, oracle, user, 'signed before the backup');
    const unsigned = await completedJob(cluster, oracle, user, 'unsigned at the backup');
    const metadata = await httpRequest(`${oracle.url}/api/metadata`, {
      token: user.token,
      body: { name: 'Backed up', description: 'before the backup', audio_url: signedBefore.audioUrl },
    });
    assert.equal(metadata.status, 201, metadata.text);
    const uri = (metadata.body as { metadata_uri: string }).metadata_uri;
    const signature = await httpRequest(`${oracle.url}/api/signature`, {
      token: user.token,
      body: { job_id: signedBefore.jobId, user_address: user.address, metadata_uri: uri },
    });
    assert.equal(signature.status, 200, signature.text);

    // The backup, taken while the oracle and the worker run.
    const backupDir: TempDir = await makeTempDir('backup');
    cleanups.push(() => backupDir.remove());
    await backupPostgres({ url: cluster.pg.url, dataDir: join(cluster.pg.home, 'pgdata'), target: join(backupDir.path, 'pgdata') });
    const live = createObjectStore(
      testObjectStoreOptions({
        endpoint: cluster.s3.endpoint,
        bucket: cluster.s3.bucket,
        region: 'us-east-1',
        accessKeyId: 'S3RVER',
        secretAccessKey: 'S3RVER',
      }),
    );
    const backupBucket: TestS3 = await startTestS3({ bucket: 'songmint-backup' });
    cleanups.push(() => backupBucket.stop());
    const backupStore = createObjectStore(testObjectStoreOptions(backupBucket));
    const copied = await copyBucket(live, backupStore);
    assert.ok(copied.objects >= 2);

    // Restore into a fresh PostgreSQL and a fresh bucket.
    const restoreDir: TempDir = await makeTempDir('restore');
    cleanups.push(() => restoreDir.remove());
    const restored: EmbeddedPostgresServer = await startEmbeddedPostgres({ dir: restoreDir.path, port: await freePort() });
    cleanups.push(() => restored.stop());
    await restored.stop();
    await restorePostgres({ backup: join(backupDir.path, 'pgdata'), dataDir: join(restored.home, 'pgdata') });
    await restored.start();
    const restoredBucket: TestS3 = await startTestS3({ bucket: cluster.s3.bucket });
    cleanups.push(() => restoredBucket.stop());
    const restoredStore = createObjectStore(testObjectStoreOptions(restoredBucket));
    await copyBucket(backupStore, restoredStore);

    const original = createDatabase(cluster.pg.url, { max: 1 });
    const copy = createDatabase(restored.url, { max: 1 });
    cleanups.push(() => closeDatabase(copy));
    cleanups.push(() => closeDatabase(original));
    const jobsQuery = 'SELECT id, status, audio_key, audio_hash, signature FROM generation_jobs ORDER BY id';
    const jobs = await copy.any(jobsQuery);
    assert.deepEqual(jobs, await original.any(jobsQuery), 'the restored jobs are the backed-up ones');
    const listed = await restoredStore.list('audio/');
    assert.ok(listed.ok);
    assert.deepEqual(
      listed.value.map((o) => o.key).sort(),
      jobs.map((job: { audio_key: string }) => job.audio_key).sort(),
      'one restored object per job',
    );
    for (const job of jobs as Array<{ audio_key: string; audio_hash: string }>) {
      const hash = await restoredStore.sha256(job.audio_key);
      assert.ok(hash.ok);
      assert.equal(`0x${hash.value.hex}`, job.audio_hash);
    }

    // A new oracle process on the restored state, with the same secrets.
    const restoredOracle = await cluster.startOracle({
      DATABASE_URL: restored.url,
      S3_ENDPOINT: restoredBucket.endpoint,
      S3_BUCKET: restoredBucket.bucket,
    });
    cleanups.push(() => restoredOracle.kill('SIGTERM'));
    const again = await httpRequest(`${restoredOracle.url}/api/signature`, {
      token: user.token,
      body: { job_id: signedBefore.jobId, user_address: user.address, metadata_uri: uri },
    });
    assert.equal(again.status, 409, again.text);
    assertVariantAError(again.body, 'SIGN_002');

    const unsignedMetadata = await httpRequest(`${restoredOracle.url}/api/metadata`, {
      token: user.token,
      body: { name: 'Restored', description: 'after the restore', audio_url: unsigned.audioUrl },
    });
    assert.equal(unsignedMetadata.status, 201, unsignedMetadata.text);
    const unsignedUri = (unsignedMetadata.body as { metadata_uri: string }).metadata_uri;
    const asks = await Promise.all(
      Array.from({ length: 4 }, () =>
        httpRequest(`${restoredOracle.url}/api/signature`, {
          token: user.token,
          body: { job_id: unsigned.jobId, user_address: user.address, metadata_uri: unsignedUri },
        }),
      ),
    );
    assert.deepEqual(asks.map((ask) => ask.status).sort(), [200, 409, 409, 409], 'signed once after the restore');
    recordFigure('backup-restore', { jobsRestored: jobs.length, objectsRestored: listed.value.length, signaturesReissued: 0 });
    live.close();
    backupStore.close();
    restoredStore.close();
  });

  it('a failing pinning service: metadata upload answers 503 with nothing stored, and succeeds on retry', async () => {
    const pinning = await startFlakyPinningService();
    cleanups.push(() => pinning.close());
    const pinned = await cluster.startOracle({ IPFS_PINNING_URL: pinning.url, IPFS_PINNING_TOKEN: PIN_TOKEN });
    cleanups.push(() => pinned.kill('SIGTERM'));
    const song = await completedJob(cluster, pinned, user, 'pinned later');
    const body = { name: 'Pinned', description: 'pinning recovers', audio_url: song.audioUrl };
    const rows = () =>
      cluster.db.one<{ n: number }>('SELECT count(*)::int AS n FROM song_metadata WHERE job_id = $1', [song.jobId.replace(/^gen_/, '')]);
    const refused = await httpRequest(`${pinned.url}/api/metadata`, { token: user.token, body });
    assert.equal(refused.status, 503, refused.text);
    assertVariantAError(refused.body, 'SERVICE_UNAVAILABLE');
    assert.ok(refused.headers.get('retry-after') !== null, 'a Retry-After to come back after');
    assert.equal((await rows()).n, 0, 'a refused pin leaves no metadata row');
    pinning.failing = false;
    const retried = await httpRequest(`${pinned.url}/api/metadata`, { token: user.token, body });
    assert.equal(retried.status, 201, retried.text);
    assert.equal((await rows()).n, 1);
    recordFigure('pinning-failure', { refusedThenPinned: 1, pinRequests: pinning.requests });
  });
});
