/**
 * The generation job state machine: every status of `generation_jobs.status` and every
 * transition between them, for both services (the oracle queues, reads and cancels; the workers
 * claim, report progress, complete, retry and fail; the retention sweep fails abandoned attempts
 * and purges old audio). No other module writes a job's status or names one in SQL.
 *
 *   queued ──claim──▶ processing ──complete──▶ completed ──purge (90 days unminted)──▶ completed + purged_at
 *     │  ▲               │  │  │
 *     │  └───retry───────┘  │  └──fail (last attempt) / sweep (abandoned)──▶ failed (GEN_005, daily refund)
 *     └──cancel (owner)─────┴──cancel (owner)──▶ cancelled (daily refund)
 *
 * Every transition is one statement guarded by the status it leaves (and, after the claim, by
 * the attempt's claim id), so duplicate deliveries, expired attempts, killed workers and racing
 * requests cannot move a job twice. The schema is core/src/db/migrations.
 */
import { fingerprintToBytes } from '../fingerprint/encoding.ts';
import { registerSound } from '../fingerprint/registry.ts';
import type { PgBoss } from 'pg-boss';
import type { DatabaseTask, Queryable } from '../db/database.ts';
import { REFUND_DAILY_GENERATION_CTE } from '../daily-generations.ts';
import { GENERATION_QUEUE, LOSSLESS_MASTERS_DEADLINE_SECONDS, TIER_PRIORITY, WORKER_RETRY_LIMIT } from '../generation-queue.ts';
import type { GenerationMessage, Tier } from '../generation-queue.ts';
import { bossDbFromTask } from '../queue.ts';
import { fail, ok } from '../result.ts';
import type { Result } from '../result.ts';
import type { EditParameters, SongEdit } from '../song-edits.ts';
import type { OutsideAudio, OutsideSpan } from '../outside-audio.ts';

export const JOB_STATUSES = ['queued', 'processing', 'completed', 'failed', 'cancelled'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** The statuses by name: code compares with these, never with string literals. */
export const JOB_STATUS = {
  queued: 'queued',
  processing: 'processing',
  completed: 'completed',
  failed: 'failed',
  cancelled: 'cancelled',
} as const satisfies { readonly [S in JobStatus]: S };

/** The spec's four statuses (Variant A); `cancelled` is this project's extension. */
export const SPEC_JOB_STATUSES = [JOB_STATUS.queued, JOB_STATUS.processing, JOB_STATUS.completed, JOB_STATUS.failed] as const;

/** A job in one of these never moves again (retention only marks `purged_at`). */
export function isFinished(status: JobStatus): boolean {
  return status === JOB_STATUS.completed || status === JOB_STATUS.failed || status === JOB_STATUS.cancelled;
}

/** `status` as an SQL string literal, for queries outside this module that filter by status. */
export function sqlStatus(status: JobStatus): string {
  return `'${status}'`;
}

/** Error code of a job the service failed (spec: "GEN_005 model inference error", retry allowed). */
export const GENERATION_FAILED_CODE = 'GEN_005';

/** Spec: unminted audio is deleted after 90 days. */
export const AUDIO_RETENTION_DAYS = 90;
/** A song its owner moved to the trash is deleted this many days after (sooner than 90 days from its making). */
export const TRASH_RETENTION_DAYS = 30;

/** Error messages are stored up to this length. */
/** Stored error messages are cut to this many characters. */
export const ERROR_MESSAGE_MAX = 1000;

const S = {
  queued: sqlStatus(JOB_STATUS.queued),
  processing: sqlStatus(JOB_STATUS.processing),
  completed: sqlStatus(JOB_STATUS.completed),
  failed: sqlStatus(JOB_STATUS.failed),
  cancelled: sqlStatus(JOB_STATUS.cancelled),
};

// ---------------------------------------------------------------------------------------------
// queue (oracle)

export interface NewJob {
  userId: string;
  userAddress: string;
  prompt: string;
  duration: number;
  seed?: bigint;
  steps: 27 | 60;
  lyrics?: string;
  withLyrics: boolean;
  /** Tier at enqueue time: it fixes the queue priority. */
  tier: Tier;
  /** Where migration 0011's trigger sends `generation.completed`/`generation.failed` (checked by the caller). */
  webhookUrl?: string;
  /** An edit of one of the user's completed songs (checked by the caller, core/src/song-edits.ts). */
  edit?: SongEdit;
  /** The song's own title (an edit's, from its source); absent: it goes by its prompt. */
  title?: string;
  /** The outside audio an edit carries (core/src/outside-audio.ts); absent: none. */
  outside?: OutsideAudio;
}

/** The `edit` column's value: the parameters without the source (stored in `edit_source_id` or `edit_upload_id`). */
export function editParameters(edit: SongEdit): EditParameters {
  switch (edit.task) {
    case 'extend':
      return { task: 'extend' };
    case 'repaint':
      return { task: 'repaint', start: edit.start, end: edit.end };
    case 'remix':
      return { task: 'remix', strength: edit.strength };
  }
}

/**
 * Writes a `queued` job and its queue message in the caller's transaction, so both commit or
 * neither does. The caller has charged the daily counter in the same transaction.
 */
export async function queueJob(tx: DatabaseTask, boss: PgBoss, job: NewJob): Promise<{ id: string; createdAt: Date }> {
  const row = await tx.one<{ id: string; created_at: Date }>(
    `INSERT INTO generation_jobs (user_id, user_address, prompt, duration, seed, steps, lyrics, with_lyrics, tier, status, webhook_url,
                                  edit_source_id, edit_upload_id, edit, title, outside_material, outside_spans)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, ${S.queued}, $10, $11, $12, $13, $14, $15, $16)
     RETURNING id, created_at`,
    [
      job.userId,
      job.userAddress,
      job.prompt,
      job.duration,
      job.seed === undefined ? null : job.seed.toString(),
      job.steps,
      job.lyrics ?? null,
      job.withLyrics,
      job.tier,
      job.webhookUrl ?? null,
      job.edit?.sourceId ?? null,
      job.edit?.uploadId ?? null,
      job.edit === undefined ? null : JSON.stringify(editParameters(job.edit)),
      job.title ?? null,
      job.outside?.material ?? false,
      JSON.stringify(job.outside?.spans ?? []),
    ],
  );
  const message: GenerationMessage = { jobId: row.id };
  await boss.send(GENERATION_QUEUE, message, { priority: TIER_PRIORITY[job.tier], db: bossDbFromTask(tx) });
  return { id: row.id, createdAt: row.created_at };
}

// ---------------------------------------------------------------------------------------------
// cancel (oracle)

export type CancelError =
  | { code: 'not_found'; message: string }
  /** The job is finished already (completed, failed, or cancelled before). */
  | { code: 'not_cancellable'; message: string; status: JobStatus };

/**
 * The owner cancels a job that has not finished: `cancelled`, and the daily generation it cost is
 * given back. A queued job's message stays; the worker's claim skips a cancelled job. A
 * processing job stops cooperatively: its attempt no longer owns the row (every worker
 * transition is guarded by `processing`), and the worker checks `attemptCancelled` between steps.
 * The row lock orders a cancel against `lockForPublish`: whichever comes first wins.
 */
export async function cancelJob(db: Queryable, jobId: string, userId: string): Promise<Result<{ status: 'cancelled' }, CancelError>> {
  const row = await db.one<{ cancelled: number; status: JobStatus | null }>(
    `WITH settled AS (
       UPDATE generation_jobs SET status = ${S.cancelled}
        WHERE id = $1 AND user_id = $2 AND status IN (${S.queued}, ${S.processing})
       RETURNING user_id, created_at
     ), ${REFUND_DAILY_GENERATION_CTE}
     SELECT (SELECT count(*)::int FROM settled) AS cancelled,
            (SELECT status FROM generation_jobs WHERE id = $1 AND user_id = $2) AS status`,
    [jobId, userId],
  );
  if (row.cancelled === 1) return ok({ status: JOB_STATUS.cancelled });
  if (row.status === null) return fail({ code: 'not_found', message: 'no such job of this user' });
  return fail({
    code: 'not_cancellable',
    message: `the job is ${row.status}; only a queued or processing job can be cancelled`,
    status: row.status,
  });
}

// ---------------------------------------------------------------------------------------------
// claim, progress, complete, retry, fail (workers)

export interface ClaimedJob {
  id: string;
  claimId: string;
  prompt: string;
  duration: number;
  seed: bigint;
  steps: 27 | 60;
  lyrics: string | null;
  withLyrics: boolean;
  attempts: number;
  /** A song that edits another (never set on a preview). */
  edit?: SongEdit;
  /** The outside audio an edit carries (core/src/outside-audio.ts; never set on a preview). */
  outside?: OutsideAudio;
}

interface ClaimRow {
  id: string;
  claim_id: string;
  prompt: string;
  duration: number;
  seed: string | null;
  steps: number;
  lyrics: string | null;
  with_lyrics: boolean;
  attempts: number;
}

/**
 * The tables whose rows are generation attempts: songs, and previews (./preview-state.ts). Both
 * have the attempt columns (status, progress, claim id, attempts, seed, started_at), so starting,
 * advancing, locking and retrying an attempt is one rule for both, written here once.
 */
export type AttemptTable = 'generation_jobs' | 'preview_jobs';

/**
 * Starts an attempt on a row of `table`: `processing`, `started_at`, attempts + 1, a fresh claim
 * id, the seed fixed (derived from the row's id when none was given). A row left `processing` by a
 * lost attempt is claimed again. Undefined when the row is finished (cancelled included) or
 * unknown. `extraColumns` are returned beside the attempt as they are stored.
 */
export async function claimAttempt<Extra extends Record<string, unknown> = Record<never, never>>(
  db: Queryable,
  table: AttemptTable,
  id: string,
  derivedSeed: bigint,
  extraColumns: ReadonlyArray<keyof Extra & string> = [],
): Promise<{ attempt: ClaimedJob; extra: Extra } | undefined> {
  const extra = extraColumns.map((column) => `, ${column}`).join('');
  const row = await db.oneOrNone<ClaimRow & Extra>(
    `UPDATE ${table}
        SET status = ${S.processing}, started_at = now(), attempts = attempts + 1, progress = 0,
            claim_id = gen_random_uuid(), seed = coalesce(seed, $2::bigint), error_code = NULL
      WHERE id = $1 AND status IN (${S.queued}, ${S.processing})
      RETURNING id, claim_id, prompt, duration, seed::text AS seed, steps, lyrics, with_lyrics, attempts${extra}`,
    [id, derivedSeed.toString()],
  );
  if (row === null) return undefined;
  if (row.steps !== 27 && row.steps !== 60) throw new Error(`${table} row ${row.id} has steps ${row.steps}`);
  return {
    attempt: {
      id: row.id,
      claimId: row.claim_id,
      prompt: row.prompt,
      duration: row.duration,
      seed: BigInt(row.seed ?? derivedSeed.toString()),
      steps: row.steps,
      lyrics: row.lyrics,
      withLyrics: row.with_lyrics,
      attempts: row.attempts,
    },
    extra: Object.fromEntries(extraColumns.map((column) => [column, row[column]])) as Extra,
  };
}

/** Raises the attempt's progress (0-100, never backwards). */
export async function raiseAttemptProgress(
  db: Queryable,
  table: AttemptTable,
  attempt: Pick<ClaimedJob, 'id' | 'claimId'>,
  progress: number,
): Promise<void> {
  await db.none(`UPDATE ${table} SET progress = $3 WHERE id = $1 AND claim_id = $2 AND status = ${S.processing} AND progress < $3`, [
    attempt.id,
    attempt.claimId,
    Math.max(0, Math.min(100, Math.round(progress))),
  ]);
}

/** Locks the attempt's row for its publishing transaction; false when the attempt no longer owns it. */
export async function lockAttempt(tx: DatabaseTask, table: AttemptTable, attempt: Pick<ClaimedJob, 'id' | 'claimId'>): Promise<boolean> {
  const row = await tx.oneOrNone<{ id: string }>(
    `SELECT id FROM ${table} WHERE id = $1 AND claim_id = $2 AND status = ${S.processing} FOR UPDATE`,
    [attempt.id, attempt.claimId],
  );
  return row !== null;
}

/** A failed attempt with retries left: back to `queued`, attempts kept, the error recorded. */
export async function retryAttempt(
  db: Queryable,
  table: AttemptTable,
  attempt: Pick<ClaimedJob, 'id' | 'claimId'>,
  message: string,
): Promise<void> {
  await db.none(
    `UPDATE ${table} SET status = ${S.queued}, progress = 0, error_message = $3
      WHERE id = $1 AND claim_id = $2 AND status = ${S.processing}`,
    [attempt.id, attempt.claimId, message.slice(0, ERROR_MESSAGE_MAX)],
  );
}

/** Starts an attempt of a song (`claimAttempt`), with its edit when it is one. */
export async function claimJob(db: Queryable, jobId: string, derivedSeed: bigint): Promise<ClaimedJob | undefined> {
  const claimed = await claimAttempt<{
    edit: EditParameters | null;
    edit_source_id: string | null;
    edit_upload_id: string | null;
    outside_material: boolean;
    outside_spans: OutsideSpan[];
  }>(db, 'generation_jobs', jobId, derivedSeed, ['edit', 'edit_source_id', 'edit_upload_id', 'outside_material', 'outside_spans']);
  if (claimed === undefined) return undefined;
  const { edit, edit_source_id: sourceId, edit_upload_id: uploadId } = claimed.extra;
  if (edit === null) return claimed.attempt;
  const outside = { material: claimed.extra.outside_material, spans: claimed.extra.outside_spans };
  if (sourceId !== null) return { ...claimed.attempt, edit: { ...edit, sourceId }, outside };
  return uploadId === null ? claimed.attempt : { ...claimed.attempt, edit: { ...edit, uploadId }, outside };
}

export async function reportProgress(db: Queryable, job: ClaimedJob, progress: number): Promise<void> {
  await raiseAttemptProgress(db, 'generation_jobs', job, progress);
}

/** True once the owner cancelled the job this attempt runs (the worker's check between steps). */
export async function attemptCancelled(db: Queryable, job: ClaimedJob): Promise<boolean> {
  const row = await db.oneOrNone<{ id: string }>(`SELECT id FROM generation_jobs WHERE id = $1 AND status = ${S.cancelled}`, [job.id]);
  return row !== null;
}

export async function lockForPublish(tx: DatabaseTask, job: ClaimedJob): Promise<boolean> {
  return lockAttempt(tx, 'generation_jobs', job);
}

export interface CompletedAudio {
  audioKey: string;
  audioUrl: string;
  audioHash: string;
  actualDuration: number;
  modelName: string;
  modelVersion: string;
  device: 'cuda' | 'cpu';
  usedLyrics: string | null;
  lyricsTokens: number | null;
  /** SPDX id of the model's licence, and whether it allows commercial use (the mint guard reads it). */
  modelLicence: string;
  modelCommercialUse: boolean;
  /** The C2PA manifest embedded in the audio (docs/content-credentials.md). */
  contentCredentials: ContentCredentialsRecord;
  /** The private object keeping the song's final latents (core/src/song-edits.ts), or null. */
  latentsKey?: string | null;
  /**
   * The song's lossless masters (absent: none will be made): pending at completion, recorded by
   * `recordLosslessMasters` once stored; and the hash of their PCM, known at completion.
   */
  lossless?: LosslessPending;
  pcmHash?: string;
  /** The sound's Chromaprint fingerprint (core/src/fingerprint/), stored raw (absent: none made). */
  fingerprint?: Uint32Array;
  /** Its landmark peaks, raw (core/src/fingerprint/landmarks.ts; absent: none made). */
  landmarks?: Uint8Array;
}

/** A song's stored WAV and FLAC: the `lossless` column once they are stored (`losslessObjectKey`). */
export interface LosslessRecord {
  sample_rate: number;
  bits_per_sample: number;
  channels: number;
  wav_bytes: number;
  flac_bytes: number;
}

/**
 * The `lossless` column from completion until the worker stored the masters (or gave up on them):
 * their PCM's shape, their sizes not known yet (null, so the column's check of migration 0015,
 * which asks for every key, holds as it is).
 */
export interface LosslessPending {
  pending: true;
  sample_rate: number;
  bits_per_sample: number;
  channels: number;
  wav_bytes: null;
  flac_bytes: null;
}

/** What the `lossless` column holds: nothing (none made, or given up), pending, or the stored files. */
export type LosslessColumn = LosslessRecord | LosslessPending;

/**
 * The `lossless` column as readers see it (select it `AS lossless`): nothing once retention purged
 * the audio, nor when the masters are still pending past `LOSSLESS_MASTERS_DEADLINE_SECONDS`
 * after completion (the worker making them died: they will not come).
 */
export const LOSSLESS_COLUMN_SQL = `CASE WHEN purged_at IS NULL AND (lossless->>'pending' IS NULL
              OR completed_at > now() - make_interval(secs => ${LOSSLESS_MASTERS_DEADLINE_SECONDS})) THEN lossless END`;

/**
 * Records a completed song's stored masters in place of its pending marker; false when there is
 * nothing pending any more (retention purged the song, or the deadline passed): the caller then
 * deletes what it stored.
 */
export async function recordLosslessMasters(db: Queryable, jobId: string, record: LosslessRecord): Promise<boolean> {
  const result = await db.result(
    `UPDATE generation_jobs SET lossless = $2
      WHERE id = $1 AND status = ${S.completed} AND purged_at IS NULL AND lossless->>'pending' IS NOT NULL
        AND completed_at > now() - make_interval(secs => ${LOSSLESS_MASTERS_DEADLINE_SECONDS})`,
    [jobId, JSON.stringify(record)],
  );
  return result.rowCount === 1;
}

/** The worker gave up on a song's masters: it has none (`lossless` null) rather than pending ones. */
export async function dropPendingLossless(db: Queryable, jobId: string): Promise<void> {
  await db.none(`UPDATE generation_jobs SET lossless = NULL WHERE id = $1 AND lossless->>'pending' IS NOT NULL`, [jobId]);
}

/** What a job's audio carries as content credentials: the `content_credentials` column. */
export interface ContentCredentialsRecord {
  standard: 'c2pa';
  /** The active manifest's label (`urn:c2pa:…`). */
  manifest: string;
  /** Subject of the certificate that signed it. */
  signer: string;
}

/**
 * `completed` with its published audio; false when this attempt no longer owns the job. Its
 * landmark fingerprint is registered to its owner in the same transaction, as of now (issue 50: a sound
 * belongs to whoever it was made for, from when it was made; docs/fingerprints.md), before its
 * audio is public: no copy of it can be made before it is registered.
 */
export async function completeJob(tx: DatabaseTask, job: ClaimedJob, audio: CompletedAudio): Promise<boolean> {
  const completed = await tx.oneOrNone<{ user_id: string }>(
    `UPDATE generation_jobs
        SET status = ${S.completed}, progress = 100, completed_at = now(), audio_key = $3, audio_url = $4,
            audio_hash = $5, actual_duration = $6, model_name = $7, model_version = $8, device = $9,
            used_lyrics = $10, lyrics_tokens = $11, model_licence = $12, model_commercial_use = $13,
            content_credentials = $14, latents_key = $15, lossless = $16, pcm_hash = $17, fingerprint = $18,
            landmarks = $19, error_code = NULL, error_message = NULL
      WHERE id = $1 AND claim_id = $2 AND status = ${S.processing}
      RETURNING user_id`,
    [
      job.id,
      job.claimId,
      audio.audioKey,
      audio.audioUrl,
      audio.audioHash,
      audio.actualDuration,
      audio.modelName,
      audio.modelVersion,
      audio.device,
      audio.usedLyrics,
      audio.lyricsTokens,
      audio.modelLicence,
      audio.modelCommercialUse,
      JSON.stringify(audio.contentCredentials),
      audio.latentsKey ?? null,
      audio.lossless === undefined ? null : JSON.stringify(audio.lossless),
      audio.pcmHash ?? null,
      audio.fingerprint === undefined ? null : Buffer.from(fingerprintToBytes(audio.fingerprint)),
      audio.landmarks === undefined ? null : Buffer.from(audio.landmarks),
    ],
  );
  if (completed === null) return false;
  if (audio.landmarks !== undefined) await registerSound(tx, { jobId: job.id, userId: completed.user_id, landmarks: audio.landmarks });
  return true;
}

export async function retryJob(db: Queryable, job: ClaimedJob, message: string): Promise<void> {
  await retryAttempt(db, 'generation_jobs', job, message);
}

/** The last attempt failed: `failed` with GEN_005, and the daily generation given back. */
export async function failJob(db: Queryable, job: ClaimedJob, message: string): Promise<void> {
  await db.one(
    `WITH settled AS (
       UPDATE generation_jobs SET status = ${S.failed}, error_code = '${GENERATION_FAILED_CODE}', error_message = $3
        WHERE id = $1 AND claim_id = $2 AND status = ${S.processing}
       RETURNING user_id, created_at
     ), ${REFUND_DAILY_GENERATION_CTE}
     SELECT count(*)::int AS failed FROM settled`,
    [job.id, job.claimId, message.slice(0, ERROR_MESSAGE_MAX)],
  );
}

// ---------------------------------------------------------------------------------------------
// sweep and purge (the retention sweeper)

export const ABANDONED_JOB_MESSAGE = 'generation failed: the worker running the last attempt stopped responding';

/**
 * Jobs left `processing` by a worker killed on its last attempt (pg-boss gives up on them
 * silently): `failed` with GEN_005 once the attempt started more than `abandonedAfterSeconds`
 * ago, each with its daily generation given back. Returns how many were failed.
 */
export async function failAbandonedJobs(db: Queryable, abandonedAfterSeconds: number): Promise<number> {
  const row = await db.one<{ failed: number }>(
    `WITH settled AS (
       UPDATE generation_jobs
          SET status = ${S.failed}, error_code = '${GENERATION_FAILED_CODE}', error_message = $3
        WHERE status = ${S.processing} AND attempts >= $1 AND started_at < now() - make_interval(secs => $2)
       RETURNING user_id, created_at
     ), ${REFUND_DAILY_GENERATION_CTE}
     SELECT count(*)::int AS failed FROM settled`,
    [1 + WORKER_RETRY_LIMIT, abandonedAfterSeconds, ABANDONED_JOB_MESSAGE],
  );
  return row.failed;
}

/**
 * Completed, unminted, unpurged jobs whose audio is older than the retention period (or that
 * their owner trashed `TRASH_RETENTION_DAYS` ago), oldest first, with their kept latents and whether they have lossless masters (all purged with the audio).
 */
export async function findExpiredAudio(
  db: Queryable,
  limit: number,
): Promise<{ id: string; audioKey: string; latentsKey: string | null; lossless: boolean }[]> {
  return db.map(
    `SELECT id, audio_key, latents_key, lossless IS NOT NULL AS lossless FROM generation_jobs
      WHERE status = ${S.completed} AND nft_token_id IS NULL AND purged_at IS NULL AND audio_key IS NOT NULL
        AND (completed_at < now() - make_interval(days => $1) OR deleted_at < now() - make_interval(days => $3))
      ORDER BY completed_at LIMIT $2`,
    [AUDIO_RETENTION_DAYS, limit, TRASH_RETENTION_DAYS],
    (row: { id: string; audio_key: string; latents_key: string | null; lossless: boolean }) => ({
      id: row.id,
      audioKey: row.audio_key,
      latentsKey: row.latents_key,
      lossless: row.lossless,
    }),
  );
}

/**
 * Marks the job's audio purged (before its object is deleted), unless it was minted meanwhile;
 * false when it was. The row keeps audio_url and audio_hash as the record of what was published.
 */
export async function markPurged(db: Queryable, jobId: string): Promise<boolean> {
  const marked = await db.result(
    `UPDATE generation_jobs SET purged_at = now() WHERE id = $1 AND nft_token_id IS NULL AND purged_at IS NULL`,
    [jobId],
  );
  return marked.rowCount === 1;
}

/** Takes back `markPurged` when deleting the object failed. */
export async function unmarkPurged(db: Queryable, jobId: string): Promise<void> {
  await db.none('UPDATE generation_jobs SET purged_at = NULL WHERE id = $1', [jobId]);
}
