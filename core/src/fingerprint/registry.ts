/**
 * The registry of the platform's sounds (migrations 0017 and 0022, docs/fingerprints.md): every
 * completed song and edit is registered to the account it was made for, as of its completion (the
 * worker's completing transaction, core/src/jobs/job-state.ts `completeJob`). An upload, and a
 * song carrying outside audio asking for a mint signature, must not contain another account's
 * earlier sound: the earlier creation wins, signed or not.
 *
 * The match is the one place to swap: `findEarlierClaim` asks the matcher which registered sounds
 * a query contains (`findContained`, today Chromaprint through AcoustID's inverted index, ./match.ts)
 * and applies the rule of ownership to what it answers.
 *
 * The rule (`findEarlierClaim`): a query of account A is refused for a registered sound R of
 * another account B when R was made before the query (before the job asking, or before now for an
 * upload) and R does not itself derive from A: R contains no sound of A's made before R. The
 * exception is what keeps a creator's song its creator's: a squatter's extension S of a copy of
 * A's song V (however it got in) contains V; A's later upload of V, or A's edit of it, contains S
 * too, but S holds V, A's earlier sound, so S does not count against A, while V counts against
 * the squatter. Registrations are never removed: dropping a creator's would leave a squatter's
 * later copy the earliest sound holding the song.
 *
 * A lookup is AcoustID's: each of the query's terms (./terms.ts) is looked up in the inverted
 * index (`fingerprint_terms`, an index-only scan of its key), each bringing at most `TERM_FANOUT`
 * registered songs that hold it (a term many songs hold says little: a stop word); the songs of
 * the accounts asked about sharing the most terms are the candidates, and each candidate's stored
 * fingerprint is compared with the query by the match rule (./match.ts). One statement; nothing
 * reads the whole registry (bench/results/fingerprint.md: lookups among 100,000).
 */
import type { Queryable } from '../db/database.ts';
import { fingerprintFromBytes, fingerprintToBytes } from './encoding.ts';
import { findContainment } from './match.ts';
import type { Containment, MatchRule } from './match.ts';
import { MATCH_RULE } from './match.ts';
import { fingerprintTerms } from './terms.ts';

/** Registered songs one query term may bring (a term in more songs is a stop word for the rest). */
export const TERM_FANOUT = 64;
/** Candidates compared in full, the ones sharing the most terms first. */
export const MAX_CANDIDATES = 24;
/** Terms a candidate must share with the query: a 10 s stretch of a copy shares about ten. */
export const MIN_SHARED_TERMS = 2;

export interface RegisteredSong {
  registryId: string;
  /** generation_jobs.id of the registered song. */
  jobId: string;
  userId: string;
  /** When the sound was made (its job's completion). */
  createdAt: Date;
  /** The mint's token id (decimal) once the chain watcher recorded it, else null. */
  tokenId: string | null;
}

export interface RegistryMatch {
  song: RegisteredSong;
  containment: Containment;
  /** The registered sound's fingerprint. */
  reference: Uint32Array;
}

/** Whose registered sounds a matcher lookup reads. */
export interface ContainedQuery {
  /** Sounds of this account only (`own: true`) or of every other account (`own: false`). */
  userId: string;
  own: boolean;
  /** Only sounds made before this instant (absent: all). */
  createdBefore?: Date | undefined;
  rule?: MatchRule;
}

const CANDIDATES = {
  name: 'fingerprint-registry-candidates',
  text: `WITH hits AS (
           SELECT t.registry_id, count(*)::int AS shared
             FROM unnest($1::int4[]) AS q(term)
             CROSS JOIN LATERAL (
               SELECT registry_id FROM fingerprint_terms WHERE term = q.term LIMIT ${TERM_FANOUT}) t
            GROUP BY t.registry_id
           HAVING count(*) >= ${MIN_SHARED_TERMS})
         SELECT r.id::text AS id, r.job_id, r.user_id, r.registered_at, r.fingerprint, s.token_id::text AS token_id
           FROM hits h JOIN fingerprint_registry r ON r.id = h.registry_id
                LEFT JOIN mint_signatures s ON s.job_id = r.job_id
          WHERE (r.user_id = $2) = $3 AND ($4::timestamptz IS NULL OR r.registered_at < $4)
          ORDER BY h.shared DESC, r.id
          LIMIT ${MAX_CANDIDATES}`,
};

/** The matcher: the registered sounds `query` contains, among those `options` names, earliest made first. */
export async function findContained(db: Queryable, query: Uint32Array, options: ContainedQuery): Promise<RegistryMatch[]> {
  const terms = fingerprintTerms(query);
  if (terms.length === 0) return [];
  const candidates = await db.any<{
    id: string;
    job_id: string;
    user_id: string;
    registered_at: Date;
    fingerprint: Buffer;
    token_id: string | null;
  }>({
    ...CANDIDATES,
    values: [Array.from(terms), options.userId, options.own, options.createdBefore ?? null],
  });
  const matches: RegistryMatch[] = [];
  for (const row of candidates) {
    const reference = fingerprintFromBytes(row.fingerprint);
    const containment = findContainment(query, reference, options.rule ?? MATCH_RULE);
    if (containment === null) continue;
    const song = { registryId: row.id, jobId: row.job_id, userId: row.user_id, createdAt: row.registered_at, tokenId: row.token_id };
    matches.push({ song, containment, reference });
  }
  return matches.sort(
    (a, b) => a.song.createdAt.getTime() - b.song.createdAt.getTime() || Number(a.song.registryId) - Number(b.song.registryId),
  );
}

export interface ClaimQuery {
  /** The asking account. */
  userId: string;
  /** When the asked-about sound was made (a job's completion); absent: now (an upload). */
  createdAt?: Date | undefined;
  rule?: MatchRule;
}

/**
 * The earliest sound of another account that `query` contains and that was made before it, not
 * itself deriving from the asking account (the rule above); null when there is none.
 */
export async function findEarlierClaim(db: Queryable, query: Uint32Array, options: ClaimQuery): Promise<RegistryMatch | null> {
  const rule = options.rule ?? MATCH_RULE;
  const others = await findContained(db, query, { userId: options.userId, own: false, createdBefore: options.createdAt, rule });
  for (const match of others) {
    const derived = await findContained(db, match.reference, {
      userId: options.userId,
      own: true,
      createdBefore: match.song.createdAt,
      rule,
    });
    if (derived.length === 0) return match;
  }
  return null;
}

/**
 * Registers `items` as `jobId`'s sound, to `userId`, made now (the transaction's time: call it in
 * the transaction that completes the job), with its terms. A job is registered once.
 */
export async function registerFingerprint(db: Queryable, song: { jobId: string; userId: string; items: Uint32Array }): Promise<void> {
  if (song.items.length === 0) return;
  await db.none({
    name: 'fingerprint-registry-insert',
    text: `WITH registered AS (
             INSERT INTO fingerprint_registry (job_id, user_id, fingerprint, registered_at) VALUES ($1, $2, $3, now())
             ON CONFLICT (job_id) DO NOTHING RETURNING id)
           INSERT INTO fingerprint_terms (term, registry_id) SELECT unnest($4::int4[]), id FROM registered`,
    values: [song.jobId, song.userId, Buffer.from(fingerprintToBytes(song.items)), Array.from(fingerprintTerms(song.items))],
  });
}
