/**
 * The landmark registry (migration 0022, docs/fingerprints.md, issue 50): each sound registered
 * for the account it was made for, with its creation time, as posting rows (hash -> sound, where);
 * a lookup finds the earliest-created sound of another account that a query holds, however it
 * was re-encoded, filtered, overlaid, cut, sped up or transposed.
 *
 * A lookup: the query's triplets (./triplets.ts, the dense `QUERY` set) are looked up by hash in
 * one statement, each hash bringing at most `HASH_FANOUT` postings (a hash in more sounds says
 * little); the sounds sharing at least `MIN_VOTES` triplets are verified one by one
 * (./landmark-match.ts: the shared triplets must agree on one stretch, pitch shift and start
 * within a window of query time); of those with `MIN_VOTES` agreeing, the owners are read and the
 * earliest-created sound of another account wins.
 */
import type { Queryable } from '../db/database.ts';
import { alignShared, MIN_VOTES } from './landmark-match.ts';
import type { LandmarkAlignment, SharedTriplet } from './landmark-match.ts';
import type { Peak } from './spectral-peaks.ts';
import { strongestPeaks } from './spectral-peaks.ts';
import { makeTriplets, QUERY, REGISTER } from './triplets.ts';
import type { Triplets } from './triplets.ts';

/** Postings one query hash may bring. */
export const HASH_FANOUT = 256;
/** Candidates verified, the ones sharing the most triplets first. */
export const MAX_CANDIDATES = 64;

export interface LandmarkSound {
  registryId: number;
  jobId: string;
  userId: string;
  createdAt: Date;
}

export interface LandmarkMatch {
  sound: LandmarkSound;
  alignment: LandmarkAlignment;
}

export interface LandmarkLookupOptions {
  /** The asking account: its own sounds never count against it. */
  excludeUserId: string;
  /** Only sounds created before this (the asking sound's own creation). */
  createdBefore?: Date;
  /** Only sounds registered after this registry id (a re-check of what was registered since). */
  afterId?: number;
  /** Agreeing triplets needed (default `MIN_VOTES`). */
  minVotes?: number;
}

/** The registry's triplets of `peaks`: the strongest peaks, a small fan-out. */
export function registeredTriplets(peaks: readonly Peak[]): Triplets {
  return makeTriplets(strongestPeaks(peaks, REGISTER.peaksPerSecond), REGISTER.fanout);
}

/** A query's triplets of `peaks`: more peaks, a larger fan-out. */
export function queryTriplets(peaks: readonly Peak[]): Triplets {
  return makeTriplets(strongestPeaks(peaks, QUERY.peaksPerSecond), QUERY.fanout);
}

/** The shape column: span × 256 + k1. */
const shapeOf = (span: number, k: number): number => span * 256 + k;

/**
 * Registers `peaks` as `jobId`'s sound, made for `userId` at `createdAt`, with its postings, in one
 * statement (run it in the transaction that records what makes the sound count). A sound already
 * registered stays as it was. Returns its registry id.
 */
export async function registerLandmarks(
  db: Queryable,
  sound: { jobId: string; userId: string; createdAt: Date; peaks: readonly Peak[] },
): Promise<number> {
  const triplets = registeredTriplets(sound.peaks);
  const shapes = Array.from(triplets.span, (span, i) => shapeOf(span, triplets.k[i] as number));
  const row = await db.one<{ id: number }>({
    name: 'landmark-registry-insert',
    text: `WITH registered AS (
             INSERT INTO landmark_sounds (job_id, user_id, created_at) VALUES ($1, $2, $3)
             ON CONFLICT (job_id) DO NOTHING RETURNING id),
           postings AS (
             INSERT INTO landmark_postings (hash, sound_id, t, shape)
             SELECT p.hash, r.id, p.t, p.shape FROM registered r, unnest($4::int4[], $5::int4[], $6::int2[]) AS p(hash, t, shape))
           SELECT id FROM registered UNION ALL SELECT id FROM landmark_sounds WHERE job_id = $1 LIMIT 1`,
    values: [sound.jobId, sound.userId, sound.createdAt, Array.from(triplets.hash), Array.from(triplets.t), shapes],
  });
  return row.id;
}

const POSTINGS = {
  name: 'landmark-registry-postings',
  text: `SELECT q.hash, p.sound_id, p.t, p.shape
           FROM unnest($1::int4[]) AS q(hash)
           CROSS JOIN LATERAL (
             SELECT sound_id, t, shape FROM landmark_postings WHERE hash = q.hash LIMIT ${HASH_FANOUT}) p
          WHERE p.sound_id > $2`,
};

/** Every candidate's shared triplets, by sound id, from the postings of `query`'s hashes. */
async function sharedBySound(db: Queryable, query: Triplets, afterId: number): Promise<Map<number, SharedTriplet[]>> {
  const byHash = new Map<number, number[]>();
  query.hash.forEach((hash, i) => {
    const list = byHash.get(hash);
    if (list === undefined) byHash.set(hash, [i]);
    else list.push(i);
  });
  const rows = await db.any<{ hash: number; sound_id: number; t: number; shape: number }>({
    ...POSTINGS,
    values: [Array.from(byHash.keys()), afterId],
  });
  const shared = new Map<number, SharedTriplet[]>();
  for (const row of rows) {
    let list = shared.get(row.sound_id);
    if (list === undefined) shared.set(row.sound_id, (list = []));
    for (const i of byHash.get(row.hash) ?? []) {
      list.push({
        queryT: query.t[i] as number,
        querySpan: query.span[i] as number,
        queryK: query.k[i] as number,
        refT: row.t,
        refSpan: row.shape >> 8,
        refK: row.shape & 0xff,
      });
    }
  }
  return shared;
}

/**
 * The earliest-created sound of another account that `peaks` (the query's, ./landmarks.ts) holds,
 * with how the query maps onto it, or null.
 */
export async function findEarliestLandmarkMatch(
  db: Queryable,
  peaks: readonly Peak[],
  options: LandmarkLookupOptions,
): Promise<LandmarkMatch | null> {
  const query = queryTriplets(peaks);
  if (query.hash.length === 0) return null;
  const minVotes = options.minVotes ?? MIN_VOTES;
  const shared = await sharedBySound(db, query, options.afterId ?? 0);
  const candidates = [...shared.entries()]
    .filter(([, list]) => list.length >= minVotes)
    .sort((a, b) => b[1].length - a[1].length || a[0] - b[0])
    .slice(0, MAX_CANDIDATES);
  const aligned = new Map<number, LandmarkAlignment>();
  for (const [id, list] of candidates) {
    const alignment = alignShared(list);
    if (alignment !== null && alignment.votes >= minVotes) aligned.set(id, alignment);
  }
  if (aligned.size === 0) return null;
  const owners = await db.any<{ id: number; job_id: string; user_id: string; created_at: Date }>({
    name: 'landmark-registry-owners',
    text: `SELECT id, job_id, user_id, created_at FROM landmark_sounds
            WHERE id = ANY($1::int4[]) AND user_id <> $2 AND ($3::timestamptz IS NULL OR created_at < $3)
            ORDER BY created_at, id LIMIT 1`,
    values: [[...aligned.keys()], options.excludeUserId, options.createdBefore ?? null],
  });
  const owner = owners[0];
  if (owner === undefined) return null;
  return {
    sound: { registryId: owner.id, jobId: owner.job_id, userId: owner.user_id, createdAt: owner.created_at },
    alignment: aligned.get(owner.id) as LandmarkAlignment,
  };
}

/** The newest registry id (0 for none): a later re-check reads only sounds after it. */
export async function latestLandmarkId(db: Queryable): Promise<number> {
  const row = await db.one<{ id: number }>('SELECT coalesce(max(id), 0)::int AS id FROM landmark_sounds');
  return row.id;
}
