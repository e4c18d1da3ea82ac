/**
 * The React example (examples/react) in headless Chromium against a running `npm start`: built
 * by Vite for the stack's API and chain, served on loopback, with an injected wallet backed by a
 * local test key. A person's walk: connect, sign in with Ethereum, generate (the progress bar
 * follows the job's event stream), mint, launch, buy. What the page says is checked against the
 * chain; screenshots of each step go to test-results/react/ (git-ignored).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { createPublicClient, http } from 'viem';
import type { Address } from 'viem';
import { localBaseChain, readPool, songmintAddresses, songNftAbi, songTokenAbi } from '@songmint/sdk';
import { makeTempDir } from '../../../core/src/testing/temp-dirs.ts';
import type { NpmStartStack } from '../../support/npm-start.ts';
import { launchChromium } from '../../e2e/support/browser.ts';
import { installTestWallet } from './injected-wallet.ts';
import type { WalletRequest } from './injected-wallet.ts';
import { serveFolder } from './static-site.ts';

export const REACT_SCREENSHOTS = join(process.cwd(), 'test-results', 'react');
const STEP_TIMEOUT_MS = 180_000;
const run = promisify(execFile);

/**
 * Builds a Vite page (`configFile`) for the stack's API and chain into a fresh folder, in a child
 * process: Vite's build sets NODE_ENV=production in the process that runs it, which the stacks
 * this test process starts later would inherit (and refuse to start without production secrets).
 */
export async function buildPage(
  configFile: string,
  env: { apiUrl: string; rpcUrl: string },
): Promise<{ dir: string; remove(): Promise<void> }> {
  const out = await makeTempDir('react-page');
  const dir = join(out.path, 'dist');
  const vite = join(process.cwd(), 'node_modules', 'vite', 'bin', 'vite.js');
  // logLevel error: TanStack Query's "use client" directives are a warning for a client-only bundle.
  await run(process.execPath, [vite, 'build', '--config', configFile, '--outDir', dir, '--emptyOutDir', '--logLevel', 'error'], {
    env: { ...process.env, VITE_SONGMINT_API_URL: env.apiUrl, VITE_SONGMINT_RPC_URL: env.rpcUrl },
    timeout: 300_000,
  });
  return { dir, remove: () => out.remove() };
}

/** The local chain's RPC URL, as `npm start` writes it into its DATA_DIR. */
export async function stackRpcUrl(stack: NpmStartStack): Promise<string> {
  return (JSON.parse(await readFile(join(stack.dataDir, 'dev-stack.json'), 'utf8')) as { rpc: string }).rpc;
}

const shot = (page: Page, name: string) => page.screenshot({ path: join(REACT_SCREENSHOTS, `${name}.png`), fullPage: true });

/** The walk; resolves with the song it made (its job, its token id), launched and bought. */
export async function walkTheReactExample(stack: NpmStartStack): Promise<{ jobId: string; songId: bigint }> {
  const started = Date.now();
  await mkdir(REACT_SCREENSHOTS, { recursive: true });
  const rpcUrl = await stackRpcUrl(stack);
  const built = await buildPage(join(process.cwd(), 'examples', 'react', 'vite.config.ts'), { apiUrl: stack.baseUrl, rpcUrl });
  const builtIn = Date.now() - started;
  const site = await serveFolder(built.dir);
  const browser = await launchChromium({ width: 1000, height: 900 });
  try {
    const wallet = await installTestWallet(browser.context, { rpcUrl });
    const page = await browser.context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    let song: { jobId: string; songId: bigint };
    try {
      song = await walkSteps(page, site.url, wallet, rpcUrl, pageErrors);
    } catch (error) {
      // What the page showed when a step failed, beside the failure.
      await shot(page, 'failure').catch(() => undefined);
      const shown = await page
        .locator('body')
        .innerText()
        .catch(() => '(no page)');
      throw new Error(`${error instanceof Error ? error.message : String(error)}\npage:\n${shown}\npage errors: ${pageErrors.join('; ')}`, {
        cause: error,
      });
    }
    console.log(
      `# React example: built in ${(builtIn / 1000).toFixed(1)} s, walked in ${((Date.now() - started - builtIn) / 1000).toFixed(1)} s`,
    );
    return song;
  } finally {
    await browser.close();
    await site.close();
    await built.remove();
  }
}

async function walkSteps(
  page: Page,
  siteUrl: string,
  wallet: { address: Address; requests: WalletRequest[] },
  rpcUrl: string,
  pageErrors: string[],
): Promise<{ jobId: string; songId: bigint }> {
  await page.goto(siteUrl);
  await page.getByRole('button', { name: 'Connect wallet' }).click();
  await page.getByRole('button', { name: 'Sign in with Ethereum' }).click();
  await page.locator('#account', { hasText: 'Signed in as' }).waitFor({ timeout: STEP_TIMEOUT_MS });
  assert.match(await page.locator('#account').innerText(), new RegExp(wallet.address));
  assert.deepEqual(methods(wallet.requests), ['personal_sign'], 'the wallet signed the SIWE message, nothing else');
  assert.match(siweMessage(wallet.requests[0]), /wants you to sign in with your Ethereum account:\n0x/);
  await shot(page, '1-signed-in');

  // Generate: the card follows the job live to the finished song.
  const progressSeen = new Set<string>();
  await page.getByRole('button', { name: 'Generate 5 s' }).click();
  await page.locator('#job').waitFor({ timeout: STEP_TIMEOUT_MS });
  const deadline = Date.now() + STEP_TIMEOUT_MS;
  while ((await page.locator('#job').getAttribute('data-status')) !== 'completed') {
    assert.ok(Date.now() < deadline, 'the job completes');
    const status = await page.locator('#job').getAttribute('data-status');
    assert.notEqual(status, 'failed', await page.locator('#job').innerText());
    progressSeen.add(`${status}:${await page.locator('#job-progress').getAttribute('value')}`);
    if (progressSeen.size === 1) await shot(page, '2-generating');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.match(await page.locator('#job').innerText(), /followed over its event stream/);
  const jobId = (await page.locator('#job').getAttribute('data-job-id')) ?? '';
  assert.match(jobId, /^gen_/);
  // The library's card was updated in place from the events: it says completed too.
  await page.locator(`#library li[data-job-id="${jobId}"][data-status="completed"]`).waitFor({ timeout: STEP_TIMEOUT_MS });
  await shot(page, '3-generated');

  // Mint: metadata, the platform's signature, the wallet's transaction.
  await page.getByLabel('Name').fill('Rainy evening in React');
  await page.getByRole('button', { name: 'Mint' }).click();
  await page.locator('#minted').waitFor({ timeout: STEP_TIMEOUT_MS });
  const tokenId = BigInt((await page.locator('#minted').getAttribute('data-token-id')) ?? '-1');
  const chain = localBaseChain(rpcUrl);
  const client = createPublicClient({ chain, transport: http(rpcUrl) });
  const owner = await client.readContract({
    address: songmintAddresses.local.SongNFT,
    abi: songNftAbi,
    functionName: 'ownerOf',
    args: [tokenId],
  });
  assert.equal(owner, wallet.address, 'the wallet owns the minted song');
  await shot(page, '4-minted');

  // Launch, then buy through the Universal Router at the quote shown.
  await page.getByRole('button', { name: 'Launch its coin' }).click();
  await page.locator('#launched').waitFor({ timeout: STEP_TIMEOUT_MS });
  const token = (await page.locator('#launched').getAttribute('data-token')) as Address;
  assert.equal(token, (await readPool({ publicClient: client, contracts: songmintAddresses.local }, { songId: tokenId })).token);
  await page.locator('#quote[data-amount-out]:not([data-amount-out=""])').waitFor({ timeout: STEP_TIMEOUT_MS });
  await shot(page, '5-launched');
  await page.getByRole('button', { name: 'Buy', exact: true }).click();
  await page.locator('#bought').waitFor({ timeout: STEP_TIMEOUT_MS });
  const bought = BigInt((await page.locator('#bought').getAttribute('data-amount-out')) ?? '0');
  const balance = await client.readContract({ address: token, abi: songTokenAbi, functionName: 'balanceOf', args: [wallet.address] });
  assert.ok(bought > 0n);
  assert.equal(balance, bought, 'the tokens the page says it bought are in the wallet');
  // The portfolio refetched after the buy (the mutation invalidated it) and shows the balance.
  await page.locator(`#holding[data-balance="${balance}"]`).waitFor({ timeout: STEP_TIMEOUT_MS });
  await shot(page, '6-bought');

  const sent = methods(wallet.requests).filter((method) => method === 'eth_sendTransaction').length;
  // The mint, the NFT approval to the vault, the launch and the buy.
  assert.equal(sent, 4, JSON.stringify(methods(wallet.requests)));
  assert.deepEqual(await page.locator('[role="alert"]').allInnerTexts(), [], 'no error shown');
  assert.deepEqual(pageErrors, []);
  console.log(`# React example: progress seen: ${[...progressSeen].join(' ')}`);
  return { jobId, songId: tokenId };
}

const methods = (requests: WalletRequest[]) => requests.map((request) => request.method);

function siweMessage(request: WalletRequest | undefined): string {
  const hex = String(request?.params[0] ?? '');
  return Buffer.from(hex.replace(/^0x/, ''), 'hex').toString('utf8');
}
