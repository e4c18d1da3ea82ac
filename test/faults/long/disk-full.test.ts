/**
 * A full disk (issue 27): the whole stack's data (PostgreSQL's cluster, WAL included, the S3
 * server's objects, each oracle's IPFS blockstore, the oracles' and workers' TMPDIR) on a small
 * loop-mounted ext4 filesystem (test/faults/support/small-filesystem.ts) that a filler file fills
 * up, under two workers and request load. docs/operations.md "Disk full" says what each component
 * does and why this filesystem.
 *
 * 1. Data files full (PostgreSQL answers 53100 and lives): requests answer 200/201/202 or 503
 *    `SERVICE_UNAVAILABLE` with Retry-After, never 500 or a hang; jobs in flight wait for space;
 *    once the filler is deleted every acknowledged job completes exactly once, with nothing
 *    restarted, and nothing half-written was published.
 * 2. A WAL segment that cannot be created (a PANIC; crash recovery needs space too, so the
 *    postmaster exits): requests answer 503, `/health/live` answers; once space is freed the
 *    embedded server's supervisor has it running again, and oracles and workers carry on without
 *    a restart or a repair.
 *
 * Mounting needs root; where it is impossible the `before` hook fails with the reason (never a skip).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFile, readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { REQUEST_DEADLINE_MS } from '../../../core/src/db/database.ts';
import { JOB_STATUS } from '../../../core/src/jobs/job-state.ts';
import { assertVariantAError } from '../../oracle/helpers/shapes.ts';
import type { FaultCluster, OracleReplica, ServiceProcess, Session } from '../support/cluster.ts';
import { httpRequest, startFaultCluster, storedObjectKeys, waitFor } from '../support/cluster.ts';
import { SCHEDULING_SLACK_MS, bounded } from '../support/bounded-requests.ts';
import type { Outcome } from '../support/bounded-requests.ts';
import { recordFigure } from '../support/figures.ts';
import { completedOnce, jobRow, submit } from '../support/jobs.ts';
import { mountSmallFilesystem } from '../support/small-filesystem.ts';
import type { SmallFilesystem } from '../support/small-filesystem.ts';

/** Room for PostgreSQL's cluster (about 40 MB after migrations, WAL segments of 16 MB), objects and blocks. */
const FILESYSTEM_MB = 192;
/** How long the disk stays full once the first refusal was seen. */
const FULL_MS = 15_000;
const LOAD_PAUSE_MS = 500;
/** Every this many load rounds a generation and a metadata upload (the hourly limits stay far). */
const GENERATE_EVERY = 6;
const METADATA_EVERY = 8;

/** Request load on one replica until `stop()`: nonce, a job's status, live, ready; generations and metadata uploads now and then. */
function startLoad(oracle: OracleReplica, user: Session, publisher: Session, tag: string, audioUrl: string) {
  const outcomes: Outcome[] = [];
  const acknowledged: string[] = [];
  let statusOf = '';
  let running = true;
  const done = (async () => {
    for (let round = 0; running; round++) {
      const requests = [
        bounded('nonce', `${oracle.url}/api/auth/nonce`),
        bounded('live', `${oracle.url}/health/live`),
        bounded('ready', `${oracle.url}/health/ready`),
        ...(statusOf === '' ? [] : [bounded('status', `${oracle.url}/api/generate/${statusOf}`, { token: user.token })]),
        ...(round % GENERATE_EVERY === 0
          ? [bounded('generate', `${oracle.url}/api/generate`, { token: user.token, body: { prompt: `${tag} ${round}`, duration: 5 } })]
          : []),
        ...(round % METADATA_EVERY === 0
          ? [
              bounded('metadata', `${oracle.url}/api/metadata`, {
                token: publisher.token,
                body: { name: `${tag} ${round}`, description: 'published while the disk fills', audio_url: audioUrl },
              }),
            ]
          : []),
      ];
      for (const outcome of await Promise.all(requests)) {
        outcomes.push(outcome);
        if (outcome.what === 'generate' && outcome.response?.status === 202) {
          statusOf = (outcome.response.body as { job_id: string }).job_id;
          acknowledged.push(statusOf);
        }
      }
      await new Promise((resolve) => setTimeout(resolve, LOAD_PAUSE_MS));
    }
  })();
  return {
    outcomes,
    acknowledged,
    async stop() {
      running = false;
      await done;
    },
  };
}

/** The oracle's log lines for errors it did not expect (a 500's cause), the last few. */
function unhandledErrors(oracle: ServiceProcess): string {
  const lines = oracle
    .output()
    .split('\n')
    .filter((line) => line.includes('unhandled error'));
  return lines
    .slice(-3)
    .map((line) => line.slice(0, 1500))
    .join('\n');
}

/**
 * Every answer 200/201/202/503, within the deadline; every 503 in the error shape with Retry-After
 * and one of `unavailableCodes`, no stack. A 500 names what the oracle logged for it.
 */
function assertAnswers(
  outcomes: readonly Outcome[],
  oracle: ServiceProcess,
  unavailableCodes: readonly string[] = ['SERVICE_UNAVAILABLE'],
): void {
  for (const { what, response } of outcomes) {
    assert.ok(response !== undefined, `${what} had no answer within ${REQUEST_DEADLINE_MS + SCHEDULING_SLACK_MS} ms`);
    const { status, text, body, headers } = response;
    if (what === 'live') assert.equal(status, 200, `/health/live answers: ${text.slice(0, 300)}`);
    assert.ok(
      [200, 201, 202, 503].includes(status),
      `${what}: unexpected ${status} ${text.slice(0, 300)}${status === 500 ? `; the oracle logged:\n${unhandledErrors(oracle)}` : ''}`,
    );
    if (status === 503 && what !== 'ready') {
      assertVariantAError(body);
      const code = (body as { error: { code: string } }).error.code;
      assert.ok(unavailableCodes.includes(code), `${what}: a 503 ${code}, expected one of ${unavailableCodes.join(', ')}`);
      assert.ok(headers.get('retry-after') !== null, `${what}: a 503 says when to come back (Retry-After)`);
      assert.ok(!/\n\s+at /.test(text), 'no stack trace in a 503');
    }
  }
}

/** Files under `dir` whose names say they were never finished (s3rver's `*.partial`, steno's `.*.tmp`). */
async function unfinishedFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile() && (entry.name.endsWith('.partial') || /^\..*\.tmp$/.test(entry.name)))
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)));
}

/**
 * Nothing half-written is published: every object under audio/ is a completed job's, holding the
 * bytes its recorded hash names; no object is cut short under its final name; every metadata row
 * points at IPFS content the oracle serves.
 */
async function assertNothingHalfWritten(cluster: FaultCluster, oracle: OracleReplica): Promise<{ objects: number; metadata: number }> {
  const objects = await storedObjectKeys(cluster.s3, 'audio/');
  const jobs = await cluster.db.manyOrNone<{ audio_key: string; audio_hash: string; status: string }>(
    'SELECT audio_key, audio_hash, status FROM generation_jobs WHERE audio_key = ANY($1)',
    [objects],
  );
  for (const key of objects) {
    const job = jobs.find((row) => row.audio_key === key);
    assert.ok(job !== undefined, `${key} is in the bucket without its job`);
    assert.equal(job.status, JOB_STATUS.completed, `${key}'s job completed`);
    const bytes = await readFile(join(cluster.s3.directory, cluster.s3.bucket, `${key}._S3rver_object`));
    assert.equal(`0x${createHash('sha256').update(bytes).digest('hex')}`, job.audio_hash, `${key} holds the bytes its hash names`);
  }
  assert.deepEqual(await unfinishedFiles(cluster.s3.directory), [], 'no partial upload left in the bucket');
  const metadata = await cluster.db.manyOrNone<{ cid: string }>('SELECT cid FROM song_metadata');
  for (const { cid } of metadata) {
    const content = await httpRequest(`${oracle.url}/ipfs/${cid}`);
    assert.equal(content.status, 200, `metadata ${cid} points at content the oracle holds: ${content.text.slice(0, 200)}`);
  }
  return { objects: objects.length, metadata: metadata.length };
}

async function readPostmasterPid(cluster: FaultCluster): Promise<number> {
  return Number((await readFile(join(cluster.pg.home, 'pgdata', 'postmaster.pid'), 'utf8')).split('\n')[0]);
}

describe('disk full: the stack on a small filesystem that fills up', { timeout: 900_000 }, () => {
  let disk: SmallFilesystem | undefined;
  let cluster: FaultCluster;
  let oracle: OracleReplica;
  let workers: ServiceProcess[];
  let user: Session;
  let publisher: Session;
  let songUrl: string;
  let faultsSurvived = 0;
  const figures: Record<string, number> = {};

  before(async () => {
    disk = await mountSmallFilesystem(FILESYSTEM_MB);
    cluster = await startFaultCluster({ dataRoot: disk.path, superviseDatabase: true });
    oracle = cluster.oracles[0] as OracleReplica;
    user = await cluster.login(oracle, { tier: 'enterprise' });
    publisher = await cluster.login(oracle, { tier: 'enterprise' });
  });
  after(async () => {
    if (faultsSurvived > 0) recordFigure('disk-full', { ...figures, faultsSurvived });
    await cluster?.stop();
    await disk?.remove();
  });

  it('every component writes to the small filesystem', async () => {
    assert.ok(disk !== undefined);
    workers = [await cluster.startWorker(), await cluster.startWorker()];
    const onDisk = (path: string) => !relative(disk?.path ?? '', path).startsWith('..');
    assert.ok(onDisk(cluster.pg.home), `PostgreSQL's cluster ${cluster.pg.home} is on the small filesystem`);
    assert.ok(onDisk(cluster.s3.directory), `the S3 objects ${cluster.s3.directory} are on it`);
    assert.ok(onDisk(cluster.dataDir), `the oracles' and workers' DATA_DIR and TMPDIR (${cluster.dataDir}) are on it`);
    // The publisher's own song: metadata may only name a completed job of its uploader.
    const song = await submit(cluster, publisher, 'disk full: before');
    await completedOnce(cluster, song);
    const status = await httpRequest(`${oracle.url}/api/generate/${song}`, { token: publisher.token });
    songUrl = (status.body as { audio_url: string }).audio_url;
    assert.equal(typeof songUrl, 'string', status.text);
    const metadata = await httpRequest(`${oracle.url}/api/metadata`, {
      token: publisher.token,
      body: { name: 'Before the disk filled', description: 'baseline', audio_url: songUrl },
    });
    assert.equal(metadata.status, 201, metadata.text);
  });

  it('data files full: 503 in the error shape, jobs wait, nothing half-written; all works again once space is freed, nothing restarted', async (t) => {
    assert.ok(disk !== undefined);
    // Jobs in flight when the disk fills: they wait to publish, they do not spend their retries.
    const inFlight = [await submit(cluster, user, 'disk full: in flight 0'), await submit(cluster, user, 'disk full: in flight 1')];
    await waitFor(
      'both jobs taken by the workers',
      async () => {
        const rows = await Promise.all(inFlight.map((jobId) => jobRow(cluster, jobId)));
        return rows.every((row) => row.status === JOB_STATUS.processing) ? true : undefined;
      },
      60_000,
      50,
    );
    const load = startLoad(oracle, user, publisher, 'disk full: load', songUrl);
    // Whatever fails, the next case starts with space and no load.
    t.after(async () => {
      await load.stop();
      await disk?.free();
    });
    const filledAt = load.outcomes.length;
    figures.fillerMb = Math.round((await disk.fill()) / 2 ** 20);
    const fullSince = performance.now();
    // Tables have room in their pages for a while; the first refusal (or failure) comes once one must grow.
    await waitFor(
      'a request refused for want of space',
      async () => (load.outcomes.slice(filledAt).some((o) => (o.response?.status ?? 0) >= 500 && o.what !== 'ready') ? true : undefined),
      120_000,
      250,
    );
    figures.firstRefusalAfterMs = Math.round(performance.now() - fullSince);
    await new Promise((resolve) => setTimeout(resolve, FULL_MS));
    // Nothing failed for want of space: the jobs wait.
    const during = load.outcomes.slice(filledAt);
    await disk.free();
    const freedAt = load.outcomes.length;
    figures.fullForMs = Math.round(performance.now() - fullSince);
    // Read once there is space: on a full disk even a new connection can fail (53100, "could not
    // write init file"). A job that failed while full stays failed, so nothing is missed.
    const failedWhileFull = await cluster.db.manyOrNone<{ id: string; error_message: string | null }>(
      `SELECT id, error_message FROM generation_jobs WHERE prompt LIKE 'disk full:%' AND status = $1`,
      [JOB_STATUS.failed],
    );

    await waitFor(
      'a job acknowledged after space was freed',
      async () => (load.outcomes.slice(freedAt).some((o) => o.what === 'generate' && o.response?.status === 202) ? true : undefined),
      120_000,
      250,
    );
    await load.stop();

    assertAnswers(load.outcomes, oracle);
    const attemptFailures = workers.flatMap((worker) =>
      worker
        .output()
        .split('\n')
        .filter((line) => /attempt failed|failed"|loop error/.test(line))
        .map((line) => line.slice(0, 600)),
    );
    assert.deepEqual(failedWhileFull, [], `no job failed while the disk was full; the workers said:\n${attemptFailures.join('\n')}`);
    for (const jobId of [...inFlight, ...load.acknowledged]) await completedOnce(cluster, jobId);
    // A 503 for a full disk is a statement that failed and rolled back: it left no job, so every
    // job there is was acknowledged, and completed once.
    const rows = await cluster.db.many<{ id: string }>("SELECT id FROM generation_jobs WHERE prompt LIKE 'disk full: %'");
    for (const row of rows) await completedOnce(cluster, `gen_${row.id}`);
    const published = await assertNothingHalfWritten(cluster, oracle);
    for (const service of [oracle, ...workers]) assert.equal(service.child.exitCode, null, `${service.name} was not restarted`);
    // The jobs in flight reached their upload on the full disk: the store refused (507), they waited.
    const publishWaits = workers.reduce((sum, worker) => sum + worker.output().split('waits for space to publish').length - 1, 0);
    assert.ok(publishWaits > 0, 'a job waited for space to publish');

    const refused = during.filter((o) => o.response?.status === 503 && o.what !== 'ready');
    Object.assign(figures, {
      requests: load.outcomes.length,
      requestsWhileFull: during.length,
      answered503WhileFull: refused.length,
      slowestMs: Math.max(...load.outcomes.map((o) => o.ms)),
      jobsAcknowledged: inFlight.length + load.acknowledged.length,
      publishWaits,
      jobsExactlyOnce: rows.length,
      objectsVerified: published.objects,
      metadataVerified: published.metadata,
    });
    faultsSurvived++;
  });

  it('a WAL segment that cannot be created: PostgreSQL panics, stays down while full, is back once space is freed; the stack carries on', async (t) => {
    assert.ok(disk !== undefined);
    const before = await submit(cluster, user, 'disk full: before the panic');
    const postmasterPid = await readPostmasterPid(cluster);
    const load = startLoad(oracle, user, publisher, 'disk full: panic load', songUrl);
    t.after(async () => {
      await load.stop();
      await disk?.free();
    });
    await waitFor('load before the disk fills', async () => (load.outcomes.length >= 8 ? true : undefined), 60_000);
    await disk.fill();
    const fullSince = performance.now();
    const filledAt = load.outcomes.length;
    // WAL goes on in the segments already there; each switch moves to the next, until one has to
    // be created on the full disk: a PANIC, and crash recovery cannot end without space either.
    let switches = 0;
    await waitFor(
      'PostgreSQL to stop answering (a PANIC on a WAL segment it cannot create)',
      async () => {
        try {
          await cluster.db.one("SELECT pg_logical_emit_message(false, 'songmint-disk-full', 'x'), pg_switch_wal()");
          switches++;
          return undefined;
        } catch {
          return true;
        }
      },
      120_000,
      200,
    );
    figures.walSwitchesBeforePanic = switches;
    await new Promise((resolve) => setTimeout(resolve, FULL_MS));
    const down = await cluster.db.one('SELECT 1').then(
      () => false,
      () => true,
    );
    const during = load.outcomes.slice(filledAt);
    await disk.free();
    const freedSince = performance.now();
    await waitFor(
      'PostgreSQL to answer again (restarted by its supervisor)',
      async () => ((await cluster.db.one('SELECT 1')) ? true : undefined),
      120_000,
      250,
    );
    figures.postgresBackAfterFreeMs = Math.round(performance.now() - freedSince);
    // Either the postmaster's own crash recovery finished once there was space, or it had exited
    // and the supervisor started a new one: both need no hand. Which one is recorded.
    figures.postmasterReplaced = (await readPostmasterPid(cluster)) === postmasterPid ? 0 : 1;
    const freedAt = load.outcomes.length;
    await waitFor(
      'a job acknowledged after PostgreSQL came back',
      async () => (load.outcomes.slice(freedAt).some((o) => o.what === 'generate' && o.response?.status === 202) ? true : undefined),
      120_000,
      250,
    );
    await load.stop();

    assert.ok(down, 'PostgreSQL stayed down while its WAL could not grow (crash recovery needs space)');
    // While PostgreSQL was down no worker could write its heartbeat: for a moment after it is back
    // the workers look gone, and a generation answers the spec's 503 GEN_002 (retry after a minute).
    assertAnswers(load.outcomes, oracle, ['SERVICE_UNAVAILABLE', 'GEN_002']);
    assert.ok(
      during.some((o) => o.response?.status === 503 && o.what !== 'ready'),
      'requests were refused while PostgreSQL was down',
    );
    await completedOnce(cluster, before);
    for (const jobId of load.acknowledged) await completedOnce(cluster, jobId);
    const rows = await cluster.db.many<{ id: string }>("SELECT id FROM generation_jobs WHERE prompt LIKE 'disk full: panic load %'");
    for (const row of rows) await completedOnce(cluster, `gen_${row.id}`);
    await assertNothingHalfWritten(cluster, oracle);
    for (const service of [oracle, ...workers]) assert.equal(service.child.exitCode, null, `${service.name} was not restarted`);
    Object.assign(figures, {
      panicRequests: load.outcomes.length,
      panicAnswered503: during.filter((o) => o.response?.status === 503).length,
      panicDownForMs: Math.round(performance.now() - fullSince),
      panicJobsExactlyOnce: rows.length + 1,
    });
    faultsSurvived++;
  });
});
