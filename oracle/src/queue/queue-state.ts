import type { Queryable } from '../../../core/src/db/database.ts';
import { FLEET_PARALLEL_JOBS, HEARTBEAT_STALE_SECONDS, TIER_PRIORITY } from '../../../core/src/generation-queue.ts';
import type { Tier } from '../../../core/src/generation-queue.ts';
import { JOB_STATUS, sqlStatus } from '../../../core/src/jobs/job-state.ts';

const QUEUED = sqlStatus(JOB_STATUS.queued);
const PROCESSING = sqlStatus(JOB_STATUS.processing);
const COMPLETED = sqlStatus(JOB_STATUS.completed);

/**
 * Seconds of wall time per second of audio when no job has completed recently. Anchored on the
 * published ACE-Step figures for an A100 (2.20 s / 4.89 s per minute of audio at 27 / 60 steps),
 * rounded up, plus a fixed overhead for the lyrics step, MP3 encoding and upload.
 */
export const FALLBACK_SECONDS_PER_AUDIO_SECOND: Readonly<Record<27 | 60, number>> = { 27: 0.04, 60: 0.09 };
export const FALLBACK_JOB_OVERHEAD_SECONDS = 3;
/** How many recent completed jobs the measured rate averages over. */
const RATE_SAMPLE = 50;

/** SQL expression of a job's queue priority from its tier (same numbers as pg-boss). */
export const PRIORITY_SQL = `CASE tier WHEN 'enterprise' THEN ${TIER_PRIORITY.enterprise} WHEN 'pro' THEN ${TIER_PRIORITY.pro} ELSE ${TIER_PRIORITY.free} END`;

export interface WorkerCapacity {
  workers: number;
  /** Parallel jobs the live workers can run, capped by the fleet limit. */
  slots: number;
  devices: string[];
  /** The models the live workers run (`name@version`), so a deployer sees which backend serves. */
  models: string[];
}

export async function liveWorkerCapacity(db: Queryable): Promise<WorkerCapacity> {
  const row = await db.one<{ workers: number; slots: number; devices: string[]; models: string[] }>(
    `SELECT count(*)::int AS workers, coalesce(sum(slots), 0)::int AS slots,
            coalesce(array_agg(DISTINCT device) FILTER (WHERE device IS NOT NULL), '{}') AS devices,
            coalesce(array_agg(DISTINCT model_name || '@' || model_version), '{}') AS models
     FROM worker_heartbeats WHERE last_seen > now() - make_interval(secs => $1)`,
    [HEARTBEAT_STALE_SECONDS],
  );
  return { workers: row.workers, slots: Math.min(row.slots, FLEET_PARALLEL_JOBS), devices: row.devices, models: row.models };
}

/** Queued songs and previews: both wait in the one generation queue (GEN_001 counts both). */
export async function queuedJobCount(db: Queryable): Promise<number> {
  const row = await db.one<{ n: number }>(
    `SELECT ((SELECT count(*) FROM generation_jobs WHERE status = ${QUEUED}) + (SELECT count(*) FROM preview_jobs WHERE status = ${QUEUED}))::int AS n`,
  );
  return row.n;
}

export interface RunRates {
  /** Seconds of wall time per second of audio, by step count. */
  secondsPerAudioSecond: Record<27 | 60, number>;
  /** Fixed seconds added per job (zero when measured: the measurement includes it). */
  overheadSeconds: Record<27 | 60, number>;
}

/**
 * The speed the live workers measured of their model at start (core/src/model-speed.ts; the
 * slowest live worker's, as a job may go to it), plus the fixed overhead the calibration does not
 * time (lyrics, upload); where no live worker published one, measured from recently completed
 * jobs; the documented fallback otherwise.
 */
export async function runRates(db: Queryable): Promise<RunRates> {
  const calibrated = await db.any<{ steps: number; rate: number }>(
    `SELECT key::int AS steps, max((value ->> 'secondsPerAudioSecond')::float) AS rate
       FROM worker_heartbeats, jsonb_each(model_speed)
      WHERE last_seen > now() - make_interval(secs => $1) AND model_speed IS NOT NULL AND key IN ('27', '60')
      GROUP BY key`,
    [HEARTBEAT_STALE_SECONDS],
  );
  const rows = await db.any<{ steps: number; rate: number }>(
    `SELECT steps, avg(extract(epoch FROM completed_at - started_at) / duration)::float AS rate
     FROM (SELECT steps, completed_at, started_at, duration FROM generation_jobs
           WHERE status = ${COMPLETED} AND started_at IS NOT NULL AND completed_at > started_at
           ORDER BY completed_at DESC LIMIT $1) recent
     GROUP BY steps`,
    [RATE_SAMPLE],
  );
  const rates: RunRates = {
    secondsPerAudioSecond: { ...FALLBACK_SECONDS_PER_AUDIO_SECOND },
    overheadSeconds: { 27: FALLBACK_JOB_OVERHEAD_SECONDS, 60: FALLBACK_JOB_OVERHEAD_SECONDS },
  };
  for (const row of rows) {
    if (row.steps === 27 || row.steps === 60) {
      rates.secondsPerAudioSecond[row.steps] = row.rate;
      rates.overheadSeconds[row.steps] = 0;
    }
  }
  for (const row of calibrated) {
    if (row.steps === 27 || row.steps === 60) {
      rates.secondsPerAudioSecond[row.steps] = row.rate;
      rates.overheadSeconds[row.steps] = FALLBACK_JOB_OVERHEAD_SECONDS;
    }
  }
  return rates;
}

export function runSeconds(rates: RunRates, duration: number, steps: 27 | 60): number {
  return duration * rates.secondsPerAudioSecond[steps] + rates.overheadSeconds[steps];
}

export interface QueuePlace {
  /** 1-based place among queued jobs: 1 starts next. */
  position: number;
  /** Seconds until the job is expected to finish. */
  estimatedSeconds: number;
}

export interface QueuedJobRef {
  id: string;
  tier: Tier;
  createdAt: Date;
  duration: number;
  steps: 27 | 60;
}

/**
 * Where `job` stands: jobs ahead are queued jobs of a higher priority, or of the same priority
 * created earlier (pg-boss serves higher priority first, then oldest). The wait is the work
 * ahead plus what running jobs have left, shared over the live slots; then the job's own run.
 */
export async function queuePlace(db: Queryable, job: QueuedJobRef, rates: RunRates, slots: number): Promise<QueuePlace> {
  const priority = TIER_PRIORITY[job.tier];
  const rateSql = `(duration * CASE steps WHEN 60 THEN $4::float ELSE $5::float END + CASE steps WHEN 60 THEN $6::float ELSE $7::float END)`;
  const row = await db.one<{ ahead: number; ahead_work: number; running: number; running_left: number }>(
    `SELECT
       (SELECT count(*)::int FROM generation_jobs WHERE status = ${PROCESSING}) AS running,
       (SELECT count(*)::int FROM generation_jobs
          WHERE status = ${QUEUED} AND id <> $1
            AND (${PRIORITY_SQL} > $2 OR (${PRIORITY_SQL} = $2 AND created_at < $3))) AS ahead,
       (SELECT coalesce(sum(${rateSql}), 0)::float FROM generation_jobs
          WHERE status = ${QUEUED} AND id <> $1
            AND (${PRIORITY_SQL} > $2 OR (${PRIORITY_SQL} = $2 AND created_at < $3))) AS ahead_work,
       (SELECT coalesce(sum(greatest(0, ${rateSql} - extract(epoch FROM now() - coalesce(started_at, now())))), 0)::float
          FROM generation_jobs WHERE status = ${PROCESSING}) AS running_left`,
    [
      job.id,
      priority,
      job.createdAt,
      rates.secondsPerAudioSecond[60],
      rates.secondsPerAudioSecond[27],
      rates.overheadSeconds[60],
      rates.overheadSeconds[27],
    ],
  );
  const parallel = Math.max(1, slots);
  // A free slot with nobody ahead for it means the job starts at once.
  const wait = row.ahead < parallel - row.running ? 0 : (row.ahead_work + row.running_left) / parallel;
  return {
    position: row.ahead + 1,
    estimatedSeconds: Math.max(1, Math.ceil(wait + runSeconds(rates, job.duration, job.steps))),
  };
}
