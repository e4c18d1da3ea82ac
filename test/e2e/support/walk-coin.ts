/**
 * The browser walk's coin steps (issue 45), on the song page of the song the walk launched, after
 * the creator claimed its fees: "Claimed … ETH" said once; a sale on the page updates the swap
 * fees not yet collected without a reload; a buy by a second wallet (through the SDK) and the
 * page's sale appear in the coin's activity feed with the wallet and the fee each paid, and in its
 * holders with the chain's balances; `/app/song/999` and `/app/creator/<not an address>` answer
 * 404 while the app shows its not-found view; the creator's profile (Open Graph tags, Share)
 * lists the song with its market cap; the portfolio shows the tokens held and the fees to claim;
 * and with its launch allocation claimed the creator holds more than the pool can buy back, so
 * Sell's Max offers the most the pool can take, with its figure. Also the check of a fresh launch
 * (no refusal before anything is done), called from the launch step.
 */
import assert from 'node:assert/strict';
import { formatEther, parseEther, parseEventLogs } from 'viem';
import type { Address, Hash, PublicClient } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { Page } from 'playwright-core';
import {
  buy,
  claimAllocation,
  connectSongmint,
  developmentAccount,
  getCoin,
  createSongmintApi,
  poolManagerAbi,
  quoteSellMax,
  quoteTrade,
  readAllocation,
  readPool,
  songmintAddresses,
  songTokenAbi,
} from '@songmint/sdk';
import type { NpmStartStack } from '../../support/npm-start.ts';

const STEP_TIMEOUT_MS = 180_000;
/** The display name the creator gives itself on its profile. */
const CREATOR_NAME = 'Rainy Keys';
/** Hardhat's public test account #5: the second trader. */
const SECOND_WALLET_KEY = '0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba';

type Client = Pick<PublicClient, 'getTransactionReceipt' | 'readContract' | 'getBlock' | 'getTransactionCount'>;
type ReadChain = Parameters<typeof readPool>[0];

/** The page globals the functions given to `evaluate` use (they run in Chromium; this module has no DOM types). */
interface PageElement {
  readonly id: string;
  readonly dataset: Record<string, string | undefined>;
  readonly hidden: boolean;
  readonly textContent: string | null;
}
declare const document: { querySelector(selector: string): PageElement | null };
declare const navigator: { clipboard: { readText(): Promise<string> } };

/** The app's ETH figure (app/src/format.ts `eth`), to find it in the page's text. */
const ethText = (wei: bigint) => `${Number(formatEther(wei)).toLocaleString('en-US', { maximumFractionDigits: 6 })} ETH`;

/**
 * The hook's fee in a swap's receipt, all the trader paid: the PoolManager's ERC-6909 mints from the
 * hook to the song's token (the song's part) and, inside the launch fee window, to the hook itself (burnt).
 */
async function hookFeeOf(client: Client, hash: Hash, token: Address): Promise<bigint> {
  const receipt = await client.getTransactionReceipt({ hash });
  const hook = songmintAddresses.local.SongPoolHook.toLowerCase();
  const minted = parseEventLogs({ abi: poolManagerAbi, eventName: 'Transfer', logs: receipt.logs }).filter(
    (log) =>
      log.args.caller.toLowerCase() === hook &&
      BigInt(log.args.from) === 0n &&
      [token.toLowerCase(), hook].includes(log.args.to.toLowerCase()),
  );
  assert.ok(minted.length > 0, `the hook charged ${hash}`);
  return minted.reduce((sum, log) => sum + log.args.amount, 0n);
}

/**
 * Shows `side`'s tab of the trade box (Buy and Sell are one box with two tabs: issue 51), by a
 * click as a person does, when it is not the one shown; the focus is then on that tab.
 */
export async function tradeTab(page: Page, side: 'buy' | 'sell'): Promise<void> {
  const tab = page.locator(`#trade-tab-${side}`);
  if ((await tab.getAttribute('aria-selected')) === 'true') return;
  await tab.click();
  await page.locator(`#trade-${side}`).waitFor({ timeout: STEP_TIMEOUT_MS });
  await page.waitForFunction((id) => document.querySelector(':focus')?.id === id, `trade-tab-${side}`, { timeout: STEP_TIMEOUT_MS });
}

/** The id of the element with the keyboard focus, once it is `id`. */
const focusOn = (page: Page, id: string) =>
  page.waitForFunction((expected) => document.querySelector(':focus')?.id === expected, id, { timeout: STEP_TIMEOUT_MS });

/** Which trade tab is selected and which panel shows. */
const tabState = (page: Page) =>
  page.evaluate(() => ({
    selected: document.querySelector('[role="tab"][aria-selected="true"]')?.id,
    buyShown: document.querySelector('#trade-buy')?.hidden === false,
    sellShown: document.querySelector('#trade-sell')?.hidden === false,
  }));
const BUY_SHOWN = { selected: 'trade-tab-buy', buyShown: true, sellShown: false };
const SELL_SHOWN = { selected: 'trade-tab-sell', buyShown: false, sellShown: true };

/** Right after a launch: the trade panel quotes a buy and asks for a sale's amount (on the Sell tab), and nothing is refused. */
export async function freshLaunchShowsNoRefusal(page: Page): Promise<void> {
  await page.locator('#buy-quote dl.facts').waitFor({ timeout: STEP_TIMEOUT_MS });
  await page
    .locator('#sell-quote .note', { hasText: 'Enter the tokens to sell for a quote.' })
    .waitFor({ state: 'attached', timeout: STEP_TIMEOUT_MS });
  assert.equal(await page.locator('.refusal').count(), 0, 'no refusal before anything is done');
  assert.deepEqual(await page.locator('#error:not([hidden]), .action-alert:not([hidden])').allTextContents(), []);
  assert.equal(await page.getByLabel('Tokens to sell').inputValue(), '', 'a sale starts empty');
}

/**
 * Buy and Sell are the two tabs of one box, used by keyboard as WAI-ARIA tabs are: the arrows, Home
 * and End select a tab and move the focus to it; only the selected tab is in the Tab order, so Tab
 * goes from it into its form and Shift+Tab back. Ends on Buy.
 */
export async function tradeTabsByKeyboard(page: Page): Promise<void> {
  assert.deepEqual(await tabState(page), BUY_SHOWN);
  assert.equal(await page.getByRole('tablist', { name: 'Buy or sell' }).getByRole('tab').count(), 2);
  await page.locator('#trade-tab-buy').focus();
  await page.keyboard.press('ArrowRight');
  await focusOn(page, 'trade-tab-sell');
  assert.deepEqual(await tabState(page), SELL_SHOWN);
  await page.locator('#sell-quote .note', { hasText: 'Enter the tokens to sell for a quote.' }).waitFor({ timeout: STEP_TIMEOUT_MS });
  await page.keyboard.press('Tab');
  await focusOn(page, 'sell-amount');
  await page.keyboard.press('Shift+Tab');
  await focusOn(page, 'trade-tab-sell');
  await page.keyboard.press('Home');
  await focusOn(page, 'trade-tab-buy');
  assert.deepEqual(await tabState(page), BUY_SHOWN);
  await page.keyboard.press('End');
  await focusOn(page, 'trade-tab-sell');
  assert.deepEqual(await tabState(page), SELL_SHOWN);
  await page.keyboard.press('ArrowLeft');
  await focusOn(page, 'trade-tab-buy');
  assert.deepEqual(await tabState(page), BUY_SHOWN);
}

export interface CoinWalk {
  stack: NpmStartStack;
  client: Client;
  chain: ReadChain;
  rpc: string;
  tokenId: bigint;
  checkView(name: string): Promise<void>;
}

/** The coin steps (see the module's header); ends on the song page, signed in, as it began. Returns the trades it added. */
export async function walkTheCoin(page: Page, { stack, client, chain, rpc, tokenId, checkView }: CoinWalk): Promise<number> {
  const started = Date.now();
  const songPath = `/app/song/${tokenId}`;
  const creator = developmentAccount().address;
  const second = connectSongmint({ rpcUrl: rpc, wallet: { account: privateKeyToAccount(SECOND_WALLET_KEY) } });
  const secondAddress = second.walletClient.account?.address as Address;
  const pool = await readPool(chain, { songId: tokenId });
  const balanceOf = (holder: Address) =>
    client.readContract({ address: pool.token, abi: songTokenAbi, functionName: 'balanceOf', args: [holder] });

  // "Claimed … ETH" is said once (the claim step just ran), not also in the button's status line.
  assert.equal(await page.getByText(/Claimed [\d.,]+ ETH/).count(), 1, 'Claimed … ETH shown once');

  // A buy by a second wallet, as any wallet or aggregator sends it (the SDK through the Universal Router).
  const bought = await buy(second, { songId: tokenId, amountIn: parseEther('0.004') });

  // A sale on the page: the swap fees not yet collected follow at once, without a reload.
  await tradeTab(page, 'sell');
  await page.getByLabel('Sell by').selectOption('exactIn');
  await page.getByLabel('Tokens to sell').fill('1000');
  await page.locator('#sell-quote[data-amount-in="1000000000000000000000"] dl.facts').waitFor({ timeout: STEP_TIMEOUT_MS });
  await page.getByRole('button', { name: 'Sell', exact: true }).click();
  await page.locator('#last-trade', { hasText: 'Sold 1,000 tokens' }).waitFor({ timeout: STEP_TIMEOUT_MS });
  const sold = (await page.locator('#last-trade').getAttribute('data-tx')) as Hash;
  const uncollected = (await readPool(chain, { songId: tokenId })).uncollectedSwapFees;
  assert.ok(uncollected > 0n);
  await page
    .locator('#claimable', { hasText: `${ethText(uncollected)} of swap fees not yet collected` })
    .waitFor({ timeout: STEP_TIMEOUT_MS });

  // The server answers a song that does not exist, and a creator link that is no address, with 404;
  // the app still shows its own not-found view.
  const missingSong = await page.goto(`${stack.baseUrl}/app/song/999`);
  assert.equal(missingSong?.status(), 404);
  await page.getByText('There is no song #999 on this chain.').waitFor({ timeout: STEP_TIMEOUT_MS });
  // Each offers a way back (issue 51), not a dead end.
  assert.equal(await page.getByRole('link', { name: 'Discover launched songs' }).count(), 1, 'a missing song: the way back');
  const badCreator = await page.goto(`${stack.baseUrl}/app/creator/not-an-address`);
  assert.equal(badCreator?.status(), 404);
  await page.locator('h1', { hasText: 'Page not found' }).waitFor({ timeout: STEP_TIMEOUT_MS });
  assert.deepEqual(
    await page.locator('#not-found-back a').evaluateAll((links) => links.map((link) => link.getAttribute('href'))),
    ['/app/discover', '/app/'],
    'the not-found page: the way back',
  );

  // The creator's profile, as a shared link opens it: its Open Graph tags in the served head, the song with its market cap.
  const profilePath = `/app/creator/${creator}`;
  const served = await (await fetch(`${stack.baseUrl}${profilePath}`, { headers: { accept: 'text/html' } })).text();
  assert.match(
    served.slice(0, served.indexOf('</head>')),
    /<meta property="og:type" content="profile">[\s\S]*<meta property="og:url" content="[^"]*\/app\/creator\/0x/,
  );
  await page.goto(`${stack.baseUrl}${profilePath}`);
  const card = page.locator(`#creator-songs li[data-song-id="${tokenId}"]`);
  await card.locator('.coin-line').waitFor({ timeout: STEP_TIMEOUT_MS });
  const coin = await getCoin(createSongmintApi({ baseUrl: stack.baseUrl }), { songId: tokenId });
  const shownCap = BigInt((await card.locator('.coin-line').getAttribute('data-market-cap')) ?? '0');
  assert.ok(shownCap > 0n && coin.market_cap !== null, 'the profile shows the coin’s market cap');
  assert.match(await page.locator('#creator-earnings').innerText(), /^[\d.,]+ ETH/);
  // Share: no share sheet in headless Chromium, so the link goes to the clipboard, and the page says so.
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.baseUrl });
  await page.locator('#share-creator').click();
  await page.getByText(`Link copied: ${stack.baseUrl}${profilePath}`).waitFor({ timeout: STEP_TIMEOUT_MS });
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), `${stack.baseUrl}${profilePath}`);
  // The creator names itself with the profile's form (PATCH /v1/user/profile): the coin's holders and
  // activity below then show that name, linked to this page, where they showed its address (issue 51).
  await page.locator('#profile-edit-toggle').click();
  await focusOn(page, 'profile-name');
  await page.getByLabel('Display name').fill(CREATOR_NAME);
  await page.getByRole('button', { name: 'Save profile' }).click();
  await page.locator('h1', { hasText: `Your profile: ${CREATOR_NAME}` }).waitFor({ timeout: STEP_TIMEOUT_MS });
  await checkView('3c-creator');

  // The portfolio, from the navigation: once the indexer has the page's sale, the balance is the chain's.
  const held = await balanceOf(creator);
  const portfolioUrl = `${stack.baseUrl}/v1/public/portfolios/${creator}`;
  for (let tries = 0; ; tries++) {
    const listed = (await (await fetch(portfolioUrl)).json()) as { holdings: Array<{ song_id: string; balance: string }> };
    if (listed.holdings.find((holding) => holding.song_id === tokenId.toString())?.balance === held.toString()) break;
    assert.ok(tries < 60, 'the portfolio caught up with the chain');
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  await page.getByRole('link', { name: 'Portfolio' }).click();
  const holding = page.locator(`#portfolio-holdings li[data-song-id="${tokenId}"]`);
  await holding.waitFor({ timeout: STEP_TIMEOUT_MS });
  assert.equal(await holding.getAttribute('data-balance'), held.toString());
  // What the holding sells for now, beside its spot value: the V4Quoter's quote against the pool, fees included (issue 51).
  // (The API quotes the latest block, the SDK the next one: inside the launch window their fees differ by a block's decay.)
  const quotedSale = await quoteTrade(chain, { songId: tokenId, side: 'sell', amountIn: held });
  const shownPortfolioSale = BigInt((await holding.getAttribute('data-sale')) ?? '0');
  assert.ok(shownPortfolioSale > 0n && shownPortfolioSale <= quotedSale.amountOut, `${shownPortfolioSale} vs ${quotedSale.amountOut}`);
  assert.ok(quotedSale.amountOut - shownPortfolioSale < quotedSale.amountOut / 20n, 'within the launch fee of a few blocks');
  assert.match(
    await holding.innerText(),
    new RegExp(`Sells now for ≈ ${ethText(shownPortfolioSale).replaceAll('.', '\\.')}, fees included \\(`),
  );
  assert.ok(quotedSale.amountOut < BigInt((await holding.getAttribute('data-value')) ?? '0'), 'a sale pays less than spot');
  const owed = await readPool(chain, { songId: tokenId });
  assert.equal(
    await page.locator(`#portfolio-fees li[data-song-id="${tokenId}"]`).getAttribute('data-claimable'),
    owed.fees.creator.eth.toString(),
    'the fees the vault would pay now',
  );
  await checkView('3d-portfolio');

  // Back on the song page: the coin tells a buyer what the creator's allocation is and that none of it has vested.
  await page.goto(`${stack.baseUrl}${songPath}`);
  const allocation = await readAllocation(chain, { songId: tokenId });
  const coinAllocation = page.locator('#coin-allocation > span');
  await coinAllocation.waitFor({ timeout: STEP_TIMEOUT_MS });
  assert.deepEqual(
    [await coinAllocation.getAttribute('data-total'), await coinAllocation.getAttribute('data-vested')],
    [allocation.total.toString(), '0'],
  );
  assert.match(
    await coinAllocation.innerText(),
    /^50,000,000 tokens\s*0 claimed, 0 vested unclaimed, 50,000,000 unvested; nothing vests before \d{1,2} \w{3,4} \d{4}$/,
  );
  // Its recipient's vesting figures and Claim allocation are part of the creator tools, beside the fees (issue 51).
  const vesting = page.locator('#creator-tools #allocation-tools #allocation-vesting');
  await vesting.waitFor({ timeout: STEP_TIMEOUT_MS });
  assert.equal(await page.locator('#creator-tools #claim').count(), 1, 'the fee tools in the same panel');
  assert.match(
    await vesting.innerText(),
    /^50,000,000 tokens: 0 tokens vested, 50,000,000 tokens unvested, 0 tokens claimed; nothing vests before .+, all by .+\. Claimable now: 0 tokens\.$/,
  );
  assert.equal(await page.locator('#allocation-tools').count(), 1, 'one allocation panel, no other');
  // The creator cannot claim (and so cannot sell) any of it before the cliff: refused in words, nothing sent (issue 51).
  const nonceBeforeClaim = await client.getTransactionCount({ address: creator });
  await page.getByRole('button', { name: 'Claim allocation', exact: true }).click();
  await page
    .locator('.action-alert:not([hidden])', {
      hasText: /^Nothing of your allocation has vested yet: it starts vesting on .+\. Nothing was sent\.$/,
    })
    .waitFor({ timeout: STEP_TIMEOUT_MS });
  assert.equal(await client.getTransactionCount({ address: creator }), nonceBeforeClaim, 'no claim sent before the cliff');
  await assert.rejects(claimAllocation(second, { songId: tokenId }), /AllocationLocked/);
  await page.waitForFunction(() => document.querySelector(':focus')?.id === 'claim-allocation', undefined, { timeout: STEP_TIMEOUT_MS });

  // The creator's bought tokens show what they sell for now, and sell for exactly that (Max fills what it holds).
  await tradeTab(page, 'sell');
  const holdingLine = page.locator('#holding-sale[data-fills="true"]');
  await holdingLine.waitFor({ timeout: STEP_TIMEOUT_MS });
  const boughtTokens = await balanceOf(creator);
  await page.waitForFunction((expected) => document.querySelector('#balances')?.dataset.token === expected, boughtTokens.toString(), {
    timeout: STEP_TIMEOUT_MS,
  });
  const shownSale = BigInt((await page.locator('#holding-sale').getAttribute('data-sale-eth')) ?? '0');
  assert.ok(shownSale > 0n);
  assert.match(
    await holdingLine.innerText(),
    new RegExp(`^Selling all [\\d,.]+ tokens now pays ≈ ${ethText(shownSale).replaceAll('.', '\\.')}, fees included`),
  );
  await page.locator('#sell-max').click();
  // The sale box quotes the whole balance for the next block (inside the launch window a block's decay apart from the line's).
  await page.waitForFunction(
    (held) => {
      const box = document.querySelector('#sell-quote');
      return box?.dataset.amountIn === held && box.dataset.refused === 'false';
    },
    boughtTokens.toString(),
    { timeout: STEP_TIMEOUT_MS },
  );
  const near = (a: bigint, b: bigint) => (a > b ? a - b : b - a) * 20n <= b;
  const boxSale = BigInt((await page.locator('#sell-quote').getAttribute('data-amount-out')) ?? '0');
  assert.ok(near(boxSale, shownSale), `the sale box (${boxSale}) says what the holding line said (${shownSale})`);
  await page.getByRole('button', { name: 'Sell', exact: true }).click();
  await page.locator('#last-trade', { hasText: /^(.* )?Sold [\d,.]+ tokens for [\d.,]+ ETH/ }).waitFor({ timeout: STEP_TIMEOUT_MS });
  const soldFor = parseEther(
    (/Sold [\d,.]+ tokens for ([\d.,]+) ETH/.exec(await page.locator('#last-trade').innerText())?.[1] ?? '0').replaceAll(',', ''),
  );
  assert.ok(near(soldFor, shownSale), `sold for ${soldFor}, shown ${shownSale}`);
  const soldAll = (await page.locator('#last-trade').getAttribute('data-tx')) as Hash;
  assert.equal(await balanceOf(creator), 0n);
  await page.waitForFunction(() => document.querySelector(':focus')?.id === 'sell', undefined, { timeout: STEP_TIMEOUT_MS });
  // Balances and quotes follow the trade: nothing held, the sale's amount cleared, and a sale of 0 tokens cannot be sent.
  await page.waitForFunction(() => document.querySelector('#balances')?.dataset.token === '0', undefined, { timeout: STEP_TIMEOUT_MS });
  assert.equal(await page.getByLabel('Tokens to sell').inputValue(), '');
  assert.equal(await page.locator('#holding-sale').isVisible(), false);
  const nonceBeforeZero = await client.getTransactionCount({ address: creator });
  await page.getByLabel('Tokens to sell').fill('0');
  await page.getByRole('button', { name: 'Sell', exact: true }).click();
  await page.locator('.action-alert:not([hidden])', { hasText: /must be a positive number/ }).waitFor({ timeout: STEP_TIMEOUT_MS });
  assert.equal(await client.getTransactionCount({ address: creator }), nonceBeforeZero, 'no 0-token sale sent');
  await page.getByLabel('Tokens to sell').fill('');

  // Past the cliff and 30 days into the vesting (the chain's clock moved rather than waiting): the vested part is claimed on the page.
  const { timestamp } = await client.getBlock({ blockTag: 'latest' });
  const target = allocation.cliffEnd + 30n * 86_400n;
  const moved = await fetch(rpc, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'evm_increaseTime', params: [Number(target - timestamp)] }),
  });
  assert.equal(moved.status, 200);
  // The next 2 s block carries the moved clock.
  while ((await client.getBlock({ blockTag: 'latest' })).timestamp < target) await new Promise((resolve) => setTimeout(resolve, 250));
  await page.getByRole('button', { name: 'Claim allocation', exact: true }).click();
  await page
    .locator('#allocation-claimed', { hasText: /^Claimed [\d,.]+ tokens of your allocation/ })
    .waitFor({ timeout: STEP_TIMEOUT_MS });
  const afterClaim = await readAllocation(chain, { songId: tokenId });
  assert.ok(afterClaim.claimed > 0n && afterClaim.claimed < allocation.total, 'a part vested, not all of it');
  assert.equal(await balanceOf(creator), afterClaim.claimed);
  await page.waitForFunction(() => document.querySelector(':focus')?.id === 'claim-allocation', undefined, { timeout: STEP_TIMEOUT_MS });

  // The activity feed and the holders have both wallets' trades, with the fee each paid.
  for (const [hash, side, wallet] of [
    [bought.hash, 'buy', secondAddress],
    [sold, 'sell', creator],
    [soldAll, 'sell', creator],
  ] as const) {
    const row = page.locator(`#coin-trades tr[data-tx="${hash}"]`);
    await row.waitFor({ timeout: STEP_TIMEOUT_MS });
    assert.deepEqual(
      { side: await row.getAttribute('data-side'), wallet: await row.getAttribute('data-wallet'), fee: await row.getAttribute('data-fee') },
      { side, wallet, fee: (await hookFeeOf(client, hash, pool.token)).toString() },
      `${side} ${hash}`,
    );
    const shown = await row.innerText();
    assert.ok(
      shown.startsWith(side === 'buy' ? 'Buy' : 'Sell') &&
        shown.includes(`${ethText(BigInt((await row.getAttribute('data-fee')) ?? '0')).replace(/ ETH$/, '')} (`),
      shown,
    );
  }
  assert.equal(await page.locator(`#coin-trades tr[data-tx="${bought.hash}"]`).getAttribute('data-eth'), bought.amountIn.toString());
  // The creator by the name it set, linked to its profile; the second wallet, which set none, by its short address.
  const walletCell = (hash: Hash) => page.locator(`#coin-trades tr[data-tx="${hash}"] td[data-label="Wallet"] a`);
  assert.deepEqual(
    [await walletCell(sold).innerText(), await walletCell(sold).getAttribute('href'), await walletCell(soldAll).innerText()],
    [CREATOR_NAME, `/app/creator/${creator}`, CREATOR_NAME],
  );
  assert.deepEqual(
    [await walletCell(bought.hash).innerText(), await walletCell(bought.hash).getAttribute('href')],
    [`${secondAddress.slice(0, 6)}…${secondAddress.slice(-4)}`, `/app/creator/${secondAddress}`],
  );
  for (const wallet of [secondAddress, creator]) {
    const balance = (await balanceOf(wallet)).toString();
    await page.waitForFunction(
      ([selector, expected]) => document.querySelector(selector)?.dataset.balance === expected,
      [`#coin-holders tr[data-address="${wallet}"]`, balance] as const,
      { timeout: STEP_TIMEOUT_MS },
    );
  }
  const holderLink = (wallet: Address) => page.locator(`#coin-holders tr[data-address="${wallet}"] td[data-label="Holder"] a`);
  assert.deepEqual(
    [await holderLink(creator).innerText(), await holderLink(creator).getAttribute('href')],
    [CREATOR_NAME, `/app/creator/${creator}`],
  );
  assert.equal(await holderLink(secondAddress).getAttribute('href'), `/app/creator/${secondAddress}`);
  assert.match(await holderLink(secondAddress).innerText(), /^0x[0-9a-fA-F]{4}…[0-9a-fA-F]{4}$/);
  assert.equal(await page.locator('#song-creator').getAttribute('data-name'), CREATOR_NAME, 'the song page names its creator too');
  assert.match(await page.locator('#coin-price').innerText(), /^[\d.,]+ ETH per 1M tokens [▲▼■] [+-]?[\d.]+% in 24 h$/);
  assert.doesNotMatch(await page.locator('#coin-stats').innerText(), /\de[-+]?\d/, 'no e-notation');

  // Sell's Max: the creator holds its vested allocation, more than the pool can take; Max offers the most it can, with the figure.
  const holds = await balanceOf(creator);
  await page.waitForFunction((expected) => document.querySelector('#balances')?.dataset.token === expected, holds.toString(), {
    timeout: STEP_TIMEOUT_MS,
  });
  const limit = await quoteSellMax(chain, { songId: tokenId });
  assert.ok(limit.maxTokens > 0n && limit.maxTokens < holds, `the pool can take ${limit.maxTokens} of ${holds}`);
  await page.locator('#sell-max').click();
  const note = page.locator('#sell-max-note:not([hidden])');
  await note.waitFor({ timeout: STEP_TIMEOUT_MS });
  assert.match(
    await note.innerText(),
    /^Max is the most the pool can buy back now: [\d,.]+ tokens, for ≈ [\d.]+ ETH\. It holds only the ETH buyers paid in; you hold [\d,.]+ tokens\.$/,
  );
  assert.equal(await note.getAttribute('data-max-tokens'), limit.maxTokens.toString());
  await page.waitForFunction(
    (expected) => {
      const box = document.querySelector('#sell-quote');
      return box?.dataset.amountIn === expected && box.dataset.refused === 'false';
    },
    limit.maxTokens.toString(),
    { timeout: STEP_TIMEOUT_MS },
  );
  await checkView('3b-coin');
  console.log(`# web app walk: the coin page, profile, portfolio, allocation and Max took ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return 3;
}
