import type { Hex } from 'viem';
import { SongmintApiError, SongmintClientError } from '../errors.ts';
import type { components } from '../generated/api.ts';
import { sleep } from './abort.ts';
import type { SongmintApi } from './client.ts';
import { rateLimitOf, requireSession, unwrap } from './client.ts';
import type { RateLimitQuota } from './client.ts';

export type PreviewStatus = components['schemas']['PreviewStatus'];

export interface CreatePreviewParameters {
  prompt: string;
  /** Seconds, 5 to 15 (10 when left out). */
  duration?: number;
  seed?: number;
  lyrics?: string;
  withLyrics?: boolean;
  steps?: 27 | 60;
  /** Sent as `Idempotency-Key`; a random UUID when left out (returned, so a retry can reuse it). */
  idempotencyKey?: string;
  signal?: AbortSignal;
}

export interface QueuedPreview {
  sessionId: string;
  status: 'queued';
  /** Seconds until the preview is expected to complete. */
  estimatedTime: number;
  position: number;
  idempotencyKey: string;
  /** The hourly preview quota after this request (`X-RateLimit-*`), when the answer carried it. */
  quota?: RateLimitQuota;
}

/**
 * Queues a short preview of a prompt (POST /api/previews): charged to the hourly preview limit,
 * never to the daily generations, and never mintable.
 */
export async function createPreview(api: SongmintApi, parameters: CreatePreviewParameters): Promise<QueuedPreview> {
  requireSession(api);
  const { prompt, duration = 10, seed, lyrics, withLyrics = false, steps = 27, signal } = parameters;
  const idempotencyKey = parameters.idempotencyKey ?? globalThis.crypto.randomUUID();
  const body = {
    prompt,
    duration,
    steps,
    with_lyrics: withLyrics,
    ...(seed === undefined ? {} : { seed }),
    ...(lyrics === undefined ? {} : { lyrics }),
  };
  const request = api.http.POST('/api/previews', {
    body,
    headers: { 'Idempotency-Key': idempotencyKey },
    ...(signal === undefined ? {} : { signal }),
  });
  const accepted = await unwrap(request, signal);
  const quota = rateLimitOf((await request).response.headers);
  return {
    sessionId: accepted.session_id,
    status: accepted.status,
    estimatedTime: accepted.estimated_time,
    position: accepted.position,
    idempotencyKey,
    ...(quota === undefined ? {} : { quota }),
  };
}

/**
 * The preview's status (GET /api/previews/{session_id}); when completed, `preview_url` is a fresh
 * signed URL valid one hour. Rejects with PREVIEW_EXPIRED (410) once the preview is past 24 hours.
 */
export async function getPreview(api: SongmintApi, parameters: { sessionId: string; signal?: AbortSignal }): Promise<PreviewStatus> {
  requireSession(api);
  const { sessionId, signal } = parameters;
  return unwrap(
    api.http.GET('/api/previews/{session_id}', {
      params: { path: { session_id: sessionId } },
      ...(signal === undefined ? {} : { signal }),
    }),
    signal,
  );
}

export interface CompletedPreview {
  sessionId: string;
  /** Signed URL of the clip, valid until `urlExpiresAt`; ask `getPreview` again for a fresh one. */
  previewUrl: string;
  urlExpiresAt: Date;
  /** When the preview is deleted (its request + 24 hours). */
  expiresAt: Date;
  audioHash: Hex;
  duration: number;
}

/** Polls `getPreview` with backoff until the preview completes; rejects with its error when it fails. */
export async function waitForPreview(
  api: SongmintApi,
  parameters: { sessionId: string; signal?: AbortSignal; pollIntervalMs?: number; maxPollIntervalMs?: number; timeoutMs?: number },
): Promise<CompletedPreview> {
  const { sessionId, signal, pollIntervalMs = 500, maxPollIntervalMs = 4000, timeoutMs = 600_000 } = parameters;
  const deadline = Date.now() + timeoutMs;
  let interval = pollIntervalMs;
  for (;;) {
    const status = await getPreview(api, { sessionId, ...(signal === undefined ? {} : { signal }) });
    if (status.status === 'completed') {
      return {
        sessionId: status.session_id,
        previewUrl: status.preview_url,
        urlExpiresAt: new Date(status.url_expires_at),
        expiresAt: new Date(status.expires_at),
        audioHash: status.audio_hash as Hex,
        duration: status.duration,
      };
    }
    if (status.status === 'failed') {
      throw new SongmintApiError({
        code: status.error.code,
        message: status.error.message,
        status: 200,
        ...(status.error.retry_after === undefined ? {} : { retryAfter: status.error.retry_after }),
      });
    }
    if (Date.now() + interval > deadline)
      throw new SongmintClientError('TIMEOUT', `preview ${sessionId} did not end within ${timeoutMs} ms`);
    await sleep(interval, signal);
    interval = Math.min(maxPollIntervalMs, Math.ceil(interval * 1.5));
  }
}
