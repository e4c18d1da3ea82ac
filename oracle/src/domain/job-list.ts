/**
 * A user's jobs, newest first, a page at a time (GET /api/generate). Pages are cut by keyset on
 * (created_at, id), so a job created while a client pages never shifts or repeats an item. The
 * cursor is opaque to clients: base64url of the last item's exact creation time (microseconds,
 * as PostgreSQL stores it) and id.
 *
 * The library (docs/api.md "Manage your library") narrows the list: `filter` (minted, unminted,
 * edits, failed, or the trash; every other view leaves the trash out) and `q`, a text found
 * case-insensitively in the song's name (./song-title.ts), prompt or lyrics. A page also says how
 * many songs match in all (`total`), for "312 songs".
 */
import type { Queryable } from '../../../core/src/db/database.ts';
import { toPublicJobId } from '../../../core/src/generation-queue.ts';
import { JOB_STATUS, sqlStatus } from '../../../core/src/jobs/job-state.ts';
import type { JobStatus } from '../../../core/src/jobs/job-state.ts';
import type { EditParameters } from '../../../core/src/song-edits.ts';
import { EDIT_SOURCE_COLUMNS, editOfView } from './edit-of.ts';
import type { EditOfView } from './edit-of.ts';
import { jobFailureCode } from './errors.ts';
import type { ErrorCode } from './errors.ts';
import { MINTED_NAME_OF_JOB } from './song-title.ts';
import { keysetCursorCodec } from './keyset-cursor.ts';
import type { KeysetPosition } from './keyset-cursor.ts';

export const JOB_LIST_DEFAULT_LIMIT = 20;
export const JOB_LIST_MAX_LIMIT = 100;
/** The longest search text (`q`). */
export const JOB_SEARCH_MAX_CHARS = 200;

/** The library's views: every song not in the trash (`all`), a part of them, or the trash. */
export const JOB_LIST_FILTERS = ['all', 'minted', 'unminted', 'edits', 'failed', 'trash'] as const;
export type JobListFilter = (typeof JOB_LIST_FILTERS)[number];

/** SQL condition of each view over a generation_jobs row. */
const FILTER_SQL: Readonly<Record<JobListFilter, string>> = {
  all: 'deleted_at IS NULL',
  minted: 'deleted_at IS NULL AND nft_token_id IS NOT NULL',
  unminted: `deleted_at IS NULL AND nft_token_id IS NULL AND status = ${sqlStatus(JOB_STATUS.completed)}`,
  edits: 'deleted_at IS NULL AND edit IS NOT NULL',
  failed: `deleted_at IS NULL AND status IN (${sqlStatus(JOB_STATUS.failed)}, ${sqlStatus(JOB_STATUS.cancelled)})`,
  trash: 'deleted_at IS NOT NULL',
};

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
  /** Its name when it has one besides its prompt: the minted name, or the title its owner (or its edit) gave it. */
  title: string | null;
  /** The minted token id, set once the chain watcher has seen the mint. */
  nft_token_id: string | null;
  /** When it was moved to the trash; null in the library. */
  deleted_at: string | null;
}

export interface JobPage {
  jobs: JobSummary[];
  /** Pass back as `cursor` for the next page; null on the last page. */
  next_cursor: string | null;
  /** Songs matching the filter and search in all pages. */
  total: number;
}

export interface JobListQuery {
  after: KeysetPosition | null;
  limit: number;
  filter: JobListFilter;
  /** Found in the name, prompt or lyrics, case-insensitively; absent: every song of the view. */
  search?: string;
}

/** The job list's cursors (no prefix: the form they always had). */
export const jobCursor = keysetCursorCodec('');

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
  title: string | null;
  minted_name: string | null;
  nft_token_id: string | null;
  deleted_at: Date | null;
}

/**
 * The summary's columns of a user's jobs meeting `condition` (SQL over a generation_jobs row), with the text a search reads
 * (`searchable`: name, prompt and lyrics, lower-cased), as a subquery the list and a single read
 * select from. `$1` is the user's id.
 */
function summaries(condition: string): string {
  return `SELECT id, status, progress, prompt, duration, created_at,
                 to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS created_at_exact,
                 audio_url, audio_hash, error_code, ${EDIT_SOURCE_COLUMNS}, title, nft_token_id::text AS nft_token_id, deleted_at,
                 minted_name,
                 lower(concat_ws(E'\\n', minted_name, title, prompt, coalesce(used_lyrics, lyrics))) AS searchable
            FROM (SELECT *, (${MINTED_NAME_OF_JOB}) AS minted_name FROM generation_jobs WHERE user_id = $1 AND ${condition}) jobs`;
}

function toSummary(row: SummaryRow): JobSummary {
  return {
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
    title: row.minted_name ?? row.title,
    nft_token_id: row.nft_token_id,
    deleted_at: row.deleted_at === null ? null : row.deleted_at.toISOString(),
  };
}

/** One page of `userId`'s jobs in `query.filter` matching `query.search`, after `after` (from the newest when absent). */
export async function listJobs(db: Queryable, userId: string, query: JobListQuery): Promise<JobPage> {
  const search = query.search === undefined || query.search.trim() === '' ? null : query.search.trim().toLowerCase();
  const matching = `SELECT * FROM (${summaries(FILTER_SQL[query.filter])}) songs WHERE ($2::text IS NULL OR strpos(searchable, $2) > 0)`;
  const [rows, count] = await Promise.all([
    db.manyOrNone<SummaryRow>(
      `SELECT * FROM (${matching}) page
        WHERE ($3::timestamptz IS NULL OR (created_at, id) < ($3::timestamptz, $4::uuid))
        ORDER BY created_at DESC, id DESC
        LIMIT $5`,
      [userId, search, query.after?.createdAt ?? null, query.after?.id ?? null, query.limit + 1],
    ),
    db.one<{ n: number }>(`SELECT count(*)::int AS n FROM (${matching}) counted`, [userId, search]),
  ]);
  const shown = rows.slice(0, query.limit);
  const last = shown.at(-1);
  return {
    jobs: shown.map(toSummary),
    next_cursor:
      rows.length > query.limit && last !== undefined ? jobCursor.encode({ createdAt: last.created_at_exact, id: last.id }) : null,
    total: count.n,
  };
}

/** One of `userId`'s jobs as the list shows it (trash included), or null when it is not theirs. */
export async function jobSummary(db: Queryable, userId: string, id: string): Promise<JobSummary | null> {
  const row = await db.oneOrNone<SummaryRow>(`SELECT * FROM (${summaries('id = $2')}) one`, [userId, id]);
  return row === null ? null : toSummary(row);
}
