import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { JOB_STATUS, completeJob, lockForPublish } from '../../core/src/jobs/job-state.ts';
import type { ClaimedJob } from '../../core/src/jobs/job-state.ts';
import type { Stack } from './helpers/stack.ts';
import { jobRow, startStack } from './helpers/stack.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

function spawnWorker(env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'inference/src/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

describe('inference worker: crash recovery and graceful shutdown', () => {
  let stack: Stack;
  const children: ChildProcess[] = [];
  before(async () => {
    // pg-boss fails an active job whose worker stops sending heartbeats for 10 s (its minimum).
    stack = await startStack({ heartbeatSeconds: 10 });
  });
  after(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    await stack.stop();
  });

  it('a worker killed with SIGKILL mid-job loses nothing: another worker completes the job exactly once', async () => {
    const jobId = await stack.enqueue({ prompt: 'recovered song' });
    const doomed = spawnWorker({ ...stack.env, INFERENCE_TEST_SLOW_MODEL_MS: '600000', WORKER_ID: 'doomed' });
    children.push(doomed);
    const first = await stack.waitFor('first attempt', async () => {
      const r = await stack.db.oneOrNone<{ claim_id: string; attempts: number }>(
        `SELECT claim_id, attempts FROM generation_jobs WHERE id = $1 AND status = '${JOB_STATUS.processing}'`,
        [jobId],
      );
      return r ?? undefined;
    });
    doomed.kill('SIGKILL');
    await once(doomed, 'exit');

    const worker = await stack.startWorker({ WORKER_ID: 'rescuer' });
    const row = await stack.waitFor(
      'completion by the second worker',
      async () => {
        const r = await jobRow(stack.db, jobId);
        return r.status === JOB_STATUS.completed ? r : undefined;
      },
      90_000,
    );
    assert.equal(row.attempts, 2, 'the killed attempt counts, the second completes');
    const objects = await stack.store.list('audio/');
    assert.ok(objects.ok);
    assert.deepEqual(
      objects.value.map((o) => o.key),
      [`audio/gen_${jobId}.mp3`],
    );
    const queued = await stack.db.one<{ states: string[] }>(
      `SELECT array_agg(state::text) AS states FROM pgboss.job WHERE data->>'jobId' = $1`,
      [jobId],
    );
    assert.deepEqual(queued.states, ['completed']);

    // The killed attempt's claim can no longer lock or complete the job.
    const stale: ClaimedJob = {
      id: jobId,
      claimId: first.claim_id,
      prompt: '',
      duration: 5,
      seed: 0n,
      steps: 27,
      lyrics: null,
      withLyrics: false,
      attempts: first.attempts,
    };
    const outcome = await stack.db.tx(async (tx) => ({
      locked: await lockForPublish(tx, stale),
      completed: await completeJob(tx, stale, {
        audioKey: 'audio/other.mp3',
        audioUrl: 'http://example.invalid/other.mp3',
        audioHash: `0x${'0'.repeat(64)}`,
        actualDuration: 1,
        modelName: 'x',
        modelVersion: 'x',
        device: 'cpu',
        usedLyrics: null,
        lyricsTokens: null,
        modelLicence: 'MIT',
        modelCommercialUse: true,
        contentCredentials: { standard: 'c2pa', manifest: 'urn:c2pa:test', signer: 'CN=test' },
      }),
    }));
    assert.deepEqual(outcome, { locked: false, completed: false });
    assert.equal((await jobRow(stack.db, jobId)).audio_hash, row.audio_hash);
    await worker.stop();
  });

  it('on SIGTERM a worker stops claiming, finishes its running job, removes its heartbeat and exits 0', async () => {
    const running = await stack.enqueue({ prompt: 'finish me' });
    const child = spawnWorker({ ...stack.env, INFERENCE_TEST_SLOW_MODEL_MS: '1500', WORKER_ID: 'graceful' });
    children.push(child);
    await stack.waitFor('processing', async () => ((await jobRow(stack.db, running)).status === JOB_STATUS.processing ? true : undefined));
    const waiting = await stack.enqueue({ prompt: 'not claimed after SIGTERM' });
    child.kill('SIGTERM');
    const [code] = (await once(child, 'exit')) as [number | null];
    assert.equal(code, 0);
    assert.equal((await jobRow(stack.db, running)).status, JOB_STATUS.completed);
    assert.equal((await jobRow(stack.db, waiting)).status, JOB_STATUS.queued);
    const beats = await stack.db.any(`SELECT worker_id FROM worker_heartbeats WHERE worker_id = 'graceful'`);
    assert.deepEqual(beats, []);
  });
});
