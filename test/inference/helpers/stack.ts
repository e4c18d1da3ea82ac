/**
 * Real infrastructure for the inference tests: embedded PostgreSQL (migrated), s3rver on
 * loopback, pg-boss with the generation queue, and helpers to enqueue jobs the way the oracle
 * does (job row and queue message in one transaction) and to run workers in-process.
 */
import { randomBytes } from 'node:crypto';
import { PgBoss } from 'pg-boss';
import { pino } from 'pino';
import { closeDatabase, createDatabase } from '../../../core/src/db/database.ts';
import type { Database } from '../../../core/src/db/database.ts';
import { GENERATION_QUEUE } from '../../../core/src/generation-queue.ts';
import type { Tier } from '../../../core/src/generation-queue.ts';
import { createObjectStore } from '../../../core/src/object-store.ts';
import type { ObjectStore } from '../../../core/src/object-store.ts';
import { queueJob } from '../../../core/src/jobs/job-state.ts';
import type { SongEdit } from '../../../core/src/song-edits.ts';
import { createBoss, ensureGenerationQueue } from '../../../core/src/queue.ts';
import { startTestPostgres } from '../../../core/src/testing/postgres.ts';
import type { TestPostgres } from '../../../core/src/testing/postgres.ts';
import { startTestS3, testObjectStoreOptions } from '../../../core/src/testing/s3.ts';
import type { TestS3 } from '../../../core/src/testing/s3.ts';
import { testSigningIdentity } from '../../support/c2pa.ts';
import { loadWorkerConfig } from '../../../inference/src/config.ts';
import type { WorkerEnv } from '../../../inference/src/config.ts';
import type { WorkerProcess } from '../../../inference/src/worker/process.ts';
import { startWorkerProcess } from '../../../inference/src/worker/process.ts';
import { waitFor } from '../../support/wait-for.ts';

export interface JobInput {
  prompt?: string;
  duration?: number;
  seed?: bigint;
  steps?: 27 | 60;
  lyrics?: string;
  withLyrics?: boolean;
  tier?: Tier;
  /** An edit of an earlier job (the oracle checks it first; here it is written as given). */
  edit?: SongEdit;
}

export interface Stack {
  pg: TestPostgres;
  s3: TestS3;
  db: Database;
  boss: PgBoss;
  /** A pg-boss that runs queue maintenance every second (expiry, heartbeat failures). */
  supervisor: PgBoss;
  store: ObjectStore;
  env: Record<string, string>;
  /** The development CA the workers' signing certificate chains to (C2PA trust anchor). */
  c2paCaPem: string;
  enqueue(input?: JobInput): Promise<string>;
  startWorker(overrides?: Record<string, string>): Promise<WorkerProcess>;
  waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs?: number): Promise<T>;
  stop(): Promise<void>;
}

export async function startStack(queueOptions: { retryDelay?: number; heartbeatSeconds?: number } = {}): Promise<Stack> {
  // Independent parts, started side by side; those that started are stopped when another fails.
  const [pgPart, s3Part, signingPart] = await Promise.allSettled([startTestPostgres(), startTestS3(), testSigningIdentity()]);
  if (pgPart.status === 'rejected' || s3Part.status === 'rejected' || signingPart.status === 'rejected') {
    await Promise.allSettled([
      pgPart.status === 'fulfilled' ? pgPart.value.stop() : undefined,
      s3Part.status === 'fulfilled' ? s3Part.value.stop() : undefined,
      signingPart.status === 'fulfilled' ? signingPart.value.remove() : undefined,
    ]);
    const failed = [pgPart, s3Part, signingPart].find((part) => part.status === 'rejected');
    throw failed?.reason instanceof Error ? failed.reason : new Error(String(failed?.reason));
  }
  const [pg, s3, signing] = [pgPart.value, s3Part.value, signingPart.value];
  const db = createDatabase(pg.url);
  const boss = createBoss(pg.url, { supervise: false });
  boss.on('error', () => undefined);
  await boss.start();
  await ensureGenerationQueue(boss);
  // Test scale: no retry backoff; heartbeats when a test needs crash recovery.
  await boss.updateQueue(GENERATION_QUEUE, {
    retryDelay: queueOptions.retryDelay ?? 0,
    retryBackoff: false,
    ...(queueOptions.heartbeatSeconds === undefined ? {} : { heartbeatSeconds: queueOptions.heartbeatSeconds }),
  });
  const supervisor = new PgBoss({
    connectionString: pg.url,
    supervise: true,
    schedule: false,
    monitorIntervalSeconds: 1,
    superviseIntervalSeconds: 1,
    max: 2,
  });
  supervisor.on('error', () => undefined);
  await supervisor.start();
  const store = createObjectStore(testObjectStoreOptions(s3));
  const env: Record<string, string> = {
    ...signing.env,
    DATABASE_URL: pg.url,
    S3_ENDPOINT: s3.endpoint,
    S3_BUCKET: s3.bucket,
    S3_REGION: s3.region,
    S3_ACCESS_KEY_ID: s3.accessKeyId,
    S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
    S3_FORCE_PATH_STYLE: 'true',
    POLL_INTERVAL_MS: '100',
    ENCODER_THREADS: '2',
    MP3_ENCODER: 'wasm',
    LOG_LEVEL: 'silent',
  };
  const workers: WorkerProcess[] = [];
  let user: { id: string; address: string } | undefined;

  return {
    pg,
    s3,
    db,
    boss,
    supervisor,
    store,
    env,
    c2paCaPem: signing.caPem,
    async enqueue(input = {}) {
      if (user === undefined) {
        const wallet = `0x${randomBytes(20).toString('hex')}`;
        user = {
          id: (
            await db.one<{ id: string }>('INSERT INTO users (wallet_address, tier) VALUES ($1, $2) RETURNING id', [wallet, 'enterprise'])
          ).id,
          address: wallet,
        };
      }
      const owner = user;
      const job = await db.tx((tx) =>
        queueJob(tx, boss, {
          userId: owner.id,
          userAddress: owner.address,
          prompt: input.prompt ?? 'upbeat pop song',
          duration: input.duration ?? 5,
          steps: input.steps ?? 27,
          withLyrics: input.withLyrics ?? false,
          tier: input.tier ?? 'free',
          ...(input.seed === undefined ? {} : { seed: input.seed }),
          ...(input.lyrics === undefined ? {} : { lyrics: input.lyrics }),
          ...(input.edit === undefined ? {} : { edit: input.edit }),
        }),
      );
      return job.id;
    },
    async startWorker(overrides = {}) {
      const loaded = loadWorkerConfig({ ...env, ...overrides });
      if (!loaded.ok) throw new Error(loaded.error.problems.join('; '));
      const started = await startWorkerProcess(loaded.value satisfies WorkerEnv, pino({ level: 'silent' }));
      if (!started.ok) throw new Error(`${started.error.code}: ${started.error.message}`);
      workers.push(started.value);
      return started.value;
    },
    waitFor: (what, probe, timeoutMs) => waitFor(what, probe, { timeoutMs }),
    async stop() {
      for (const w of workers.splice(0)) await w.stop();
      await supervisor.stop({ graceful: false, close: true });
      await boss.stop({ graceful: false, close: true });
      await closeDatabase(db);
      store.close();
      await s3.stop();
      await pg.stop();
      await signing.remove();
    },
  };
}

export interface JobRow {
  id: string;
  status: string;
  progress: number;
  attempts: number;
  seed: string | null;
  error_code: string | null;
  error_message: string | null;
  audio_url: string | null;
  audio_key: string | null;
  audio_hash: string | null;
  actual_duration: number | null;
  device: string | null;
  used_lyrics: string | null;
  lyrics_tokens: number | null;
  started_at: Date | null;
  completed_at: Date | null;
}

export function jobRow(db: Database, id: string): Promise<JobRow> {
  return db.one<JobRow>('SELECT * FROM generation_jobs WHERE id = $1', [id]);
}

/** The rows of `ids` once all have completed; a failed one ends the wait with its error message. */
export function allCompleted(stack: Stack, ids: readonly string[], what: string, timeoutMs?: number): Promise<JobRow[]> {
  return stack.waitFor(
    what,
    async () => {
      const rows = await Promise.all(ids.map((id) => jobRow(stack.db, id)));
      const failed = rows.find((row) => row.status === 'failed');
      if (failed !== undefined) throw new Error(failed.error_message ?? 'failed');
      return rows.every((row) => row.status === 'completed') ? rows : undefined;
    },
    timeoutMs,
  );
}
