import { z } from 'zod';

/**
 * The PostgreSQL channel on which migration 0009's trigger announces every change of a generation
 * job's status or progress, from any writer.
 */
export const JOB_CHANGED_CHANNEL = 'generation_job_changed';

/** One announcement: the job (its database id) and what it shows now. */
export const jobChangeSchema = z.strictObject({
  id: z.uuid(),
  status: z.string(),
  progress: z.number().int(),
});
export type JobChange = z.infer<typeof jobChangeSchema>;

/** Parses a notification payload; `null` for anything that is not an announcement. */
export function parseJobChange(payload: string | undefined): JobChange | null {
  if (payload === undefined) return null;
  try {
    const parsed = jobChangeSchema.safeParse(JSON.parse(payload));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
