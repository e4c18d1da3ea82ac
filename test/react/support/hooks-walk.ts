/**
 * @songmint/react's hooks in react-dom in Chromium against a running `npm start` (no mocked
 * fetch), with a wagmi config whose injected connector signs with a local test key: the hook
 * test page (test/react/harness) after the example's walk, on the song the example minted,
 * launched and bought. Each probe's state is read as JSON and checked against the API and the chain.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { Page, Request } from 'playwright-core';
import { createPublicClient, http } from 'viem';
import type { Address } from 'viem';
import { localBaseChain, readPool, songmintAddresses, songTokenAbi } from '@songmint/sdk';
import type { NpmStartStack } from '../../support/npm-start.ts';
import { launchChromium } from '../../e2e/support/browser.ts';
import { buildPage, REACT_SCREENSHOTS, stackRpcUrl } from './example-walk.ts';
import { installTestWallet } from './injected-wallet.ts';
import { serveFolder } from './static-site.ts';

const STEP_TIMEOUT_MS = 180_000;

interface ErrorState {
  class: string;
  isSongmintError: boolean;
  code: string;
  message: string;
}

/** A probe's state, once `ready` holds for it. */
async function probe<T>(page: Page, id: string, ready: (state: T) => boolean = () => true): Promise<T> {
  const deadline = Date.now() + STEP_TIMEOUT_MS;
  for (;;) {
    const state = JSON.parse((await page.locator(`pre#${id}`).textContent()) ?? 'null') as T;
    if (ready(state)) return state;
    if (Date.now() > deadline) assert.fail(`${id} never got there: ${JSON.stringify(state)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export async function checkTheHooks(stack: NpmStartStack, song: { jobId: string; songId: bigint }): Promise<void> {
  const started = Date.now();
  const rpcUrl = await stackRpcUrl(stack);
  const built = await buildPage(join(process.cwd(), 'test', 'react', 'harness', 'vite.config.ts'), { apiUrl: stack.baseUrl, rpcUrl });
  const site = await serveFolder(built.dir);
  const browser = await launchChromium({ width: 1000, height: 900 });
  const client = createPublicClient({ chain: localBaseChain(rpcUrl), transport: http(rpcUrl) });
  try {
    const wallet = await installTestWallet(browser.context, { rpcUrl });
    const page = await browser.context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    /** GET /api/generate (the job list) requests, to show events update the cache without refetching the list. */
    const listRequests: string[] = [];
    page.on('request', (request: Request) => {
      const url = new URL(request.url());
      if (request.method() === 'GET' && url.pathname === '/api/generate') listRequests.push(url.search);
    });
    try {
      await page.goto(`${site.url}?job=${song.jobId}&song=${song.songId}`);
      await page.locator('#connect').click();
      await probe<{ status: string }>(page, 'session', (state) => state.status === 'signed-out');
      await page.locator('#sign-in').click();
      await probe<{ status: string }>(page, 'session', (state) => state.status === 'signed-in');

      // A refused mint signature (this job was signed for already) is the SDK's typed error with the API's code.
      await page.locator('#signature-again').click();
      const refused = await probe<{ signatureError?: ErrorState }>(page, 'market', (state) => state.signatureError !== undefined);
      assert.equal(refused.signatureError?.class, 'SongmintApiError');
      assert.equal(refused.signatureError?.isSongmintError, true);
      assert.equal(refused.signatureError?.code, 'SIGN_002');

      // An edit, followed live: every status from the event stream, none from polling; the job
      // list's card changes in place (one list request after the edit started, none per event).
      await probe<{ pages?: unknown[] }>(page, 'jobs', (state) => state.pages !== undefined);
      const listsBefore = listRequests.length;
      await page.locator('#edit-extend').click();
      const edit = await probe<{ jobId?: string; status?: string; transport: string; seen: string[]; error?: ErrorState }>(
        page,
        'edit',
        (state) => state.error !== undefined || state.status === 'completed' || state.status === 'failed',
      );
      assert.equal(edit.error, undefined, JSON.stringify(edit.error));
      assert.equal(edit.status, 'completed');
      assert.equal(edit.transport, 'events');
      assert.ok(edit.seen.length >= 2, `statuses seen: ${edit.seen.join(' ')}`);
      const jobs = await probe<{ pages: Array<Array<{ id: string; status: string }>>; total: number; hasNextPage: boolean }>(
        page,
        'jobs',
        (state) => state.pages[0]?.[0]?.id === edit.jobId && state.pages[0]?.[0]?.status === 'completed',
      );
      const listsDuringEdit = listRequests.length - listsBefore;
      assert.ok(listsDuringEdit <= 2, `job list fetched ${listsDuringEdit} times while ${edit.seen.length} events arrived`);
      // Cursor paging, one job a page: the edit, then the example's song.
      assert.ok(jobs.total >= 2 && jobs.hasNextPage);
      await page.locator('#jobs-more').click();
      const paged = await probe<{ pages: Array<Array<{ id: string }>> }>(page, 'jobs', (state) => state.pages.length === 2);
      assert.deepEqual(
        paged.pages.map((jobsOfPage) => jobsOfPage.map((job) => job.id)),
        [[edit.jobId], [song.jobId]],
      );

      // Uploads: a refusal by its code, then a WAV with its progress.
      await page.locator('#upload-junk').click();
      const junk = await probe<{ error?: ErrorState }>(page, 'upload', (state) => state.error !== undefined);
      assert.equal(junk.error?.class, 'SongmintApiError');
      assert.equal(junk.error?.code, 'UPLOAD_001');
      await page.locator('#upload-wav').click();
      const uploaded = await probe<{
        upload?: { uploadId: string; duration: number; format: string };
        progress: { sent: number; total: number };
      }>(page, 'upload', (state) => state.upload !== undefined);
      assert.match(uploaded.upload?.uploadId ?? '', /^upl_/);
      assert.equal(uploaded.upload?.format, 'wav');
      assert.equal(uploaded.progress.sent, uploaded.progress.total);

      // Downloads: the link, then the bytes (their count checked against the link's).
      const link = await probe<{ link?: { bytes: number; fileName: string } }>(page, 'download', (state) => state.link !== undefined);
      assert.match(link.link?.fileName ?? '', /\.mp3$/);
      await page.locator('#download-mp3').click();
      const downloaded = await probe<{ downloaded?: number }>(page, 'download', (state) => state.downloaded !== undefined);
      assert.equal(downloaded.downloaded, link.link?.bytes);

      // A preview, polled to its signed URL.
      await page.locator('#preview-create').click();
      const preview = await probe<{ status?: string; url?: string; error?: ErrorState }>(
        page,
        'preview',
        (state) => state.error !== undefined || state.status === 'completed' || state.status === 'failed',
      );
      assert.equal(preview.status, 'completed', JSON.stringify(preview.error));
      assert.match(preview.url ?? '', /^http/);

      // Reads, a sale through Permit2 and the Universal Router, the creator's fee claim.
      const market = await probe<{
        held?: string;
        quote?: { amountIn: string; amountOut: string };
        coin?: { songId: string; token: string };
        creator?: { address: string };
        allocation?: { amount: string };
        tier?: string;
      }>(
        page,
        'market',
        (state) => state.quote !== undefined && state.coin !== undefined && state.creator !== undefined && state.tier !== undefined,
      );
      const pool = await readPool({ publicClient: client, contracts: songmintAddresses.local }, { songId: song.songId });
      assert.equal(market.coin?.token, pool.token);
      assert.equal(market.creator?.address.toLowerCase(), wallet.address.toLowerCase());
      assert.equal(market.tier, 'free');
      const balance = (holder: Address) =>
        client.readContract({ address: pool.token, abi: songTokenAbi, functionName: 'balanceOf', args: [holder] });
      const before = await balance(wallet.address);
      assert.equal(market.held, before.toString(), 'the portfolio shows the balance on chain');
      await page.locator('#sell').click();
      const sold = await probe<{ sold?: { amountIn: string; amountOut: string; permit2ApprovalHash?: string }; error?: ErrorState }>(
        page,
        'market',
        (state) => state.sold !== undefined || state.error !== undefined,
      );
      assert.equal(sold.error, undefined, JSON.stringify(sold.error));
      assert.equal(BigInt(sold.sold?.amountIn ?? '0'), before / 2n);
      assert.equal(await balance(wallet.address), before - before / 2n);
      assert.ok(sold.sold?.permit2ApprovalHash !== undefined, 'the first sale approved Permit2 once');
      // The sale invalidated the portfolio: it shows the new balance without a reload.
      await probe<{ held?: string }>(page, 'market', (state) => state.held === (before - before / 2n).toString());
      await page.locator('#claim').click();
      const claimed = await probe<{ claimed?: Array<{ songId: string; eth: string }>; error?: ErrorState }>(
        page,
        'market',
        (state) => state.claimed !== undefined || state.error !== undefined,
      );
      assert.equal(claimed.error, undefined, JSON.stringify(claimed.error));
      assert.equal(claimed.claimed?.[0]?.songId, song.songId.toString());
      assert.ok(BigInt(claimed.claimed?.[0]?.eth ?? '0') > 0n, 'the creator got ETH fees from the buy and the sale');
      await page.screenshot({ path: join(REACT_SCREENSHOTS, '7-hooks.png'), fullPage: true });
      assert.deepEqual(pageErrors, []);
    } catch (error) {
      await page.screenshot({ path: join(REACT_SCREENSHOTS, 'hooks-failure.png'), fullPage: true }).catch(() => undefined);
      throw error;
    }
    console.log(`# React hooks in Chromium: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    await browser.close();
    await site.close();
    await built.remove();
  }
}
