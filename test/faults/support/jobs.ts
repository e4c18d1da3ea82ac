/** Job checks shared by the fault tests: a job's row, and "completed exactly once". */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { JOB_STATUS } from '../../../core/src/jobs/job-state.ts';
import type { FaultCluster, OracleReplica, Session } from './cluster.ts';
import { httpRequest, storedObjectKeys, waitFor } from './cluster.ts';

export interface JobRow {
  status: string;
  attempts: number;
  audio_key: string | null;
  audio_hash: string | null;
  error_code: string | null;
}

export function jobRow(cluster: FaultCluster, publicId: string): Promise<JobRow> {
  return cluster.db.one<JobRow>('SELECT status, attempts, audio_key, audio_hash, error_code FROM generation_jobs WHERE id = $1', [
    publicId.replace(/^gen_/, ''),
  ]);
}

/** Submits a 5-second song on `oracle` (the first replica by default) and returns its job id. */
export async function submit(
  cluster: FaultCluster,
  user: Session,
  prompt: string,
  oracle: OracleReplica | undefined = cluster.oracles[0],
): Promise<string> {
  assert.ok(oracle !== undefined);
  const response = await httpRequest(`${oracle.url}/api/generate`, { token: user.token, body: { prompt, duration: 5 } });
  assert.equal(response.status, 202, response.text);
  return (response.body as { job_id: string }).job_id;
}

/**
 * Waits for `jobId` to complete, then checks it did so exactly once: one object at its audio key
 * whose SHA-256 is the recorded hash, one queue message, completed once.
 */
export async function completedOnce(cluster: FaultCluster, jobId: string, timeoutMs = 180_000): Promise<JobRow> {
  const row = await waitFor(
    `${jobId} to complete`,
    async () => {
      const current = await jobRow(cluster, jobId);
      if (current.status === JOB_STATUS.failed) throw new Error(`${jobId} failed: ${current.error_code ?? ''}`);
      return current.status === JOB_STATUS.completed ? current : undefined;
    },
    timeoutMs,
    250,
  );
  const objects = await storedObjectKeys(cluster.s3, 'audio/');
  assert.equal(objects.filter((key) => key === row.audio_key).length, 1, 'one object');
  const bytes = await readFile(join(cluster.s3.directory, cluster.s3.bucket, `${row.audio_key ?? ''}._S3rver_object`));
  assert.equal(
    `0x${createHash('sha256').update(bytes).digest('hex')}`,
    row.audio_hash,
    `${row.audio_key ?? ''} is the bytes its hash names`,
  );
  // The message is completed after the row commits, in a statement of its own: a worker cut off
  // from the database between the two leaves it active until its heartbeat lapses, and the
  // retry finds the job done and completes the message without running it again.
  const messages = () =>
    cluster.db.one<{ completed: number; other: number }>(
      `SELECT count(*) FILTER (WHERE state = 'completed')::int AS completed, count(*) FILTER (WHERE state <> 'completed')::int AS other FROM pgboss.job WHERE data->>'jobId' = $1`,
      [jobId.replace(/^gen_/, '')],
    );
  const settled = await waitFor(
    `${jobId}'s queue message to complete`,
    async () => {
      const counts = await messages();
      return counts.other === 0 ? counts : undefined;
    },
    60_000,
    250,
  ).catch(() => messages());
  assert.deepEqual(settled, { completed: 1, other: 0 }, 'one queue message, completed once');
  assert.equal((await jobRow(cluster, jobId)).attempts, row.attempts, 'not run again after it completed');
  return row;
}
