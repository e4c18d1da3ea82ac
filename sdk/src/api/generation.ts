import type { Hex } from 'viem';
import { SongmintApiError, SongmintClientError, apiErrorFromBody } from '../errors.ts';
import type { components, paths } from '../generated/api.ts';
import { abortedError, sleep, throwIfAborted } from './abort.ts';
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
  return postGeneration(api, body, idempotencyKey, signal);
}

/** POST /api/generate for a new song or an edit: the queued job, or a rejection. */
async function postGeneration(
  api: SongmintApi,
  body: components['schemas']['GenerateRequest'],
  idempotencyKey: string,
  signal: AbortSignal | undefined,
): Promise<GenerationJob> {
  const accepted = await unwrap(
    api.http.POST('/api/generate', { body, headers: { 'Idempotency-Key': idempotencyKey }, ...(signal === undefined ? {} : { signal }) }),
    signal,
  );
  if (!('status' in accepted) || accepted.status !== 'queued' || !('estimated_time' in accepted)) {
    throw new SongmintClientError('UNEXPECTED_RESPONSE', `POST /api/generate answered ${JSON.stringify(accepted)}`);
  }
  return {
    jobId: accepted.job_id,
    status: accepted.status,
    estimatedTime: accepted.estimated_time,
    position: accepted.position,
    idempotencyKey,
  };
}

/** What an edit does (docs/api.md "Edit a song"). */
export type SongEditTask =
  | { task: 'extend'; /** Seconds added after the source's end. */ seconds: number }
  | { task: 'repaint'; /** Seconds of the source made anew: [start, end). */ start: number; end: number }
  | { task: 'remix'; /** 0 to 1: how closely the remix follows the source (default 0.5). */ strength?: number };

/** What an edit starts from: one of the signed-in user's completed songs, or audio they uploaded (`uploadAudio`). */
export type SongEditSource =
  | { /** `gen_…`: one of the signed-in user's completed jobs. */ sourceJobId: string; sourceUploadId?: never }
  | { /** `upl_…`: one of the signed-in user's uploads. */ sourceUploadId: string; sourceJobId?: never };

export type EditSongParameters = SongEditTask &
  SongEditSource & {
    /** The source's length in seconds (a song's status' `duration`, an upload's `duration`: its whole seconds are edited). */
    sourceDuration: number;
    /** What the new material should be. */
    prompt: string;
    seed?: number;
    webhook?: string;
    idempotencyKey?: string;
    signal?: AbortSignal;
  };

/**
 * Edits one of the signed-in user's completed songs, or audio they uploaded, (POST /api/generate with `edit`): extend it by
 * `seconds`, repaint `start` to `end`, or remix it. The kept parts stay the source's audio. An edit
 * is a generation job: charged and limited as one, followed with `waitForJob`, `jobEvents`,
 * webhooks, and cancelled with `cancelJob`. Refusals reject with `SongmintApiError` (EDIT_001 to
 * EDIT_005, GEN_004 for a result longer than the tier allows).
 */
export async function editSong(api: SongmintApi, parameters: EditSongParameters): Promise<GenerationJob> {
  requireSession(api);
  const { prompt, seed, webhook, signal } = parameters;
  const idempotencyKey = parameters.idempotencyKey ?? globalThis.crypto.randomUUID();
  const source =
    parameters.sourceUploadId === undefined ? { source_job_id: parameters.sourceJobId } : { source_upload_id: parameters.sourceUploadId };
  // An upload is edited on its whole seconds (a song's length is whole seconds already).
  const sourceDuration = Math.floor(parameters.sourceDuration);
  const edit =
    parameters.task === 'extend'
      ? { ...source, task: 'extend' as const }
      : parameters.task === 'repaint'
        ? { ...source, task: 'repaint' as const, start: parameters.start, end: parameters.end }
        : {
            ...source,
            task: 'remix' as const,
            ...(parameters.strength === undefined ? {} : { strength: parameters.strength }),
          };
  const duration = parameters.task === 'extend' ? sourceDuration + parameters.seconds : sourceDuration;
  const body = {
    prompt,
    duration,
    steps: 27 as const,
    with_lyrics: false,
    edit,
    ...(seed === undefined ? {} : { seed }),
    ...(webhook === undefined ? {} : { webhook }),
  };
  return postGeneration(api, body, idempotencyKey, signal);
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

/** A view of the library: every song not in the trash, a part of them, or the trash. */
export type JobListFilter = NonNullable<NonNullable<paths['/api/generate']['get']['parameters']['query']>['filter']>;

export interface ListJobsParameters {
  /** `nextCursor` of the previous page; the newest jobs when left out. */
  cursor?: string;
  /** Jobs per page, 1 to 100 (default 20). */
  limit?: number;
  /** `all` (default: not the trash), `minted`, `unminted`, `edits`, `failed` (or cancelled), `trash`. */
  filter?: JobListFilter;
  /** Only songs whose name, prompt or lyrics contain this text (case-insensitive). */
  search?: string;
  signal?: AbortSignal;
}

export interface JobPage {
  /** Newest first. */
  jobs: JobSummary[];
  /** Pass as `cursor` for the next page; null on the last page. */
  nextCursor: string | null;
  /** Songs matching the filter and search in all pages. */
  total: number;
}

/** One page of the signed-in user's jobs, newest first (GET /api/generate), of a view of the library and a search. */
export async function listJobs(api: SongmintApi, parameters: ListJobsParameters = {}): Promise<JobPage> {
  requireSession(api);
  const { cursor, limit, filter, search, signal } = parameters;
  const query = {
    ...(cursor === undefined ? {} : { cursor }),
    ...(limit === undefined ? {} : { limit }),
    ...(filter === undefined ? {} : { filter }),
    ...(search === undefined || search.trim() === '' ? {} : { q: search.trim() }),
  };
  const page = await unwrap(api.http.GET('/api/generate', { params: { query }, ...(signal === undefined ? {} : { signal }) }), signal);
  return { jobs: page.jobs, nextCursor: page.next_cursor, total: page.total };
}

/**
 * The job's status now (GET /api/generate/{job_id}): its progress while queued or processing, the
 * song when completed, the error when failed. Rejects with NOT_FOUND for another's job.
 */
export async function getJob(api: SongmintApi, { jobId, signal }: { jobId: string; signal?: AbortSignal }): Promise<JobStatus> {
  requireSession(api);
  return unwrap(
    api.http.GET('/api/generate/{job_id}', { params: { path: { job_id: jobId } }, ...(signal === undefined ? {} : { signal }) }),
    signal,
  );
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
      return {
        jobId: status.job_id,
        audioUrl: status.audio_url,
        audioHash: status.audio_hash as Hex,
        duration: status.duration,
        createdAt: new Date(status.created_at),
        lyrics: status.lyrics,
        model: status.model,
      };
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

  // The event stream first; a stream that ends before the job (the server's stream lifetime) is
  // resumed from the last event. Any failure of the stream falls back to polling, which reports
  // real errors (401, 404) as they are.
  let lastEventId: string | undefined;
  let emptyStreams = 0;
  streams: while (emptyStreams < MAX_EMPTY_STREAMS && Date.now() < deadline) {
    const events = jobEvents(api, {
      jobId,
      ...(signal === undefined ? {} : { signal }),
      ...(lastEventId === undefined ? {} : { lastEventId }),
    });
    let received = 0;
    try {
      for (;;) {
        let next: IteratorResult<JobEvent>;
        try {
          next = await events.next();
        } catch (error) {
          if (error instanceof SongmintClientError && error.code === 'ABORTED') throw error;
          break streams;
        }
        if (next.done === true) break;
        received++;
        lastEventId = next.value.id ?? lastEventId;
        // Throws the job's own error for a failed or cancelled job.
        const done = report(next.value.job);
        if (done !== undefined) return done;
      }
    } finally {
      await events.return(undefined);
    }
    emptyStreams = received === 0 ? emptyStreams + 1 : 0;
    await sleep(pollIntervalMs, signal);
  }

  let interval = pollIntervalMs;
  for (;;) {
    throwIfAborted(signal);
    const status = await getJob(api, { jobId, ...(signal === undefined ? {} : { signal }) });
    const done = report(status);
    if (done !== undefined) return done;
    if (Date.now() + interval > deadline) throw new SongmintClientError('TIMEOUT', `job ${jobId} did not end within ${timeoutMs} ms`);
    await sleep(interval, signal);
    interval = Math.min(maxPollIntervalMs, Math.ceil(interval * 1.5));
  }
}

/** Streams in a row that bring no event before `waitForJob` stops reconnecting and polls. */
const MAX_EMPTY_STREAMS = 3;

/** One server-sent event of a job's stream. */
export interface JobEvent {
  /** `status` while queued or processing; `completed`, `failed` or `cancelled` for the last one. */
  event: string;
  /** The view's version: pass it as `lastEventId` to resume after it. */
  id: string | undefined;
  /** The body of GET /api/generate/{job_id}. */
  job: JobStatus;
}

export interface JobEventsParameters {
  jobId: string;
  /** Resume: only changes after this event are sent. */
  lastEventId?: string;
  signal?: AbortSignal;
}

/**
 * The job's events from `GET /api/generate/{job_id}/events` (Server-Sent Events over fetch, so the
 * bearer token can be sent: EventSource cannot). Ends after the final event or when the server
 * ends the stream (its lifetime: resume with `lastEventId`); rejects with a SongmintApiError for
 * an error answer (401, 404, 429, 503) and ABORTED when `signal` aborts. Breaking out of the loop
 * closes the connection.
 */
export async function* jobEvents(api: SongmintApi, parameters: JobEventsParameters): AsyncGenerator<JobEvent> {
  requireSession(api);
  const { jobId, lastEventId, signal } = parameters;
  let response: Response;
  try {
    response = await api.fetch(`${api.baseUrl}/api/generate/${encodeURIComponent(jobId)}/events`, {
      headers: {
        accept: 'text/event-stream',
        authorization: `Bearer ${api.token ?? ''}`,
        ...(lastEventId === undefined ? {} : { 'last-event-id': lastEventId }),
      },
      ...(signal === undefined ? {} : { signal }),
    });
  } catch (error) {
    if (signal?.aborted === true) throw abortedError(error);
    throw new SongmintClientError('NETWORK_ERROR', `GET /api/generate/${jobId}/events failed`, { cause: error });
  }
  const body = response.body;
  if (!response.ok || body === null || !(response.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
    const text = await response.text().catch(() => '');
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON: the error carries the text
    }
    throw apiErrorFromBody(response.status, parsed, response.headers.get('retry-after'));
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
        const event = parseEvent(buffer.slice(0, end));
        buffer = buffer.slice(end + 2);
        if (event !== undefined) yield event;
      }
    }
  } catch (error) {
    if (signal?.aborted === true) throw abortedError(error);
    throw error;
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

/** One block of an event stream; undefined for comments (heartbeats) and `retry:`. */
function parseEvent(block: string): JobEvent | undefined {
  let name = 'message';
  let id: string | undefined;
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') name = value;
    else if (field === 'id') id = value;
    else if (field === 'data') data.push(value);
  }
  if (data.length === 0) return undefined;
  return { event: name, id, job: JSON.parse(data.join('\n')) as JobStatus };
}
