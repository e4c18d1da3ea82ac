/**
 * Chromaprint's registry as issue 44 kept it (migration 0017, dropped by 0025 when the landmark
 * registry took over the checks: docs/fingerprints.md), kept here only for `bench:fingerprint`'s
 * Chromaprint rows, so that its figures stay comparable run to run: AcoustID's inverted index of
 * 28-bit terms, each query term reading at most `TERM_FANOUT` registered songs by an index-only
 * scan, the songs sharing the most terms compared in full by the match rule.
 */
import type { Queryable } from '../../core/src/db/database.ts';
import { fingerprintFromBytes } from '../../core/src/fingerprint/encoding.ts';
import { findContainment, MATCH_RULE } from '../../core/src/fingerprint/match.ts';
import type { Containment } from '../../core/src/fingerprint/match.ts';
import { fingerprintTerms } from '../../core/src/fingerprint/terms.ts';

const TERM_FANOUT = 64;
const MAX_CANDIDATES = 24;
const MIN_SHARED_TERMS = 2;

/** The two tables, without keys: the bench builds `fingerprint_terms`' key after its bulk load. */
export const CHROMAPRINT_REGISTRY_TABLES = `
  CREATE TABLE fingerprint_registry (
    id bigserial PRIMARY KEY, job_id uuid NOT NULL, user_id uuid NOT NULL, fingerprint bytea NOT NULL,
    registered_at timestamptz NOT NULL DEFAULT now());
  CREATE TABLE fingerprint_terms (term int4 NOT NULL, registry_id bigint NOT NULL);`;

/** The registered songs of accounts other than `excludeUserId` that `query` contains. */
export async function findContainedChromaprint(
  db: Queryable,
  query: Uint32Array,
  excludeUserId: string,
): Promise<{ jobId: string; containment: Containment }[]> {
  const terms = fingerprintTerms(query);
  if (terms.length === 0) return [];
  const candidates = await db.any<{ job_id: string; fingerprint: Buffer }>(
    `WITH hits AS (
       SELECT t.registry_id, count(*)::int AS shared
         FROM unnest($1::int4[]) AS q(term)
         CROSS JOIN LATERAL (SELECT registry_id FROM fingerprint_terms WHERE term = q.term LIMIT ${TERM_FANOUT}) t
        GROUP BY t.registry_id
       HAVING count(*) >= ${MIN_SHARED_TERMS})
     SELECT r.job_id, r.fingerprint
       FROM hits h JOIN fingerprint_registry r ON r.id = h.registry_id
      WHERE r.user_id <> $2
      ORDER BY h.shared DESC, r.id
      LIMIT ${MAX_CANDIDATES}`,
    [Array.from(terms), excludeUserId],
  );
  const found: { jobId: string; containment: Containment }[] = [];
  for (const row of candidates) {
    const containment = findContainment(query, fingerprintFromBytes(row.fingerprint), MATCH_RULE);
    if (containment !== null) found.push({ jobId: row.job_id, containment });
  }
  return found;
}
