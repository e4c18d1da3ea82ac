import { SongmintClientError } from '../errors.ts';

/** The error every SDK call rejects with once the caller's `signal` fired. */
export function abortedError(cause: unknown): SongmintClientError {
  return new SongmintClientError('ABORTED', 'aborted by the caller', { cause });
}

export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted === true) throw abortedError(signal.reason);
}

/** Waits `ms`, or rejects with ABORTED as soon as `signal` fires (the polling loops' pause). */
export function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  throwIfAborted(signal);
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortedError(signal?.reason));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
