/**
 * The registry of signed songs' fingerprints (migration 0017, docs/fingerprints.md): written when
 * the oracle signs a mint, read when a signature or an upload must not contain another account's
 * registered song.
 *
 * A lookup is AcoustID's: each of the query's terms (./terms.ts) is looked up in the inverted
 * index (`fingerprint_terms`, an index-only scan of its key), each bringing at most `TERM_FANOUT`
 * registered songs that hold it (a term many songs hold says little: a stop word); the songs of
 * other accounts sharing the most terms are the candidates, and each candidate's stored
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
  /** The mint's token id (decimal) once the chain watcher recorded it, else null. */
  tokenId: string | null;
}

export interface RegistryMatch {
  song: RegisteredSong;
  containment: Containment;
}

export interface LookupOptions {
  /** The asking account: its own registered songs never count against it. */
  excludeUserId: string;
  /** Only rows registered after this id (a re-check of what was registered since a first lookup). */
  afterId?: string;
  rule?: MatchRule;
}

const CANDIDATES = {
  name: 'fingerprint-registry-candidates',
  text: `WITH hits AS (
           SELECT t.registry_id, count(*)::int AS shared
             FROM unnest($1::int4[]) AS q(term)
             CROSS JOIN LATERAL (
               SELECT registry_id FROM fingerprint_terms WHERE term = q.term AND registry_id > $3 LIMIT ${TERM_FANOUT}) t
            GROUP BY t.registry_id
           HAVING count(*) >= ${MIN_SHARED_TERMS})
         SELECT r.id::text AS id, r.job_id, r.user_id, r.fingerprint, s.token_id::text AS token_id
           FROM hits h JOIN fingerprint_registry r ON r.id = h.registry_id
                LEFT JOIN mint_signatures s ON s.job_id = r.job_id
          WHERE r.user_id <> $2
          ORDER BY h.shared DESC, r.id
          LIMIT ${MAX_CANDIDATES}`,
};

/** The first registered song of another account that `query` contains (closest first), or null. */
export async function findRegisteredIn(db: Queryable, query: Uint32Array, options: LookupOptions): Promise<RegistryMatch | null> {
  const terms = fingerprintTerms(query);
  if (terms.length === 0) return null;
  const candidates = await db.any<{ id: string; job_id: string; user_id: string; fingerprint: Buffer; token_id: string | null }>({
    ...CANDIDATES,
    values: [Array.from(terms), options.excludeUserId, options.afterId ?? '0'],
  });
  let best: RegistryMatch | null = null;
  for (const row of candidates) {
    const containment = findContainment(query, fingerprintFromBytes(row.fingerprint), options.rule ?? MATCH_RULE);
    if (containment === null || (best !== null && containment.bitError >= best.containment.bitError)) continue;
    best = { song: { registryId: row.id, jobId: row.job_id, userId: row.user_id, tokenId: row.token_id }, containment };
  }
  return best;
}

/** The newest registry id (0 for none): a later re-check reads only rows after it. */
export async function latestRegistryId(db: Queryable): Promise<string> {
  const row = await db.one<{ id: string }>('SELECT coalesce(max(id), 0)::text AS id FROM fingerprint_registry');
  return row.id;
}

/** Registers `items` as `jobId`'s sound, to `userId`, with its terms. Run it in the transaction that records the signature. */
export async function registerFingerprint(db: Queryable, song: { jobId: string; userId: string; items: Uint32Array }): Promise<void> {
  await db.none({
    name: 'fingerprint-registry-insert',
    text: `WITH registered AS (
             INSERT INTO fingerprint_registry (job_id, user_id, fingerprint) VALUES ($1, $2, $3)
             ON CONFLICT (job_id) DO NOTHING RETURNING id)
           INSERT INTO fingerprint_terms (term, registry_id) SELECT unnest($4::int4[]), id FROM registered`,
    values: [song.jobId, song.userId, Buffer.from(fingerprintToBytes(song.items)), Array.from(fingerprintTerms(song.items))],
  });
}
