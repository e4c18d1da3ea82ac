/**
 * The browser walk's money steps (issue 36): the launch confirmation read and accepted on the song
 * page, a quote before the buy that the executed trade matches within the slippage shown, the
 * launch fee shown for the next block against the fee the hook charged in the block the buy was mined in,
 * a sale larger than the balance refused in words with nothing sent, and the chain not answering
 * explained next to Buy.
 */
import assert from 'node:assert/strict';
import { parseEther, parseEventLogs } from 'viem';
import type { Hash, PublicClient, TransactionReceipt } from 'viem';
import type { Page } from 'playwright-core';
import { poolManagerAbi, poolIdOf, readPool, songmintAddresses, songPoolHookAbi, songTokenAbi } from '@songmint/sdk';
import { assertNextTo } from './walk-library.ts';
import { freshLaunchShowsNoRefusal, tradeTab } from './walk-coin.ts';

const STEP_TIMEOUT_MS = 180_000;

type Client = Pick<PublicClient, 'getTransactionReceipt' | 'getTransactionCount' | 'readContract' | 'getBlock'>;
type ReadChain = Parameters<typeof readPool>[0];

/** The page globals the functions given to `evaluate` use (they run in Chromium; this module has no DOM types). */
interface QuoteBox {
  readonly id?: string;
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
  assert.match(
    terms,
    /An allocation of 50,000,000 tokens \(5% of the supply\) that vests: nothing for 7 days after the launch, then bit by bit over 180 days/,
  );
  assert.match(terms, /What it charges above 1% is burnt: nobody, you included, gets it back/);
  assert.match(terms, /claimAllocation/);
  assert.match(terms, /80% of every fee the pool earns .* the platform keeps 20%/);
  assert.match(terms, /A launch fee of 50% at the launch, falling every block to 1% over 120 s/);
  assert.match(terms, /LP fee of 1% on every trade/);
  assert.match(terms, /holds only the ETH buyers pay in: selling, your allocation included, can take out at most that ETH/);
  // Once read, the progress line under the button is gone (the terms are what it said was coming).
  await page.getByText('Reading the launch terms from the chain').waitFor({ state: 'hidden', timeout: STEP_TIMEOUT_MS });
  await checkView('3a-launch-confirm');
  await page.getByRole('button', { name: 'Launch for good' }).click();
  await page.locator('#pool-price').waitFor({ timeout: STEP_TIMEOUT_MS });
  await freshLaunchShowsNoRefusal(page);
}

/**
 * From now on, notes the launch fee each quote box shows for each block time (a quote is for the
 * block a trade sent now joins; the page reads it again for every new block).
 * (No named functions in the page's code: tsx would wrap them in a helper the page lacks.)
 */
export async function watchShownFees(page: Page): Promise<void> {
  await page.evaluate(() => {
    const seen: Record<string, Record<string, string>> = { buy: {}, sell: {} };
    (globalThis as unknown as { shownFees: typeof seen }).shownFees = seen;
    for (const side of ['buy', 'sell']) {
      const box = document.querySelector(`#${side}-quote`);
      if (box === null) continue;
      new MutationObserver(() => {
        const { blockTime, feePips } = box.dataset;
        if (blockTime !== undefined && feePips !== undefined) (seen[side] ?? {})[blockTime] = feePips;
      }).observe(box, { childList: true, subtree: true, attributes: true });
    }
  });
}

/**
 * Clicks `side`'s button as a person does after reading a quote that just appeared: once the box
 * shows the quote of a block that began after this call (the page quotes each new block).
 */
export async function clickOnFreshQuote(page: Page, side: 'buy' | 'sell'): Promise<void> {
  const box = page.locator(`#${side}-quote`);
  await box.locator('dl.facts').waitFor({ timeout: STEP_TIMEOUT_MS });
  const shownFor = await box.getAttribute('data-block-time');
  await page.waitForFunction(
    ([selector, before]) => {
      const time = document.querySelector(selector)?.dataset.blockTime;
      return time !== undefined && time !== before;
    },
    [`#${side}-quote`, shownFor] as const,
    { timeout: STEP_TIMEOUT_MS },
  );
  await page.getByRole('button', { name: side === 'buy' ? 'Buy' : 'Sell', exact: true }).click();
}

/**
 * The trade the page just reported under the panel: the fee the hook charged (its ERC-6909 mint
 * in the receipt's logs, at the hook's rate in the block the swap was mined in) is the fee the
 * page showed for that block, every time: the trade joined the block of its quote, that quote's
 * fee is the one charged, and the quote box showed it before the click, or, when a block began
 * before the trade was sent, the page quoted again and said so. Returns the receipt.
 */
export async function feeChargedAsShown(
  page: Page,
  client: Client,
  chain: ReadChain,
  tokenId: bigint,
  side: 'buy' | 'sell',
): Promise<TransactionReceipt> {
  const lastTrade = page.locator('#last-trade');
  const line = await lastTrade.evaluate((element) => ({ ...(element as unknown as QuoteBox).dataset }));
  const receipt = await client.getTransactionReceipt({ hash: line.tx as Hash });
  const pool = await readPool(chain, { songId: tokenId });
  // The hook logs no fee of its own: its ERC-6909 mint to the song's token is the fee.
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
  const minedAt = (await client.getBlock({ blockNumber: receipt.blockNumber })).timestamp.toString();
  const shown = (await page.evaluate(() => (globalThis as unknown as { shownFees: Record<string, Record<string, string>> }).shownFees))[
    side
  ];
  const shownBeforeClick = shown?.[minedAt];
  console.log(
    `# walk: ${side} in block ${receipt.blockNumber} at ${minedAt}, fee charged ${chargedPips} pips; quoted ${line.quotedFeePips} for ${line.quotedBlockTime}${line.requoted === 'true' ? ' (quoted again before sending)' : ''}; the box showed ${shownBeforeClick ?? 'none'} for that time`,
  );
  assert.equal(line.blockTime, minedAt);
  assert.equal(BigInt(line.feePips ?? '-1'), chargedPips, 'the page says the fee the hook charged');
  assert.equal(line.quotedBlockTime, minedAt, 'the trade joined the block of its quote');
  assert.equal(BigInt(line.quotedFeePips ?? '-1'), chargedPips, 'the fee shown for the block is the fee charged in it');
  if (line.requoted === 'true')
    assert.match((await lastTrade.textContent()) ?? '', /^A new block began before the trade was sent: quoted again for block \d+ at /);
  else assert.equal(BigInt(shownBeforeClick ?? '-1'), chargedPips, 'the quote box showed that fee for that block before the click');
  return receipt;
}

/**
 * Buys `eth` on the song page after reading its quote: what arrived is at least the least-received
 * shown, and the launch fee charged is the one the page showed for the block the buy joined.
 */
export async function buyAgainstTheQuote(page: Page, client: Client, chain: ReadChain, tokenId: bigint, eth: string): Promise<void> {
  await tradeTab(page, 'buy');
  await page.getByLabel('ETH to spend').fill(eth);
  await watchShownFees(page);
  await page.waitForFunction((wei) => document.querySelector('#buy-quote')?.dataset.amountIn === wei, parseEther(eth).toString(), {
    timeout: STEP_TIMEOUT_MS,
  });
  assert.match(
    await page.locator('#buy-quote').innerText(),
    /Quote for block \d+ at \d\d:\d\d:\d\d, the next block[\s\S]*Launch fee, next block[\s\S]*LP fee[\s\S]*1%[\s\S]*Price impact[\s\S]*Least you receive \(1% slippage\)/,
  );
  await clickOnFreshQuote(page, 'buy');
  const before = await shownQuote(page, 'buy');
  await page.locator('#last-trade', { hasText: 'Bought' }).waitFor({ timeout: STEP_TIMEOUT_MS });
  // The focus stays on Buy once the trade is done (disabling it while it ran must not drop it to <body>).
  await page.waitForFunction(() => document.querySelector(':focus')?.id === 'buy', undefined, { timeout: STEP_TIMEOUT_MS });
  const receipt = await feeChargedAsShown(page, client, chain, tokenId, 'buy');
  const pool = await readPool(chain, { songId: tokenId });
  const swapped = parseEventLogs({ abi: poolManagerAbi, eventName: 'Swap', logs: receipt.logs }).find(
    (log) => log.args.id === poolIdOf(pool.poolKey),
  );
  assert.ok(swapped !== undefined && swapped.args.amount1 >= before.limit, 'at least the least-received shown (within the slippage)');
  // The balances and the quotes follow the trade (issue 51): the tokens the chain says the wallet holds
  // now, and a quote for a block after the buy's.
  const held = await client.readContract({ address: pool.token, abi: songTokenAbi, functionName: 'balanceOf', args: [receipt.from] });
  await page.waitForFunction((expected) => document.querySelector('#balances')?.dataset.token === expected, held.toString(), {
    timeout: STEP_TIMEOUT_MS,
  });
  await page.waitForFunction(
    (mined) => Number(document.querySelector('#buy-quote')?.dataset.block ?? '0') > mined,
    Number(receipt.blockNumber),
    {
      timeout: STEP_TIMEOUT_MS,
    },
  );
  // Readable units: liquidity as ETH and tokens, prices and chart labels without e-notation.
  assert.match((await page.locator('#pool-liquidity').textContent()) ?? '', /^[\d.,]+ ETH and [\d,]+(\.\d+)? tokens$/);
  const figures = (await page.locator('#pool-price, #pool-eth-price, #pool-liquidity, #pool-volume, #price-chart').allTextContents()).join(
    ' ',
  );
  assert.doesNotMatch(figures, /\de[-+]?\d/, 'no e-notation');
}

/**
 * A sale of more than the wallet holds: the quote box says how much it holds and to reduce the
 * amount, then, once Sell is pressed, the line next to Sell says it instead (once on the page, also
 * after the next block's quote), and no transaction leaves the wallet; a sale far beyond what the
 * pool could fill still says what the wallet holds. Max then fills the balance.
 */
export async function oversellIsRefused(page: Page, client: Client, wallet: `0x${string}`): Promise<void> {
  const holds = BigInt((await page.locator('#balances').getAttribute('data-token')) ?? '0');
  const nonce = await client.getTransactionCount({ address: wallet });
  await tradeTab(page, 'sell');
  await page.getByLabel('Sell by').selectOption('exactIn');
  await page.getByLabel('Tokens to sell').fill(String(holds / 10n ** 18n + 1_000n));
  const sentence = /^You hold [\d,.]+ tokens; reduce the amount\.$/;
  await page.locator('#sell-quote .refusal', { hasText: sentence }).waitFor({ timeout: STEP_TIMEOUT_MS });
  await page.getByRole('button', { name: 'Sell', exact: true }).click();
  await page.locator('.action-alert:not([hidden])', { hasText: sentence }).waitFor({ timeout: STEP_TIMEOUT_MS });
  // The panel quotes both sides again for the next block: the refusal does not come back beside the alert.
  const blockShown = await page.locator('#buy-quote').getAttribute('data-block');
  await page.waitForFunction((before) => document.querySelector('#buy-quote')?.dataset.block !== before, blockShown, {
    timeout: STEP_TIMEOUT_MS,
  });
  assert.equal(await page.getByText(sentence).count(), 1, 'the refusal is said once, next to Sell');
  assert.doesNotMatch(await page.locator('body').innerText(), /reverted|quoteExactInputSingle/);
  assert.equal(await client.getTransactionCount({ address: wallet }), nonce, 'nothing was sent');
  // Far more than the pool's ETH could buy back: still what the wallet holds, not that the pool cannot fill it.
  await page.getByLabel('Tokens to sell').fill('900000000');
  await page.locator('#sell-quote .refusal', { hasText: sentence }).waitFor({ timeout: STEP_TIMEOUT_MS });
  assert.doesNotMatch(await page.locator('#sell-quote').innerText(), /cannot fill/);
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
export async function chainDownIsExplained(
  page: Page,
  { client, chain, tokenId }: { client: Client; chain: ReadChain; tokenId: bigint },
  wallet: `0x${string}`,
  rpcUrl: string,
): Promise<void> {
  const rpcOrigin = new URL(rpcUrl).origin;
  const toTheNode = (url: URL) => url.origin === rpcOrigin;
  const nonce = await client.getTransactionCount({ address: wallet });
  await tradeTab(page, 'buy');
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
  await clickOnFreshQuote(page, 'buy');
  await page.locator('#last-trade', { hasText: 'Bought' }).waitFor({ timeout: STEP_TIMEOUT_MS });
  await feeChargedAsShown(page, client, chain, tokenId, 'buy');
  assert.equal(await client.getTransactionCount({ address: wallet }), nonce + 1, 'the buy went through once the node answered');
}
