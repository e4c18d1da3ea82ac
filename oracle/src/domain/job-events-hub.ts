/**
 * The job event streams of one oracle process (GET /api/generate/{job_id}/events) and the one
 * PostgreSQL connection that feeds them. Every writer of a job, on any machine (oracle, worker,
 * sweeps, cancel), announces its status and progress changes on `generation_job_changed`
 * (migration 0009), so a process that LISTENs serves any job's stream, whichever replica or
 * worker moved it. The payload only names the job: streams re-read it for the view.
 *
 * The hub holds no state beyond this process's open streams: a stream takes one slot of the
 * per-process cap and owns its timers, so closing it gives back everything it held, and
 * `stats()` shows that nothing was left behind.
 *
 * When the connection drops (database restart, `pg_terminate_backend`) the hub reconnects with
 * backoff. A connection that stops answering without closing (a partition) would look idle
 * forever, so the hub probes it every `probeMs`: a probe without an answer within the pool's read
 * deadline (core/src/db/database.ts) counts as a drop. Announcements sent during the gap are lost, so after every (re)connect each watched
 * job is signalled once and its streams re-read it.
 */
import type { Logger } from 'pino';
import { listenOnChannel } from '../../../core/src/db/channel-listener.ts';
import type { ChannelListener } from '../../../core/src/db/channel-listener.ts';
import type { Database } from '../../../core/src/db/database.ts';
import { JOB_CHANGED_CHANNEL, parseJobChange } from '../../../core/src/jobs/job-changes.ts';

/** How streams behave; set once per process (oracle/src/config.ts). */
export interface JobStreamLimits {
  /** Open streams this process serves at once; one more is refused (503). */
  maxStreams: number;
  /** A comment line this often keeps proxies and clients from timing an idle stream out. */
  heartbeatMs: number;
  /** A stream ends after this long; the client reconnects with `Last-Event-ID`. */
  maxStreamMs: number;
  /** The SSE `retry:` the client waits before reconnecting. */
  retryMs: number;
}

/** The defaults of oracle/src/config.ts; `retryMs` is not configurable. */
export const DEFAULT_JOB_STREAM_LIMITS: JobStreamLimits = {
  maxStreams: 1000,
  heartbeatMs: 15_000,
  maxStreamMs: 600_000,
  retryMs: 3000,
};

export interface JobEventsHubOptions {
  db: Database;
  logger: Logger;
  limits: JobStreamLimits;
  /** First wait before reconnecting; it doubles up to `maxReconnectMs`. */
  reconnectMs?: number;
  maxReconnectMs?: number;
  /** How often the LISTEN connection is probed with a statement. */
  probeMs?: number;
}

/** One client's stream: its cap slot, the job it watches and its timers, all freed by `close`. */
export interface JobStream {
  /** Calls `onChange` whenever job `jobId` (its database id) may have changed; once per stream. */
  watch(jobId: string, onChange: () => void): void;
  /** Runs `run` every `ms` until the stream closes. */
  every(ms: number, run: () => void): void;
  /** Runs `run` once after `ms` unless the stream closed first. */
  after(ms: number, run: () => void): void;
  /** Idempotent. */
  close(): void;
}

export interface JobEventsHubStats {
  /** Open streams (slots of the cap in use). */
  streams: number;
  /** Jobs with at least one watching stream. */
  watchedJobs: number;
  /** Change callbacks registered across all jobs. */
  watchers: number;
  /** Live timers of open streams. */
  timers: number;
  /** Whether the LISTEN connection is up. */
  listening: boolean;
  /** Successful (re)connects since the hub started. */
  connects: number;
}

export interface JobEventsHub {
  readonly limits: JobStreamLimits;
  /** A new stream, or null when the process already serves `limits.maxStreams` (or is closing). */
  open(): JobStream | null;
  stats(): JobEventsHubStats;
  /** Stops listening; call after the HTTP server has closed its connections. */
  close(): Promise<void>;
}

const DEFAULT_RECONNECT_MS = 250;
const DEFAULT_MAX_RECONNECT_MS = 10_000;
const DEFAULT_PROBE_MS = 15_000;

/** Starts listening at once (in the background, retrying until it succeeds or the hub closes). */
export function createJobEventsHub(options: JobEventsHubOptions): JobEventsHub {
  const { db, logger, limits } = options;
  const firstDelay = options.reconnectMs ?? DEFAULT_RECONNECT_MS;
  const maxDelay = options.maxReconnectMs ?? DEFAULT_MAX_RECONNECT_MS;
  const watchers = new Map<string, Set<() => void>>();
  let streams = 0;
  let timers = 0;
  let connects = 0;
  let listener: ChannelListener | null = null;
  let reconnectTimer: NodeJS.Timeout | undefined;
  let connecting: Promise<void> | undefined;
  let delay = firstDelay;
  let closed = false;

  // A copy: a callback may close its stream (and so unwatch) while the set is walked.
  const signal = (jobId: string) => {
    for (const onChange of [...(watchers.get(jobId) ?? [])]) onChange();
  };
  const signalAll = () => {
    for (const jobId of [...watchers.keys()]) signal(jobId);
  };

  const scheduleReconnect = () => {
    if (closed || reconnectTimer !== undefined) return;
    reconnectTimer = setTimeout(() => {
      reconnectTimer = undefined;
      start();
    }, delay);
    delay = Math.min(maxDelay, delay * 2);
  };

  const lost = (error: unknown, which: ChannelListener | undefined) => {
    if (listener === null || listener !== which) return;
    listener = null;
    if (closed) return;
    logger.warn({ err: error }, 'job change listener lost; reconnecting');
    scheduleReconnect();
  };

  async function connect(): Promise<void> {
    if (closed) return;
    let connected: ChannelListener | undefined;
    try {
      connected = await listenOnChannel(db, {
        channel: JOB_CHANGED_CHANNEL,
        onNotification: (payload) => {
          const change = parseJobChange(payload);
          if (change !== null) signal(change.id);
        },
        onLost: (error) => lost(error, connected),
      });
    } catch (error) {
      logger.warn({ err: error, retryInMs: delay }, 'job change listener could not connect');
      scheduleReconnect();
      return;
    }
    if (closed) {
      await connected.close();
      return;
    }
    listener = connected;
    delay = firstDelay;
    connects++;
    // Whatever changed while nobody listened is read now.
    signalAll();
  }

  // Remembered so that `close` waits for a connect in flight rather than leaving its socket open.
  function start(): void {
    connecting = connect().finally(() => {
      connecting = undefined;
    });
  }

  function open(): JobStream | null {
    if (closed || streams >= limits.maxStreams) return null;
    streams++;
    const own = new Set<NodeJS.Timeout>();
    let watched: { jobId: string; onChange: () => void } | undefined;
    let done = false;
    const track = (timer: NodeJS.Timeout) => {
      own.add(timer);
      timers++;
    };
    const untrack = (timer: NodeJS.Timeout) => {
      if (own.delete(timer)) timers--;
    };
    return {
      watch(jobId, onChange) {
        if (done || watched !== undefined) return;
        watched = { jobId, onChange };
        const set = watchers.get(jobId) ?? new Set();
        set.add(onChange);
        watchers.set(jobId, set);
      },
      every(ms, run) {
        if (!done) track(setInterval(run, ms));
      },
      after(ms, run) {
        if (done) return;
        const timer = setTimeout(() => {
          untrack(timer);
          run();
        }, ms);
        track(timer);
      },
      close() {
        if (done) return;
        done = true;
        streams--;
        for (const timer of own) {
          // Node clears intervals and timeouts alike with either function.
          clearTimeout(timer);
          untrack(timer);
        }
        if (watched !== undefined) {
          const set = watchers.get(watched.jobId);
          set?.delete(watched.onChange);
          if (set?.size === 0) watchers.delete(watched.jobId);
        }
      },
    };
  }

  start();
  const probe = setInterval(() => {
    // A probe that fails reports the connection lost (`lost`), which reconnects.
    listener?.probe().catch(() => undefined);
  }, options.probeMs ?? DEFAULT_PROBE_MS);
  probe.unref();

  return {
    limits,
    open,
    stats() {
      let count = 0;
      for (const set of watchers.values()) count += set.size;
      return { streams, watchedJobs: watchers.size, watchers: count, timers, listening: listener !== null, connects };
    },
    async close() {
      closed = true;
      clearInterval(probe);
      clearTimeout(reconnectTimer);
      reconnectTimer = undefined;
      await connecting;
      const current = listener;
      listener = null;
      await current?.close();
    },
  };
}
