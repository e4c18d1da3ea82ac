/**
 * A fixed pool of encoder worker threads, created lazily and reused across jobs (each keeps its
 * wasm encoder instance). Aborting a task terminates its thread; a fresh one replaces it on demand.
 */
import { Worker } from 'node:worker_threads';
import type { EncodeReply, EncodeTask } from './encoder-thread.ts';

const THREAD_URL = new URL('./encoder-thread.ts', import.meta.url);
// The thread body is TypeScript: the thread registers tsx's loader before importing it.
const BOOTSTRAP = `
const { workerData } = require('node:worker_threads');
import(workerData.tsxApi).then((api) => { api.register(); return import(workerData.thread); });
`;

function spawnThread(): Worker {
  return new Worker(BOOTSTRAP, {
    eval: true,
    workerData: { tsxApi: import.meta.resolve('tsx/esm/api'), thread: THREAD_URL.href },
  });
}

export class EncoderPool {
  private readonly idle: Worker[] = [];
  private readonly waiting: ((worker: Worker) => void)[] = [];
  private live = 0;
  private closed = false;

  constructor(readonly size: number) {
    if (!Number.isInteger(size) || size < 1) throw new Error(`encoder pool size must be a positive integer, got ${size}`);
  }

  private acquire(): Promise<Worker> {
    const worker = this.idle.pop();
    if (worker !== undefined) return Promise.resolve(worker);
    if (this.live < this.size) {
      this.live += 1;
      return Promise.resolve(spawnThread());
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private release(worker: Worker): void {
    const next = this.waiting.shift();
    if (next !== undefined) next(worker);
    else if (this.closed) void worker.terminate();
    else this.idle.push(worker);
  }

  private discard(worker: Worker): void {
    void worker.terminate();
    this.live -= 1;
    const next = this.waiting.shift();
    if (next !== undefined) {
      this.live += 1;
      next(spawnThread());
    }
  }

  async run(task: EncodeTask, signal: AbortSignal): Promise<Uint8Array> {
    if (this.closed) throw new Error('encoder pool is closed');
    if (signal.aborted) throw signal.reason instanceof Error ? signal.reason : new Error('aborted');
    const worker = await this.acquire();
    return new Promise<Uint8Array>((resolve, reject) => {
      const cleanup = (): void => {
        worker.off('message', onMessage);
        worker.off('error', onError);
        signal.removeEventListener('abort', onAbort);
      };
      const onMessage = (reply: EncodeReply): void => {
        cleanup();
        this.release(worker);
        if (reply.ok) resolve(reply.value);
        else reject(new Error(`encoder: ${reply.error.message}`));
      };
      const onError = (err: Error): void => {
        cleanup();
        this.discard(worker);
        reject(err);
      };
      const onAbort = (): void => {
        cleanup();
        this.discard(worker);
        reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
      };
      if (signal.aborted) {
        this.release(worker);
        reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
        return;
      }
      worker.on('message', onMessage);
      worker.on('error', onError);
      signal.addEventListener('abort', onAbort, { once: true });
      worker.postMessage(
        task,
        task.channels.map((c) => c.buffer as ArrayBuffer),
      );
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const workers = this.idle.splice(0);
    this.live -= workers.length;
    await Promise.all(workers.map((w) => w.terminate()));
  }
}
