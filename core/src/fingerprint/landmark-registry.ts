/**
 * The landmark registry (migrations 0022 and 0025, docs/fingerprints.md, issue 50): each sound
 * registered for the account it was made for, with its creation time and its peaks, as posting
 * rows (hash -> sound, where). The matcher of the ownership rule (./registry.ts): which registered
 * sounds a query holds, however it was re-encoded, filtered, overlaid, cut, sped up or transposed.
 *
 * A lookup is one statement: the query's distinct triplet hashes (./triplets.ts, the dense `QUERY`
 * set) each read at most `HASH_FANOUT` + 1 postings from the hash index alone (an index-only scan:
 * sound, time and shape are in the index, migration 0025); a hash found in more than
 * `HASH_FANOUT` postings is dropped (a stop word: so many sounds hold it that it tells none
 * apart); the sounds of the accounts asked about that share at least `MIN_VOTES` postings are
 * ranked, and the postings of the best `MAX_CANDIDATES` come back aggregated, one row a sound.
 * Each is then verified (./landmark-match.ts: its shared triplets must agree on one stretch,
 * pitch shift and start within a window of query time).
 */
import type { Queryable } from '../db/database.ts';
import { alignShared, MIN_VOTES } from './landmark-match.ts';
import type { LandmarkAlignment, SharedTriplet } from './landmark-match.ts';
import { peaksFromBytes, peaksToBytes } from './landmarks.ts';
import type { Peak } from './spectral-peaks.ts';
import { strongestPeaks } from './spectral-peaks.ts';
import { makeTriplets, QUERY, REGISTER } from './triplets.ts';
import type { Triplets } from './triplets.ts';

/**
 * Postings a hash may have and still count (more: a stop word, dropped from the lookup). Among
 * 1,000,000 registered sounds (bench/results/fingerprint.md, docs/fingerprints.md) 32, 64 and 128
 * caught the same copies, 32 and 64 the fastest (more means more postings read).
 */
export const HASH_FANOUT = 64;
/** Candidates verified, the ones sharing the most postings first. */
export const MAX_CANDIDATES = 32;

export interface LandmarkSound {
  registryId: number;
  jobId: string;
  userId: string;
  /** When the sound was made. */
  createdAt: Date;
  /** The mint's token id (decimal) once the chain watcher recorded it, else null. */
  tokenId: string | null;
}

export interface LandmarkMatch {
  sound: LandmarkSound;
  alignment: LandmarkAlignment;
}

/** Whose registered sounds a lookup reads. */
export interface LandmarkLookupOptions {
  /** Sounds of this account only (`own: true`) or of every other account (`own: false`). */
  userId: string;
  own: boolean;
  /** Only sounds created before this instant (absent: all). */
  createdBefore?: Date | undefined;
  /** Agreeing triplets needed (default `MIN_VOTES`). */
  minVotes?: number;
  /** Postings a hash may have and still count (default `HASH_FANOUT`; the bench tries others). */
  hashFanout?: number;
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
 * Registers `peaks` as `jobId`'s sound, made for `userId` at `createdAt` (absent: the
 * transaction's time; call it in the transaction that completes the job), with its peaks and
 * postings, in one statement. A sound already registered stays as it was. Returns its registry id.
 */
export async function registerLandmarks(
  db: Queryable,
  sound: { jobId: string; userId: string; createdAt?: Date; peaks: readonly Peak[] },
): Promise<number> {
  const triplets = registeredTriplets(sound.peaks);
  const shapes = Array.from(triplets.span, (span, i) => shapeOf(span, triplets.k[i] as number));
  const row = await db.one<{ id: number }>({
    name: 'landmark-registry-insert',
    text: `WITH registered AS (
             INSERT INTO landmark_sounds (job_id, user_id, created_at, peaks) VALUES ($1, $2, coalesce($3, now()), $7)
             ON CONFLICT (job_id) DO NOTHING RETURNING id),
           postings AS (
             INSERT INTO landmark_postings (hash, sound_id, t, shape)
             SELECT p.hash, r.id, p.t, p.shape FROM registered r, unnest($4::int4[], $5::int4[], $6::int2[]) AS p(hash, t, shape))
           SELECT id FROM registered UNION ALL SELECT id FROM landmark_sounds WHERE job_id = $1 LIMIT 1`,
    values: [
      sound.jobId,
      sound.userId,
      sound.createdAt ?? null,
      Array.from(triplets.hash),
      Array.from(triplets.t),
      shapes,
      Buffer.from(peaksToBytes(sound.peaks)),
    ],
  });
  return row.id;
}

/**
 * The candidates' shared postings, one row a sound. `hits`: each query hash's postings, at most
 * $6 (the fan-out) + 1 read (index-only) and aggregated per hash, a hash past the fan-out dropped
 * (no sort: each hash's rows are counted where they are read); `kept`: those postings one a row;
 * `ranked`: sounds of the accounts asked about, made before the instant asked about, sharing at
 * least $5 postings, the best MAX_CANDIDATES.
 */
const CANDIDATES = {
  name: 'landmark-registry-candidates',
  text: `WITH hits AS MATERIALIZED (
           SELECT q.hash, p.sounds, p.times, p.shapes
             FROM unnest($1::int4[]) AS q(hash)
             CROSS JOIN LATERAL (
               SELECT count(*) AS n, array_agg(sound_id) AS sounds, array_agg(t) AS times, array_agg(shape) AS shapes
                 FROM (SELECT sound_id, t, shape FROM landmark_postings WHERE hash = q.hash LIMIT $6::int + 1) x) p
            WHERE p.n BETWEEN 1 AND $6::int),
         kept AS MATERIALIZED (
           SELECT h.hash, k.sound_id, k.t, k.shape FROM hits h, unnest(h.sounds, h.times, h.shapes) AS k(sound_id, t, shape)),
         ranked AS (
           SELECT c.sound_id
             FROM (SELECT sound_id, count(*) AS shared FROM kept GROUP BY sound_id HAVING count(*) >= $5) c
             JOIN landmark_sounds s ON s.id = c.sound_id
            WHERE (s.user_id = $2) = $3 AND ($4::timestamptz IS NULL OR s.created_at < $4)
            ORDER BY c.shared DESC, c.sound_id
            LIMIT ${MAX_CANDIDATES})
         SELECT k.sound_id, array_agg(k.hash) AS hashes, array_agg(k.t) AS times, array_agg(k.shape) AS shapes
           FROM kept k JOIN ranked r ON r.sound_id = k.sound_id
          GROUP BY k.sound_id`,
};

/** Query triplet indices by hash. */
function indexByHash(query: Triplets): Map<number, number[]> {
  const byHash = new Map<number, number[]>();
  query.hash.forEach((hash, i) => {
    const list = byHash.get(hash);
    if (list === undefined) byHash.set(hash, [i]);
    else list.push(i);
  });
  return byHash;
}

/**
 * The registered sounds `peaks` (a query's, ./landmarks.ts) holds, among those `options` names,
 * earliest created first, each with how the query maps onto it.
 */
export async function findContainedSounds(db: Queryable, peaks: readonly Peak[], options: LandmarkLookupOptions): Promise<LandmarkMatch[]> {
  const query = queryTriplets(peaks);
  if (query.hash.length === 0) return [];
  const minVotes = options.minVotes ?? MIN_VOTES;
  const byHash = indexByHash(query);
  const rows = await db.any<{ sound_id: number; hashes: number[]; times: number[]; shapes: number[] }>({
    ...CANDIDATES,
    // In hash order: the index's descents walk its pages in order.
    values: [
      Array.from(byHash.keys()).sort((a, b) => a - b),
      options.userId,
      options.own,
      options.createdBefore ?? null,
      minVotes,
      options.hashFanout ?? HASH_FANOUT,
    ],
  });
  const aligned = new Map<number, LandmarkAlignment>();
  for (const row of rows) {
    const shared: SharedTriplet[] = [];
    row.hashes.forEach((hash, j) => {
      const shape = row.shapes[j] as number;
      for (const i of byHash.get(hash) ?? [])
        shared.push({
          queryT: query.t[i] as number,
          querySpan: query.span[i] as number,
          queryK: query.k[i] as number,
          refT: row.times[j] as number,
          refSpan: shape >> 8,
          refK: shape & 0xff,
        });
    });
    const alignment = alignShared(shared);
    if (alignment !== null && alignment.votes >= minVotes) aligned.set(row.sound_id, alignment);
  }
  if (aligned.size === 0) return [];
  const sounds = await db.any<{ id: number; job_id: string; user_id: string; created_at: Date; token_id: string | null }>({
    name: 'landmark-registry-sounds',
    text: `SELECT s.id, s.job_id, s.user_id, s.created_at, m.token_id::text AS token_id
             FROM landmark_sounds s LEFT JOIN mint_signatures m ON m.job_id = s.job_id
            WHERE s.id = ANY($1::int4[]) ORDER BY s.created_at, s.id`,
    values: [[...aligned.keys()]],
  });
  return sounds.map((s) => ({
    sound: { registryId: s.id, jobId: s.job_id, userId: s.user_id, createdAt: s.created_at, tokenId: s.token_id },
    alignment: aligned.get(s.id) as LandmarkAlignment,
  }));
}

/**
 * The best alignment of `peaks` (as a query) with `reference` (as registered), computed here
 * without the index: for a few sounds known by id, cheaper than a lookup of every hash.
 */
export function alignSounds(peaks: readonly Peak[], reference: readonly Peak[]): LandmarkAlignment | null {
  const query = queryTriplets(peaks);
  const registered = registeredTriplets(reference);
  const byHash = indexByHash(query);
  const shared: SharedTriplet[] = [];
  registered.hash.forEach((hash, j) => {
    for (const i of byHash.get(hash) ?? [])
      shared.push({
        queryT: query.t[i] as number,
        querySpan: query.span[i] as number,
        queryK: query.k[i] as number,
        refT: registered.t[j] as number,
        refSpan: registered.span[j] as number,
        refK: registered.k[j] as number,
      });
  });
  return alignShared(shared);
}

/**
 * The peaks of `userId`'s sounds registered before `createdBefore`, when there are at most
 * `limit` of them (null: more).
 */
export async function earlierSoundsOf(db: Queryable, userId: string, createdBefore: Date, limit: number): Promise<Peak[][] | null> {
  const rows = await db.any<{ peaks: Buffer | null }>({
    name: 'landmark-registry-earlier-of',
    text: 'SELECT peaks FROM landmark_sounds WHERE user_id = $1 AND created_at < $2 ORDER BY created_at LIMIT $3',
    values: [userId, createdBefore, limit + 1],
  });
  if (rows.length > limit) return null;
  return rows.flatMap((row) => (row.peaks === null ? [] : [peaksFromBytes(row.peaks)]));
}

/** The peaks a registered sound was registered with (null: registered without them). */
export async function registeredPeaks(db: Queryable, registryId: number): Promise<Peak[] | null> {
  const row = await db.oneOrNone<{ peaks: Buffer | null }>('SELECT peaks FROM landmark_sounds WHERE id = $1', [registryId]);
  return row === null || row.peaks === null ? null : peaksFromBytes(row.peaks);
}
