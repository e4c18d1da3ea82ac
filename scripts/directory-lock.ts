/**
 * A lock between processes on one machine: the atomic `mkdir` of a folder that names its owner's
 * pid. Test files run in parallel processes and npm start may run beside them; each may find a
 * build stale at once, and two builds swapping the same folder leave a reader with none.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { isProcessAlive } from '../core/src/process-alive.ts';

const POLL_MS = 100;

/** The pid that holds `lock`, or undefined when it names none (being written, or gone). */
async function ownerOf(lock: string): Promise<number | undefined> {
  const text = await readFile(join(lock, 'pid'), 'utf8').catch(() => '');
  const pid = Number.parseInt(text, 10);
  return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
}

/**
 * Runs `task` holding the lock folder `lock`; waits (at most `timeoutMs`) while another live
 * process holds it, and takes over a lock whose owner has died.
 */
export async function withDirectoryLock<T>(lock: string, task: () => Promise<T>, timeoutMs = 600_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let ownerless = 0;
  for (;;) {
    const made = await mkdir(lock).then(
      () => true,
      (error: NodeJS.ErrnoException) => {
        if (error.code === 'EEXIST') return false;
        throw error;
      },
    );
    if (made) break;
    const owner = await ownerOf(lock);
    // A folder without a pid for a few polls: its maker died between mkdir and writeFile.
    ownerless = owner === undefined ? ownerless + 1 : 0;
    if ((owner !== undefined && !isProcessAlive(owner)) || ownerless > 20) {
      await rm(lock, { recursive: true, force: true });
      continue;
    }
    if (Date.now() > deadline) throw new Error(`${lock} is still held by process ${owner ?? '?'} after ${timeoutMs} ms`);
    await sleep(POLL_MS);
  }
  try {
    await writeFile(join(lock, 'pid'), String(process.pid));
    return await task();
  } finally {
    await rm(lock, { recursive: true, force: true });
  }
}
