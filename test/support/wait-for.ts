/**
 * Polling for what a test waits on (a job's status, a listener's connection, a delivery): one
 * loop for every suite, each keeping its own bound and pace.
 */
import { setTimeout as sleep } from 'node:timers/promises';

export interface WaitOptions {
  /** How long to poll before failing, ms. */
  timeoutMs?: number;
  /** The pause between probes, ms. */
  intervalMs?: number;
}

/** Polls `probe` until it returns a value (not `undefined`); fails naming `what` past the bound. */
export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined> | T | undefined,
  { timeoutMs = 60_000, intervalMs = 50 }: WaitOptions = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(intervalMs);
  }
}

/** Polls `holds` until it is true; fails naming `what` past the bound. */
export async function waitUntil(what: string, holds: () => boolean | Promise<boolean>, options: WaitOptions = {}): Promise<void> {
  await waitFor(what, async () => ((await holds()) ? true : undefined), options);
}
