import type { Hex } from 'viem';
import { SongmintApiError, SongmintClientError } from '../errors.ts';
import type { components } from '../generated/api.ts';
import type { SongmintApi } from './client.ts';
import { requireSession, unwrap } from './client.ts';

export type JobStatus = components['schemas']['JobStatus'];
export type JobSummary = components['schemas']['JobSummary'];
export type ModelRecord = components['schemas']['ModelRecord'];

export interface GenerateParameters {
  prompt: string;
  /** Seconds, 5 to 240 (capped by the tier). */
  duration: number;
  seed?: number;
  /** Lyrics with [verse]/[chorus] tags; they win over `withLyrics`. */
  lyrics?: string;
  /** Have the worker write lyrics from the prompt first. */
  withLyrics?: boolean;
  steps?: 27 | 60;
  /** URL that receives the signed generation.completed/failed delivery (https; verify it with `verifyWebhook`). */
  webhook?: string;
  /**
   * Sent as the `Idempotency-Key` header so that a retried request cannot start a second job; a
   * random UUID when left out (returned, so a retry can reuse it).
   */
  idempotencyKey?: string;
  signal?: AbortSignal;
}

export interface GenerationJob {
  jobId: string;
  status: 'queued';
  /** Seconds until the job is expected to complete. */
  estimatedTime: number;
  position: number;
  idempotencyKey: string;
}

/** Starts a generation job (POST /api/generate). */
export async function generate(api: SongmintApi, parameters: GenerateParameters): Promise<GenerationJob> {
  requireSession(api);
  const { prompt, duration, seed, lyrics, withLyrics = false, steps = 27, webhook, signal } = parameters;
  const idempotencyKey = parameters.idempotencyKey ?? globalThis.crypto.randomUUID();
  const body = {
    prompt,
    duration,
    steps,
    with_lyrics: withLyrics,
    ...(seed === undefined ? {} : { seed }),
    ...(lyrics === undefined ? {} : { lyrics }),
    ...(webhook === undefined ? {} : { webhook }),
  };
  const accepted = await unwrap(
    api.http.POST('/api/generate', { body, headers: { 'Idempotency-Key': idempotencyKey }, ...(signal === undefined ? {} : { signal }) }),
    signal,
  );
  if (!('status' in accepted) || accepted.status !== 'queued' || !('estimated_time' in accepted)) {
    throw new SongmintClientError('UNEXPECTED_RESPONSE', `POST /api/generate answered ${JSON.stringify(accepted)}`);
  }
  return { jobId: accepted.job_id, status: accepted.status, estimatedTime: accepted.estimated_time, position: accepted.position, idempotencyKey };
}

export interface CancelJobParameters {
  jobId: string;
  signal?: AbortSignal;
}

/**
 * Cancels a queued or processing job of the signed-in user (POST /api/generate/{job_id}/cancel);
 * a processing job stops at its worker's next step. The daily generation is given back. A job
 * that already completed or failed rejects with CONFLICT.
 */
export async function cancelJob(api: SongmintApi, parameters: CancelJobParameters): Promise<{ jobId: string; status: 'cancelled' }> {
  requireSession(api);
  const { jobId, signal } = parameters;
  const cancelled = await unwrap(
    api.http.POST('/api/generate/{job_id}/cancel', { params: { path: { job_id: jobId } }, ...(signal === undefined ? {} : { signal }) }),
    signal,
  );
  return { jobId: cancelled.job_id, status: cancelled.status };
}

export interface ListJobsParameters {
  /** `nextCursor` of the previous page; the newest jobs when left out. */
  cursor?: string;
  /** Jobs per page, 1 to 100 (default 20). */
  limit?: number;
  signal?: AbortSignal;
}

export interface JobPage {
  /** Newest first. */
  jobs: JobSummary[];
  /** Pass as `cursor` for the next page; null on the last page. */
  nextCursor: string | null;
}

/** One page of the signed-in user's jobs, newest first (GET /api/generate). */
export async function listJobs(api: SongmintApi, parameters: ListJobsParameters = {}): Promise<JobPage> {
  requireSession(api);
  const { cursor, limit, signal } = parameters;
  const query = { ...(cursor === undefined ? {} : { cursor }), ...(limit === undefined ? {} : { limit }) };
  const page = await unwrap(api.http.GET('/api/generate', { params: { query }, ...(signal === undefined ? {} : { signal }) }), signal);
  return { jobs: page.jobs, nextCursor: page.next_cursor };
}

/** The state of a running job, as reported to `onProgress`. */
export interface JobProgress {
  jobId: string;
  status: 'queued' | 'processing';
  /** Percent, 0 to 100. */
  progress: number;
  /** Seconds. */
  estimatedRemaining: number;
  /** Place in the queue while queued. */
  position?: number;
}

export interface CompletedJob {
  jobId: string;
  audioUrl: string;
  /** 0x + SHA-256 of the MP3. */
  audioHash: Hex;
  duration: number;
  createdAt: Date;
  /** The lyrics the song was made with; null for an instrumental. */
  lyrics: string | null;
  /** The model that made the song (name and version). */
  model: ModelRecord | null;
}

export interface WaitForJobParameters {
  jobId: string;
  onProgress?: (progress: JobProgress) => void;
  signal?: AbortSignal;
  /** First wait between polls; it grows by half each poll up to `maxPollIntervalMs`. */
  pollIntervalMs?: number;
  maxPollIntervalMs?: number;
  /** Gives up with TIMEOUT after this long. */
  timeoutMs?: number;
}

/**
 * Resolves when the job completes; rejects with the job's error code (GEN_005, ...) when it fails.
 * Follows the job's server-sent events where the API offers them (`/api/generate/{id}/events`),
 * and polls `GET /api/generate/{id}` with backoff otherwise.
 */
export async function waitForJob(api: SongmintApi, parameters: WaitForJobParameters): Promise<CompletedJob> {
  requireSession(api);
  const { jobId, onProgress, signal, pollIntervalMs = 500, maxPollIntervalMs = 4000, timeoutMs = 600_000 } = parameters;
  const deadline = Date.now() + timeoutMs;
  const report = (status: JobStatus): CompletedJob | undefined => {
    if (status.status === 'completed') {
      return { jobId: status.job_id, audioUrl: status.audio_url, audioHash: status.audio_hash as Hex, duration: status.duration, createdAt: new Date(status.created_at), lyrics: status.lyrics, model: status.model };
    }
    if (status.status === 'failed') {
      throw new SongmintApiError({
        code: status.error.code,
        message: status.error.message,
        status: 200,
        jobId: status.job_id,
        ...(status.error.retry_after === undefined ? {} : { retryAfter: status.error.retry_after }),
      });
    }
    if (status.status === 'cancelled') {
      throw new SongmintApiError({ code: 'CANCELLED', message: 'The job was cancelled', status: 200, jobId: status.job_id });
    }
    onProgress?.({
      jobId: status.job_id,
      status: status.status,
      progress: status.progress,
      estimatedRemaining: status.estimated_remaining,
      ...('position' in status ? { position: status.position } : {}),
    });
    return undefined;
  };

  for await (const status of jobEvents(api, jobId, signal)) {
    const done = report(status);
    if (done !== undefined) return done;
  }

  let interval = pollIntervalMs;
  for (;;) {
    throwIfAborted(signal);
    const status = await unwrap(
      api.http.GET('/api/generate/{job_id}', { params: { path: { job_id: jobId } }, ...(signal === undefined ? {} : { signal }) }),
      signal,
    );
    const done = report(status);
    if (done !== undefined) return done;
    if (Date.now() + interval > deadline) throw new SongmintClientError('TIMEOUT', `job ${jobId} did not end within ${timeoutMs} ms`);
    await sleep(interval, signal);
    interval = Math.min(maxPollIntervalMs, Math.ceil(interval * 1.5));
  }
}

/**
 * The job's statuses from `GET /api/generate/{id}/events` (`text/event-stream`, each event's data
 * a JobStatus), or nothing when the API does not offer the stream: the caller then polls.
 */
async function* jobEvents(api: SongmintApi, jobId: string, signal: AbortSignal | undefined): AsyncGenerator<JobStatus> {
  let response: Response;
  try {
    response = await api.fetch(`${api.baseUrl}/api/generate/${encodeURIComponent(jobId)}/events`, {
      headers: { accept: 'text/event-stream', authorization: `Bearer ${api.token ?? ''}` },
      ...(signal === undefined ? {} : { signal }),
    });
  } catch (error) {
    if (signal?.aborted === true) throw new SongmintClientError('ABORTED', 'aborted by the caller', { cause: error });
    return;
  }
  const body = response.body;
  if (!response.ok || body === null || !(response.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
    await body?.cancel();
    return;
  }
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += value.replace(/\r\n?/g, '\n');
      let end: number;
      while ((end = buffer.indexOf('\n\n')) !== -1) {
        const event = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = event
          .split('\n')
          .filter((line) => line.startsWith('data:'))
          .map((line) => line.slice(5).replace(/^ /, ''))
          .join('\n');
        if (data !== '') yield JSON.parse(data) as JobStatus;
      }
    }
  } catch (error) {
    if (signal?.aborted === true) throw new SongmintClientError('ABORTED', 'aborted by the caller', { cause: error });
    throw error;
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted === true) throw new SongmintClientError('ABORTED', 'aborted by the caller', { cause: signal.reason });
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  throwIfAborted(signal);
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(new SongmintClientError('ABORTED', 'aborted by the caller', { cause: signal?.reason }));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
