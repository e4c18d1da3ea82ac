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

/** Items a walk handles between two pause points: a pause point costs a clock read and an await. */
const ITEMS_PER_PAUSE = 64;

/**
 * `each` for every item of `items` in order, through `pause` (an `eventLoopSlices` pause point)
 * before every `ITEMS_PER_PAUSE` items: a walk over tens of thousands of items (the posting rows
 * a whole track's lookup reads and parses) in slices.
 */
export async function forEachInSlices<T>(items: Iterable<T>, pause: () => Promise<void>, each: (item: T) => void): Promise<void> {
  let handled = 0;
  for (const item of items) {
    if (handled % ITEMS_PER_PAUSE === 0) await pause();
    each(item);
    handled += 1;
  }
}
