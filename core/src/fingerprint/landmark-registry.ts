/**
 * The landmark registry (migrations 0022, 0025 and 0027, docs/fingerprints.md, issue 50): each
 * sound registered for the account it was made for, with its creation time and its peaks, and its
 * triplets as postings (hash -> sound, where) packed one row per hash. The matcher of the
 * ownership rule (./registry.ts): which registered sounds a query holds, however it was
 * re-encoded, filtered, overlaid, cut, sped up or transposed.
 *
 * A lookup reads the row of each of the query's distinct triplet hashes (./triplets.ts, the dense
 * `QUERY` set) in one statement: a hash's postings, of the hashes that hold at most
 * `lookupFanout` of them for the registry's size (a hash more sounds hold is a stop word: so many
 * sounds hold it that it tells none apart; past `HASH_CAPACITY` its postings are not kept). The
 * votes (postings shared per sound) are counted here, in the process; the sounds sharing at least
 * `CANDIDATE_POSTINGS` postings are filtered by account and creation time in a second statement,
 * and the best `MAX_CANDIDATES` are verified (./landmark-match.ts: their shared triplets must agree
 * on one stretch, pitch shift and start within a window of query time): first on the postings read,
 * then, for the best `FULL_VERIFICATIONS` that fall short, on their stored peaks, every hash
 * counted that is as rare as calibrated (`verificationFanout`) although the index no longer keeps
 * its postings. Why one row per hash: among 1,000,000 registered sounds, a 25 s query's ~2,600 hashes
 * read as one index entry per posting (migration 0025) took ~2,600 index descents and ~80,000
 * index tuples (240 ms); as one row per hash, one ordered index scan (9 ms; docs/fingerprints.md).
 */
import { readBinaryCopy, binaryCopyRows } from '../db/binary-copy.ts';
import type { BinaryCopyRow } from '../db/binary-copy.ts';
import { eventLoopSlices, forEachInSlices } from '../event-loop-slices.ts';
import type { Database, Queryable } from '../db/database.ts';
import { ALIGNMENT_SPREAD_FRAMES, alignShared, MIN_VOTES } from './landmark-match.ts';
import type { LandmarkAlignment, SharedTriplet } from './landmark-match.ts';
import { peaksFromBytes, peaksToBytes } from './landmarks.ts';
import type { Peak } from './spectral-peaks.ts';
import { strongestPeaks } from './spectral-peaks.ts';
import { makeTriplets, QUERY, REGISTER } from './triplets.ts';
import type { Triplets } from './triplets.ts';

/**
 * Postings a hash keeps: a hash registered more often is a stop word for good, its postings
 * dropped at registration (migration 0027) and the hash left out of every lookup. How
 * many of the kept ones a lookup reads grows with the registry (`lookupFanout`): the registry
 * keeps them from the start, since a stop word's postings cannot be brought back. 256 postings
 * are 2,560 bytes, a row PostgreSQL keeps out of line past about 2 kB: reading such rows cost no
 * measurable time (docs/fingerprints.md, "The posting table").
 */
export const HASH_CAPACITY = 256;
/**
 * Postings a hash may have and still count in a small registry: 64, the cap the matcher was
 * calibrated with on real music (99 whole tracks, 258,201 postings: a hash counts while it holds
 * at most 1 posting in 4,000; past 128 two pairs of distinct tracks agree by 10 votes).
 */
export const MIN_LOOKUP_FANOUT = 64;
/**
 * Registered sounds per posting a hash may hold and still count, once the registry is large
 * enough for that to exceed `MIN_LOOKUP_FANOUT`. A hash tells sounds apart by how rare it is among
 * them, not by how many postings it holds: the same 64 postings are a musical commonplace among 99
 * tracks and a rarity among a million songs. The service registers sounds of 5 s or more (100
 * postings or more), so with one posting per 40 sounds a counted hash holds at most 1 posting in
 * 4,000, the calibrated rarity, whatever the sounds' lengths, and fewer for longer sounds.
 */
export const SOUNDS_PER_COUNTED_POSTING = 40;

/**
 * Postings a hash may hold and still count in a lookup among `registeredSounds` sounds: 64 up to
 * 2,560 sounds, then one more per 40 sounds, at most `HASH_CAPACITY` (from 10,240 sounds on).
 */
export function lookupFanout(registeredSounds: number): number {
  return Math.min(HASH_CAPACITY, Math.max(MIN_LOOKUP_FANOUT, Math.floor(registeredSounds / SOUNDS_PER_COUNTED_POSTING)));
}

/**
 * Postings of the whole registry per posting a hash may hold and still count in verification: the
 * rarity calibrated on real music (64 postings among 99 whole tracks' 258,201, 1 in 4,034;
 * docs/fingerprints.md, "Stop words relative to the registry's size"). `lookupFanout` reads fewer
 * past 10,240 sounds (`HASH_CAPACITY` bounds a row and a lookup's time), so at scale a copy's
 * agreeing triplets fall mostly in hashes the index no longer reads, yet rare enough to tell
 * sounds apart: verification counts them from the sound's stored peaks.
 */
export const POSTINGS_PER_COUNTED_POSTING = 4_000;

/**
 * Postings a hash may hold and still count when a candidate is verified on its peaks, in a
 * registry holding `registryPostings` postings in all: 1 in `POSTINGS_PER_COUNTED_POSTING`, never
 * fewer than `MIN_LOOKUP_FANOUT`.
 */
export function verificationFanout(registryPostings: number): number {
  return Math.max(MIN_LOOKUP_FANOUT, Math.floor(registryPostings / POSTINGS_PER_COUNTED_POSTING));
}

/**
 * Postings read that a sound must share to be a candidate. Below `MIN_VOTES`: among 1,000,000
 * sounds a copy transposed or slowed keeps most of its agreeing triplets in hashes the index no
 * longer reads, and shares as few as 5 postings read with its sound; a chance sound shares at
 * most 6 (bench/results/fingerprint-landmarks-real-frequencies.md). A candidate still needs
 * `MIN_VOTES` agreeing triplets to match.
 */
export const CANDIDATE_POSTINGS = 5;
/**
 * Candidates verified, the ones whose shared postings lie most on one diagonal first
 * (`mostOnOneDiagonal`).
 */
export const MAX_CANDIDATES = 32;
/**
 * Of the candidates whose postings read fall short of a match, those verified again on their
 * stored peaks (in the candidates' order), while hashes rarer than calibrated were
 * left out of the read: each costs its peaks' read and an alignment (about 0.3 ms for a minute).
 */
export const FULL_VERIFICATIONS = 8;
/** Bytes of one packed posting: sound id int4, t int4, shape int2 (big-endian). */
const POSTING_BYTES = 10;

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
  /**
   * Postings a hash may have and still count (default `lookupFanout` of the registry's size). The
   * registry keeps no more than `HASH_CAPACITY`; the bench tries fewer and more.
   */
  hashFanout?: number;
  /** Event-loop time a lookup holds at once between its steps (default `LOOKUP_SLICE_MS`). */
  sliceMs?: number;
  /** Aborted (the asking client left): the lookup stops at its next step, rejecting with its reason. */
  signal?: AbortSignal | undefined;
}

/**
 * Event-loop time a lookup holds at once: it lets other requests run between a query's steps and
 * between its candidates' alignments once this long has passed. A four-minute track looked up
 * with its views among whole tracks aligns dozens of candidates, and held the event loop for up
 * to 100 ms in one piece (docs/fingerprints.md, "Chance triplets dropped before the tally").
 */
export const LOOKUP_SLICE_MS = 10;

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
 *
 * Each of its hashes' rows gets its postings appended, in hash order (two registrations at once
 * lock shared rows in one order: neither waits on the other in a cycle), and its postings are
 * added to the registry's total (migration 0028), a row of 16 by its id, after the hash rows. A hash that passes
 * `HASH_CAPACITY` postings becomes a stop word: its postings are emptied, and it is no longer
 * written (nor locked) by later registrations. A stop word stays one, whatever cap emptied it (a
 * registry packed with 64 keeps those): the registry only grows.
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
           lists AS (
             INSERT INTO landmark_hashes AS h (hash, n, postings)
             SELECT p.hash, count(*),
                    CASE WHEN count(*) <= $8::int
                         THEN string_agg(int4send(r.id) || int4send(p.t) || int2send(p.shape), ''::bytea ORDER BY p.t, p.shape)
                         ELSE ''::bytea END
               FROM registered r, unnest($4::int4[], $5::int4[], $6::int2[]) AS p(hash, t, shape)
              WHERE NOT EXISTS (SELECT 1 FROM landmark_hashes s WHERE s.hash = p.hash AND (s.n > $8::int OR octet_length(s.postings) = 0))
              GROUP BY r.id, p.hash ORDER BY p.hash
             ON CONFLICT (hash) DO UPDATE
               SET n = h.n + excluded.n,
                   postings = CASE WHEN h.n + excluded.n <= $8::int THEN h.postings || excluded.postings ELSE ''::bytea END
               WHERE h.n <= $8::int AND octet_length(h.postings) > 0
             RETURNING h.hash),
           -- After the hash rows (the sub-select on lists runs first): one lock order for all.
           total AS (
             UPDATE landmark_registry_postings SET postings = postings + cardinality($4::int4[])
              WHERE slot = (SELECT id % 16 FROM registered) AND (SELECT count(*) FROM lists) >= 0)
           SELECT id FROM registered UNION ALL SELECT id FROM landmark_sounds WHERE job_id = $1 LIMIT 1`,
    values: [
      sound.jobId,
      sound.userId,
      sound.createdAt ?? null,
      Array.from(triplets.hash),
      Array.from(triplets.t),
      shapes,
      Buffer.from(peaksToBytes(sound.peaks)),
      HASH_CAPACITY,
    ],
  });
  return row.id;
}

/**
 * Sounds registered, as the planner last counted them (autovacuum's analyze): it lags the table,
 * so a lookup reads no more than the registry's size allows; 0 before the first count. Postings
 * registered in all (migration 0028), as of now.
 */
const REGISTRY_SIZE = {
  name: 'landmark-registry-size',
  text: `SELECT greatest(reltuples, 0)::float8 AS sounds,
                (SELECT coalesce(sum(postings), 0) FROM landmark_registry_postings)::float8 AS postings
           FROM pg_class WHERE oid = 'landmark_sounds'::regclass`,
};

/** How far a lookup in the registry reaches now, for its size. */
export interface RegistryReach {
  /** Postings a hash may hold and have them read (`lookupFanout`). */
  fanout: number;
  /** Postings a hash may hold and still count in verification on stored peaks (`verificationFanout`). */
  verificationFanout: number;
}

export async function registryReach(db: Pick<Queryable, 'one'>): Promise<RegistryReach> {
  const size = await db.one<{ sounds: number; postings: number }>(REGISTRY_SIZE);
  return { fanout: lookupFanout(size.sounds), verificationFanout: verificationFanout(size.postings) };
}

/**
 * Postings a lookup reads at most, its rarest hashes first (a hash's postings whole or not at
 * all). Among 1,000,000 sounds a 25 s query reads 66,000 at the mean at fan-out 256 and its
 * slowest up to 120,000 (the p99 of the lookup); past 50,000 the hashes left are its most common,
 * which verification on peaks still counts where they are rare enough. On the bench's registry at
 * the real frequencies: 532 of 544 copies caught against 533, lookup p99 60.5 ms against 82.0 on
 * the same loaded machine (docs/fingerprints.md, "Verification on peaks").
 */
export const MAX_POSTINGS_READ = 50_000;

/**
 * The rows of `hashes` (ascending: the index scan then walks its pages in order), each with the
 * postings it ever had and, where it holds at most `fanout` (not a stop word) and is among the
 * rarest that `MAX_POSTINGS_READ` allows, its postings; read on `client` in binary
 * (../db/binary-copy.ts): as text a row came as hex, and moving it was half of the statement's
 * time at the client. The postings of a row not read stay where they are (a long one out of
 * line): only `n` and the length are read of it. COPY takes no parameters: the statement holds the
 * numbers themselves, which an Int32Array holds only as 32-bit whole numbers. The array is a
 * sub-select's value, as a parameter was: a constant array has the planner estimate each of its
 * thousands of elements (5.7 ms of planning for 2,956 hashes, against 0.13 ms; the same index
 * scan).
 */
async function readPostingRows(connection: Awaited<ReturnType<Database['connect']>>, hashes: Int32Array, fanout: number): Promise<Buffer> {
  if (!Number.isSafeInteger(fanout)) throw new RangeError('the fan-out must be a whole number');
  return readBinaryCopy(
    connection.client,
    `COPY (SELECT hash, n, CASE WHEN readable AND read <= ${MAX_POSTINGS_READ} THEN postings ELSE ''::bytea END
             FROM (SELECT hash, n, postings, readable, sum(CASE WHEN readable THEN n ELSE 0 END) OVER (ORDER BY n, hash) AS read
                     FROM (SELECT hash, n, postings, n <= ${fanout} AND octet_length(postings) > 0 AS readable FROM landmark_hashes
                            WHERE hash = ANY((SELECT '{${hashes.join(',')}}'::int4[])::int4[])) AS h) AS ranked)
       TO STDOUT (FORMAT binary)`,
    postingListsBytes(hashes.length),
  );
}

/** A row `readPostingRows` read, as the lookup counts it. */
function postingList([hash, n, postings]: BinaryCopyRow): PostingList {
  if (hash?.length !== 4 || n?.length !== 4 || postings === null || postings === undefined)
    throw new RangeError('a posting row without its hash, count or postings');
  return { hash: hash.readInt32BE(0), n: n.readInt32BE(0), postings };
}

/**
 * The most bytes `readPostingRows` can be sent for `rows` hashes: the binary COPY's header (19) and
 * trailer (2), each row's field count and three lengths (14) with its hash and count (8), and at
 * most `MAX_POSTINGS_READ` postings in all.
 */
export function postingListsBytes(rows: number): number {
  return 19 + 2 + rows * (14 + 8) + MAX_POSTINGS_READ * POSTING_BYTES;
}

interface PostingList {
  hash: number;
  /** Postings ever registered under the hash. */
  n: number;
  /** Packed postings, `POSTING_BYTES` each; empty where not read (a stop word, past the fan-out or past `MAX_POSTINGS_READ`). */
  postings: Buffer;
}

/**
 * Of the sounds sharing enough postings, those of the accounts asked about made before the
 * instant asked about, with their owners and token ids.
 */
const CANDIDATE_SOUNDS = {
  name: 'landmark-registry-candidates',
  text: `SELECT s.id, s.job_id, s.user_id, s.created_at, m.token_id::text AS token_id
           FROM landmark_sounds s LEFT JOIN mint_signatures m ON m.job_id = s.job_id
          WHERE s.id = ANY($1::int4[]) AND (s.user_id = $2) = $3 AND ($4::timestamptz IS NULL OR s.created_at < $4)`,
};

/** Query triplet indices by hash. */
export function indexByHash(query: Triplets): Map<number, number[]> {
  const byHash = new Map<number, number[]>();
  query.hash.forEach((hash, i) => {
    const list = byHash.get(hash);
    if (list === undefined) byHash.set(hash, [i]);
    else list.push(i);
  });
  return byHash;
}

/** The stored peaks of registered sounds, for verification past the postings read. */
const CANDIDATE_PEAKS = {
  name: 'landmark-registry-candidate-peaks',
  text: 'SELECT id, peaks FROM landmark_sounds WHERE id = ANY($1::int4[]) AND peaks IS NOT NULL',
};

/**
 * The registered sounds `peaks` (a query's, ./landmarks.ts) holds, among those `options` names,
 * earliest created first, each with how the query maps onto it.
 */
export async function findContainedSounds(db: Database, peaks: readonly Peak[], options: LandmarkLookupOptions): Promise<LandmarkMatch[]> {
  return (await createLandmarkLookup(db, options).find([peaks]))[0] ?? [];
}

/**
 * Lookups of several queries among the same sounds (an upload, then its views: ./query-views.ts),
 * which share what they read. A `find` of any number of queries makes at most three statements:
 * the rows of the hashes no earlier `find` of the lookup read (`MAX_POSTINGS_READ` bounds each
 * such read), the candidate sounds not yet known, and the stored peaks of those to verify that
 * were not yet read. An upload and its two views share a fifth of their hashes (5,935 distinct of
 * 7,527 for 204 wesnoth copies) and often their candidates: a candidate verified for the upload is
 * verified for a view on the triplets already made of its peaks.
 */
export interface LandmarkLookup {
  /**
   * The registered sounds each of `queries` holds, as `findContainedSounds` answers, in order;
   * `minVotes` (default: the lookup's) the agreeing triplets an alignment needs to be answered,
   * `candidates` (default `MAX_CANDIDATES`) how many of each query's best candidates are aligned.
   */
  find(queries: readonly (readonly Peak[])[], minVotes?: number, candidates?: number): Promise<LandmarkMatch[][]>;
  /**
   * A query's triplets and their indices by hash, as its lookup makes them: made once per peaks
   * array however often it is looked up (an upload's peaks are looked up on votes, then for the
   * evidence on its spectrogram).
   */
  prepared(peaks: readonly Peak[]): PreparedQuery;
}

/** A query's triplets (`queryTriplets`) and their indices by hash (`indexByHash`). */
export interface PreparedQuery {
  query: Triplets;
  byHash: Map<number, number[]>;
}

type CandidateRow = { id: number; job_id: string; user_id: string; created_at: Date; token_id: string | null };

/** One query's triplets, the rows of its hashes read and the sounds sharing its postings. */
interface QueryTally {
  query: Triplets;
  byHash: Map<number, number[]>;
  lists: PostingList[];
  /** Whether the read left out hashes that verification on peaks counts. */
  pastRead: boolean;
  votes: Map<number, number>;
}

export function createLandmarkLookup(db: Database, options: LandmarkLookupOptions): LandmarkLookup {
  const lookupMinVotes = options.minVotes ?? MIN_VOTES;
  let reach: RegistryReach | undefined;
  /** The rows read so far by hash, and the hashes asked about that have none. */
  const rows = new Map<number, PostingList>();
  const asked = new Set<number>();
  /** Sounds asked about: their rows, or null where `options` leaves them out. */
  const sounds = new Map<number, CandidateRow | null>();
  /** Registered triplets of the sounds whose peaks were read (null: registered without peaks). */
  const registered = new Map<number, Triplets | null>();
  const preparedQueries = new WeakMap<readonly Peak[], PreparedQuery>();
  const prepared = (peaks: readonly Peak[]): PreparedQuery => {
    const known = preparedQueries.get(peaks);
    if (known !== undefined) return known;
    const query = queryTriplets(peaks);
    const made = { query, byHash: indexByHash(query) };
    preparedQueries.set(peaks, made);
    return made;
  };

  async function readRows(hashes: Int32Array, pause: () => Promise<void>): Promise<RegistryReach | undefined> {
    if (hashes.length === 0) return reach;
    const connection = await db.connect();
    let data: Buffer;
    try {
      if (reach === undefined) {
        const measured = await registryReach(connection);
        reach = options.hashFanout === undefined ? measured : { ...measured, fanout: options.hashFanout };
      }
      data = await readPostingRows(connection, hashes, reach.fanout);
    } catch (error) {
      // A COPY cut off (a read timeout) leaves the connection mid-stream: it is not reused.
      connection.done(true);
      throw error;
    }
    connection.done();
    // Parsed whole before any is kept: a stream cut short keeps none.
    const lists: PostingList[] = [];
    await forEachInSlices(binaryCopyRows(data), pause, (row) => lists.push(postingList(row)));
    await forEachInSlices(lists, pause, (list) => rows.set(list.hash, list));
    await forEachInSlices(hashes, pause, (hash) => asked.add(hash));
    return reach;
  }

  async function learnSounds(ids: readonly number[]): Promise<void> {
    const unknown = ids.filter((id) => !sounds.has(id));
    if (unknown.length === 0) return;
    const found = await db.any<CandidateRow>({
      ...CANDIDATE_SOUNDS,
      values: [unknown, options.userId, options.own, options.createdBefore ?? null],
    });
    for (const id of unknown) sounds.set(id, null);
    for (const row of found) sounds.set(row.id, row);
  }

  async function learnTriplets(ids: readonly number[], pause: () => Promise<void>): Promise<void> {
    const unknown = ids.filter((id) => !registered.has(id));
    if (unknown.length === 0) return;
    const found = await db.any<{ id: number; peaks: Buffer }>({ ...CANDIDATE_PEAKS, values: [unknown] });
    for (const id of unknown) registered.set(id, null);
    for (const row of found) {
      await pause();
      registered.set(row.id, registeredTriplets(peaksFromBytes(row.peaks)));
    }
  }

  return {
    prepared,
    async find(queries, minVotes = lookupMinVotes, candidates = MAX_CANDIDATES) {
      const pause = eventLoopSlices(options.sliceMs ?? LOOKUP_SLICE_MS, options.signal);
      const made: PreparedQuery[] = [];
      for (const peaks of queries) {
        made.push(prepared(peaks));
        await pause();
      }
      const unread = new Set<number>();
      for (const { byHash } of made) for (const hash of byHash.keys()) if (!asked.has(hash)) unread.add(hash);
      await pause();
      // No reach: no query has a triplet, so none holds a sound.
      const known = await readRows(Int32Array.from(unread).sort(), pause);
      if (known === undefined) return made.map(() => []);
      const tallies: QueryTally[] = [];
      for (const { query, byHash } of made) {
        await pause();
        const lists: PostingList[] = [];
        for (const hash of byHash.keys()) {
          const list = rows.get(hash);
          if (list !== undefined) lists.push(list);
        }
        // A sound sharing fewer postings read than `minVotes` can match only on its peaks, and
        // only where the read left out hashes that verification counts.
        const pastRead = lists.some((list) => list.postings.length === 0 && list.n <= known.verificationFanout);
        const votes = await soundsSharing(lists, pastRead ? Math.min(CANDIDATE_POSTINGS, minVotes) : minVotes, pause);
        tallies.push({ query, byHash, lists, pastRead, votes });
      }
      await learnSounds([...new Set(tallies.flatMap((tally) => [...tally.votes.keys()]))]);
      const verdicts: Awaited<ReturnType<typeof alignOnPostings>>[] = [];
      for (const tally of tallies) verdicts.push(await alignOnPostings(tally, sounds, minVotes, candidates, pause));
      await learnTriplets([...new Set(verdicts.flatMap((verdict) => verdict.shortOf))], pause);
      const answers: LandmarkMatch[][] = [];
      for (const [i, tally] of tallies.entries()) {
        const { candidates, alignments, shortOf } = verdicts[i] as (typeof verdicts)[number];
        for (const [id, alignment] of await verifyOnPeaks(tally, known.verificationFanout, shortOf, registered, minVotes, pause))
          alignments.set(id, alignment);
        const matches: LandmarkMatch[] = candidates.flatMap((s) => {
          const alignment = alignments.get(s.id);
          return alignment === undefined
            ? []
            : [
                {
                  sound: { registryId: s.id, jobId: s.job_id, userId: s.user_id, createdAt: s.created_at, tokenId: s.token_id },
                  alignment,
                },
              ];
        });
        answers.push(
          matches.sort((a, b) => a.sound.createdAt.getTime() - b.sound.createdAt.getTime() || a.sound.registryId - b.sound.registryId),
        );
      }
      return answers;
    },
  };
}

/**
 * A query's best `limit` (at most `MAX_CANDIDATES`) among the sounds `options` asks about, the
 * ones whose shared triplets lie most on one diagonal first (`mostOnOneDiagonal`), then the ones
 * sharing the most postings; those matching on the postings read, and those to verify on their
 * peaks (the best `FULL_VERIFICATIONS` of the rest, where the read left out hashes that
 * verification counts).
 */
async function alignOnPostings(
  tally: QueryTally,
  sounds: ReadonlyMap<number, CandidateRow | null>,
  minVotes: number,
  limit: number,
  pause: () => Promise<void>,
): Promise<{ candidates: CandidateRow[]; alignments: Map<number, LandmarkAlignment>; shortOf: number[] }> {
  const { votes } = tally;
  const asked = [...votes.keys()].flatMap((id) => sounds.get(id) ?? []);
  const most = Math.min(limit, MAX_CANDIDATES);
  // The order decides only which sounds are left out: none where every one is verified.
  const ranked = asked.length > (tally.pastRead ? Math.min(FULL_VERIFICATIONS, most) : most);
  const onDiagonal = ranked
    ? await mostOnOneDiagonal(tally.query, tally.byHash, tally.lists, new Set(asked.map((s) => s.id)), pause)
    : new Map<number, number>();
  const candidates = asked
    .sort(
      (a, b) =>
        (onDiagonal.get(b.id) ?? 0) - (onDiagonal.get(a.id) ?? 0) ||
        (votes.get(b.id) as number) - (votes.get(a.id) as number) ||
        a.id - b.id,
    )
    .slice(0, most);
  // Agreeing votes are distinct registered times on one diagonal: a sound sharing fewer postings
  // read, or fewer on any diagonal, than `minVotes` cannot match on them, only on its peaks.
  const onPostings = candidates.filter(
    (s) => (votes.get(s.id) as number) >= minVotes && (!ranked || (onDiagonal.get(s.id) as number) >= minVotes),
  );
  const shared = await sharedTriplets(tally.query, tally.byHash, tally.lists, new Set(onPostings.map((s) => s.id)), pause);
  const alignments = new Map<number, LandmarkAlignment>();
  for (const s of onPostings) {
    await pause();
    const alignment = alignShared(shared.get(s.id) ?? [], 'fitting', minVotes);
    if (alignment !== null) alignments.set(s.id, alignment);
  }
  const shortOf = tally.pastRead
    ? candidates
        .filter((s) => !alignments.has(s.id))
        .slice(0, FULL_VERIFICATIONS)
        .map((s) => s.id)
    : [];
  return { candidates, alignments, shortOf };
}

/**
 * The best alignments, of `minVotes` or more, of the query with the sounds `ids` on their
 * registered triplets (made from their stored peaks), counting every hash the query shares that
 * holds at most `fanout` postings: those the read left out as well as those it read.
 */
async function verifyOnPeaks(
  tally: QueryTally,
  fanout: number,
  ids: readonly number[],
  registered: ReadonlyMap<number, Triplets | null>,
  minVotes: number,
  pause: () => Promise<void>,
): Promise<Map<number, LandmarkAlignment>> {
  const verified = new Map<number, LandmarkAlignment>();
  if (ids.length === 0) return verified;
  const counted = new Map<number, number[]>();
  for (const list of tally.lists) if (list.n <= fanout) counted.set(list.hash, tally.byHash.get(list.hash) ?? []);
  for (const id of ids) {
    const triplets = registered.get(id);
    if (triplets === undefined || triplets === null) continue;
    await pause();
    const alignment = alignShared(pairTriplets(tally.query, triplets, counted), 'fitting', minVotes);
    if (alignment !== null) verified.set(id, alignment);
  }
  return verified;
}

/**
 * The registered sounds sharing at least `minVotes` of the postings read, with how many (one per
 * posting, however many query triplets share its hash).
 *
 * Counted in an open-addressed table of typed arrays sized to the postings read: a lookup reads up
 * to a hundred thousand postings once crowded keys keep more of them, and a `Map` of every sound
 * they name took most of such a lookup's time (34 ms at the median for 75,000 postings, against
 * 26 ms for the statement that read them; docs/fingerprints.md, "The posting table").
 */
export async function soundsSharing(
  lists: readonly { postings: Uint8Array }[],
  minVotes: number,
  pause: () => Promise<void> = eventLoopSlices(Number.POSITIVE_INFINITY),
): Promise<Map<number, number>> {
  let postings = 0;
  for (const list of lists) postings += Math.floor(list.postings.length / POSTING_BYTES);
  // At most half full, so that a probe for a free slot stays short.
  const bits = Math.max(4, Math.ceil(Math.log2(2 * postings + 1)));
  const mask = (1 << bits) - 1;
  const ids = new Int32Array(mask + 1);
  const counts = new Int32Array(mask + 1);
  const enough = new Map<number, number>();
  await forEachInSlices(lists, pause, (list) => {
    const view = new DataView(list.postings.buffer, list.postings.byteOffset, list.postings.byteLength);
    for (let o = 0; o + POSTING_BYTES <= view.byteLength; o += POSTING_BYTES) {
      const id = view.getInt32(o);
      // Fibonacci hashing: the sound ids are consecutive, the multiplier spreads them over the table.
      let slot = Math.imul(id, 0x9e3779b1) >>> (32 - bits);
      while (counts[slot] !== 0 && ids[slot] !== id) slot = (slot + 1) & mask;
      ids[slot] = id;
      const count = (counts[slot] as number) + 1;
      counts[slot] = count;
      if (count >= minVotes) enough.set(id, count);
    }
  });
  return enough;
}

/**
 * For each sound of `ids`, the most of the query's triplets shared through the postings read whose
 * differences (registered time − query time) lie within `ALIGNMENT_SPREAD_FRAMES` of one another:
 * a bound on the votes of any alignment with it, and its rank among candidates. A song registered
 * whole shares postings with any query by chance, in proportion to its length, spread over every
 * difference; a copy's lie on one diagonal.
 */
export async function mostOnOneDiagonal(
  query: Pick<Triplets, 't'>,
  byHash: ReadonlyMap<number, readonly number[]>,
  lists: readonly { hash: number; postings: Uint8Array }[],
  ids: ReadonlySet<number>,
  pause: () => Promise<void> = eventLoopSlices(Number.POSITIVE_INFINITY),
): Promise<Map<number, number>> {
  const differences = new Map<number, number[]>();
  for (const id of ids) differences.set(id, []);
  await forEachInSlices(lists, pause, ({ hash, postings }) => {
    const queryIndices = byHash.get(hash) ?? [];
    const view = new DataView(postings.buffer, postings.byteOffset, postings.byteLength);
    for (let o = 0; o + POSTING_BYTES <= view.byteLength; o += POSTING_BYTES) {
      const list = differences.get(view.getInt32(o));
      if (list === undefined) continue;
      const refT = view.getInt32(o + 4);
      for (const i of queryIndices) list.push(refT - (query.t[i] as number));
    }
  });
  const most = new Map<number, number>();
  for (const [id, list] of differences) {
    await pause();
    const sorted = Int32Array.from(list).sort();
    let best = 0;
    for (let first = 0, last = 0; last < sorted.length; last += 1) {
      while ((sorted[last] as number) - (sorted[first] as number) > ALIGNMENT_SPREAD_FRAMES) first += 1;
      best = Math.max(best, last - first + 1);
    }
    most.set(id, best);
  }
  return most;
}

/** The query's triplets shared with each sound of `ids`, as the matcher takes them. */
async function sharedTriplets(
  query: Triplets,
  byHash: ReadonlyMap<number, number[]>,
  lists: readonly PostingList[],
  ids: ReadonlySet<number>,
  pause: () => Promise<void>,
): Promise<Map<number, SharedTriplet[]>> {
  const shared = new Map<number, SharedTriplet[]>();
  if (ids.size === 0) return shared;
  await forEachInSlices(lists, pause, ({ hash, postings }) => {
    for (let o = 0; o < postings.length; o += POSTING_BYTES) {
      const id = postings.readInt32BE(o);
      if (!ids.has(id)) continue;
      const refT = postings.readInt32BE(o + 4);
      const shape = postings.readInt16BE(o + 8);
      const list = shared.get(id) ?? (shared.set(id, []).get(id) as SharedTriplet[]);
      for (const i of byHash.get(hash) ?? []) list.push(sharedTriplet(query, i, refT, shape >> 8, shape & 0xff));
    }
  });
  return shared;
}

/**
 * The best alignment of `peaks` (as a query) with `reference` (as registered), computed here
 * without the index: for a few sounds known by id, cheaper than a lookup of every hash. With
 * `minVotes`, null below it (the matcher's pruned path: `alignShared`).
 */
export function alignSounds(peaks: readonly Peak[], reference: readonly Peak[], minVotes?: number): LandmarkAlignment | null {
  return aligningWith(peaks, minVotes)(reference);
}

/**
 * `alignSounds` of one query with several sounds in turn: the query's triplets made and indexed
 * once (a whole song's are tens of thousands).
 */
export function aligningWith(peaks: readonly Peak[], minVotes?: number): (reference: readonly Peak[]) => LandmarkAlignment | null {
  const query = queryTriplets(peaks);
  const byHash = indexByHash(query);
  return (reference) => alignShared(pairTriplets(query, registeredTriplets(reference), byHash), 'fitting', minVotes);
}

/** The best alignment of a query's triplets with a registered sound's, paired by hash. */
export function alignTriplets(query: Triplets, registered: Triplets): LandmarkAlignment | null {
  return alignShared(pairTriplets(query, registered));
}

/** The query's triplets paired with a registered sound's by hash (`byHash`: the query's, ready made). */
export function pairTriplets(
  query: Triplets,
  registered: Triplets,
  byHash: ReadonlyMap<number, readonly number[]> = indexByHash(query),
): SharedTriplet[] {
  const shared: SharedTriplet[] = [];
  registered.hash.forEach((hash, j) => {
    for (const i of byHash.get(hash) ?? [])
      shared.push(sharedTriplet(query, i, registered.t[j] as number, registered.span[j] as number, registered.k[j] as number));
  });
  return shared;
}

/** The query's triplet `i` paired with a registered one at time `refT`, of span `refSpan`, from bin `refK`. */
export function sharedTriplet(query: Triplets, i: number, refT: number, refSpan: number, refK: number): SharedTriplet {
  return {
    queryT: query.t[i] as number,
    querySpan: query.span[i] as number,
    queryK: query.k[i] as number,
    refT,
    refSpan,
    refK,
  };
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

/** The peaks the registered sounds `ids` were registered with, by id (those registered without them left out). */
export async function registeredPeaksOf(db: Queryable, ids: readonly number[]): Promise<Map<number, Peak[]>> {
  const peaks = new Map<number, Peak[]>();
  if (ids.length === 0) return peaks;
  for (const row of await db.any<{ id: number; peaks: Buffer }>({ ...CANDIDATE_PEAKS, values: [ids] }))
    peaks.set(row.id, peaksFromBytes(row.peaks));
  return peaks;
}

/** The peaks a registered sound was registered with (null: registered without them). */
export async function registeredPeaks(db: Queryable, registryId: number): Promise<Peak[] | null> {
  return (await registeredPeaksOf(db, [registryId])).get(registryId) ?? null;
}
