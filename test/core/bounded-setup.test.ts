import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, it } from 'node:test';

/** node's own runner with the preload `npm run test:services` gives its files. */
const NODE_TEST_RUNNER = [
  '--import',
  'tsx',
  '--import',
  './test/support/bounded-hooks.ts',
  '--test',
  '--test-timeout=300000',
  '--test-force-exit',
  '--test-reporter=spec',
];
/** `npm run test:services` itself (scripts/test-services.ts), narrowed to the file given. */
const SERVICES_RUNNER = [
  '--conditions=songmint-source',
  '--import',
  'tsx',
  'scripts/test-services.ts',
  '--test-reporter',
  'spec',
  '--test-reporter-destination',
  'stdout',
];

/**
 * A test file run the way `npm run test:services` runs its files (same preload, same runner
 * flags; or through that script itself), with extra environment. Resolves with its exit code and
 * output; a run still going after `giveUpMs` is killed and reported as stalled, so this suite
 * itself cannot hang.
 */
function runTestFile(
  file: string,
  env: Record<string, string>,
  giveUpMs = 120_000,
  runner: readonly string[] = NODE_TEST_RUNNER,
): Promise<{ code: number | null; stalled: boolean; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [...runner, file],
      // NODE_TEST_CONTEXT would make the child report to this runner instead of running on its own.
      { env: { ...withoutTestContext(process.env), ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    let stalled = false;
    const watchdog = setTimeout(() => {
      stalled = true;
      child.kill('SIGKILL');
    }, giveUpMs);
    child.once('close', (code) => {
      clearTimeout(watchdog);
      resolve({ code, stalled, output });
    });
  });
}

function withoutTestContext(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const copy = { ...env };
  delete copy.NODE_TEST_CONTEXT;
  return copy;
}

describe('a stalled setup fails with a clear message instead of hanging the suite', () => {
  it("a setup hook waiting on a promise that never settles fails at the hook limit, with the hook's file and line", async () => {
    const result = await runTestFile('test/core/fixtures/stalled-hook.fixture.ts', { SONGMINT_TEST_HOOK_TIMEOUT_MS: '2000' });
    assert.equal(result.stalled, false, result.output);
    assert.notEqual(result.code, 0);
    assert.match(result.output, /before hook at test\/core\/fixtures\/stalled-hook\.fixture\.ts:4 did not finish within 2 s/);
  });

  it('a test waiting on a promise that never settles fails by name at SONGMINT_TEST_TIMEOUT_MS; the file goes on and runs its after hook', async () => {
    const result = await runTestFile('test/core/fixtures/stalled-test.fixture.ts', { SONGMINT_TEST_TIMEOUT_MS: '2000' });
    assert.equal(result.stalled, false, result.output);
    assert.notEqual(result.code, 0);
    assert.match(result.output, /✖ waits for ever[^\n]*\n[\s\S]*?test timed out after 2000ms/);
    assert.match(result.output, /✔ runs after the stalled one/);
    assert.match(result.output, /✔ keeps its own limit/);
    assert.match(result.output, /after hook ran: the suite stopped what it started/);
  });

  it("through scripts/test-services.ts itself (CI's runner, no --test-timeout flag): the same lost promise fails by name at the per-test bound", async () => {
    const result = await runTestFile(
      'test/core/fixtures/stalled-test.fixture.ts',
      { SONGMINT_TEST_TIMEOUT_MS: '2000' },
      120_000,
      SERVICES_RUNNER,
    );
    assert.equal(result.stalled, false, result.output);
    assert.notEqual(result.code, 0);
    assert.match(result.output, /✖ waits for ever[^\n]*\n[\s\S]*?test timed out after 2000ms/);
    assert.match(result.output, /✔ runs after the stalled one/);
  });

  it('PostgreSQL stalled on purpose (SONGMINT_TEST_STALL=postgres:2000) fails its setup at the start-up bound, naming the component and its log, and leaves no temp folder', async () => {
    const result = await runTestFile('test/core/fixtures/stalled-postgres.fixture.ts', { SONGMINT_TEST_STALL: 'postgres:2000' });
    assert.equal(result.stalled, false, result.output);
    assert.notEqual(result.code, 0);
    assert.match(
      result.output,
      /PostgreSQL \(embedded\): start the server on port \d+ did not finish within 2 s \(stalled on purpose by SONGMINT_TEST_STALL\)/,
    );
    const logPath = /log: (\S+postgres\.log)/.exec(result.output)?.[1];
    assert.ok(logPath !== undefined, result.output);
    assert.equal(existsSync(dirname(logPath)), false, 'the failed setup removed its cluster folder');
  });
});
