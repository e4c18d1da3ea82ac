/**
 * The landmark registry (migrations 0022-0023, docs/fingerprints.md, issue 50): each sound
 * registered for the account it was made for, with its creation time and its peaks, as posting
 * rows (hash -> sound, where). The matcher of the ownership rule (./registry.ts): which registered
 * sounds a query holds, however it was re-encoded, filtered, overlaid, cut, sped up or transposed.
 *
 * A lookup is one statement: the query's distinct triplet hashes (./triplets.ts, the dense `QUERY`
 * set) each read at most `HASH_FANOUT` + 1 postings from the hash index alone (an index-only scan:
 * sound, time and shape are in the index, migration 0023); a hash found in more than
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

/** Postings a hash may have and still count (more: a stop word, dropped from the lookup). */
export const HASH_FANOUT = 32;
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
 * The candidates' shared postings, one row a sound, best first. `hits`: each query hash's
 * postings, at most HASH_FANOUT + 1 read (index-only); `kept`: those of hashes not past the
 * fan-out; `ranked`: sounds of the accounts asked about, made before the instant asked about,
 * sharing at least $5 postings.
 */
const CANDIDATES = {
  name: 'landmark-registry-candidates',
  text: `WITH hits AS MATERIALIZED (
           SELECT q.hash, p.sound_id, p.t, p.shape, count(*) OVER (PARTITION BY q.hash) AS fanout
             FROM unnest($1::int4[]) AS q(hash)
             CROSS JOIN LATERAL (
               SELECT sound_id, t, shape FROM landmark_postings WHERE hash = q.hash LIMIT ${HASH_FANOUT + 1}) p),
         kept AS MATERIALIZED (SELECT hash, sound_id, t, shape FROM hits WHERE fanout <= ${HASH_FANOUT}),
         ranked AS (
           SELECT k.sound_id, count(*) AS shared
             FROM kept k JOIN landmark_sounds s ON s.id = k.sound_id
            WHERE (s.user_id = $2) = $3 AND ($4::timestamptz IS NULL OR s.created_at < $4)
            GROUP BY k.sound_id
           HAVING count(*) >= $5
            ORDER BY count(*) DESC, k.sound_id
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
    values: [Array.from(byHash.keys()), options.userId, options.own, options.createdBefore ?? null, minVotes],
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

/** The peaks a registered sound was registered with (null: registered without them). */
export async function registeredPeaks(db: Queryable, registryId: number): Promise<Peak[] | null> {
  const row = await db.oneOrNone<{ peaks: Buffer | null }>('SELECT peaks FROM landmark_sounds WHERE id = $1', [registryId]);
  return row === null || row.peaks === null ? null : peaksFromBytes(row.peaks);
}
