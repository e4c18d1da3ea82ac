/**
 * Long work on the event loop taken in slices: the oracle answers every request from one thread,
 * so a computation of hundreds of milliseconds (a whole track's lookup in the landmark registry,
 * docs/fingerprints.md) holds every other request for that long unless it lets them run between
 * its steps.
 */
import { performance } from 'node:perf_hooks';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';

/**
 * A pause point for work between its steps: it lets the event loop run once `sliceMs` have passed
 * since the work started or last let it run, and otherwise returns at once. 0 lets it run at
 * every pause point. Where `signal` is aborted (the client left), it throws the signal's reason
 * instead, so that the work stops at its next step.
 */
export function eventLoopSlices(sliceMs: number, signal?: AbortSignal): () => Promise<void> {
  let since = performance.now();
  return async () => {
    signal?.throwIfAborted();
    if (performance.now() - since < sliceMs) return;
    await yieldToEventLoop();
    signal?.throwIfAborted();
    since = performance.now();
  };
}
