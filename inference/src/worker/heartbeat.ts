/** The worker's row in worker_heartbeats (read by the oracle's readiness check and GEN_002). */
import type { Database } from '../../../core/src/db/database.ts';
import type { EditSupport } from '../../../core/src/song-edits.ts';
import type { ModelSpeed } from '../../../core/src/model-speed.ts';

export interface HeartbeatInfo {
  workerId: string;
  hostname: string;
  device: 'cuda' | 'cpu';
  modelName: string;
  modelVersion: string;
  slots: number;
  /** What the model can edit (core/src/song-edits.ts `EditSupport`): the oracle refuses what no live worker can run. */
  editTasks: EditSupport;
  /** Null when the model can import uploaded audio (`SongModel.importSupport`), else what it lacks. */
  importLack: string | null;
  /** Whether the model sings the lyrics it is given (`SongModel.sings`). */
  sings: boolean;
  /** What the worker measured of its model at start (./calibration.ts): the longest song per steps value, and its rate. */
  speed: ModelSpeed;
}

export async function beat(db: Database, info: HeartbeatInfo, activeJobs: number): Promise<void> {
  await db.none(
    `INSERT INTO worker_heartbeats (worker_id, hostname, device, model_name, model_version, slots, active_jobs, edit_tasks, import_lack,
                                    sings, model_speed, last_seen)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, now())
     ON CONFLICT (worker_id) DO UPDATE
       SET device = EXCLUDED.device, model_name = EXCLUDED.model_name, model_version = EXCLUDED.model_version,
           slots = EXCLUDED.slots, active_jobs = EXCLUDED.active_jobs, edit_tasks = EXCLUDED.edit_tasks,
           import_lack = EXCLUDED.import_lack, sings = EXCLUDED.sings, model_speed = EXCLUDED.model_speed,
           last_seen = now()`,
    [
      info.workerId,
      info.hostname,
      info.device,
      info.modelName,
      info.modelVersion,
      info.slots,
      activeJobs,
      JSON.stringify(info.editTasks),
      info.importLack,
      info.sings,
      JSON.stringify(info.speed),
    ],
  );
}

export async function removeHeartbeat(db: Database, workerId: string): Promise<void> {
  await db.none('DELETE FROM worker_heartbeats WHERE worker_id = $1', [workerId]);
}
