import type { PgBoss } from 'pg-boss';
import type { Database, DatabaseTask, Queryable } from '../../../core/src/db/database.ts';
import { toPublicJobId } from '../../../core/src/generation-queue.ts';
import { SHORTEST_SONG_SECONDS } from '../../../core/src/model-speed.ts';
import type { Tier } from '../../../core/src/generation-queue.ts';
import { JOB_STATUS, queueJob } from '../../../core/src/jobs/job-state.ts';
import { liveWorkerCapacity, queuePlace, queuedJobCount, runRates } from '../queue/queue-state.ts';
import { GPU_UNAVAILABLE_RETRY_SECONDS, QUEUE_FULL_RETRY_SECONDS, appError, fail, ok } from './errors.ts';
import type { AppError, Result } from './errors.ts';
import { TIER_LIMITS } from './limits.ts';
import { modelDurationLimit } from './live-models.ts';
import { songStorageRefusal } from '../../../core/src/storage-quota.ts';
import { storageQuotaExceeded } from './storage.ts';
import type { RequestSteps } from './live-models.ts';
import { chargeRequest } from './request-charge.ts';
import { checkEdit, editInheritance } from './song-edits.ts';
import type { EditRequest } from './song-edits.ts';
import type { LimitState, RateCategory, SessionUser } from './request-charge.ts';

export interface GenerationRequest {
  prompt: string;
  duration: number;
  seed?: bigint;
  lyrics?: string;
  steps: 27 | 60;
  withLyrics: boolean;
  /** Checked against the operator's allow-list before submit (oracle/src/webhooks/target-url.ts). */
  webhookUrl?: string;
  /** An edit of one of the caller's songs, checked before the charge (./song-edits.ts). */
  edit?: EditRequest;
}

export type Requester = SessionUser;

export interface AcceptedGeneration {
  jobId: string;
  publicJobId: string;
  status: typeof JOB_STATUS.queued;
  position: number;
  estimatedTime: number;
  /** The tighter of the daily and hourly limits after this request. */
  limit: LimitState;
}

/** A refused generation: the error, and when a limit refused it, which one and its state. */
export type GenerationRefusal = AppError & {
  /** Limit state to show in headers. */
  limitState?: LimitState;
  /** Which limit refused it (metrics). */
  refusedBy?: 'daily' | 'hourly';
};

export type SubmitResult = Result<AcceptedGeneration, GenerationRefusal>;

export interface GenerationDeps {
  db: Database;
  boss: PgBoss;
  queueCapacity: number;
}

/**
 * GEN_004, decided here only: `duration` seconds above `cap.max`. The caps are the tier's maximum
 * (the spec's rule 3, `checkTierDuration`), the API's 240 s of any song (the request schema's
 * bound, so it is the caller's answer before a tier is read) and a preview's 15 s.
 */
export function durationRefusal(
  duration: number,
  cap: { max: number; of: string; fields?: Readonly<Record<string, unknown>> },
): AppError | null {
  if (duration <= cap.max) return null;
  return appError('GEN_004', `Duration ${duration} s exceeds the ${cap.of} maximum of ${cap.max} s`, {
    details: `tier maximums: free ${TIER_LIMITS.free.maxDurationSeconds} s, pro ${TIER_LIMITS.pro.maxDurationSeconds} s, enterprise ${TIER_LIMITS.enterprise.maxDurationSeconds} s`,
    fields: { max_duration: cap.max, ...cap.fields },
  });
}

/** GEN_004 for a song above the tier's maximum duration. */
export function checkTierDuration(tier: Tier, duration: number): AppError | null {
  return durationRefusal(duration, { max: TIER_LIMITS[tier].maxDurationSeconds, of: `${tier} tier`, fields: { tier } });
}

/** The tier's maximum duration as a `DurationCap`. */
export function tierCap(tier: Tier): DurationCap {
  return { limitedBy: 'tier', max: TIER_LIMITS[tier].maxDurationSeconds, of: `${tier} tier`, fields: { tier } };
}

/** A duration cap that is not the running model's: the tier's maximum, or a preview's 15 s. */
export interface DurationCap {
  limitedBy: 'tier' | 'preview';
  max: number;
  of: string;
  fields?: Readonly<Record<string, unknown>>;
}

/**
 * Before anything is charged: the running model's limit (what the live workers measured at start,
 * ./live-models.ts `modelDurationLimit`) beside `cap`. GEN_002 when workers are live but none can
 * finish even the shortest song within the job limit; GEN_004 above the tighter of the two caps,
 * naming it (`limited_by`: `model` or `tier`). No live worker at all is left to `admitToQueue`'s
 * GEN_002; a worker that published no measured limit leaves `cap` alone.
 */
export async function checkDuration(db: Queryable, duration: number, steps: RequestSteps, cap: DurationCap): Promise<AppError | null> {
  const model = await modelDurationLimit(db, steps);
  if (model.workers === 0 || model.max === null || model.max >= cap.max) {
    return durationRefusal(duration, { ...cap, fields: { limited_by: cap.limitedBy, ...cap.fields } });
  }
  const running = model.models.join(', ');
  if (model.max < SHORTEST_SONG_SECONDS) {
    return appError(
      'GEN_002',
      `No GPU capacity: the running model (${running}) cannot finish a ${SHORTEST_SONG_SECONDS} s song at ${steps} steps within the job limit`,
      {
        details: `the live workers measured their model at start: at most ${model.max} s of audio within the job limit; retry after 1 minute`,
        fields: { max_duration: model.max, steps },
        retryAfter: GPU_UNAVAILABLE_RETRY_SECONDS,
      },
    );
  }
  if (duration <= model.max) return null;
  return appError(
    'GEN_004',
    `Duration ${duration} s exceeds the running model's maximum of ${model.max} s at ${steps} steps (${running}: what it finishes within the job limit; the ${cap.of} allows ${cap.max} s)`,
    {
      details: `the live workers measured their model at start; the tighter of the model's ${model.max} s and the ${cap.of}'s ${cap.max} s applies`,
      fields: { max_duration: model.max, limited_by: 'model', steps, models: model.models, [`${cap.limitedBy}_max_duration`]: cap.max },
    },
  );
}

/** Thrown inside the transaction to roll it back (pg-promise's way), carrying the refusal out. */
class Rejection extends Error {
  readonly refusal: GenerationRefusal;
  constructor(refusal: GenerationRefusal) {
    super(refusal.message);
    this.refusal = refusal;
  }
}

/** Advisory lock key that serializes queue admission ("SMQA"), for songs and previews alike. */
const QUEUE_ADMISSION_LOCK = 0x534d5141;

/** What an admission charges: its hourly category and, for a song, the daily tier counter. */
export interface AdmissionCharge {
  category: RateCategory;
  daily: boolean;
}

export interface Admitted<T> {
  /** What `write` returned. */
  written: T;
  /** The tighter of the limits charged, after this request. */
  limit: LimitState;
}

/**
 * Admission to the generation queue, shared by songs and previews (domain/previews.ts): GEN_002
 * without a live worker, then in one transaction GEN_001 when the queue is full, the charge, and
 * `write` (the row, its queue message, and its place given the live worker `slots`). Any refusal
 * rolls the whole transaction back, so nothing is half-written and no counter is charged for a
 * refused request. Everything the answer needs is read inside the transaction: once it commits,
 * no further database read can fail and turn an admitted request into a 503.
 */
export async function admitToQueue<T>(
  deps: GenerationDeps,
  user: Requester,
  charge: AdmissionCharge,
  write: (tx: DatabaseTask, slots: number) => Promise<T>,
  /** A refusal decided inside the transaction before the charge (a song's storage quota); null admits. */
  precheck?: (tx: DatabaseTask) => Promise<AppError | null>,
): Promise<Result<Admitted<T>, GenerationRefusal>> {
  const capacity = await liveWorkerCapacity(deps.db);
  if (capacity.workers === 0) {
    return fail(
      appError('GEN_002', 'No GPU capacity: no generation worker is live', {
        details: 'retry after 1 minute',
        retryAfter: GPU_UNAVAILABLE_RETRY_SECONDS,
      }),
    );
  }
  try {
    const admitted = await deps.db.tx(`admit-${charge.category}`, async (tx) => {
      // Admission is serialized (one transaction-scoped lock across replicas) so that concurrent
      // requests cannot overshoot QUEUE_CAPACITY: each counts the queue with the ones before it.
      await tx.one('SELECT pg_advisory_xact_lock($1)', [QUEUE_ADMISSION_LOCK]);
      const queued = await queuedJobCount(tx);
      if (queued >= deps.queueCapacity) {
        throw new Rejection(
          appError('GEN_001', 'Queue full: too many pending jobs', {
            details: `${queued} jobs are waiting (capacity ${deps.queueCapacity}); retry with backoff`,
            fields: { queued, capacity: deps.queueCapacity },
            retryAfter: QUEUE_FULL_RETRY_SECONDS,
          }),
        );
      }
      const refused = await precheck?.(tx);
      if (refused !== undefined && refused !== null) throw new Rejection(refused);
      const charged = await chargeRequest({ db: tx, chargee: { user, daily: charge.daily }, category: charge.category });
      if (charged.kind === 'refused') throw new Rejection({ ...charged.error, limitState: charged.state, refusedBy: charged.limit });
      if (charged.kind === 'no_user') throw new Error('a charge of a known user found no user');
      return { written: await write(tx, capacity.slots), limit: charged.state };
    });
    return ok(admitted);
  } catch (error) {
    if (error instanceof Rejection) return fail(error.refusal);
    throw error;
  }
}

/**
 * Accepts a song: GEN_004 above the tier's maximum duration, an edit's checks (./song-edits.ts),
 * then `admitToQueue` with `charge`
 * (the route table's: the `generation` category and the daily counter).
 */
export async function submitGeneration(
  deps: GenerationDeps,
  user: Requester,
  request: GenerationRequest,
  charge: AdmissionCharge,
): Promise<SubmitResult> {
  const tooLong = await checkDuration(deps.db, request.duration, request.steps, tierCap(user.tier));
  if (tooLong !== null) return fail(tooLong);
  const { edit: editRequest, ...song } = request;
  const edit = editRequest === undefined ? undefined : await checkEdit(deps.db, user.id, editRequest, request.duration);
  if (edit !== undefined && !edit.ok) return fail(edit.error);
  // An edit is named after its source and what was done, and keeps the lyrics its source was made
  // with unless new ones are given or asked for (docs/api.md "Edit a song").
  const inherited = edit === undefined ? undefined : await editInheritance(deps.db, edit.value, request.duration);
  const lyrics = song.lyrics ?? (song.withLyrics ? undefined : (inherited?.lyrics ?? undefined));
  const admitted = await admitToQueue(
    deps,
    user,
    charge,
    async (tx, slots) => {
      const job = await queueJob(tx, deps.boss, {
        ...song,
        ...(lyrics === undefined ? {} : { lyrics }),
        userId: user.id,
        userAddress: user.walletAddress,
        tier: user.tier,
        ...(edit === undefined ? {} : { edit: edit.value }),
        ...(inherited === undefined ? {} : { title: inherited.title, outside: inherited.outside }),
      });
      const place = await queuePlace(
        tx,
        { id: job.id, tier: user.tier, createdAt: job.createdAt, duration: request.duration, steps: request.steps },
        await runRates(tx),
        slots,
      );
      return { job, place };
    },
    async (tx) => {
      // What the song will store (its MP3, masters, kept latents), estimated, beside what the
      // account stores and its songs in the queue will: refused here, before any charge.
      const full = await songStorageRefusal(tx, user.id, request.duration);
      return full === null ? null : storageQuotaExceeded(full.usage, full.needed, `a ${request.duration} s song`);
    },
  );
  if (!admitted.ok) return fail(admitted.error);
  const {
    written: { job, place },
    limit,
  } = admitted.value;
  return ok({
    jobId: job.id,
    publicJobId: toPublicJobId(job.id),
    status: JOB_STATUS.queued,
    position: place.position,
    estimatedTime: place.estimatedSeconds,
    limit,
  });
}
