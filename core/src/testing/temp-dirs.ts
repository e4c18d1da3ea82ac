/**
 * Temp folders of tests and benchmarks (PostgreSQL clusters, S3 objects, IPFS blocks, models).
 *
 * Each folder is removed when its test says so, and in any case when the process ends: normally,
 * by an uncaught error, or by SIGINT, SIGTERM or SIGHUP (the node:test runner exits its test
 * processes that way when interrupted). A run killed outright (SIGKILL, a lost machine) cannot
 * clean up, so every folder carries an owner file with the pid and start time of the process
 * that made it, and the first folder a later process makes sweeps away those whose owner is gone,
 * first stopping a PostgreSQL server still running on them. Folders from before owner files
 * (`songmint-*` with none) are swept once they are a day old.
 *
 * The set of live folders is process-wide on purpose: the exit hooks are.
 */
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isProcessAlive } from '../process-alive.ts';

/** Every temp folder name starts with this; the sweeper looks at nothing else. */
export const TEMP_PREFIX = 'songmint-';
const OWNER_FILE = '.songmint-owner.json';
const LEGACY_MAX_AGE_MS = 24 * 60 * 60 * 1000;

export interface TempDir {
  path: string;
  /** Removes the folder now (it is no longer removed at exit). */
  remove(): Promise<void>;
}

interface Owner {
  pid: number;
  /** Start time of the process in clock ticks since boot (Linux), to tell a reused pid. */
  startTicks: number | null;
}

const live = new Set<string>();
let hooksInstalled = false;
let swept = false;

/** A fresh folder `songmint-<name>-XXXXXX` in the temp folder, removed at the latest when the process ends. */
export async function makeTempDir(name: string): Promise<TempDir> {
  if (!swept) {
    swept = true;
    sweepStaleTempDirs();
  }
  installExitHooks();
  const path = await mkdtemp(join(tmpdir(), `${TEMP_PREFIX}${name}-`));
  const owner: Owner = { pid: process.pid, startTicks: processStartTicks(process.pid) };
  await writeFile(join(path, OWNER_FILE), JSON.stringify(owner));
  live.add(path);
  return {
    path,
    async remove() {
      live.delete(path);
      removeNow(path);
    },
  };
}

/**
 * Removes temp folders whose owner process is gone (and stops a PostgreSQL server left running
 * on one). Returns the folders removed.
 */
export function sweepStaleTempDirs(root: string = tmpdir(), now: number = Date.now()): string[] {
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    if (!name.startsWith(TEMP_PREFIX)) continue;
    const path = join(root, name);
    if (!isStale(path, now)) continue;
    stopLeftoverPostgres(path);
    if (removeNow(path)) removed.push(path);
  }
  return removed;
}

function isStale(path: string, now: number): boolean {
  let owner: Owner;
  try {
    if (!statSync(path).isDirectory()) return false;
    owner = JSON.parse(readFileSync(join(path, OWNER_FILE), 'utf8')) as Owner;
  } catch {
    // No owner file: a shared cache (it never has one and is not ours to sweep) or a folder from
    // before owner files, swept once it is old enough that no run can still be using it.
    if (name(path).startsWith(`${TEMP_PREFIX}postgres-`)) return false;
    try {
      return existsSync(path) && now - statSync(path).mtimeMs > LEGACY_MAX_AGE_MS;
    } catch {
      return false;
    }
  }
  if (owner.pid === process.pid) return false;
  if (!isProcessAlive(owner.pid)) return true;
  const ticks = processStartTicks(owner.pid);
  return owner.startTicks !== null && ticks !== null && ticks !== owner.startTicks;
}

function name(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** Field 22 of /proc/<pid>/stat; null where there is no /proc. */
function processStartTicks(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: count from its closing one.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[19]);
    return Number.isFinite(ticks) ? ticks : null;
  } catch {
    return null;
  }
}

/** A postmaster whose pid file is in the folder and whose process is a postgres: quit it. */
function stopLeftoverPostgres(folder: string): void {
  for (const pidFile of [join(folder, 'pgdata', 'postmaster.pid'), join(folder, 'postgres', 'pgdata', 'postmaster.pid')]) {
    try {
      const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
      if (!Number.isInteger(pid) || pid <= 1) continue;
      const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (command.includes('postgres')) process.kill(pid, 'SIGQUIT');
    } catch {
      // No pid file, no such process, or not ours to signal.
    }
  }
}

function removeNow(path: string): boolean {
  try {
    rmSync(path, { recursive: true, force: true, maxRetries: 3, retryDelay: 50 });
    return true;
  } catch {
    return false;
  }
}

function removeAll(): void {
  for (const path of live) removeNow(path);
  live.clear();
}

function installExitHooks(): void {
  if (hooksInstalled) return;
  hooksInstalled = true;
  process.once('exit', removeAll);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    const onSignal = () => {
      removeAll();
      // Alone, this listener replaced the default action: restore it and die of the signal.
      // Otherwise whoever else listens (the test runner) decides how the process ends.
      if (process.listenerCount(signal) === 1) {
        process.removeListener(signal, onSignal);
        process.kill(process.pid, signal);
      }
    };
    process.on(signal, onSignal);
  }
}
