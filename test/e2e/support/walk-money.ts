/**
 * The browser walk's money steps (issue 36): the launch confirmation read and accepted on the song
 * page, a quote before the buy that the executed trade matches within the slippage shown, the
 * launch fee shown for the next block against the fee the hook charged in the block the buy was mined in,
 * a sale larger than the balance refused in words with nothing sent, and the chain not answering
 * explained next to Buy.
 */
import assert from 'node:assert/strict';
import { parseEther, parseEventLogs } from 'viem';
import type { Hash, PublicClient } from 'viem';
import type { Page } from 'playwright-core';
import { poolManagerAbi, poolIdOf, readPool, songmintAddresses, songPoolHookAbi } from '@songmint/sdk';
import { assertNextTo } from './walk-library.ts';

const STEP_TIMEOUT_MS = 180_000;

type Client = Pick<PublicClient, 'getTransactionReceipt' | 'getTransactionCount' | 'readContract' | 'getBlock'>;
type ReadChain = Parameters<typeof readPool>[0];

/** The page globals the functions given to `evaluate` use (they run in Chromium; this module has no DOM types). */
interface QuoteBox {
  readonly dataset: Record<string, string | undefined>;
}
declare const document: { querySelector(selector: string): QuoteBox | null };
declare class MutationObserver {
  constructor(callback: () => void);
  observe(target: QuoteBox, options: object): void;
}

interface ShownQuote {
  block: bigint;
  feePips: bigint;
  limit: bigint;
  amountOut: bigint;
}

/** The quote box's figures as the page shows them now. */
async function shownQuote(page: Page, side: 'buy' | 'sell'): Promise<ShownQuote> {
  const box = page.locator(`#${side}-quote`);
  await box.locator('dl.facts').waitFor({ timeout: STEP_TIMEOUT_MS });
  const data = await box.evaluate((element) => ({ ...(element as unknown as QuoteBox).dataset }));
  return {
    block: BigInt(data.block ?? '0'),
    feePips: BigInt(data.feePips ?? '0'),
    limit: BigInt(data.limit ?? '0'),
    amountOut: BigInt(data.amountOut ?? '0'),
  };
}

/**
 * On the song page of a song not yet launched: open the launch, read what cannot be undone, what
 * the creator receives and the fee schedule, accept with 5%, and see the pool appear.
 */
export async function launchWithConfirmation(page: Page, tokenId: bigint, checkView: (name: string) => Promise<void>): Promise<void> {
  await page.getByRole('button', { name: `Launch #${tokenId}…` }).click();
  const confirm = page.locator('#launch-confirm');
  await confirm.locator('.launch-terms').waitFor({ timeout: STEP_TIMEOUT_MS });
  const terms = (await confirm.innerText()).replace(/\s+/g, ' ');
  assert.match(terms, new RegExp(`Song #${tokenId} \\(the NFT\\) goes into the SongVault for good`));
  assert.match(terms, /liquidity is locked in the vault forever/);
  assert.match(terms, /An allocation of 50,000,000 tokens \(5% of the supply\), held by the vault until 120 s after the launch/);
  assert.match(terms, /claimAllocation/);
  assert.match(terms, /80% of every fee the pool earns .* the platform keeps 20%/);
  assert.match(terms, /A launch fee of 50% at the launch, falling every block to 1% over 120 s/);
  assert.match(terms, /LP fee of 1% on every trade/);
  await checkView('3a-launch-confirm');
  await page.getByRole('button', { name: 'Launch for good' }).click();
  await page.locator('#pool-price').waitFor({ timeout: STEP_TIMEOUT_MS });
}

/**
 * Buys `eth` on the song page after reading its quote: what arrived is at least the least-received
 * shown, the hook charged the fee of its block as the chain computes it, never more than the fee
 * shown before the click, and exactly the fee the page showed for that block.
 */
export async function buyAgainstTheQuote(page: Page, client: Client, chain: ReadChain, tokenId: bigint, eth: string): Promise<void> {
  await page.getByLabel('ETH to spend').fill(eth);
  // The page reads the quote again every block: note the fee it shows for each block time from now
  // on (the fee is a function of the block's time; a local block's time is fixed only when mined).
  // (No named functions in the page's code: tsx would wrap them in a helper the page lacks.)
  await page.evaluate(() => {
    const box = document.querySelector('#buy-quote');
    const seen: Record<string, string> = {};
    (globalThis as unknown as { shownFees: Record<string, string> }).shownFees = seen;
    if (box === null) return;
    new MutationObserver(() => {
      if (box.dataset.blockTime !== undefined && box.dataset.feePips !== undefined) seen[box.dataset.blockTime] = box.dataset.feePips;
    }).observe(box, { childList: true, subtree: true, attributes: true });
  });
  await page.waitForFunction((wei) => document.querySelector('#buy-quote')?.dataset.amountIn === wei, parseEther(eth).toString(), {
    timeout: STEP_TIMEOUT_MS,
  });
  const before = await shownQuote(page, 'buy');
  assert.match(
    await page.locator('#buy-quote').innerText(),
    /Launch fee, next block[\s\S]*LP fee[\s\S]*1%[\s\S]*Price impact[\s\S]*Least you receive \(1% slippage\)/,
  );
  await page.getByRole('button', { name: 'Buy' }).click();
  await page.locator('#last-trade', { hasText: 'Bought' }).waitFor({ timeout: STEP_TIMEOUT_MS });
  const line = await page.locator('#last-trade').evaluate((element) => ({ ...(element as unknown as QuoteBox).dataset }));
  const receipt = await client.getTransactionReceipt({ hash: line.tx as Hash });
  const pool = await readPool(chain, { songId: tokenId });
  // The hook logs no fee of its own: its ERC-6909 mint to the song's token is the fee, charged at the
  // hook's rate in the block the swap was mined in.
  const minted = parseEventLogs({ abi: poolManagerAbi, eventName: 'Transfer', logs: receipt.logs }).find(
    (log) =>
      log.args.caller.toLowerCase() === songmintAddresses.local.SongPoolHook.toLowerCase() &&
      BigInt(log.args.from) === 0n &&
      log.args.to.toLowerCase() === pool.token.toLowerCase(),
  );
  assert.ok(minted !== undefined && minted.args.amount > 0n, 'the hook charged its fee');
  const chargedPips = await client.readContract({
    address: songmintAddresses.local.SongPoolHook,
    abi: songPoolHookAbi,
    functionName: 'swapFeePips',
    args: [pool.launchedAt],
    blockNumber: receipt.blockNumber,
  });
  assert.equal(BigInt(line.feePips ?? '-1'), chargedPips, 'the page says the fee the hook charged');
  assert.ok(chargedPips <= before.feePips, `charged ${chargedPips} pips, shown ${before.feePips} before the click`);
  const shown = (await page.evaluate(() => (globalThis as unknown as { shownFees: Record<string, string> }).shownFees)) as Record<
    string,
    string
  >;
  const minedAt = (await client.getBlock({ blockNumber: receipt.blockNumber })).timestamp.toString();
  assert.equal(line.blockTime, minedAt);
  const shownForIt = shown[minedAt];
  const quotedForIt = line.quotedBlockTime === minedAt ? line.quotedFeePips : undefined;
  for (const fee of [shownForIt, quotedForIt])
    if (fee !== undefined) assert.equal(BigInt(fee), chargedPips, 'the fee shown for the block is the fee charged in it');
  console.log(
    `# walk: buy in block ${receipt.blockNumber} at ${minedAt}, fee charged ${chargedPips} pips; shown for that time: ${shownForIt ?? 'no'}, quoted for it: ${quotedForIt ?? 'no'}; shown before the click ${before.feePips} for block ${before.block}`,
  );
  const swapped = parseEventLogs({ abi: poolManagerAbi, eventName: 'Swap', logs: receipt.logs }).find(
    (log) => log.args.id === poolIdOf(pool.poolKey),
  );
  assert.ok(swapped !== undefined && swapped.args.amount1 >= before.limit, 'at least the least-received shown (within the slippage)');
  // Readable units: liquidity as ETH and tokens, prices and chart labels without e-notation.
  assert.match((await page.locator('#pool-liquidity').textContent()) ?? '', /^[\d.,]+ ETH and [\d,]+(\.\d+)? tokens$/);
  const figures = (await page.locator('#pool-price, #pool-eth-price, #pool-liquidity, #pool-volume, #price-chart').allTextContents()).join(
    ' ',
  );
  assert.doesNotMatch(figures, /\de[-+]?\d/, 'no e-notation');
}

/**
 * A sale of more than the wallet holds: the quote box and the Sell button both say how much it
 * holds and to reduce the amount, and no transaction leaves the wallet. Max then fills the balance.
 */
export async function oversellIsRefused(page: Page, client: Client, wallet: `0x${string}`): Promise<void> {
  const holds = BigInt((await page.locator('#balances').getAttribute('data-token')) ?? '0');
  const nonce = await client.getTransactionCount({ address: wallet });
  await page.getByLabel('Sell by').selectOption('exactIn');
  await page.getByLabel('Tokens to sell').fill(String(holds / 10n ** 18n + 1_000n));
  const sentence = /^You hold [\d,.]+ tokens; reduce the amount\.$/;
  await page.locator('#sell-quote .refusal', { hasText: sentence }).waitFor({ timeout: STEP_TIMEOUT_MS });
  await page.getByRole('button', { name: 'Sell', exact: true }).click();
  await page.getByText(sentence).nth(1).waitFor({ timeout: STEP_TIMEOUT_MS });
  assert.doesNotMatch(await page.locator('body').innerText(), /reverted|quoteExactInputSingle/);
  assert.equal(await client.getTransactionCount({ address: wallet }), nonce, 'nothing was sent');
  await page.locator('#sell-max').click();
  await page.waitForFunction(() => document.querySelector('#sell-quote')?.dataset.refused === 'false', undefined, {
    timeout: STEP_TIMEOUT_MS,
  });
  assert.equal(await page.locator('#sell-quote .refusal').count(), 0, 'Max sells what the wallet holds');
}

/**
 * The chain not answering: with the page's requests to the RPC node refused (as when the node is
 * down or the network drops), Buy says so in words next to the button, sends nothing, and buys again
 * once the node answers.
 */
export async function chainDownIsExplained(page: Page, client: Client, wallet: `0x${string}`, rpcUrl: string): Promise<void> {
  const rpcOrigin = new URL(rpcUrl).origin;
  const toTheNode = (url: URL) => url.origin === rpcOrigin;
  const nonce = await client.getTransactionCount({ address: wallet });
  await page.getByLabel('Buy by').selectOption('exactIn');
  await page.getByLabel('ETH to spend').fill('0.001');
  const buy = page.getByRole('button', { name: 'Buy', exact: true });
  await page.route(toTheNode, (route) => route.abort('connectionrefused'));
  try {
    await buy.click();
    const message = page.locator('.action-alert:not([hidden])', { hasText: /The chain is not answering/ }).first();
    await assertNextTo(page, buy, message, 'the chain not answering');
    assert.doesNotMatch((await message.textContent()) ?? '', /HttpRequestError|fetch failed|0x/);
  } finally {
    await page.unroute(toTheNode);
  }
  assert.equal(await client.getTransactionCount({ address: wallet }), nonce, 'nothing was sent while the chain was down');
  await buy.click();
  await page.locator('#last-trade', { hasText: 'Bought' }).waitFor({ timeout: STEP_TIMEOUT_MS });
  assert.equal(await client.getTransactionCount({ address: wallet }), nonce + 1, 'the buy went through once the node answered');
}
