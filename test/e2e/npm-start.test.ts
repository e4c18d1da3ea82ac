import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { makeTempDir } from '../../core/src/testing/temp-dirs.ts';
import { readinessSchema } from '../../oracle/src/http/schemas.ts';
import { freePortRun, removeStandInCluster, stackEnv, startNpmStack } from '../support/npm-start.ts';
import type { NpmStartStack } from '../support/npm-start.ts';
import { createPublicClient, http, toHex } from 'viem';
import { publicKeyToAddress } from 'viem/accounts';
import type { Address } from 'viem';
import { localBaseChain, songmintAddresses, songNftAbi } from '@songmint/sdk';
import { openSigningKey } from '../../core/src/signing/open-signing-key.ts';
import { parseKeyReference } from '../../core/src/signing/key-reference.ts';
import { createSoftHsmToken, softHsmMissing } from '../support/softhsm.ts';
import type { SoftHsmToken } from '../support/softhsm.ts';
import { chromiumMissing } from './support/browser.ts';
import { pythonClientSkip, runPythonClientTests } from '../clients/support/python.ts';
import { checkDemoAgainstChainAndApi } from './support/demo-checks.ts';
import { checkUploadBombs } from './support/upload-bombs-check.ts';
import { walkTheWebApp } from './support/web-app-walk.ts';
import { walkTheReactExample } from '../react/support/example-walk.ts';
import { checkTheHooks } from '../react/support/hooks-walk.ts';
import { startFarcasterDoubles, walkFarcasterRelaySignIn, walkTheMiniApp } from './support/miniapp-walk.ts';
import type { FarcasterDoubles } from './support/miniapp-walk.ts';
import { startHubServer } from '../inference/helpers/hub-server.ts';
import { fixturePreset, XL_FIXTURE, XL_REPOS } from '../inference/helpers/xl-fixture.ts';

const run = promisify(execFile);

const browserSkip = chromiumMissing();
// Said once where it shows, not only as a SKIP line: the README says how to install it.
if (browserSkip !== undefined) console.log(`# browser test skipped: ${browserSkip}`);
const hsmSkip = softHsmMissing();
if (hsmSkip !== undefined) console.log(`# npm start signs with the development key, not an HSM key: ${hsmSkip}`);
const pythonSkip = await pythonClientSkip();
if (pythonSkip !== undefined) console.log(`# Python client test skipped: ${pythonSkip}`);

/** A SoftHSM token made with Debian's tools and a secp256k1 key generated inside it; its address. */
async function hsmPlatformKey(): Promise<{ token: SoftHsmToken; uri: string; address: Address }> {
  const token = await createSoftHsmToken('songmint-npm-start');
  await token.generateKey('platform', 'EC:secp256k1', '01');
  const uri = token.uri('platform');
  const reference = parseKeyReference('PLATFORM_SIGNER', uri);
  if (!reference.ok) throw new Error(reference.error.message);
  const key = await openSigningKey(reference.value, 'secp256k1');
  if (!key.ok) throw new Error(key.error.message);
  const address = publicKeyToAddress(toHex(key.value.publicKey));
  await key.value.close();
  return { token, uri, address };
}

/**
 * `npm start` as a user runs it: every service embedded, data in a fresh DATA_DIR. The DATA_DIR
 * is private (mode 0700, as mkdtemp makes it): as root, PostgreSQL runs as the `postgres` user,
 * which cannot enter it, so this also proves the stand-in cluster folder (CLUSTER_HOME).
 *
 * Where SoftHSM is installed (.ci/run installs it), the stack runs with PLATFORM_SIGNER naming a
 * secp256k1 key inside a SoftHSM token and no PLATFORM_SIGNER_KEY, so every mint below (the demo
 * and the browser walk) is authorised by an HSM signature the real SongNFT verifies.
 */
describe('npm start (scripts/dev-stack.ts)', () => {
  let stack: NpmStartStack;
  let baseUrl: string;
  let dataDir: string;
  let output = '';
  /** /health/ready asked the moment the banner appeared. */
  let readyAtBanner: { status: number; body: unknown };

  let hsm: Awaited<ReturnType<typeof hsmPlatformKey>> | undefined;
  let farcaster: FarcasterDoubles | undefined;

  before(async () => {
    if (hsmSkip === undefined) hsm = await hsmPlatformKey();
    // Farcaster's outside services as loopback doubles, so the Mini App walks below share this
    // stack instead of starting one of their own.
    farcaster = await startFarcasterDoubles();
    stack = await startNpmStack({
      env: { ...farcaster.env, ...(hsm === undefined ? {} : { PLATFORM_SIGNER: hsm.uri, PLATFORM_SIGNER_KEY: '' }) },
    });
    const atBanner = await fetch(`${stack.baseUrl}/health/ready`);
    readyAtBanner = { status: atBanner.status, body: await atBanner.json() };
    ({ baseUrl, dataDir } = stack);
    output = stack.output();
  });
  after(async () => {
    await stack?.remove();
    await Promise.all([hsm?.token.remove(), farcaster?.stop()]);
  });

  it(
    'signs mints with the SoftHSM key PLATFORM_SIGNER names: readiness says pkcs11, SongNFT trusts that key, and the process environment holds no key bytes',
    { skip: hsmSkip ?? false },
    async () => {
      assert.ok(hsm !== undefined);
      const ready = readinessSchema.parse(readyAtBanner.body);
      assert.equal(ready.checks.signer?.backend, 'pkcs11');
      assert.match(ready.checks.signer?.key ?? '', /^pkcs11:.*object=platform/);
      assert.doesNotMatch(JSON.stringify(ready), new RegExp(hsm.token.pin), 'no PIN in readiness');
      const state = JSON.parse(await readFile(join(dataDir, 'dev-stack.json'), 'utf8')) as { rpc: string };
      const client = createPublicClient({ chain: localBaseChain(state.rpc), transport: http(state.rpc) });
      const trusted = await client.readContract({
        address: songmintAddresses.local.SongNFT,
        abi: songNftAbi,
        functionName: 'platformSigner',
      });
      assert.equal(trusted, hsm.address);
      const environ = await readFile(`/proc/${stack.process.pid}/environ`, 'utf8');
      const variables = new Map(
        environ.split('\0').map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)]),
      );
      assert.equal(variables.get('PLATFORM_SIGNER_KEY') ?? '', '', 'no PLATFORM_SIGNER_KEY');
      assert.equal(variables.get('PLATFORM_SIGNER'), hsm.uri);
    },
  );

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

  it('prints its banner only once /health/ready answers ready with a worker live', () => {
    assert.equal(readyAtBanner.status, 200, JSON.stringify(readyAtBanner.body));
    const ready = readinessSchema.parse(readyAtBanner.body);
    assert.equal(ready.status, 'ready');
    assert.ok((ready.checks.workers.live ?? 0) >= 1, JSON.stringify(ready));
    assert.match(output, new RegExp(`Worker\\s+pid \\d+, live \\(${baseUrl}/health/ready answers ready\\)`));
  });

  it('serves the web app at /app with the local chain in its config.json', async () => {
    assert.match(output, new RegExp(`App\\s+${baseUrl}/app/`));
    const page = await fetch(`${baseUrl}/app/`);
    assert.equal(page.status, 200);
    const html = await page.text();
    assert.match(html, /<title>Songmint<\/title>/);
    const script = /<script type="module"[^>]* src="(\/app\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    assert.ok(script !== undefined, 'the built page loads its bundle from /app/assets');
    assert.equal((await fetch(`${baseUrl}${script}`)).status, 200);
    const config = (await (await fetch(`${baseUrl}/app/config.json`)).json()) as {
      rpcUrl: string;
      contracts: Record<string, string>;
      developmentWallet: boolean;
    };
    assert.match(config.rpcUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.match(config.contracts.SongNFT ?? '', /^0x[0-9a-fA-F]{40}$/);
    assert.equal(config.developmentWallet, true);
  });

  it('signs in with scripts/dev-login.ts (found by PORT, as npm start, on this non-default port) and sets a tier with scripts/set-tier.ts', async () => {
    const port = new URL(baseUrl).port;
    assert.notEqual(port, '3000');
    const login = await run(process.execPath, ['--import', 'tsx', 'scripts/dev-login.ts', '--token-only'], {
      env: { ...process.env, BASE_URL: '', HOST: '', PORT: port },
    });
    const token = login.stdout.trim();
    assert.match(token, /^[\w-]+\.[\w-]+\.[\w-]+$/);
    const tier = await run(
      process.execPath,
      ['--import', 'tsx', 'scripts/set-tier.ts', '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC', 'pro'],
      { env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' } },
    );
    assert.match(tier.stdout, /is now pro/);
    const profile = await fetch(`${baseUrl}/v1/user/profile`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(((await profile.json()) as { tier: string }).tier, 'pro');
  });

  it('runs `npm run demo` against it, found as `npm start` places it (PORT and DATA_DIR, no API_URL): every step through the SDK, exit code 0', async () => {
    const port = new URL(baseUrl).port;
    const demo = await run('npm', ['run', 'demo'], {
      env: { ...process.env, API_URL: '', RPC_URL: '', HOST: '', PORT: port, DATA_DIR: dataDir },
      timeout: 240_000,
    });
    for (const step of [
      'Signed in with Ethereum',
      'Song ready',
      'Metadata on IPFS',
      'Minted',
      'Launched on Uniswap v4',
      'Bought',
      'Sold',
      'Fees collected and claimed',
      'Pool (on chain)',
      'Profile (/v1/user/profile)',
    ]) {
      assert.match(demo.stdout, new RegExp(`== ${step.replace(/[()/]/g, '\\$&')}`), step);
    }
    assert.match(demo.stdout, /Demo finished: every step passed\./);
  });

  it("the demo flow's figures agree with the chain and the API; the served OpenAPI document and the local addresses are what the SDK was generated from", async () => {
    await checkDemoAgainstChainAndApi(stack);
  });

  it(
    'walks the web app in Chromium: preview, generate live, mint, launch, buy and sell through the Universal Router (the chart moves), claim, move payouts, discover, reload, the song link without a wallet; axe and the script budget on every view at 360 px and desktop',
    { skip: browserSkip ?? false },
    async () => {
      await walkTheWebApp(stack);
    },
  );

  it(
    "drives the React example (examples/react) in Chromium with an injected test wallet: sign in, generate live, mint, launch and buy through @songmint/react's hooks alone; then each hook's test page on that song (edit live, job list paging, upload refusal by code, download, preview, quote, sell, claim, coin, creator, portfolio)",
    { skip: browserSkip ?? false },
    async () => {
      // Its own wallet (Hardhat's account #7): the walk above keeps the development wallet's library and limits as it expects.
      const nodeEnv = process.env.NODE_ENV;
      const song = await walkTheReactExample(stack);
      await checkTheHooks(stack, song);
      // The pages are built in child processes: this process (which starts the stacks below) keeps its NODE_ENV.
      assert.equal(process.env.NODE_ENV, nodeEnv);
    },
  );

  it(
    "runs as a Farcaster Mini App inside a host page (@farcaster/miniapp-host) at 424 x 695: signs in with Quick Auth, fits its frame and safe-area insets, generates, mints, buys and shares as a cast, every transaction through the host's wallet",
    { skip: browserSkip ?? false },
    async () => {
      assert.ok(farcaster !== undefined);
      await walkTheMiniApp(stack, farcaster);
    },
  );

  it(
    'outside a Farcaster client: Sign in with Farcaster shows the relay channel as a QR code and deep link, and signs the fid in',
    { skip: browserSkip ?? false },
    async () => {
      assert.ok(farcaster !== undefined);
      await walkFarcasterRelaySignIn(stack, farcaster);
    },
  );

  it("refuses the security review's upload bombs, 20 in a row, each by its code, with the oracle's peak RSS growth bounded and /health/live answering throughout", async () => {
    await checkUploadBombs(baseUrl, stack.process.pid ?? 0);
  });

  // On this stack rather than a cold one of its own: it needs nothing another test changes.
  it(
    "the Python client (clients/python) passes its pytest suite against it: the README's walkthrough sync and async, upload, rate limit, OpenAPI coverage",
    { skip: pythonSkip ?? false },
    async () => {
      const { code, output } = await runPythonClientTests(baseUrl);
      assert.equal(code, 0, `pytest exited ${code} (5: no tests collected):\n${output}`);
      assert.match(output, /\d+ passed/, output);
      assert.doesNotMatch(output, /SKIPPED \[\d+\] \S*test_(flow|openapi|readme)/, 'no stack test skipped');
    },
  );

  it('stops cleanly on SIGTERM', async () => {
    const exited = new Promise<number | null>((resolve) => stack.process.once('exit', (code) => resolve(code)));
    stack.process.kill('SIGTERM');
    assert.equal(await exited, 0);
  });
});

// The stacks below share nothing (each its own ports and DATA_DIR, none deploys the local chain)
// and spend most of their time waiting: side by side they take about as long as one.
describe('npm start with a part that never becomes ready, and with MODEL=<preset>', { concurrency: true }, () => {
  it('MODEL=<preset> fetches the XL Turbo files from the Hub (a local test double) on the first start, imports them and serves them: the worker runs the singing model', async () => {
    const data = await makeTempDir('stack-model');
    const hub = await startHubServer(Object.fromEntries(XL_REPOS.map((repo) => [repo, join(XL_FIXTURE, repo)])));
    try {
      const preset = join(data.path, 'preset.json');
      await writeFile(preset, JSON.stringify(fixturePreset()));
      const port = await freePortRun();
      const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/dev-stack.ts'], {
        env: stackEnv(port, data.path, {
          MODEL: preset,
          HF_ENDPOINT: hub.url,
          CHAIN_RPC_URL: `http://127.0.0.1:${port + 2}`,
          SONG_NFT_ADDRESS: `0x${'11'.repeat(20)}`,
          LOG_LEVEL: 'silent',
        }),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
      const deadline = Date.now() + 240_000;
      while (!output.includes('development stack is up') && child.exitCode === null) {
        assert.ok(Date.now() < deadline, `no banner within 240 s:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      try {
        assert.match(output, /acestep-1\.5-xl-turbo-fixture \(standard\) from http:\/\/127\.0\.0\.1:\d+: 17 files/, output);
        assert.match(output, /disk: [\d.]+ kB still to download/);
        assert.match(output, /\[#{20}\] 100% .*\/dit_decoder_xl_turbo_q4\.onnx\.data\.2/);
        assert.match(output, /imported ace-step-1\.5-xl-turbo into .*models\/acestep-1\.5-xl-turbo-fixture/);
        assert.match(
          output,
          /Model +ace-step-1\.5-xl-turbo \(acestep-1\.5-xl-turbo-fixture, standard quality\) in .*, fetched and imported now/,
        );
        const ready = readinessSchema.parse(await (await fetch(`http://127.0.0.1:${port}/health/ready`)).json());
        assert.deepEqual(ready.checks.workers.models, ['ace-step-1.5-xl-turbo@1.5']);
      } finally {
        child.kill('SIGTERM');
        assert.equal(await exited, 0);
      }
    } finally {
      await hub.close();
      await removeStandInCluster(data.path);
      await data.remove();
    }
  });

  it('exits with an error naming the part, the step and the bound instead of waiting (SONGMINT_TEST_STALL=s3:2000)', async () => {
    const data = await makeTempDir('stack-stalled');
    try {
      const port = await freePortRun();
      const result = await run(process.execPath, ['--import', 'tsx', 'scripts/dev-stack.ts'], {
        env: stackEnv(port, data.path, { SONGMINT_TEST_STALL: 's3:2000' }),
        timeout: 120_000,
      }).then(
        () => assert.fail('npm start came up with a stalled S3 server'),
        (error: { code?: unknown; stderr?: string; killed?: boolean }) => error,
      );
      assert.equal(result.killed, false, 'it exited by itself');
      assert.equal(result.code, 1);
      assert.match(
        result.stderr ?? '',
        /npm start could not start the stack\.\nS3 server \(s3rver on loopback\): create bucket "songmint" and listen on 127\.0\.0\.1:\d+ did not finish within 2 s \(stalled on purpose by SONGMINT_TEST_STALL\)/,
      );
    } finally {
      await removeStandInCluster(data.path);
      await data.remove();
    }
  });

  it('prints no banner while no worker is live: /health/ready answers 503 waiting for workers, then the bound names the worker (SONGMINT_TEST_STALL=worker:4000)', async () => {
    const data = await makeTempDir('stack-no-worker');
    try {
      const port = await freePortRun();
      // An external chain (unreachable, unused here) skips the local chain's deployment: the API is up sooner.
      const stalled = run(process.execPath, ['--import', 'tsx', 'scripts/dev-stack.ts'], {
        env: stackEnv(port, data.path, {
          SONGMINT_TEST_STALL: 'worker:4000',
          CHAIN_RPC_URL: `http://127.0.0.1:${port + 2}`,
          SONG_NFT_ADDRESS: `0x${'11'.repeat(20)}`,
          LOG_LEVEL: 'silent',
        }),
        timeout: 120_000,
      }).then(
        () => assert.fail('npm start came up with no worker'),
        (error: { code?: unknown; stdout?: string; stderr?: string; killed?: boolean }) => error,
      );
      let exited = false;
      void stalled.then(() => (exited = true));
      const answers: Array<{ httpStatus: number; readiness: ReturnType<typeof readinessSchema.parse> }> = [];
      while (!exited) {
        const response = await fetch(`http://127.0.0.1:${port}/health/ready`).catch(() => undefined);
        if (response !== undefined) answers.push({ httpStatus: response.status, readiness: readinessSchema.parse(await response.json()) });
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const result = await stalled;
      assert.ok(answers.length > 0, 'the API answered while the stack waited for a worker');
      for (const { httpStatus, readiness } of answers) {
        assert.equal(httpStatus, 503);
        assert.equal(readiness.status, 'not_ready');
        assert.deepEqual(readiness.waiting_for, ['workers']);
      }
      assert.equal(result.killed, false, 'it exited by itself');
      assert.equal(result.code, 1);
      assert.doesNotMatch(result.stdout ?? '', /development stack is up/);
      assert.match(
        result.stderr ?? '',
        /npm start could not start the stack\.\ninference worker: start and report live at \/health\/ready did not finish within 4 s \(stalled on purpose by SONGMINT_TEST_STALL\)/,
      );
    } finally {
      await removeStandInCluster(data.path);
      await data.remove();
    }
  });
});
