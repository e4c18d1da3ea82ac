import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { withDirectoryLock } from '../../scripts/directory-lock.ts';
import { makeTempDir } from '../../core/src/testing/temp-dirs.ts';

const run = promisify(execFile);

/**
 * The lock ensureAppBuilt takes (scripts/dev-app.ts): parallel test processes once each found
 * app/dist stale, and one's swap left another's server without a page (a 404 in CI).
 */
describe('withDirectoryLock (scripts/directory-lock.ts)', () => {
  let dir: { path: string; remove(): Promise<void> };
  before(async () => {
    dir = await makeTempDir('directory-lock');
  });
  after(() => dir.remove());

  it('lets one process at a time run its task, across processes', async () => {
    const lock = join(dir.path, 'build.lock');
    const log = join(dir.path, 'log');
    await writeFile(log, '');
    // Each child appends "start", waits, appends "end": overlapping tasks would interleave.
    const child = `
      import { appendFile } from 'node:fs/promises';
      import { setTimeout as sleep } from 'node:timers/promises';
      import { withDirectoryLock } from ${JSON.stringify(join(process.cwd(), 'scripts', 'directory-lock.ts'))};
      await withDirectoryLock(${JSON.stringify(lock)}, async () => {
        await appendFile(${JSON.stringify(log)}, 'start\\n');
        await sleep(300);
        await appendFile(${JSON.stringify(log)}, 'end\\n');
      });`;
    await Promise.all(
      [0, 1, 2].map(() => run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', child], { timeout: 60_000 })),
    );
    assert.equal(await readFile(log, 'utf8'), 'start\nend\n'.repeat(3));
  });

  it("serializes Hardhat's builds across processes (scripts/contract-build.ts): four at once all succeed and leave no lock", async () => {
    // Each build saves the compile cache through one temporary file: unlocked, two at once can
    // move each other's file away ("compile-cache.json.tmp not found").
    const child = `
      import { buildContracts } from ${JSON.stringify(join(process.cwd(), 'scripts', 'contract-build.ts'))};
      await buildContracts();`;
    await Promise.all(
      [0, 1, 2, 3].map(() => run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', child], { timeout: 120_000 })),
    );
    await assert.rejects(stat(join(process.cwd(), 'cache', 'build.lock')), { code: 'ENOENT' });
    assert.ok(JSON.parse(await readFile(join(process.cwd(), 'cache', 'compile-cache.json'), 'utf8')) !== null);
  });

  it('takes over a lock whose owner died, and frees the lock when the task throws', async () => {
    const lock = join(dir.path, 'dead.lock');
    await mkdir(lock);
    // A pid past Linux's pid_max (2^22) is never alive.
    await writeFile(join(lock, 'pid'), String(2 ** 22 + 1));
    assert.equal(await withDirectoryLock(lock, () => Promise.resolve('ran'), 10_000), 'ran');
    await assert.rejects(
      withDirectoryLock(lock, () => Promise.reject(new Error('build failed')), 10_000),
      /build failed/,
    );
    assert.equal(await withDirectoryLock(lock, () => Promise.resolve('again'), 10_000), 'again');
  });

  it('gives up after its timeout while a live process holds the lock', async () => {
    const lock = join(dir.path, 'held.lock');
    await mkdir(lock);
    await writeFile(join(lock, 'pid'), String(process.pid));
    await assert.rejects(
      withDirectoryLock(lock, () => Promise.resolve(), 500),
      new RegExp(`held by process ${process.pid}`),
    );
  });
});
