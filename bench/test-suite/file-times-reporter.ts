/**
 * node:test reporter for bench/test-suite-time.ts: one JSON line per test file, with the file's
 * wall time as the runner measured it (process start to exit, `test:complete` of the file-level
 * test) and its test counts (the file's `test:summary`), all written when the run ends.
 */
import { relative } from 'node:path';

export interface FileTime {
  file: string;
  durationMs: number | null;
  tests: number;
  passed: number;
  failed: number;
}

interface ReporterEvent {
  type: string;
  data?: {
    file?: string;
    name?: string;
    nesting?: number;
    details?: { duration_ms?: number };
    counts?: { tests: number; passed: number; failed: number };
  };
}

export default async function* fileTimes(source: AsyncIterable<ReporterEvent>): AsyncGenerator<string> {
  const byFile = new Map<string, FileTime>();
  const entry = (file: string): FileTime => {
    const name = relative(process.cwd(), file);
    let row = byFile.get(name);
    if (row === undefined) {
      row = { file: name, durationMs: null, tests: 0, passed: 0, failed: 0 };
      byFile.set(name, row);
    }
    return row;
  };
  for await (const event of source) {
    const data = event.data;
    if (data?.file === undefined) continue;
    const name = relative(process.cwd(), data.file);
    if (event.type === 'test:summary' && data.counts !== undefined) {
      Object.assign(entry(data.file), {
        tests: data.counts.tests,
        passed: data.counts.passed,
        failed: data.counts.failed,
      });
    } else if (event.type === 'test:complete' && data.nesting === 0 && data.name === name) {
      entry(data.file).durationMs = data.details?.duration_ms ?? null;
    }
  }
  // At the end: with files running side by side a file's summary may come after its completion.
  for (const row of byFile.values()) yield `${JSON.stringify(row)}\n`;
}
