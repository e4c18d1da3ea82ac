/**
 * Preloaded into every node:test process (scripts/test-services.ts, scripts/test-faults.ts): gives
 * every hook (`before`, `after`, `beforeEach`, `afterEach`) a time limit, and each test one where
 * the runner sets SONGMINT_TEST_TIMEOUT_MS.
 *
 * Why: the runner's timeout bounds each test file's process, but not the hooks or tests in it
 * (node:test gives them no limit by default). A setup hook that waits on a lost promise (a
 * component that never answers) would hold its file until the file's limit and then be reported
 * only as the file or its suite timing out. Here such a hook fails on its own, after
 * HOOK_LIMIT_MS, with its kind and its place in the test file ("before hook at
 * test/oracle/metadata.test.ts:45 did not finish within 120 s"), and the rest of the file goes on
 * to its `after` hooks, which stop what was started.
 *
 * node:test's hook functions are wrapped in place and its ESM exports re-synced, so test files
 * keep importing from 'node:test'. Hooks that take a `done` callback are left as they are. Tests
 * get a limit too where the runner asks for one (`TEST_LIMIT_MS` below).
 */
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { relative } from 'node:path';

export const HOOK_LIMIT_MS = Number(process.env.SONGMINT_TEST_HOOK_TIMEOUT_MS ?? 120_000);

type HookFn = (...args: unknown[]) => unknown;
type HookRegistrar = (fn?: HookFn, options?: Record<string, unknown>) => void;
const HOOKS = ['before', 'after', 'beforeEach', 'afterEach'] as const;

const require = createRequire(import.meta.url);
const nodeTest = require('node:test') as Record<(typeof HOOKS)[number], HookRegistrar>;

/** `file:line` of the test file that registers the hook: the first stack frame outside this file. */
function callerLocation(): string {
  const frames = (new Error().stack ?? '').split('\n').slice(1);
  const here = import.meta.url;
  for (const frame of frames) {
    const match = /\(?((?:file:\/\/)?\/[^()]+?):(\d+):\d+\)?$/.exec(frame.trim());
    if (match === null || match[1] === undefined) continue;
    const file = match[1].replace(/^file:\/\//, '');
    if (here.endsWith(file) || file.includes('node:') || file.includes('/node_modules/')) continue;
    return `${relative(process.cwd(), file)}:${match[2] ?? '?'}`;
  }
  return 'an unknown place';
}

function bounded(kind: string, fn: HookFn, where: string): HookFn {
  return function boundedHook(this: unknown, ...args: unknown[]): unknown {
    const result = fn.apply(this, args);
    if (!(result instanceof Promise)) return result;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(
          new Error(
            `${kind} hook at ${where} did not finish within ${HOOK_LIMIT_MS / 1000} s (a lost promise or a component that never answered; see the test's setup)`,
          ),
        );
      }, HOOK_LIMIT_MS);
      result.then(
        (value: unknown) => {
          clearTimeout(timer);
          resolve(value);
        },
        (error: unknown) => {
          clearTimeout(timer);
          reject(error instanceof Error ? error : new Error(String(error)));
        },
      );
    });
  };
}

/**
 * Each test's limit where it sets none, from SONGMINT_TEST_TIMEOUT_MS (scripts/test-services.ts sets
 * it below its per-file bound; unset, tests keep node:test's default of none). node:test applies
 * `--test-timeout` to a file's process as a whole, not to the tests inside it: a test awaiting a
 * lost promise held its file to the file's bound, which then reported only the file as cancelled
 * and never ran its `after` hooks. With a limit of its own the test fails by name, and the file
 * goes on to its other tests and its `after` hooks, which stop what was started.
 */
const TEST_LIMIT_MS = process.env.SONGMINT_TEST_TIMEOUT_MS === undefined ? undefined : Number(process.env.SONGMINT_TEST_TIMEOUT_MS);

/** `it`/`test` arguments (name?, options?, fn?) with `timeout: limit` where the options set none. */
function withTestTimeout(args: readonly unknown[], limit: number): unknown[] {
  const optionsAt = args.findIndex((arg) => typeof arg === 'object' && arg !== null);
  if (optionsAt >= 0) {
    const options = args[optionsAt] as Record<string, unknown>;
    if (options.timeout !== undefined) return [...args];
    return args.map((arg, i) => (i === optionsAt ? { ...options, timeout: limit } : arg));
  }
  return typeof args[0] === 'string' ? [args[0], { timeout: limit }, ...args.slice(1)] : [{ timeout: limit }, ...args];
}

type TestRegistrar = ((...args: unknown[]) => unknown) & Record<string, unknown>;
const registrars = nodeTest as unknown as Record<'it' | 'test', TestRegistrar>;
if (TEST_LIMIT_MS !== undefined) {
  if (!Number.isInteger(TEST_LIMIT_MS) || TEST_LIMIT_MS <= 0)
    throw new Error('SONGMINT_TEST_TIMEOUT_MS takes a positive integer of milliseconds');
  const limit = TEST_LIMIT_MS;
  for (const name of ['it', 'test'] as const) {
    const original = registrars[name];
    // `only` runs a test like the plain call; `skip` and `todo` run nothing, so they keep theirs.
    const limited = Object.assign((...args: unknown[]) => original(...withTestTimeout(args, limit)), original, {
      only: (...args: unknown[]) => (original.only as TestRegistrar)(...withTestTimeout(args, limit)),
    });
    registrars[name] = limited;
  }
}

for (const kind of HOOKS) {
  const original = nodeTest[kind];
  nodeTest[kind] = (fn, options) => {
    if (typeof fn !== 'function' || fn.length >= 2) return original(fn, options);
    return original(bounded(kind, fn, callerLocation()), options);
  };
}
syncBuiltinESMExports();
