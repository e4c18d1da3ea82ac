/**
 * Previews (spec, "Files"; issue 15 item 7): a short clip of a prompt before the user commits to
 * a generation. A preview runs on the generation queue and workers as a job of its own table
 * (core/src/jobs/preview-state.ts), so it can never be listed, signed for minting or described
 * by metadata as a song. Admission is a generation's without the daily counter: GEN_002 without
 * a live worker, then in one transaction GEN_001 when the queue is full and the hourly `preview`
 * limit. The clip is private at `preview/<session_id>.mp3`, served only through presigned URLs
 * valid one hour (core/src/previews.ts), and gone after 24 hours: the status answers 410 then.
 */
import { randomBytes } from 'node:crypto';
import type { Database, Queryable } from '../../../core/src/db/database.ts';
import { TIER_PRIORITY } from '../../../core/src/generation-queue.ts';
import type { Tier } from '../../../core/src/generation-queue.ts';
import { GENERATION_FAILED_CODE, JOB_STATUS, sqlStatus } from '../../../core/src/jobs/job-state.ts';
import { queuePreview } from '../../../core/src/jobs/preview-state.ts';
import type { PreviewStatus } from '../../../core/src/jobs/preview-state.ts';
import type { ObjectStore } from '../../../core/src/object-store.ts';
import { PREVIEW_RETENTION_HOURS, isPreviewSessionId, previewExpiresAt, previewLink } from '../../../core/src/previews.ts';
import { PRIORITY_SQL, liveWorkerCapacity, queuePlace, runRates } from '../queue/queue-state.ts';
import type { QueuePlace } from '../queue/queue-state.ts';
import { appError, fail, jobFailureCode, ok } from './errors.ts';
import type { AppError, ErrorCode, Result } from './errors.ts';
import { admitToQueue, checkDuration } from './generation.ts';
import type { AdmissionCharge, GenerationDeps, GenerationRefusal, GenerationRequest } from './generation.ts';
import { GENERATION_FAILED_RETRY_SECONDS } from './jobs.ts';
import { chargedLookup } from './request-charge.ts';
import type { ChargedLookup } from './request-charge.ts';
import type { LimitState, SessionUser } from './request-charge.ts';

/** A preview is a short clip: 5 to 15 seconds, 10 when not asked. */
export const PREVIEW_MIN_SECONDS = 5;
export const PREVIEW_MAX_SECONDS = 15;
export const PREVIEW_DEFAULT_SECONDS = 10;

/** Public session ids: `prv_` and 24 URL-safe characters (144 random bits; core's pattern). */
const SESSION_PREFIX = 'prv_';
const SESSION_RANDOM_BYTES = 18;

export function newPreviewSessionId(): string {
  return `${SESSION_PREFIX}${randomBytes(SESSION_RANDOM_BYTES).toString('base64url')}`;
}

/** A song's request without what only a song has (its webhook). */
export type PreviewRequest = Omit<GenerationRequest, 'webhookUrl'>;

export interface AcceptedPreview {
  sessionId: string;
  status: typeof JOB_STATUS.queued;
  position: number;
  estimatedTime: number;
  limit: LimitState;
}

export type PreviewDeps = GenerationDeps;

/**
 * Admits a preview as a song is admitted (`admitToQueue`: GEN_002, GEN_001, one transaction), but
 * charged as the route table says: the hourly `preview` category only, never the daily counter
 * (a preview is not a generation the user commits to).
 */
export async function submitPreview(
  deps: PreviewDeps,
  user: SessionUser,
  request: PreviewRequest,
  charge: AdmissionCharge,
): Promise<Result<AcceptedPreview, GenerationRefusal>> {
  // The schema caps a preview at 15 s; the running model's measured limit may be tighter.
  const tooLong = await checkDuration(deps.db, request.duration, request.steps, {
    limitedBy: 'preview',
    max: PREVIEW_MAX_SECONDS,
    of: 'preview',
  });
  if (tooLong !== null) return fail(tooLong);
  const sessionId = newPreviewSessionId();
  const admitted = await admitToQueue(deps, user, charge, async (tx, slots) => {
    const preview = await queuePreview(tx, deps.boss, { ...request, sessionId, userId: user.id, tier: user.tier });
    return previewPlace(
      tx,
      { id: preview.id, tier: user.tier, createdAt: preview.createdAt, duration: request.duration, steps: request.steps },
      slots,
    );
  });
  if (!admitted.ok) return fail(admitted.error);
  const { written: place, limit } = admitted.value;
  return ok({ sessionId, status: JOB_STATUS.queued, position: place.position, estimatedTime: place.estimatedSeconds, limit });
}

interface PlaceRef {
  id: string;
  tier: Tier;
  createdAt: Date;
  duration: number;
  steps: 27 | 60;
}

/** The songs' queue place (`queuePlace`) plus the previews queued ahead, by the same ordering. */
async function previewPlace(db: Queryable, ref: PlaceRef, slots: number): Promise<QueuePlace> {
  const rates = await runRates(db);
  const songs = await queuePlace(db, ref, rates, slots);
  const ahead = await db.one<{ n: number; seconds: number }>(
    `SELECT count(*)::int AS n, coalesce(sum(duration), 0)::int AS seconds FROM preview_jobs
      WHERE status = ${sqlStatus(JOB_STATUS.queued)} AND id <> $1
        AND (${PRIORITY_SQL} > $2 OR (${PRIORITY_SQL} = $2 AND created_at < $3))`,
    [ref.id, TIER_PRIORITY[ref.tier], ref.createdAt],
  );
  const previewWork = ahead.seconds * rates.secondsPerAudioSecond[27] + ahead.n * rates.overheadSeconds[27];
  return { position: songs.position + ahead.n, estimatedSeconds: songs.estimatedSeconds + Math.ceil(previewWork / Math.max(1, slots)) };
}

// ---------------------------------------------------------------------------------------------
// status

export interface PreviewRow {
  preview_id: string;
  preview_session_id: string;
  preview_status: PreviewStatus;
  preview_progress: number;
  preview_duration: number;
  preview_steps: 27 | 60;
  preview_tier: Tier;
  preview_audio_hash: string | null;
  preview_actual_duration: number | null;
  preview_error_code: string | null;
  preview_error_message: string | null;
  preview_created_at: Date;
  preview_started_at: Date | null;
  /** The database's clock when the row was read: the clock of the expiry rule. */
  preview_read_at: Date;
}

const chargeAndFindPreview = chargedLookup<PreviewRow>(
  'session-charge-find-preview',
  (
    caller,
    [sessionId],
  ) => `SELECT id AS preview_id, session_id AS preview_session_id, status AS preview_status, progress AS preview_progress,
          duration AS preview_duration, steps AS preview_steps, tier AS preview_tier, audio_hash AS preview_audio_hash,
          actual_duration AS preview_actual_duration, error_code AS preview_error_code, error_message AS preview_error_message,
          created_at AS preview_created_at, started_at AS preview_started_at, now() AS preview_read_at
     FROM preview_jobs WHERE session_id = ${sessionId}::text AND user_id = ${caller}`,
  // Columns prefixed so that none collides with the charge's.
  (row) => (typeof row.preview_id === 'string' ? (row as unknown as PreviewRow) : null),
);

/** The caller's preview `sessionId` read in the charge of its request; ids that cannot exist find nothing. */
export function ownPreviewLookup(sessionId: string): ChargedLookup<PreviewRow> {
  return chargeAndFindPreview(isPreviewSessionId(sessionId) ? sessionId : null);
}

export type PreviewView =
  | {
      session_id: string;
      status: typeof JOB_STATUS.queued;
      progress: number;
      estimated_remaining: number;
      position: number;
      expires_at: string;
    }
  | { session_id: string; status: typeof JOB_STATUS.processing; progress: number; estimated_remaining: number; expires_at: string }
  | {
      session_id: string;
      status: typeof JOB_STATUS.completed;
      preview_url: string;
      url_expires_at: string;
      expires_at: string;
      audio_hash: string;
      duration: number;
      created_at: string;
    }
  | {
      session_id: string;
      status: typeof JOB_STATUS.failed;
      error: { code: ErrorCode; message: string; retry_after?: number };
      expires_at: string;
    };

function expired(sessionId: string, expiresAt: Date): AppError {
  return appError('PREVIEW_EXPIRED', 'Preview expired', {
    details: `previews are deleted ${PREVIEW_RETENTION_HOURS} hours after they are requested; this one expired at ${expiresAt.toISOString()}. Request a new preview.`,
    fields: { session_id: sessionId, expired_at: expiresAt.toISOString() },
  });
}

export interface PreviewViewDeps {
  db: Database;
  objectStore: Pick<ObjectStore, 'presignedGetUrl'>;
}

/**
 * The status body of `preview`; PREVIEW_EXPIRED past its 24 hours or once its clip is deleted.
 * Expiry and progress run on the database's clock (`preview_read_at`), as the retention sweep
 * does: a replica whose clock is minutes ahead does not expire a preview early.
 */
export async function viewPreview(deps: PreviewViewDeps, preview: PreviewRow): Promise<Result<PreviewView>> {
  const sessionId = preview.preview_session_id;
  const now = preview.preview_read_at;
  const expiresAt = previewExpiresAt(preview.preview_created_at);
  if (now.getTime() >= expiresAt.getTime()) return fail(expired(sessionId, expiresAt));
  const expires_at = expiresAt.toISOString();
  switch (preview.preview_status) {
    case JOB_STATUS.completed: {
      const link = await previewLink(deps.db, deps.objectStore, sessionId);
      if (!link.ok) {
        if (link.error.code === 'PREVIEW_NOT_FOUND') return fail(expired(sessionId, expiresAt));
        return fail(appError('SERVICE_UNAVAILABLE', 'Object storage unavailable', { details: link.error.message, retryAfter: 5 }));
      }
      return ok({
        session_id: sessionId,
        status: JOB_STATUS.completed,
        preview_url: link.value.url,
        url_expires_at: link.value.expiresAt.toISOString(),
        expires_at,
        audio_hash: link.value.audioHash,
        duration: Math.round(preview.preview_actual_duration ?? preview.preview_duration),
        created_at: preview.preview_created_at.toISOString(),
      });
    }
    case JOB_STATUS.failed: {
      const code = jobFailureCode(preview.preview_error_code);
      return ok({
        session_id: sessionId,
        status: JOB_STATUS.failed,
        error: {
          code,
          message: preview.preview_error_message ?? 'Preview failed',
          ...(code === GENERATION_FAILED_CODE ? { retry_after: GENERATION_FAILED_RETRY_SECONDS } : {}),
        },
        expires_at,
      });
    }
    case JOB_STATUS.processing: {
      const rates = await runRates(deps.db);
      const total =
        preview.preview_duration * rates.secondsPerAudioSecond[preview.preview_steps] + rates.overheadSeconds[preview.preview_steps];
      const elapsed = preview.preview_started_at === null ? 0 : (now.getTime() - preview.preview_started_at.getTime()) / 1000;
      const remaining = preview.preview_progress > 0 ? total * (1 - preview.preview_progress / 100) : total - elapsed;
      return ok({
        session_id: sessionId,
        status: JOB_STATUS.processing,
        progress: preview.preview_progress,
        estimated_remaining: Math.max(1, Math.ceil(remaining)),
        expires_at,
      });
    }
    case JOB_STATUS.queued: {
      const capacity = await liveWorkerCapacity(deps.db);
      const place = await previewPlace(
        deps.db,
        {
          id: preview.preview_id,
          tier: preview.preview_tier,
          createdAt: preview.preview_created_at,
          duration: preview.preview_duration,
          steps: preview.preview_steps,
        },
        capacity.slots,
      );
      return ok({
        session_id: sessionId,
        status: JOB_STATUS.queued,
        progress: preview.preview_progress,
        estimated_remaining: place.estimatedSeconds,
        position: place.position,
        expires_at,
      });
    }
  }
}
