import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { makeTempDir, sweepStaleTempDirs, TEMP_PREFIX } from '../../core/src/testing/temp-dirs.ts';
import type { TempDir } from '../../core/src/testing/temp-dirs.ts';

/** Starts the holder fixture, which makes two temp folders in `root` and waits. */
async function startHolder(root: string): Promise<{ child: ChildProcess; dirs: string[] }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/core/fixtures/temp-dir-holder.fixture.ts'], {
    env: { ...process.env, TMPDIR: root },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const dirs = await new Promise<string[]>((resolve, reject) => {
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const line = output.split('\n').find((text) => text.startsWith('{'));
      if (line !== undefined) resolve((JSON.parse(line) as { dirs: string[] }).dirs);
    });
    child.once('exit', (code) => reject(new Error(`holder exited (${String(code)}) before making its folders`)));
  });
  return { child, dirs };
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
}

describe('test temp folders', () => {
  const roots: TempDir[] = [];
  const freshRoot = async () => {
    const root = await makeTempDir('temp-root');
    roots.push(root);
    return root.path;
  };
  after(async () => {
    for (const root of roots) await root.remove();
  });

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`are removed when their process is interrupted (${signal})`, async () => {
      const { child, dirs } = await startHolder(await freshRoot());
      assert.ok(dirs.every((dir) => existsSync(dir)));
      child.kill(signal);
      await exited(child);
      assert.equal(child.signalCode, signal, 'the process still dies of the signal');
      for (const dir of dirs) assert.equal(existsSync(dir), false, `${dir} left behind`);
    });
  }

  it("left behind by a killed run (SIGKILL) are swept by the next run, while a live run's folders are kept", async () => {
    const root = await freshRoot();
    const killed = await startHolder(root);
    killed.child.kill('SIGKILL');
    await exited(killed.child);
    assert.ok(
      killed.dirs.every((dir) => existsSync(dir)),
      'SIGKILL leaves them',
    );
    // The next run sweeps when it makes its first folder.
    const next = await startHolder(root);
    try {
      for (const dir of killed.dirs) assert.equal(existsSync(dir), false, `${dir} of the killed run was not swept`);
      assert.deepEqual(sweepStaleTempDirs(root), [], 'nothing of a live run is stale');
      for (const dir of next.dirs) assert.ok(existsSync(dir), `${dir} of a live run was swept`);
    } finally {
      next.child.kill('SIGTERM');
      await exited(next.child);
    }
  });

  it('from before owner files are swept once a day old; shared caches never are', async () => {
    const root = await freshRoot();
    const old = join(root, `${TEMP_PREFIX}pg-legacy1`);
    const young = join(root, `${TEMP_PREFIX}pg-legacy2`);
    const cache = join(root, `${TEMP_PREFIX}postgres-bin-0123456789abcdef`);
    const unrelated = join(root, 'someone-else');
    for (const dir of [old, young, cache, unrelated]) await mkdir(dir);
    await writeFile(join(old, 'file'), 'x');
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 3600 * 1000);
    for (const dir of [old, cache, unrelated]) await utimes(dir, twoDaysAgo, twoDaysAgo);
    assert.deepEqual(sweepStaleTempDirs(root), [old]);
    for (const dir of [young, cache, unrelated]) assert.ok(existsSync(dir), dir);
  });
});
