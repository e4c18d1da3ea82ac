/**
 * The order scripts/test-services.ts starts test files in: the longest first, by the newest run
 * bench/test-suite-time.ts recorded (why: see scripts/test-services.ts).
 */
import { existsSync, readFileSync } from 'node:fs';

interface MeasuredRun {
  startedAt: string;
  files: { file: string; durationMs: number | null }[];
}

/** Each file's milliseconds in the newest run recorded at `path`; empty where there is none. */
export function measuredDurations(path: string): Map<string, number> {
  if (!existsSync(path)) return new Map();
  const runs = JSON.parse(readFileSync(path, 'utf8')) as MeasuredRun[];
  const newest = runs.toSorted((a, b) => b.startedAt.localeCompare(a.startedAt))[0];
  const durations = new Map<string, number>();
  for (const row of newest?.files ?? []) if (row.durationMs !== null) durations.set(row.file, row.durationMs);
  return durations;
}

/** `files` longest first by `durations`; a file not measured counts as the median, ties by path. */
export function longestFirst(files: readonly string[], durations: ReadonlyMap<string, number>): string[] {
  const known = files.map((file) => durations.get(file)).filter((ms) => ms !== undefined);
  const sorted = known.toSorted((a, b) => a - b);
  const median = sorted.length === 0 ? 0 : (sorted[Math.floor(sorted.length / 2)] as number);
  const weight = (file: string): number => durations.get(file) ?? median;
  return files.toSorted((a, b) => weight(b) - weight(a) || a.localeCompare(b));
}
