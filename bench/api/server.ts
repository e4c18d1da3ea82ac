/**
 * The benchmark's server side: s3rver in a process of its own, and the real oracle (embedded
 * PostgreSQL, bearer auth, hourly limits, real signing) seeded with users and completed jobs, plus
 * the bare Express baseline route; it answers the load generator's CPU and profile requests.
 */
import { fork } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import express from 'express';
import { pino } from 'pino';
import { generatePrivateKey } from 'viem/accounts';
import { closeDatabase, createDatabase } from '../../core/src/db/database.ts';
import { audioObjectKey, toPublicJobId } from '../../core/src/generation-queue.ts';
import { createObjectStore } from '../../core/src/object-store.ts';
import { createBoss, ensureGenerationQueue } from '../../core/src/queue.ts';
import { startTestPostgres } from '../../core/src/testing/postgres.ts';
import { startTestS3, testObjectStoreOptions } from '../../core/src/testing/s3.ts';
import { createMintSigner } from '../../oracle/src/chain/mint-signer.ts';
import { issueSessionToken } from '../../oracle/src/domain/session-token.ts';
import { contentHash } from '../../core/src/content-hash.ts';
import { createApp } from '../../oracle/src/http/app.ts';
import type { AppDeps } from '../../oracle/src/http/deps.ts';
import { DEFAULT_JOB_STREAM_LIMITS, createJobEventsHub } from '../../oracle/src/domain/job-events-hub.ts';
import { createMetrics } from '../../oracle/src/http/metrics.ts';
import { postmasterPid, treeCpuMs } from './process-cpu.ts';
import { startProfiler } from './profiler.ts';
import type { FromServer } from './protocol.ts';
import { AUDIO_BYTES, DB_POOL, SIGNATURE_JOBS, USERS } from './settings.ts';
import { JOB_STATUS } from '../../core/src/jobs/job-state.ts';

/** The benchmark's entry point, which this module's processes are forked from. */
const ENTRY = fileURLToPath(new URL('../api.ts', import.meta.url));

/** s3rver in a process of its own, so the oracle's CPU figures exclude the object store's. */
export async function serveS3(): Promise<void> {
  const s3 = await startTestS3();
  process.send?.({
    endpoint: s3.endpoint,
    bucket: s3.bucket,
    region: s3.region,
    accessKeyId: s3.accessKeyId,
    secretAccessKey: s3.secretAccessKey,
  });
  process.on('message', (message) => {
    if (message === 'stop') void s3.stop().then(() => process.exit(0));
  });
}

interface S3Location {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}

export async function serve(): Promise<void> {
  const pg = await startTestPostgres();
  const s3Process = fork(ENTRY, ['--s3'], { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
  const s3 = await new Promise<S3Location>((resolve) => s3Process.once('message', (message: S3Location) => resolve(message)));
  const db = createDatabase(pg.url, { max: DB_POOL });
  const boss = createBoss(pg.url, { supervise: false });
  await boss.start();
  await ensureGenerationQueue(boss);
  const objectStore = createObjectStore(testObjectStoreOptions(s3, 'https://cdn.songmint.bench'));
  const downloadStore = createObjectStore({ ...testObjectStoreOptions(s3, 'https://cdn.songmint.bench'), storedChecksums: false });
  const signer = createMintSigner(generatePrivateKey());
  const session = { secret: new Uint8Array(randomBytes(32)), ttlSeconds: 3600 };
  const deps: AppDeps = {
    db,
    boss,
    logger: pino({ level: 'silent' }),
    metrics: createMetrics(db),
    session,
    siwe: { domain: 'songmint.bench', uri: 'https://songmint.bench', nonceTtlSeconds: 600 },
    queueCapacity: 1000,
    jobEvents: createJobEventsHub({ db, logger: pino({ level: 'silent' }), limits: DEFAULT_JOB_STREAM_LIMITS }),
    now: () => new Date(),
  };
  deps.mint = { objectStore, signer, chain: { chainId: 8453 } };
  const downloadDeps: AppDeps = { ...deps, mint: { objectStore: downloadStore, signer, chain: { chainId: 8453 } } };

  // Users with session tokens, and completed jobs whose audio objects are all different.
  const userCount = USERS;
  const users: Array<{ id: string; token: string; wallet: string }> = [];
  for (let u = 0; u < userCount; u++) {
    const wallet = `0x${randomBytes(20).toString('hex')}`;
    const { id } = await db.one<{ id: string }>(`INSERT INTO users (wallet_address, tier) VALUES ($1, 'enterprise') RETURNING id`, [
      wallet,
    ]);
    const { token } = await issueSessionToken(session, { userId: id, walletAddress: wallet }, new Date());
    users.push({ id, token, wallet });
  }
  const jobs: Array<[string, string, string]> = [];
  const base = new Uint8Array(randomBytes(AUDIO_BYTES));
  const rows: Array<{ id: string; userId: string; key: string; url: string; hash: string }> = [];
  for (let i = 0; i < SIGNATURE_JOBS; i++) {
    const user = users[i % userCount];
    if (user === undefined) throw new Error('no user');
    const id = randomUUID();
    const key = audioObjectKey(id);
    const bytes = new Uint8Array(base);
    bytes.set(Buffer.from(id.replaceAll('-', ''), 'hex'), 0);
    // As the worker uploads audio: with its SHA-256 as the S3 additional checksum.
    const hash = contentHash(bytes);
    const put = await objectStore.put(key, bytes, { contentType: 'audio/mpeg', sha256: hash.slice(2) });
    if (!put.ok) throw new Error(put.error.message);
    rows.push({ id, userId: user.id, key, url: objectStore.publicUrl(key), hash });
    jobs.push([user.token, toPublicJobId(id), user.wallet]);
  }
  await db.none(
    `INSERT INTO generation_jobs (id, user_id, user_address, prompt, duration, tier, status, progress, audio_key, audio_url, audio_hash,
                                  actual_duration, completed_at)
     SELECT r.id::uuid, r.user_id::uuid, u.wallet_address, 'bench song', 5, 'enterprise', '${JOB_STATUS.completed}', 100, r.key, r.url, r.hash, 5.0, now()
       FROM json_to_recordset($1::json) AS r(id text, user_id text, key text, url text, hash text)
       JOIN users u ON u.id = r.user_id::uuid`,
    [JSON.stringify(rows.map((r) => ({ id: r.id, user_id: r.userId, key: r.key, url: r.url, hash: r.hash })))],
  );
  await db.none('ANALYZE');

  const api = await listen(createApp(deps));
  const downloadApi = await listen(createApp(downloadDeps));
  const first = jobs[0];
  if (first === undefined) throw new Error('no jobs');
  const view = await fetch(`${api}/api/generate/${first[1]}`, { headers: { authorization: `Bearer ${first[0]}` } });
  const bareBody: unknown = await view.json();
  const bare = express();
  bare.get('/bare/:job_id', (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json(bareBody);
  });
  const bareUrl = await listen(bare);

  const send = (message: FromServer) => process.send?.(message);
  send({ type: 'ready', seeded: { apiUrl: api, downloadApiUrl: downloadApi, bareUrl, jobs, bareBody } });
  const profiler = await startProfiler(process.env.BENCH_CPU_PROFILE);
  process.on('message', (message) => {
    if (typeof message === 'string' && message.startsWith('profile:')) {
      void profiler(message.slice('profile:'.length)).then(() => send({ type: 'profiled' }));
      return;
    }
    if (message === 'cpu') {
      const usage = process.cpuUsage();
      const postmaster = postmasterPid(new URL(pg.url).port);
      send({
        type: 'cpu',
        cpu: {
          oracle: (usage.user + usage.system) / 1000,
          postgres: postmaster === undefined ? Number.NaN : treeCpuMs(postmaster),
          s3: s3Process.pid === undefined ? Number.NaN : treeCpuMs(s3Process.pid),
        },
      });
      return;
    }
    if (message === 'stop') {
      void (async () => {
        await boss.stop({ graceful: false, close: true });
        await deps.jobEvents.close();
        await closeDatabase(db);
        objectStore.close();
        downloadStore.close();
        s3Process.send('stop');
        await new Promise((resolve) => s3Process.once('exit', resolve));
        await pg.stop();
        process.exit(0);
      })();
    }
  });
}

function listen(app: express.Express): Promise<string> {
  return new Promise((resolve) => {
    const server = app.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
  });
}
