/**
 * The models the live workers run and whether they sing (SongModel.sings, reported in each
 * worker's heartbeat): the profile's `models` (GET /v1/user/profile), which the app reads before
 * it promises that typed lyrics are sung. A job goes to whichever live worker claims it first,
 * so lyrics are sung only when every live worker's model sings.
 */
import type { Queryable } from '../../../core/src/db/database.ts';
import { HEARTBEAT_STALE_SECONDS } from '../../../core/src/generation-queue.ts';

export interface LiveModel {
  name: string;
  version: string;
  /** The model sings the lyrics it is given (ACE-Step); false for an instrumental model. */
  sings: boolean;
  /** Live workers running it. */
  workers: number;
}

export interface LiveModels {
  /** True only when at least one worker is live and every live worker's model sings. */
  sings: boolean;
  live: LiveModel[];
}

export async function liveModels(db: Queryable): Promise<LiveModels> {
  const live = await db.any<LiveModel>(
    `SELECT model_name AS name, model_version AS version, bool_and(sings) AS sings, count(*)::int AS workers
       FROM worker_heartbeats WHERE last_seen > now() - make_interval(secs => $1)
      GROUP BY model_name, model_version ORDER BY model_name, model_version`,
    [HEARTBEAT_STALE_SECONDS],
  );
  return { sings: live.length > 0 && live.every((model) => model.sings), live };
}
