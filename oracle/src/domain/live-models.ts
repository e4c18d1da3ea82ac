/**
 * The models the live workers run, whether they sing (SongModel.sings, reported in each worker's
 * heartbeat) and the longest song each can finish (the speed it measured at start,
 * core/src/model-speed.ts): the profile's `models` (GET /v1/user/profile), which the app reads
 * before it promises that typed lyrics are sung and to offer only lengths the running model
 * finishes. A job goes to whichever live worker claims it first, so lyrics are sung only when
 * every live worker's model sings; a worker hands a song longer than it can finish to one that can
 * (inference/src/worker/worker.ts), so the longest song is the longest any live worker takes.
 */
import type { Queryable } from '../../../core/src/db/database.ts';
import { HEARTBEAT_STALE_SECONDS } from '../../../core/src/generation-queue.ts';

/** The steps values a request may ask for (the request schemas'). */
export const REQUEST_STEPS = [27, 60] as const;
export type RequestSteps = (typeof REQUEST_STEPS)[number];

/**
 * The longest song, in seconds, per steps value: null where no limit was measured (no live
 * worker, or one from before the measurement, whose songs only the tier limits bound).
 */
export type MaxDurations = Record<'27' | '60', number | null>;

export interface LiveModel {
  name: string;
  version: string;
  /** The model sings the lyrics it is given (ACE-Step); false for an instrumental model. */
  sings: boolean;
  /** Live workers running it. */
  workers: number;
  /** The longest song a live worker running it finishes within the job limit. */
  max_duration: MaxDurations;
}

export interface LiveModels {
  /** True only when at least one worker is live and every live worker's model sings. */
  sings: boolean;
  live: LiveModel[];
  /** The longest song any live worker finishes (null: no measured limit applies). */
  max_duration: MaxDurations;
}

/** SQL of the longest song per steps over the grouped rows: null when any of them published no speed. */
const MAX_DURATION_SQL = REQUEST_STEPS.map(
  (steps) =>
    `CASE WHEN bool_or(model_speed IS NULL) THEN NULL ELSE coalesce(max((model_speed -> '${steps}' ->> 'maxDuration')::int), 0) END AS max_${steps}`,
).join(', ');

interface LiveModelRow {
  name: string;
  version: string;
  sings: boolean;
  workers: number;
  max_27: number | null;
  max_60: number | null;
}

function maxDurations(row: { max_27: number | null; max_60: number | null }): MaxDurations {
  return { '27': row.max_27, '60': row.max_60 };
}

export async function liveModels(db: Queryable): Promise<LiveModels> {
  const rows = await db.any<LiveModelRow>(
    `SELECT model_name AS name, model_version AS version, bool_and(sings) AS sings, count(*)::int AS workers, ${MAX_DURATION_SQL}
       FROM worker_heartbeats WHERE last_seen > now() - make_interval(secs => $1)
      GROUP BY model_name, model_version ORDER BY model_name, model_version`,
    [HEARTBEAT_STALE_SECONDS],
  );
  const live = rows.map((row) => ({
    name: row.name,
    version: row.version,
    sings: row.sings,
    workers: row.workers,
    max_duration: maxDurations(row),
  }));
  const overall = (steps: '27' | '60'): number | null =>
    live.length === 0 || live.some((model) => model.max_duration[steps] === null)
      ? null
      : Math.max(...live.map((model) => model.max_duration[steps] ?? 0));
  return { sings: live.length > 0 && live.every((model) => model.sings), live, max_duration: { '27': overall('27'), '60': overall('60') } };
}

/** What the live workers can take at one steps value: the longest song and who says so. */
export interface ModelDurationLimit {
  /** Live workers. */
  workers: number;
  /** The longest song any live worker takes; null when one publishes no measured limit (or none is live). */
  max: number | null;
  /** The live models with their devices, e.g. `acestep-1.5-xl-turbo@1 on cpu`, for messages. */
  models: string[];
}

export async function modelDurationLimit(db: Queryable, steps: RequestSteps): Promise<ModelDurationLimit> {
  const row = await db.one<{ workers: number; unmeasured: boolean; max: number | null; models: string[] }>(
    `SELECT count(*)::int AS workers, coalesce(bool_or(model_speed IS NULL), false) AS unmeasured,
            max((model_speed -> $2 ->> 'maxDuration')::int) AS max,
            coalesce(array_agg(DISTINCT model_name || '@' || model_version || ' on ' || device), '{}') AS models
       FROM worker_heartbeats WHERE last_seen > now() - make_interval(secs => $1)`,
    [HEARTBEAT_STALE_SECONDS, String(steps)],
  );
  return { workers: row.workers, max: row.workers === 0 || row.unmeasured ? null : (row.max ?? 0), models: row.models };
}
