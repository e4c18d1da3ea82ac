/**
 * An optional outside check of uploads (issue 44; docs/fingerprints.md "Outside lookup"): the
 * upload's fingerprint sent to an AcoustID-compatible service (AcoustID's `/v2/lookup`: form
 * fields `client`, `duration` in whole seconds, `fingerprint` in the compressed form), and a
 * recording it knows with a score of at least the configured minimum refuses the upload
 * (UPLOAD_005). Off unless `ACOUSTID_LOOKUP_URL` is set; `ACOUSTID_CLIENT_KEY` is the
 * application's key, `ACOUSTID_MIN_SCORE` (0.9) and `ACOUSTID_TIMEOUT_MS` (5000) tune it.
 *
 * The service is outside this platform's control: an answer that does not come in time, an error
 * status or a body that is not the documented shape lets the upload through (the registry of
 * the platform's songs still applies) and is logged, so an outage of the service is not an outage of
 * uploads. Its answer is outside input: read through a schema, its size bounded.
 */
import { z } from 'zod';
import { encodeFingerprint } from '../../../core/src/fingerprint/encoding.ts';

export interface OutsideLookupConfig {
  url: string;
  clientKey: string;
  minScore: number;
  timeoutMs: number;
}

export interface OutsideMatch {
  /** Who answered (the lookup URL's host). */
  service: string;
  /** The recording: a MusicBrainz recording id where the service links one, else its own track id. */
  recordingId: string;
  score: number;
}

/** Looks an upload up; null when the service knows no recording of it, or did not answer usably. */
export type OutsideFingerprintCheck = (items: Uint32Array, durationSeconds: number) => Promise<OutsideMatch | null>;

/** The largest answer read (a lookup answer with recording ids is a few kB). */
const MAX_ANSWER_BYTES = 1024 * 1024;

const answerSchema = z.union([
  z.object({
    status: z.literal('ok'),
    results: z.array(
      z.object({
        id: z.string(),
        score: z.number(),
        recordings: z.array(z.object({ id: z.string() })).optional(),
      }),
    ),
  }),
  z.object({ status: z.literal('error'), error: z.object({ code: z.number().optional(), message: z.string() }) }),
]);

export interface OutsideCheckLogger {
  warn(fields: Record<string, unknown>, message: string): void;
}

export function createOutsideFingerprintCheck(config: OutsideLookupConfig, logger: OutsideCheckLogger): OutsideFingerprintCheck {
  const service = new URL(config.url).host;
  return async (items, durationSeconds) => {
    const form = new URLSearchParams({
      format: 'json',
      client: config.clientKey,
      duration: String(Math.max(1, Math.round(durationSeconds))),
      fingerprint: encodeFingerprint(items),
      meta: 'recordingids',
    });
    let text: string;
    try {
      const response = await fetch(config.url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: form,
        signal: AbortSignal.timeout(config.timeoutMs),
        redirect: 'error',
      });
      const declared = Number(response.headers.get('content-length') ?? 0);
      if (declared > MAX_ANSWER_BYTES) throw new Error(`an answer of ${declared} bytes`);
      text = await response.text();
      if (text.length > MAX_ANSWER_BYTES) throw new Error(`an answer of ${text.length} characters`);
      if (!response.ok && !text.startsWith('{')) throw new Error(`status ${response.status}`);
    } catch (error) {
      logger.warn({ err: error, service }, 'outside fingerprint lookup failed; upload taken without it');
      return null;
    }
    let parsed: z.infer<typeof answerSchema>;
    try {
      const answer = answerSchema.safeParse(JSON.parse(text));
      if (!answer.success) throw new Error(answer.error.message);
      parsed = answer.data;
    } catch (error) {
      logger.warn({ err: error, service }, 'outside fingerprint lookup answered an unknown shape; upload taken without it');
      return null;
    }
    if (parsed.status === 'error') {
      logger.warn({ service, error: parsed.error }, 'outside fingerprint lookup refused the request; upload taken without it');
      return null;
    }
    const best = parsed.results.filter((result) => result.score >= config.minScore).sort((a, b) => b.score - a.score)[0];
    if (best === undefined) return null;
    return { service, recordingId: best.recordings?.[0]?.id ?? best.id, score: best.score };
  };
}
