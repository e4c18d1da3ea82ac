import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { verificationTarget } from '../../scripts/verify-base.ts';

/**
 * `npm run verify:base` refuses to pass without Base (issue 51): with BASE_RPC_URL unset or empty it
 * used to compare two local builds and print "every address matches", exit 0. It now exits 2 and
 * says why unless BASE_RPC_URL is set or `--local` is asked for (whose wording test/e2e/local-chain
 * .test.ts checks against a live local chain).
 */

test('verificationTarget: Base only through a set BASE_RPC_URL, the local chain only when asked, else a refusal', () => {
  assert.deepEqual(verificationTarget('https://base.example/rpc', []), { kind: 'base', url: 'https://base.example/rpc' });
  assert.deepEqual(verificationTarget(' http://127.0.0.1:8545 ', []), { kind: 'base', url: 'http://127.0.0.1:8545' });
  assert.deepEqual(verificationTarget(undefined, ['--local']), { kind: 'local' });
  assert.deepEqual(verificationTarget('https://base.example/rpc', ['--local']), { kind: 'local' });
  for (const unset of [undefined, '', '   ']) {
    const target = verificationTarget(unset, []);
    assert.equal(target.kind, 'refused');
    assert.match(target.kind === 'refused' ? target.reason : '', /BASE_RPC_URL is not set .*nothing was verified.*--local/);
  }
  assert.equal(verificationTarget('base.example', []).kind, 'refused');
  assert.equal(verificationTarget('ws://base.example', []).kind, 'refused');
  assert.deepEqual(verificationTarget(undefined, ['--lcoal']), {
    kind: 'refused',
    reason: 'unknown argument --lcoal (the only one is --local)',
  });
});

test('the command exits non-zero and compares nothing when BASE_RPC_URL is unset or empty', async () => {
  const { BASE_RPC_URL: _ignored, ...env } = process.env;
  const run = promisify(execFile);
  const outcomes = await Promise.all(
    [env, { ...env, BASE_RPC_URL: '' }].map((childEnv) =>
      run(process.execPath, ['--import', 'tsx', 'scripts/verify-base.ts'], { env: childEnv, timeout: 120_000 }).then(
        () => assert.fail('verify:base passed without Base'),
        (error: { code?: number; stdout?: string; stderr?: string }) => error,
      ),
    ),
  );
  for (const outcome of outcomes) {
    assert.equal(outcome.code, 2);
    assert.match(outcome.stderr ?? '', /verify:base refused: BASE_RPC_URL is not set/);
    assert.doesNotMatch(outcome.stdout ?? '', /matches/);
  }
});
