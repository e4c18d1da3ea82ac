/**
 * Uploaded audio decoded by ./uploaded-audio.ts in bounded worker threads, never on the caller's
 * event loop: the oracle probes each upload on arrival (what it is, how long, its SHA-256), a
 * worker decodes one an edit starts from. Decoding the longest upload a tier takes holds a thread
 * for about 2 s (bench/results/uploads.md).
 *
 * - Bounded: each thread runs under V8 `resourceLimits` (`DECODE_THREAD_LIMITS`); a thread that
 *   exceeds them is ended, its request answered `exhausted`, and a fresh one takes the next. The
 *   decoders' sample budget (./pcm-stream.ts) is what bounds their typed arrays and WebAssembly
 *   memory, which V8's heap limit does not count.
 * - Timed: each decode has `decodeSeconds` of wall clock from the moment a thread starts it (its
 *   budget's `deadline`, checked by the decoder between blocks: `timed_out`); a thread still busy
 *   `graceMs` past that is terminated, the request answered `timed_out`, and a fresh thread takes
 *   the next. The same holds for a worker's decode of an edit's upload.
 * - Cancellable: a request's `signal` aborted while it waits removes it from the queue; while it
 *   runs, the thread is told through shared memory (the budget's `stop` flag, checked between
 *   blocks) and is terminated and replaced if it has not answered `graceMs` later. Either way the
 *   request is answered `cancelled` at once.
 * - Bounded and fair queue: requests wait in one queue per account (`DecodeOptions.account`),
 *   served in turn (the account served longest ago first, a newcomer before all), so many requests
 *   of one account never delay another's behind all of them; an account has at most `perAccount` requests waiting or running, the queue at most
 *   `maxWaiting` in all, and one more is answered `busy` at once, unqueued and undecoded. One
 *   account runs on at most `threads - 1` threads (one when there is one): with two or more, one
 *   thread is always left to the others.
 * - Moved, not copied: the bytes are transferred to the thread and back (a probe's answer
 *   carries them; the caller's view is detached), and decoded samples are transferred back. A
 *   view on part of a larger buffer (Node's pool of small Buffers) is copied first: the rest of
 *   that buffer is not the caller's to give away.
 * - `threads` threads (1 by default; `decodeThreadsFor` the oracle's count), started on first use
 *   and unref'd (they never keep a process alive).
 */
import { Worker } from 'node:worker_threads';
import type { ResourceLimits } from 'node:worker_threads';
import type { ContentHash } from '../content-hash.ts';
import type { ViewPeakBytes } from '../fingerprint/query-views.ts';
import type { Result } from '../result.ts';
import type { AudioDecodeError, AudioSummary, DecodeBudget, DecodeResult } from './pcm-stream.ts';
import type { DecodedAudio } from './uploaded-audio.ts';
import type { WorkingFormat } from './working-format-sink.ts';

export type ProbeResult = DecodeResult;

/** A probe's answer: the result, and the bytes handed back (empty when the thread died with them). */
export interface Probed {
  result: ProbeResult;
  bytes: Uint8Array;
  /** `0x` + SHA-256 of the bytes, computed in the thread. */
  contentHash: ContentHash | undefined;
  /** The upload's Chromaprint fingerprint (core/src/fingerprint/), made in the same pass; absent when it did not decode. */
  fingerprint?: Uint32Array | undefined;
  /** Its landmark peaks, raw (core/src/fingerprint/landmarks.ts), made in the same pass; absent when it did not decode. */
  landmarks?: Uint8Array | undefined;
  /** Its contrast image's cells (core/src/fingerprint/contrast-image.ts), made in the same pass; absent when it did not decode. */
  landmarkImage?: Uint8Array | undefined;
  /** The landmark peaks and contrast images of its views (core/src/fingerprint/query-views.ts), raw, made in the same pass; absent when it did not decode. */
  landmarkViews?: ViewPeakBytes[] | undefined;
}

export type DecodeRequest =
  | { id: number; op: 'probe'; bytes: Uint8Array; budget: DecodeBudget }
  | { id: number; op: 'decode'; bytes: Uint8Array; budget: DecodeBudget; keep: number | WorkingFormat | undefined };

export type DecodeReply =
  | ({ id: number; op: 'probe' } & Probed)
  | { id: number; op: 'decode'; result: Result<DecodedAudio, AudioDecodeError> }
  | { id: number; crash: string };

/**
 * What the thread posts: word that it has loaded (no request is sent to it before, so that no
 * decode's deadline or grace counts its start), a reply, or word that it could not read the
 * request in flight (its `messageerror`).
 */
export type DecodeThreadMessage = DecodeReply | { undeliverable: string } | { ready: true };

/** Whose work a request is and whether it is still wanted. */
export interface DecodeOptions {
  /** The account the decode is for: each has its own queue, served in turn (`ANONYMOUS_ACCOUNT` without one). */
  account?: string;
  /** Aborted when the answer is no longer wanted (the client left): the request is answered `cancelled`. */
  signal?: AbortSignal | undefined;
}

export interface AudioProber {
  /** What `bytes` are (format, rate, channels, length), decoded under `budget`, keeping no sample. */
  probe(bytes: Uint8Array, budget: DecodeBudget, options?: DecodeOptions): Promise<Probed>;
  /**
   * `bytes` decoded under `budget`, the first `keep` seconds of each channel kept (all when
   * absent), or, given a working format (./working-format-sink.ts), its first `keepSeconds`
   * down-mixed and resampled to it while decoding (an edit's source).
   */
  decode(
    bytes: Uint8Array,
    budget: DecodeBudget,
    keep?: number | WorkingFormat,
    options?: DecodeOptions,
  ): Promise<Result<DecodedAudio, AudioDecodeError>>;
  /** Requests waiting and running, in all and for `account`. */
  load(account?: string): { waiting: number; running: number };
  close(): Promise<void>;
}

export interface AudioProberOptions {
  /** Threads decoding at once (1 by default). */
  threads?: number;
  resourceLimits?: ResourceLimits;
  /** Wall-clock seconds one decode may take once a thread starts it (`DEFAULT_DECODE_SECONDS`). */
  decodeSeconds?: number;
  /** Milliseconds a thread has to stop after its deadline or a cancel before it is terminated (`DEFAULT_STOP_GRACE_MS`). */
  graceMs?: number;
  /** Requests one account may have waiting or running (`DEFAULT_DECODES_PER_ACCOUNT`). */
  perAccount?: number;
  /** Requests waiting in all (`DEFAULT_DECODES_WAITING`). */
  maxWaiting?: number;
}

/**
 * Wall-clock seconds per decode: the longest upload a tier takes decodes in about 2 s on one core
 * (bench/results/uploads.md), so 10 s leaves room for a loaded host and none for a stream built
 * to be slow.
 */
export const DEFAULT_DECODE_SECONDS = 10;
/** A decoder checks its flags between blocks (milliseconds apart); one that does not stop within this is stuck. */
export const DEFAULT_STOP_GRACE_MS = 1000;
/** An account's requests waiting or running: its in-flight uploads (2 by default) with room to spare. */
export const DEFAULT_DECODES_PER_ACCOUNT = 4;
/** Requests waiting in all: each holds its body, up to `MAX_UPLOAD_BYTES`. */
export const DEFAULT_DECODES_WAITING = 16;
/** The queue of requests that name no account. */
export const ANONYMOUS_ACCOUNT = '';

/**
 * The oracle's decode threads on a host of `cores`: all but one core (the event loop's), at least
 * two (so that one account, which runs on at most `threads - 1`, never holds them all) and at
 * most eight.
 */
export function decodeThreadsFor(cores: number): number {
  return Math.min(8, Math.max(2, cores - 1));
}

/**
 * Each thread's V8 limits: the decoders keep their samples in typed arrays outside this heap, so
 * it holds the loaded modules and a block's bookkeeping; a decode that grows it past these is a
 * decode gone wrong.
 */
export const DECODE_THREAD_LIMITS: Readonly<ResourceLimits> = { maxOldGenerationSizeMb: 96, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 };

const THREAD_URL = new URL('./probe-thread.ts', import.meta.url);
// The thread body is TypeScript: the thread registers tsx's loader before importing it.
const BOOTSTRAP = `
const { workerData } = require('node:worker_threads');
import(workerData.tsxApi).then((api) => { api.register(); return import(workerData.thread); });
`;

/** `bytes` as a view on a buffer of its own, ready to transfer (a copy only when it shares one). */
export function ownedBytes(bytes: Uint8Array): Uint8Array {
  const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer;
  return whole ? bytes : bytes.slice();
}

/** How a request ended: the thread's reply, the thread's death (`exhausted`: by its resource limits), or stopped here. */
type Outcome = { reply: DecodeReply } | { died: string; exhausted: boolean } | { stopped: AudioDecodeError };

interface Pending {
  account: string;
  request: DecodeRequest;
  transfer: ArrayBuffer[];
  /** The budget's `stop` flag, shared with the thread. */
  stop: Int32Array;
  settle(outcome: Outcome): void;
  /** Stops listening to the caller's signal. */
  unlisten(): void;
}

interface Slot {
  worker: Worker | undefined;
  /** The thread has loaded its modules and takes requests. */
  ready: boolean;
  current: Pending | undefined;
  /** Ends the thread when the current request runs past its deadline and grace, or past a cancel's grace. */
  timer: NodeJS.Timeout | undefined;
}

const stopped = (code: 'timed_out' | 'cancelled' | 'busy', message: string): Outcome => ({ stopped: { code, message } });

export function createAudioProber(options: AudioProberOptions = {}): AudioProber {
  const limits = options.resourceLimits ?? DECODE_THREAD_LIMITS;
  const decodeMs = (options.decodeSeconds ?? DEFAULT_DECODE_SECONDS) * 1000;
  const graceMs = options.graceMs ?? DEFAULT_STOP_GRACE_MS;
  const perAccount = options.perAccount ?? DEFAULT_DECODES_PER_ACCOUNT;
  const maxWaiting = options.maxWaiting ?? DEFAULT_DECODES_WAITING;
  const slots: Slot[] = Array.from({ length: Math.max(1, options.threads ?? 1) }, () => ({
    worker: undefined,
    ready: false,
    current: undefined,
    timer: undefined,
  }));
  const threadsPerAccount = Math.max(1, slots.length - 1);
  // One queue per account (only while it holds requests), and the turn each account was last served at.
  const queues = new Map<string, Pending[]>();
  const running = new Map<string, number>();
  const lastServed = new Map<string, number>();
  let turn = 0;
  let waiting = 0;
  let nextId = 0;
  let closed = false;

  const countOf = (account: string) => (queues.get(account)?.length ?? 0) + (running.get(account) ?? 0);

  /** Frees `slot` of its current request (answered or given up), the account's running count with it. */
  function release(slot: Slot): Pending | undefined {
    const current = slot.current;
    slot.current = undefined;
    clearTimeout(slot.timer);
    slot.timer = undefined;
    if (current !== undefined) {
      current.unlisten();
      const left = (running.get(current.account) ?? 1) - 1;
      if (left === 0) running.delete(current.account);
      else running.set(current.account, left);
      forgetIdle(current.account);
    }
    return current;
  }

  /** Ends `slot`'s thread (a fresh one takes the next request) and answers its request with `outcome`. */
  function replace(slot: Slot, outcome: Outcome): void {
    const worker = slot.worker;
    slot.worker = undefined;
    release(slot)?.settle(outcome);
    void worker?.terminate();
    if (!closed) dispatch();
  }

  function start(slot: Slot): Worker {
    const worker = new Worker(BOOTSTRAP, {
      eval: true,
      workerData: { tsxApi: import.meta.resolve('tsx/esm/api'), thread: THREAD_URL.href },
      resourceLimits: { ...limits },
    });
    worker.unref();
    worker.on('message', (reply: DecodeThreadMessage) => {
      if (slot.worker !== worker) return;
      if ('ready' in reply) {
        slot.ready = true;
        dispatch();
        return;
      }
      const current = slot.current;
      if (current === undefined) return;
      if ('undeliverable' in reply) {
        release(slot);
        current.settle({ died: `the audio decode thread could not read the request: ${reply.undeliverable}`, exhausted: false });
      } else {
        if (current.request.id !== reply.id) return;
        release(slot);
        current.settle({ reply });
      }
      dispatch();
    });
    let exhausted = false;
    worker.on('error', (error: Error & { code?: string }) => {
      exhausted ||= error.code === 'ERR_WORKER_OUT_OF_MEMORY';
    });
    worker.on('exit', (code) => {
      if (slot.worker !== worker) return;
      slot.worker = undefined;
      release(slot)?.settle({ died: `the audio decode thread exited with ${code}`, exhausted });
      // A thread that died before it could take a request fails the next one in turn, so a thread
      // that cannot start is not restarted forever while requests wait.
      if (!slot.ready) nextRequest()?.settle({ died: `the audio decode thread did not start (it exited with ${code})`, exhausted });
      if (!closed) dispatch();
    });
    slot.worker = worker;
    slot.ready = false;
    return worker;
  }

  /**
   * The next request to run: of the accounts with work waiting and a thread to spare, the one
   * served longest ago (one never served, or back after a pause, first; ties in order of arrival).
   */
  function nextRequest(): Pending | undefined {
    let chosen: { account: string; queue: Pending[] } | undefined;
    let chosenTurn = Number.POSITIVE_INFINITY;
    for (const [account, queue] of queues) {
      if ((running.get(account) ?? 0) >= threadsPerAccount) continue;
      const last = lastServed.get(account) ?? -1;
      if (last < chosenTurn) {
        chosen = { account, queue };
        chosenTurn = last;
      }
    }
    if (chosen === undefined) return undefined;
    const next = chosen.queue.shift();
    if (chosen.queue.length === 0) queues.delete(chosen.account);
    if (next === undefined) return undefined;
    lastServed.set(chosen.account, turn);
    turn += 1;
    waiting -= 1;
    return next;
  }

  /** Forgets when `account` was served once it has nothing waiting or running. */
  function forgetIdle(account: string): void {
    if (!queues.has(account) && !running.has(account)) lastServed.delete(account);
  }

  function dispatch(): void {
    for (const slot of slots) {
      if (slot.worker === undefined && queues.size > 0) start(slot);
      while (slot.ready && slot.current === undefined) {
        const next = nextRequest();
        if (next === undefined) return;
        running.set(next.account, (running.get(next.account) ?? 0) + 1);
        slot.current = next;
        // The deadline counts from here: time spent waiting is not the decode's.
        next.request.budget = { ...next.request.budget, deadline: Date.now() + decodeMs, stop: next.stop };
        try {
          slot.worker?.postMessage(next.request, next.transfer);
        } catch (error) {
          // Bytes that cannot be sent (a detached buffer): this request fails, the slot stays free.
          release(slot);
          next.settle({ died: error instanceof Error ? error.message : String(error), exhausted: false });
          continue;
        }
        slot.timer = setTimeout(
          () => replace(slot, stopped('timed_out', `decoding took longer than ${decodeMs / 1000} s and the decode was ended`)),
          decodeMs + graceMs,
        );
        slot.timer.unref();
      }
    }
  }

  /** Stops `pending`: unqueued while it waits; told, then its thread ended after the grace, while it runs. */
  function cancel(pending: Pending): void {
    const queue = queues.get(pending.account);
    const at = queue?.indexOf(pending) ?? -1;
    if (queue !== undefined && at >= 0) {
      queue.splice(at, 1);
      waiting -= 1;
      if (queue.length === 0) queues.delete(pending.account);
      forgetIdle(pending.account);
      pending.unlisten();
      pending.settle(stopped('cancelled', 'the decode was cancelled before it started'));
      return;
    }
    const slot = slots.find((candidate) => candidate.current === pending);
    if (slot === undefined) return;
    Atomics.store(pending.stop, 0, 1);
    clearTimeout(slot.timer);
    slot.timer = setTimeout(() => replace(slot, stopped('cancelled', 'the decode was cancelled and its thread ended')), graceMs);
    slot.timer.unref();
  }

  /** Queues `request` for `options.account`, or answers it `busy` (or `cancelled`) at once. */
  function submit(request: DecodeRequest, options: DecodeOptions, settle: Pending['settle']): void {
    if (closed) throw new Error('the audio prober is closed');
    const account = options.account ?? ANONYMOUS_ACCOUNT;
    if (options.signal?.aborted === true) {
      settle(stopped('cancelled', 'the decode was cancelled before it started'));
      return;
    }
    if (countOf(account) >= perAccount) {
      settle(stopped('busy', `this account has ${perAccount} decodes waiting or running (at most ${perAccount})`));
      return;
    }
    if (waiting >= maxWaiting) {
      settle(stopped('busy', `${waiting} decodes are waiting (at most ${maxWaiting})`));
      return;
    }
    const signal = options.signal;
    const pending: Pending = {
      account,
      request,
      transfer: [request.bytes.buffer as ArrayBuffer],
      stop: new Int32Array(new SharedArrayBuffer(4)),
      settle,
      unlisten: () => signal?.removeEventListener('abort', onAbort),
    };
    function onAbort(): void {
      cancel(pending);
    }
    signal?.addEventListener('abort', onAbort, { once: true });
    const queue = queues.get(account) ?? [];
    queue.push(pending);
    queues.set(account, queue);
    waiting += 1;
    dispatch();
  }

  const exhausted = (): { ok: false; error: AudioDecodeError } => ({
    ok: false,
    error: {
      code: 'exhausted',
      message: `decoding it went past the decode thread's limit (${limits.maxOldGenerationSizeMb ?? '?'} MB of heap)`,
    },
  });

  return {
    probe(bytes, budget, probeOptions = {}) {
      const id = nextId++;
      return new Promise<Probed>((resolve, reject) => {
        submit({ id, op: 'probe', bytes: ownedBytes(bytes), budget }, probeOptions, (outcome) => {
          if ('stopped' in outcome)
            resolve({ result: { ok: false, error: outcome.stopped }, bytes: new Uint8Array(0), contentHash: undefined });
          else if ('died' in outcome) {
            if (outcome.exhausted) resolve({ result: exhausted(), bytes: new Uint8Array(0), contentHash: undefined });
            else reject(new Error(`audio probe: ${outcome.died}`));
          } else if ('crash' in outcome.reply) reject(new Error(`audio probe: ${outcome.reply.crash}`));
          else if (outcome.reply.op === 'probe') resolve(outcome.reply);
          else reject(new Error('audio probe: a decode answered a probe'));
        });
      });
    },
    decode(bytes, budget, keep, decodeOptions = {}) {
      const id = nextId++;
      return new Promise((resolve, reject) => {
        submit({ id, op: 'decode', bytes: ownedBytes(bytes), budget, keep }, decodeOptions, (outcome) => {
          if ('stopped' in outcome) resolve({ ok: false, error: outcome.stopped });
          else if ('died' in outcome) {
            if (outcome.exhausted) resolve(exhausted());
            else reject(new Error(`audio decode: ${outcome.died}`));
          } else if ('crash' in outcome.reply) reject(new Error(`audio decode: ${outcome.reply.crash}`));
          else if (outcome.reply.op === 'decode') resolve(outcome.reply.result);
          else reject(new Error('audio decode: a probe answered a decode'));
        });
      });
    },
    load(account) {
      const busy = [...running.values()].reduce((sum, n) => sum + n, 0);
      if (account === undefined) return { waiting, running: busy };
      return { waiting: queues.get(account)?.length ?? 0, running: running.get(account) ?? 0 };
    },
    async close() {
      closed = true;
      for (const queue of queues.values()) {
        for (const pending of queue.splice(0)) {
          pending.unlisten();
          pending.settle({ died: 'the audio prober closed', exhausted: false });
        }
      }
      queues.clear();
      waiting = 0;
      const workers = slots.map((slot) => {
        const worker = slot.worker;
        slot.worker = undefined;
        release(slot)?.settle({ died: 'the audio prober closed', exhausted: false });
        return worker;
      });
      await Promise.all(workers.map((worker) => worker?.terminate()));
    },
  };
}

export type { AudioSummary };
