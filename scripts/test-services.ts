/**
 * `npm run test:services`: the node:test files, three at a time, the longest first
 * (`node --conditions=songmint-source --import tsx scripts/test-services.ts [FILE ...]`).
 *
 * Why not `node --test <globs>`: the runner sorts the files by path, so where the longest files
 * start depends on their names. `test/e2e/npm-start.test.ts` (about 4 min of a 10-minute phase)
 * started a third of the way in, and the inference worker's file (2 min) in the middle. Started
 * first, they overlap the many short files instead of running late beside few (longest
 * processing time first, the classic bound for list scheduling). The durations come from the
 * newest run in bench/results/test-suite-time.json (`npx tsx bench/test-suite-time.ts --label
 * NAME` measures them); a file that run did not measure counts as the median. A stale figure
 * costs only order, never a test.
 *
 * Each file runs in its own process, as with `node --test`: the children inherit this process's
 * `--conditions=songmint-source --import tsx` and load test/support/bounded-hooks.ts. Each file is
 * bounded to 10 minutes as a whole (node:test's `timeout` bounds the file's process, not the tests
 * inside it), each test to 8 minutes where it sets no limit of its own (bounded-hooks.ts; a test
 * awaiting a lost promise fails by name and its file's `after` hooks still run), each hook to 2,
 * and the file exits once its tests end (`forceExit`).
 *
 * The files' processes (and the servers and workers they start) share one V8 compile cache
 * (`NODE_COMPILE_CACHE`, `node-compile-cache-songmint` in the temp folder unless set: not
 * `songmint-*`, which the tests' temp-folder sweep owns): each of the ~100 processes otherwise
 * compiles the same dependencies (viem, pg, express, zod) again; with it a file's start took
 * about a tenth less CPU (openapi.test.ts: 2.6 against 2.8 CPU-s), and the suite is bound by
 * CPU (bench/results/test-suite-time.md: 97 % busy).
 *
 * The files share one PostgreSQL server, started here before them and stopped after them (as this
 * process's child it also ends when this process dies): each startTestPostgres() caller gets a
 * fresh migrated database of its own in it, and only callers that stop the server or act on all of
 * it start their own (core/src/testing/postgres.ts, `own`). Some fifty private clusters per run
 * each cost a copy of the template, a start and a shutdown: about 45 CPU-s in `cp` alone.
 *
 * Options, as node's own: `--test-reporter NAME` and `--test-reporter-destination PATH` pairs
 * (default: spec on a terminal, TAP otherwise, to standard output; bench/test-suite-time.ts adds
 * its own), `--test-concurrency N`. Positional arguments narrow the run to those files.
 */
import { createWriteStream, globSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { run } from 'node:test';
import { dot, junit, spec, tap } from 'node:test/reporters';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { SHARED_POSTGRES_ENV, startSharedTestPostgres } from '../core/src/testing/postgres.ts';
import type { SharedTestPostgres } from '../core/src/testing/postgres.ts';
import { longestFirst, measuredDurations } from './test-order.ts';

/** The suites `npm test` runs; `test/faults/` beyond `short/` is `npm run test:faults`. */
const SUITES = [
  'test/core/**/*.test.ts',
  'test/oracle/**/*.test.ts',
  'test/inference/**/*.test.ts',
  'test/e2e/**/*.test.ts',
  'test/sdk/**/*.test.ts',
  'test/clients/**/*.test.ts',
  'test/react/**/*.test.ts',
  'test/faults/short/*.test.ts',
];
const DURATIONS = 'bench/results/test-suite-time.json';
const FILE_LIMIT_MS = 600_000;
/** Each test's own bound where it sets none (test/support/bounded-hooks.ts), under the file's so that a stalled test fails by name. */
const TEST_LIMIT_MS = 480_000;
const HOOKS = './test/support/bounded-hooks.ts';

type TestsStream = ReturnType<typeof run>;
type Reporter = Parameters<TestsStream['compose']>[0];

/** A reporter as `--test-reporter` names it: node's own by name, else a module's default export. */
async function reporterByName(name: string): Promise<Reporter> {
  if (name === 'spec') return new spec();
  const builtIn: Record<string, Reporter> = { tap, dot, junit };
  if (builtIn[name] !== undefined) return builtIn[name];
  const module = (await import(pathToFileURL(resolve(name)).href)) as { default: Reporter };
  return module.default;
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      'test-reporter': { type: 'string', multiple: true },
      'test-reporter-destination': { type: 'string', multiple: true },
      'test-concurrency': { type: 'string', default: '3' },
    },
  });
  const names = values['test-reporter'] ?? [process.stdout.isTTY ? 'spec' : 'tap'];
  const destinations = values['test-reporter-destination'] ?? names.map(() => 'stdout');
  if (destinations.length !== names.length) throw new Error('give each --test-reporter its --test-reporter-destination');
  const concurrency = Number(values['test-concurrency']);
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new Error('--test-concurrency takes a positive integer');

  process.env.NODE_COMPILE_CACHE ??= join(tmpdir(), 'node-compile-cache-songmint');
  process.env.SONGMINT_TEST_TIMEOUT_MS ??= String(TEST_LIMIT_MS);
  const files = positionals.length > 0 ? positionals : [...new Set(SUITES.flatMap((pattern) => globSync(pattern)))];
  const ordered = longestFirst(files, measuredDurations(DURATIONS));
  // One PostgreSQL for the run's files, each test database a copy inside it (core/src/testing/postgres.ts),
  // unless a run around this one already shares its own.
  const sharedPostgres = process.env[SHARED_POSTGRES_ENV] === undefined ? await startSharedPostgres() : undefined;
  Object.assign(process.env, sharedPostgres?.env);
  try {
    await runFiles(ordered, concurrency, names, destinations);
  } finally {
    await sharedPostgres?.stop();
  }
}

/** The shared server, or none when it cannot start: then each file starts its own clusters and reports their errors by test. */
async function startSharedPostgres(): Promise<SharedTestPostgres | undefined> {
  try {
    return await startSharedTestPostgres();
  } catch (error) {
    console.error(
      `# no shared PostgreSQL for this run (${error instanceof Error ? error.message : String(error)}); each file starts its own`,
    );
    return undefined;
  }
}

async function runFiles(ordered: string[], concurrency: number, names: string[], destinations: string[]): Promise<void> {
  const stream = run({
    files: ordered,
    concurrency,
    timeout: FILE_LIMIT_MS,
    forceExit: true,
    execArgv: ['--import', HOOKS],
  });
  stream.on('test:fail', () => {
    process.exitCode = 1;
  });
  await Promise.all(
    names.map(async (name, i) => {
      const destination = destinations[i] === 'stdout' ? process.stdout : createWriteStream(destinations[i] as string);
      const output = stream.compose(await reporterByName(name));
      output.pipe(destination);
      await new Promise<void>((done) => output.on('end', done));
    }),
  );
}

await main();
