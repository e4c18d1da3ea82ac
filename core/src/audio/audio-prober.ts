/**
 * What an uploaded file is (format, rate, channels, length), decoded by ./uploaded-audio.ts in a
 * worker thread: decoding the longest upload a tier takes holds a thread for about 2 s
 * (bench/results/uploads.md), which must not be the oracle's event loop. One thread per prober,
 * started on first use, unref'd (it never keeps a process alive), requests answered in turn.
 */
import { Worker } from 'node:worker_threads';
import type { Result } from '../result.ts';
import type { AudioDecodeError, UploadFormat } from './uploaded-audio.ts';

export interface AudioSummary {
  format: UploadFormat;
  sampleRate: number;
  channels: number;
  /** Samples per channel. */
  frames: number;
}

export type ProbeResult = Result<AudioSummary, AudioDecodeError>;

export interface ProbeRequest {
  id: number;
  bytes: Uint8Array;
}

export type ProbeReply = { id: number; result: ProbeResult } | { id: number; crash: string };

export interface AudioProber {
  probe(bytes: Uint8Array): Promise<ProbeResult>;
  close(): Promise<void>;
}

const THREAD_URL = new URL('./probe-thread.ts', import.meta.url);
// The thread body is TypeScript: the thread registers tsx's loader before importing it.
const BOOTSTRAP = `
const { workerData } = require('node:worker_threads');
import(workerData.tsxApi).then((api) => { api.register(); return import(workerData.thread); });
`;

export function createAudioProber(): AudioProber {
  let worker: Worker | undefined;
  let nextId = 0;
  const pending = new Map<number, { resolve: (result: ProbeResult) => void; reject: (error: Error) => void }>();

  const failAll = (error: Error): void => {
    for (const waiter of pending.values()) waiter.reject(error);
    pending.clear();
    worker = undefined;
  };

  function thread(): Worker {
    if (worker !== undefined) return worker;
    const started = new Worker(BOOTSTRAP, {
      eval: true,
      workerData: { tsxApi: import.meta.resolve('tsx/esm/api'), thread: THREAD_URL.href },
    });
    started.unref();
    started.on('message', (reply: ProbeReply) => {
      const waiter = pending.get(reply.id);
      pending.delete(reply.id);
      if (waiter === undefined) return;
      if ('crash' in reply) waiter.reject(new Error(`audio probe: ${reply.crash}`));
      else waiter.resolve(reply.result);
    });
    started.on('error', (error) => failAll(error));
    started.on('exit', (code) => failAll(new Error(`audio probe thread exited with ${code}`)));
    worker = started;
    return started;
  }

  return {
    probe(bytes) {
      const id = nextId;
      nextId += 1;
      return new Promise<ProbeResult>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        thread().postMessage({ id, bytes } satisfies ProbeRequest);
      });
    },
    async close() {
      const running = worker;
      worker = undefined;
      if (running !== undefined) await running.terminate();
    },
  };
}
