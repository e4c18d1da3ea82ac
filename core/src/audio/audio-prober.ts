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
 * - Moved, not copied: the bytes are transferred to the thread and back (a probe's answer
 *   carries them; the caller's view is detached), and decoded samples are transferred back. A
 *   view on part of a larger buffer (Node's pool of small Buffers) is copied first: the rest of
 *   that buffer is not the caller's to give away.
 * - `threads` threads (1 by default), started on first use and unref'd (they never keep a
 *   process alive); requests beyond them wait in turn. The callers bound how many are in flight
 *   (oracle/src/domain/uploads-in-flight.ts).
 */
import { Worker } from 'node:worker_threads';
import type { ResourceLimits } from 'node:worker_threads';
import type { ContentHash } from '../content-hash.ts';
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
}

export type DecodeRequest =
  | { id: number; op: 'probe'; bytes: Uint8Array; budget: DecodeBudget }
  | { id: number; op: 'decode'; bytes: Uint8Array; budget: DecodeBudget; keep: number | WorkingFormat | undefined };

export type DecodeReply =
  | ({ id: number; op: 'probe' } & Probed)
  | { id: number; op: 'decode'; result: Result<DecodedAudio, AudioDecodeError> }
  | { id: number; crash: string };

/** What the thread posts: a reply, or word that it could not read the request in flight (its `messageerror`). */
export type DecodeThreadMessage = DecodeReply | { undeliverable: string };

export interface AudioProber {
  /** What `bytes` are (format, rate, channels, length), decoded under `budget`, keeping no sample. */
  probe(bytes: Uint8Array, budget: DecodeBudget): Promise<Probed>;
  /**
   * `bytes` decoded under `budget`, the first `keep` seconds of each channel kept (all when
   * absent), or, given a working format (./working-format-sink.ts), its first `keepSeconds`
   * down-mixed and resampled to it while decoding (an edit's source).
   */
  decode(bytes: Uint8Array, budget: DecodeBudget, keep?: number | WorkingFormat): Promise<Result<DecodedAudio, AudioDecodeError>>;
  close(): Promise<void>;
}

export interface AudioProberOptions {
  /** Threads decoding at once (1 by default). */
  threads?: number;
  resourceLimits?: ResourceLimits;
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

/** How a request ended: the thread's reply, or the thread's death (`exhausted`: by its resource limits). */
type Outcome = { reply: DecodeReply } | { died: string; exhausted: boolean };

interface Pending {
  request: DecodeRequest;
  transfer: ArrayBuffer[];
  settle(outcome: Outcome): void;
}

interface Slot {
  worker: Worker | undefined;
  current: Pending | undefined;
}

export function createAudioProber(options: AudioProberOptions = {}): AudioProber {
  const limits = options.resourceLimits ?? DECODE_THREAD_LIMITS;
  const slots: Slot[] = Array.from({ length: Math.max(1, options.threads ?? 1) }, () => ({ worker: undefined, current: undefined }));
  const queue: Pending[] = [];
  let nextId = 0;
  let closed = false;

  function start(slot: Slot): Worker {
    const worker = new Worker(BOOTSTRAP, {
      eval: true,
      workerData: { tsxApi: import.meta.resolve('tsx/esm/api'), thread: THREAD_URL.href },
      resourceLimits: { ...limits },
    });
    worker.unref();
    worker.on('message', (reply: DecodeThreadMessage) => {
      const current = slot.current;
      if (current === undefined) return;
      if ('undeliverable' in reply) {
        slot.current = undefined;
        current.settle({ died: `the audio decode thread could not read the request: ${reply.undeliverable}`, exhausted: false });
      } else {
        if (current.request.id !== reply.id) return;
        slot.current = undefined;
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
      const current = slot.current;
      slot.current = undefined;
      current?.settle({ died: `the audio decode thread exited with ${code}`, exhausted });
      if (!closed) dispatch();
    });
    slot.worker = worker;
    return worker;
  }

  function dispatch(): void {
    for (const slot of slots) {
      while (slot.current === undefined) {
        const next = queue.shift();
        if (next === undefined) return;
        try {
          (slot.worker ?? start(slot)).postMessage(next.request, next.transfer);
          slot.current = next;
        } catch (error) {
          // Bytes that cannot be sent (a detached buffer): this request fails, the slot stays free.
          next.settle({ died: error instanceof Error ? error.message : String(error), exhausted: false });
        }
      }
    }
  }

  function submit(request: DecodeRequest, settle: Pending['settle']): void {
    if (closed) throw new Error('the audio prober is closed');
    queue.push({ request, transfer: [request.bytes.buffer as ArrayBuffer], settle });
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
    probe(bytes, budget) {
      const id = nextId++;
      return new Promise<Probed>((resolve, reject) => {
        submit({ id, op: 'probe', bytes: ownedBytes(bytes), budget }, (outcome) => {
          if ('died' in outcome) {
            if (outcome.exhausted) resolve({ result: exhausted(), bytes: new Uint8Array(0), contentHash: undefined });
            else reject(new Error(`audio probe: ${outcome.died}`));
          } else if ('crash' in outcome.reply) reject(new Error(`audio probe: ${outcome.reply.crash}`));
          else if (outcome.reply.op === 'probe') resolve(outcome.reply);
          else reject(new Error('audio probe: a decode answered a probe'));
        });
      });
    },
    decode(bytes, budget, keep) {
      const id = nextId++;
      return new Promise((resolve, reject) => {
        submit({ id, op: 'decode', bytes: ownedBytes(bytes), budget, keep }, (outcome) => {
          if ('died' in outcome) {
            if (outcome.exhausted) resolve(exhausted());
            else reject(new Error(`audio decode: ${outcome.died}`));
          } else if ('crash' in outcome.reply) reject(new Error(`audio decode: ${outcome.reply.crash}`));
          else if (outcome.reply.op === 'decode') resolve(outcome.reply.result);
          else reject(new Error('audio decode: a probe answered a decode'));
        });
      });
    },
    async close() {
      closed = true;
      for (const waiting of queue.splice(0)) waiting.settle({ died: 'the audio prober closed', exhausted: false });
      await Promise.all(slots.map((slot) => slot.worker?.terminate()));
    },
  };
}

export type { AudioSummary };
