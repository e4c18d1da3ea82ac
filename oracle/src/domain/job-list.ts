/**
 * A user's jobs, newest first, a page at a time (GET /api/generate). Pages are cut by keyset on
 * (created_at, id), so a job created while a client pages never shifts or repeats an item. The
 * cursor is opaque to clients: base64url of the last item's exact creation time (microseconds,
 * as PostgreSQL stores it) and id.
 */
import type { Queryable } from '../../../core/src/db/database.ts';
import { toPublicJobId } from '../../../core/src/generation-queue.ts';
import type { JobStatus } from '../../../core/src/jobs/job-state.ts';
import type { EditParameters } from '../../../core/src/song-edits.ts';
import { EDIT_SOURCE_COLUMNS, editOfView } from './edit-of.ts';
import type { EditOfView } from './edit-of.ts';
import { jobFailureCode } from './errors.ts';
import type { ErrorCode } from './errors.ts';

export const JOB_LIST_DEFAULT_LIMIT = 20;
export const JOB_LIST_MAX_LIMIT = 100;

export interface JobSummary {
  job_id: string;
  status: JobStatus;
  progress: number;
  prompt: string;
  duration: number;
  created_at: string;
  audio_url: string | null;
  audio_hash: string | null;
  error_code: ErrorCode | null;
  edit_of: EditOfView | null;
}

export interface JobPage {
  jobs: JobSummary[];
  /** Pass back as `cursor` for the next page; null on the last page. */
  next_cursor: string | null;
}

interface Position {
  /** ISO 8601 UTC with microseconds, e.g. 2026-11-23T13:07:37.123456Z. */
  createdAt: string;
  id: string;
}

const POSITION = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z)\|([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

export function encodeCursor(position: Position): string {
  return Buffer.from(`${position.createdAt}|${position.id}`, 'utf8').toString('base64url');
}

/** The position a cursor names, or null for anything this service did not issue. */
export function decodeCursor(cursor: string): Position | null {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) return null;
  const match = POSITION.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (match?.[1] === undefined || match[2] === undefined) return null;
  // A real instant PostgreSQL accepts: no Feb 31 or 24:00 (Date would roll them over), no year 0.
  const time = Date.parse(match[1]);
  if (Number.isNaN(time) || new Date(time).toISOString().slice(0, 19) !== match[1].slice(0, 19) || match[1] < '1970') return null;
  return { createdAt: match[1], id: match[2] };
}

interface SummaryRow {
  id: string;
  status: JobStatus;
  progress: number;
  prompt: string;
  duration: number;
  created_at: Date;
  created_at_exact: string;
  audio_url: string | null;
  audio_hash: string | null;
  error_code: string | null;
  edit_source_id: string | null;
  edit_upload_id: string | null;
  edit: EditParameters | null;
}

/** One page of `userId`'s jobs after `after` (from the newest when absent). */
export async function listJobs(db: Queryable, userId: string, page: { after: Position | null; limit: number }): Promise<JobPage> {
  const rows = await db.manyOrNone<SummaryRow>(
    `SELECT id, status, progress, prompt, duration, created_at,
            to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS created_at_exact,
            audio_url, audio_hash, error_code, ${EDIT_SOURCE_COLUMNS}
       FROM generation_jobs
      WHERE user_id = $1 AND ($2::timestamptz IS NULL OR (created_at, id) < ($2::timestamptz, $3::uuid))
      ORDER BY created_at DESC, id DESC
      LIMIT $4`,
    [userId, page.after?.createdAt ?? null, page.after?.id ?? null, page.limit + 1],
  );
  const shown = rows.slice(0, page.limit);
  const last = shown.at(-1);
  return {
    jobs: shown.map((row) => ({
      job_id: toPublicJobId(row.id),
      status: row.status,
      progress: row.progress,
      prompt: row.prompt,
      duration: row.duration,
      created_at: row.created_at.toISOString(),
      audio_url: row.audio_url,
      audio_hash: row.audio_hash,
      error_code: row.error_code === null ? null : jobFailureCode(row.error_code),
      edit_of: editOfView(row),
    })),
    next_cursor: rows.length > page.limit && last !== undefined ? encodeCursor({ createdAt: last.created_at_exact, id: last.id }) : null,
  };
}
