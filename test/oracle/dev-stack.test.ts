import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFile } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { promisify } from 'node:util';
import { freePort } from '../../core/src/testing/free-port.ts';
import { makeTempDir } from '../../core/src/testing/temp-dirs.ts';
import type { TempDir } from '../../core/src/testing/temp-dirs.ts';

const run = promisify(execFile);

async function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** npm start takes PORT (API), PORT+1 (S3) and PORT+2 (chain): find a free run of three. */
async function freePortRun(): Promise<number> {
  for (;;) {
    const port = await freePort();
    if (port < 65533 && (await canListen(port + 1)) && (await canListen(port + 2))) return port;
  }
}

/**
 * `npm start` as a user runs it: every service embedded, data in a fresh DATA_DIR. The DATA_DIR
 * is private (mode 0700, as mkdtemp makes it): as root, PostgreSQL runs as the `postgres` user,
 * which cannot enter it, so this also proves the stand-in cluster folder (CLUSTER_HOME).
 */
describe('npm start (scripts/dev-stack.ts)', () => {
  let stack: ChildProcess;
  let data: TempDir;
  let dataDir: string;
  let baseUrl: string;
  let output = '';
  const env = (port: number) => ({ ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn', DATABASE_URL: '', S3_ENDPOINT: '', CHAIN_RPC_URL: '', SONG_NFT_ADDRESS: '' });

  before(async () => {
    data = await makeTempDir('stack');
    dataDir = data.path;
    const port = await freePortRun();
    baseUrl = `http://127.0.0.1:${port}`;
    stack = spawn(process.execPath, ['--import', 'tsx', 'scripts/dev-stack.ts'], { env: env(port), stdio: ['ignore', 'pipe', 'pipe'] });
    stack.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    stack.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const deadline = Date.now() + 90_000;
    while (!output.includes('development stack is up')) {
      if (stack.exitCode !== null || Date.now() > deadline) throw new Error(`stack did not start:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  });
  after(async () => {
    if (stack.exitCode === null) {
      stack.kill('SIGKILL');
      await new Promise((resolve) => stack.once('exit', resolve));
    }
    const standIn = await readFile(join(dataDir, 'postgres', 'CLUSTER_HOME'), 'utf8').then((text) => text.split('\n')[0], () => undefined);
    if (standIn !== undefined && standIn !== '') await rm(standIn, { recursive: true, force: true });
    await data.remove();
  });

  it('prints the base, docs and storage URLs and serves the API and the docs page', async () => {
    assert.match(output, new RegExp(`API\\s+${baseUrl}`));
    assert.match(output, new RegExp(`Docs\\s+${baseUrl}/docs`));
    assert.match(output, /Storage\s+http:\/\/127\.0\.0\.1:\d+\/songmint/);
    assert.equal((await fetch(`${baseUrl}/health`)).status, 200);
    const docs = await fetch(`${baseUrl}/docs`);
    assert.equal(docs.status, 200);
    assert.match(await docs.text(), /swagger-ui/);
    const openapi = (await (await fetch(`${baseUrl}/openapi.json`)).json()) as { paths: Record<string, unknown> };
    for (const path of ['/api/generate', '/api/metadata', '/api/signature']) assert.ok(path in openapi.paths, path);
  });

  it('signs in with scripts/dev-login.ts and sets a tier with scripts/set-tier.ts', async () => {
    const login = await run(process.execPath, ['--import', 'tsx', 'scripts/dev-login.ts', '--token-only'], { env: { ...process.env, BASE_URL: baseUrl } });
    const token = login.stdout.trim();
    assert.match(token, /^[\w-]+\.[\w-]+\.[\w-]+$/);
    const tier = await run(process.execPath, ['--import', 'tsx', 'scripts/set-tier.ts', '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC', 'pro'], { env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' } });
    assert.match(tier.stdout, /is now pro/);
    const profile = await fetch(`${baseUrl}/v1/user/profile`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(((await profile.json()) as { tier: string }).tier, 'pro');
  });

  it('stops cleanly on SIGTERM', async () => {
    const exited = new Promise<number | null>((resolve) => stack.once('exit', (code) => resolve(code)));
    stack.kill('SIGTERM');
    assert.equal(await exited, 0);
  });
});

describe('npm start with a part that never becomes ready', () => {
  it('exits with an error naming the part, the step and the bound instead of waiting (SONGMINT_TEST_STALL=s3:2000)', async () => {
    const data = await makeTempDir('stack-stalled');
    try {
      const port = await freePortRun();
      const result = await run(process.execPath, ['--import', 'tsx', 'scripts/dev-stack.ts'], {
        env: { ...process.env, PORT: String(port), DATA_DIR: data.path, LOG_LEVEL: 'warn', DATABASE_URL: '', S3_ENDPOINT: '', CHAIN_RPC_URL: '', SONG_NFT_ADDRESS: '', SONGMINT_TEST_STALL: 's3:2000' },
        timeout: 120_000,
      }).then(
        () => assert.fail('npm start came up with a stalled S3 server'),
        (error: { code?: unknown; stderr?: string; killed?: boolean }) => error,
      );
      assert.equal(result.killed, false, 'it exited by itself');
      assert.equal(result.code, 1);
      assert.match(result.stderr ?? '', /npm start could not start the stack\.\nS3 server \(s3rver on loopback\): create bucket "songmint" and listen on 127\.0\.0\.1:\d+ did not finish within 2 s \(stalled on purpose by SONGMINT_TEST_STALL\)/);
    } finally {
      const standIn = await readFile(join(data.path, 'postgres', 'CLUSTER_HOME'), 'utf8').then((text) => text.split('\n')[0], () => undefined);
      if (standIn !== undefined && standIn !== '') await rm(standIn, { recursive: true, force: true });
      await data.remove();
    }
  });
});
