import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { chmod, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import type { Server } from 'node:net';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { promisify } from 'node:util';
import pg from 'pg';
import { canTraverse, packagedNativeDir, startEmbeddedPostgres } from '../../core/src/embedded-postgres.ts';
import { StartupError } from '../../core/src/startup.ts';
import { freePort } from '../../core/src/testing/free-port.ts';
import { makeTempDir } from '../../core/src/testing/temp-dirs.ts';
import type { TempDir } from '../../core/src/testing/temp-dirs.ts';

const run = promisify(execFile);
const isRoot = process.getuid?.() === 0;
/** The platform package of the PostgreSQL build (bin/, lib/, share/ under native/, and its package.json). */
const PLATFORM_PACKAGE = dirname(await packagedNativeDir());

async function query(url: string, sql: string): Promise<unknown[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows as unknown[];
  } finally {
    await client.end();
  }
}

describe('embedded PostgreSQL start-up', () => {
  const temps: TempDir[] = [];
  const temp = async (name: string) => {
    const made = await makeTempDir(name);
    temps.push(made);
    return made.path;
  };
  after(async () => {
    for (const made of temps) await made.remove();
  });

  it(
    'runs as root from a clone in a folder only root can enter: binaries copied where the postgres user reaches them, the cluster kept in a stand-in folder, its data kept across restarts',
    { skip: !isRoot && 'only root hands PostgreSQL to another user' },
    async () => {
      const clone = await temp('private-clone');
      await chmod(clone, 0o700);
      // The build inside the private folder, as node_modules of a clone there would hold it.
      const packageCopy = join(clone, 'node_modules', 'platform-package');
      await run('mkdir', ['-p', dirname(packageCopy)]);
      await run('cp', ['-al', PLATFORM_PACKAGE, packageCopy]);
      const dataDir = join(clone, '.data', 'postgres');
      // Where stand-ins and the binary copy go: a folder the postgres user can enter.
      const reachable = await temp('reachable');
      await chmod(reachable, 0o755);
      const options = {
        dir: dataDir,
        port: await freePort(),
        ephemeral: true,
        nativeDir: join(packageCopy, 'native'),
        standInRoots: [reachable],
      };

      const account = {
        uid: Number((await run('id', ['-u', 'postgres'])).stdout),
        gid: Number((await run('id', ['-g', 'postgres'])).stdout),
      };
      assert.equal(
        await canTraverse(account, join(packageCopy, 'native', 'bin', 'postgres')),
        false,
        "the copy in the clone is out of the postgres user's reach",
      );

      const first = await startEmbeddedPostgres(options);
      try {
        assert.notEqual(first.home, dataDir);
        assert.ok(first.home.startsWith(reachable), first.home);
        assert.equal((await readFile(join(dataDir, 'CLUSTER_HOME'), 'utf8')).split('\n')[0], first.home);
        await query(first.url, "CREATE TABLE kept (value text); INSERT INTO kept VALUES ('across restarts')");
      } finally {
        await first.stop();
      }
      const second = await startEmbeddedPostgres(options);
      try {
        assert.equal(second.home, first.home, 'the same folder finds the same cluster');
        assert.deepEqual(await query(second.url, 'SELECT value FROM kept'), [{ value: 'across restarts' }]);
      } finally {
        await second.stop();
        await rm(second.home, { recursive: true, force: true });
      }
    },
  );

  it("a server that exits at once fails after one retry, naming PostgreSQL, the step, its log and the log's cause", async () => {
    const port = await freePort();
    const squatter: Server = createServer();
    await new Promise<void>((resolve) => squatter.listen(port, '127.0.0.1', resolve));
    try {
      const error = await startEmbeddedPostgres({ dir: await temp('pg-busy'), port, ephemeral: true }).then(
        () => assert.fail('started on a taken port'),
        (caught: unknown) => caught,
      );
      assert.ok(error instanceof StartupError, String(error));
      assert.equal(error.component, 'postgres');
      assert.equal(error.timedOut, false);
      assert.match(error.message, /^PostgreSQL \(embedded\): start the server on port \d+ failed: the server process exited/);
      assert.match(error.message, /log: .*postgres\.log/);
      assert.match(error.message, /could not bind|Address already in use/);
      const log = await readFile(error.logPath ?? '', 'utf8');
      assert.equal(log.match(/could not bind IPv4 address/g)?.length, 2, 'tried twice');
    } finally {
      squatter.close();
    }
  });

  it('a server that never becomes ready fails at its bound instead of waiting forever (SONGMINT_TEST_STALL)', async () => {
    const error = await startEmbeddedPostgres({
      dir: await temp('pg-stalled'),
      port: await freePort(),
      ephemeral: true,
      bounds: { stall: new Map([['postgres', 1500]]) },
    }).then(
      () => assert.fail('a stalled start resolved'),
      (caught: unknown) => caught,
    );
    assert.ok(error instanceof StartupError, String(error));
    assert.equal(error.timedOut, true);
    assert.match(error.message, /start the server on port \d+ did not finish within 1\.5 s \(stalled on purpose by SONGMINT_TEST_STALL\)/);
  });

  it('tells which folders an account can enter from their permission bits', async () => {
    const root = await temp('traverse');
    const inner = join(root, 'inner');
    await run('mkdir', ['-p', join(inner, 'deeper')]);
    const stranger = { uid: 54_321, gid: 54_321 };
    await chmod(root, 0o711);
    await chmod(inner, 0o700);
    assert.equal(await canTraverse(stranger, root), true);
    assert.equal(await canTraverse(stranger, join(inner, 'deeper')), false);
    await chmod(inner, 0o701);
    assert.equal(await canTraverse(stranger, join(inner, 'deeper')), true);
    assert.equal(await canTraverse(stranger, join(inner, 'not-made-yet', 'x')), true, 'only existing folders can refuse');
  });
});
