import { buy, quoteSellMax, quoteTrade, readBalances, sell, SongmintClientError } from '@songmint/sdk';
import type { SwapAmount, SwapResult, TradeBalances, TradeQuote, TradeSide } from '@songmint/sdk';
import { formatEther, parseEther } from 'viem';
import { clearActionMessages, messagesNear, runAction, showError } from '../actions.ts';
import type { AppContext } from '../context.ts';
import { walletOf } from '../context.ts';
import { describeError, facts, h } from '../dom.ts';
import { clock, eth, percentOfPips, tokens } from '../format.ts';

/** How often the latest block number is read: the quote is read again for every new block. */
const BLOCK_POLL_MS = 500;
const TYPING_PAUSE_MS = 300;
/** Left in the wallet by Max on a buy, for the gas of the swap. */
const GAS_RESERVE_WEI = parseEther('0.001');

function slippageBps(input: HTMLInputElement): number {
  const percent = Number(input.value);
  if (input.value.trim() === '' || !Number.isFinite(percent) || percent < 0 || percent > 50)
    throw new Error('Slippage must be a percentage from 0 to 50');
  return Math.round(percent * 100);
}

function amountOf(input: HTMLInputElement, what: string): bigint {
  const text = input.value.trim().replaceAll(',', '');
  const amount = /^\d+(\.\d{1,18})?$/.test(text) ? parseEther(text) : 0n;
  // "1e30" is a number to the browser but no amount a person means (issue 45, item 16).
  if (amount <= 0n && /^\d*\.?\d+e[+-]?\d+$/i.test(text)) throw new Error(`${what}: write it in plain digits, like 0.05, not as ${text}`);
  if (amount <= 0n) throw new Error(`${what} must be a positive number`);
  return amount;
}

const pips = (value: bigint) => percentOfPips(value);
/** A block's time (unix seconds) on the person's clock. */
const at = (seconds: bigint) => clock(new Date(Number(seconds) * 1000));
const held = (side: TradeSide, balances: TradeBalances) => (side === 'buy' ? eth(balances.eth) : tokens(balances.token));

/** The sentence for a trade the wallet cannot pay, before anything is sent. */
function unaffordable(quote: TradeQuote, balances: TradeBalances): string | undefined {
  const needs = quote.exactInput ? quote.amountIn : quote.limit;
  const holds = quote.side === 'buy' ? balances.eth : balances.token;
  return needs > holds ? `You hold ${held(quote.side, balances)}; reduce the amount.` : undefined;
}

/**
 * The sentence for a quote that pays nothing (a sale the pool would pay 0 ETH for, a buy of 0
 * tokens): refused before anything is sent, like the SDK's `ZERO_QUOTE`.
 */
function paysNothing(quote: TradeQuote): string | undefined {
  if (quote.amountOut > 0n && quote.amountIn > 0n) return undefined;
  return quote.side === 'sell'
    ? `Selling ${tokens(quote.amountIn)} now pays 0 ETH: the pool holds too little ETH from buyers. Nothing would be sent.`
    : `${eth(quote.amountIn)} buys 0 tokens now. Nothing would be sent.`;
}

/** No buyer's ETH in the pool: nothing can be sold, said as it is. */
const NO_BUYERS_ETH = 'The pool holds no ETH from buyers, so it cannot buy any tokens back now.';

/** A pool that cannot fill a sale: the most it can buy back now (quoteSellMax), as a figure. */
async function poolLimitSentence(context: AppContext, songId: bigint, balances: TradeBalances | undefined): Promise<string> {
  const max = await quoteSellMax(context.read, { songId }).catch(() => undefined);
  const holds = balances === undefined ? '' : ` You hold ${tokens(balances.token)}.`;
  if (max === undefined) return `The pool cannot buy back that many tokens now: it holds only the ETH buyers paid in.${holds}`;
  if (max.quote === undefined) return `${NO_BUYERS_ETH}${holds}`;
  return `The pool can buy back at most ${tokens(max.maxTokens)} now (for ≈ ${eth(max.quote.amountOut)}): it holds only the ETH buyers paid in.${holds} Max sells that much.`;
}

/** The SDK's refusals in words (a sale the pool cannot fill with the most it can); anything else as it is. */
async function tradeError(
  error: unknown,
  { context, songId, side, balances }: { context: AppContext; songId: bigint; side: TradeSide; balances: TradeBalances | undefined },
): Promise<unknown> {
  if (error instanceof SongmintClientError && error.code === 'QUOTE_FAILED')
    return new Error(
      side === 'sell' ? await poolLimitSentence(context, songId, balances) : 'The pool cannot fill this amount: try a smaller one.',
    );
  if (error instanceof SongmintClientError && error.code === 'ZERO_QUOTE')
    return new Error(`${error.message.replace(/^ZERO_QUOTE: /, '').replace(/^\w/, (first) => first.toUpperCase())}.`);
  if (error instanceof SongmintClientError && error.code === 'INSUFFICIENT_BALANCE')
    return new Error(`${error.message.replace(/^INSUFFICIENT_BALANCE: /, '')}.`);
  return error;
}

/** What the quote says, line by line, as a person reads it before paying. */
function quoteFacts(quote: TradeQuote): HTMLDListElement {
  const buying = quote.side === 'buy';
  const inUnit = (amount: bigint) => (buying ? eth(amount) : tokens(amount));
  const outUnit = (amount: bigint) => (buying ? tokens(amount) : eth(amount));
  const slippage = `${quote.slippageBps / 100}% slippage`;
  return facts([
    quote.exactInput ? ['You receive', `≈ ${outUnit(quote.amountOut)}`] : ['You pay', `≈ ${inUnit(quote.amountIn)}`],
    ['Launch fee, next block', `${pips(quote.hookFeePips)} (${eth(quote.hookFee)})`],
    ['LP fee', pips(quote.lpFeePips)],
    ['Price impact', pips(quote.priceImpactPips)],
    quote.exactInput ? [`Least you receive (${slippage})`, outUnit(quote.limit)] : [`Most you pay (${slippage})`, inUnit(quote.limit)],
  ]);
}

interface TradeSideParts {
  form: HTMLFormElement;
  /** Under the form: what Max filled in when the pool can take less than the wallet holds. */
  maxNote: HTMLElement;
  quoteBox: HTMLElement;
  refresh: () => Promise<void>;
}

/** What the quote box shows: a refusal (or a note), the quote's lines, and its figures for the page's data attributes. */
interface QuoteState {
  refusal?: string;
  note?: string;
  quote?: TradeQuote;
  figures: Record<string, string>;
}

/** Fired on `document` when a song's pool changed (a trade here, or one the indexer saw): views that show its figures read them again. */
export const POOL_CHANGED_EVENT = 'songmint:pool-changed';

/**
 * One side of the trade panel: an amount and what it names (exact input, or exact output with the
 * slippage bound on the input), a Max button, and the quote for the next block under it, read
 * again as the amount changes and every block. A refusal is said once: in the quote box while the
 * amount is typed, next to the button once it is pressed (the quote box then leaves it out).
 */
function tradeSide(
  context: AppContext,
  songId: bigint,
  side: TradeSide,
  shared: { slippage: HTMLInputElement; balances: () => TradeBalances | undefined; afterTrade: (trade: SwapResult) => Promise<void> },
): TradeSideParts {
  const labels =
    side === 'buy' ? { exactIn: 'ETH to spend', exactOut: 'Tokens to receive' } : { exactIn: 'Tokens to sell', exactOut: 'ETH to receive' };
  // A sale starts empty: nothing is refused before the person asks for something.
  const amount = h('input', {
    id: `${side}-amount`,
    inputmode: 'decimal',
    value: side === 'buy' ? '0.01' : '',
    placeholder: '0',
    required: true,
    autocomplete: 'off',
  });
  const label = h('label', { for: `${side}-amount` }, labels.exactIn);
  const mode = h(
    'select',
    { id: `${side}-mode`, 'aria-label': side === 'buy' ? 'Buy by' : 'Sell by' },
    h('option', { value: 'exactIn' }, side === 'buy' ? 'ETH in' : 'tokens in'),
    h('option', { value: 'exactOut' }, side === 'buy' ? 'tokens out' : 'ETH out'),
  );
  const max = h(
    'button',
    {
      type: 'button',
      class: 'secondary',
      id: `${side}-max`,
      'aria-label':
        side === 'buy'
          ? 'Max: spend all your ETH but a little for gas'
          : 'Max: sell every token you hold, or the most the pool can buy back',
    },
    'Max',
  );
  const button = h('button', { type: 'submit', id: side, 'data-action': true }, side === 'buy' ? 'Buy' : 'Sell');
  // Not a live region: it changes every block; a refusal inside it is an alert when it appears.
  const quoteBox = h('div', { id: `${side}-quote`, class: 'quote' });
  // What Max filled in, when it is less than the wallet holds (the pool's limit), with its figure.
  const maxNote = h('p', { id: `${side}-max-note`, class: 'note', hidden: true });
  const form = h('form', { class: 'row' }, h('div', {}, label, amount), mode, max, button);

  const swapAmount = (): SwapAmount => {
    const value = amountOf(amount, `The ${label.textContent ?? 'amount'}`);
    return mode.value === 'exactOut' ? { amountOut: value } : { amountIn: value };
  };
  /** The refusal the button's alert shows now, if any (actions.ts writes it). */
  const alertShown = () => {
    const alert = messagesNear(button).alert;
    return alert.hidden ? '' : (alert.textContent ?? '');
  };
  let state: QuoteState = { figures: {} };
  const render = () => {
    const refusal = state.refusal !== undefined && state.refusal !== alertShown() ? state.refusal : undefined;
    const line = h(
      'div',
      {},
      refusal === undefined ? null : h('p', { class: 'refusal', role: 'alert' }, refusal),
      state.note === undefined ? null : h('p', { class: 'note' }, state.note),
      state.quote === undefined
        ? null
        : h(
            'p',
            { class: 'note quote-block' },
            `Quote for block ${state.quote.block.number} at ${at(state.quote.block.timestamp)}, the next block, fees included, from Uniswap’s V4Quoter.`,
          ),
      state.quote === undefined ? null : quoteFacts(state.quote),
    );
    for (const key of Object.keys(quoteBox.dataset)) if (!(key in state.figures)) delete quoteBox.dataset[key];
    Object.assign(quoteBox.dataset, state.figures);
    // Replaced only when it reads differently, so a refusal is announced once.
    if (quoteBox.textContent !== line.textContent) quoteBox.replaceChildren(line);
  };
  let shown = 0;
  const refresh = async () => {
    const ticket = ++shown;
    let next: QuoteState;
    const balances = shared.balances();
    try {
      if (amount.value.trim() === '') {
        next = { note: `Enter the ${(label.textContent ?? 'amount').toLowerCase()} for a quote.`, figures: {} };
      } else {
        const parameters = swapAmount();
        const slippage = slippageBps(shared.slippage);
        // More than the wallet holds is said as that, before the pool is asked (it may not fill it either).
        if (side === 'sell' && parameters.amountIn !== undefined && balances !== undefined && parameters.amountIn > balances.token) {
          next = { refusal: `You hold ${held(side, balances)}; reduce the amount.`, figures: { refused: 'true' } };
        } else {
          const quote = await quoteTrade(context.read, { songId, side, slippageBps: slippage, ...parameters });
          const refusal = paysNothing(quote) ?? (balances === undefined ? undefined : unaffordable(quote, balances));
          next = {
            ...(refusal === undefined ? {} : { refusal }),
            quote,
            figures: {
              block: quote.block.number.toString(),
              blockTime: quote.block.timestamp.toString(),
              feePips: quote.hookFeePips.toString(),
              amountIn: quote.amountIn.toString(),
              amountOut: quote.amountOut.toString(),
              limit: quote.limit.toString(),
              refused: String(refusal !== undefined),
            },
          };
        }
      }
    } catch (error) {
      const shownError = await tradeError(error, { context, songId, side, balances });
      // An amount that is not one yet is a hint, not a refusal.
      const typing = !(error instanceof SongmintClientError) && error instanceof Error && /must be/.test(error.message);
      next = typing ? { note: error.message, figures: {} } : { refusal: describeError(shownError), figures: { refused: 'true' } };
    }
    // Only the latest quote is shown, its figures with it (a slower, older one would contradict it).
    if (ticket !== shown) return;
    state = next;
    render();
  };
  let typing: number | undefined;
  const soon = () => {
    clearActionMessages(button);
    window.clearTimeout(typing);
    typing = window.setTimeout(() => void refresh(), TYPING_PAUSE_MS);
  };
  amount.addEventListener('input', () => {
    maxNote.hidden = true;
    soon();
  });
  mode.addEventListener('change', () => {
    label.textContent = mode.value === 'exactOut' ? labels.exactOut : labels.exactIn;
    maxNote.hidden = true;
    soon();
  });
  const fill = (value: bigint) => {
    mode.value = 'exactIn';
    label.textContent = labels.exactIn;
    // Every wei (selling all must leave nothing behind), the whole part grouped for reading.
    amount.value = formatEther(value).replace(/^\d+/, (whole) => Number(whole).toLocaleString('en-US'));
    soon();
  };
  max.addEventListener('click', () => {
    const balances = shared.balances();
    if (balances === undefined) return;
    maxNote.hidden = true;
    if (side === 'buy') {
      fill(balances.eth > GAS_RESERVE_WEI ? balances.eth - GAS_RESERVE_WEI : 0n);
      return;
    }
    // A sale: what the wallet holds, unless the pool can buy back less (it pays only the ETH buyers put in).
    void runAction(max, 'Quoting the most the pool can buy back', async () => {
      const limit = await quoteSellMax(context.read, { songId });
      if (limit.maxTokens >= balances.token) {
        fill(balances.token);
        return;
      }
      Object.assign(maxNote.dataset, { maxTokens: limit.maxTokens.toString() });
      maxNote.hidden = false;
      // Nothing to fill in: a sale of 0 tokens is no sale (it would only spend gas).
      if (limit.quote === undefined || limit.quote.amountOut === 0n) {
        amount.value = '';
        maxNote.textContent = `${NO_BUYERS_ETH} You hold ${tokens(balances.token)}.`;
        soon();
        return;
      }
      fill(limit.maxTokens);
      maxNote.textContent = `Max is the most the pool can buy back now: ${tokens(limit.maxTokens)}, for ≈ ${eth(limit.quote.amountOut)}. It holds only the ETH buyers paid in; you hold ${tokens(balances.token)}.`;
    });
  });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const progress =
      side === 'buy'
        ? 'Buying through the Universal Router: confirm in your wallet'
        : 'Selling through the Universal Router: approve Permit2 once, sign the permit for this sale, then confirm in your wallet';
    void runAction(button, progress, async () => {
      const chain = walletOf(context);
      const account = chain.walletClient.account?.address;
      if (account === undefined) throw new Error('Connect your wallet first');
      const parameters = { songId, ...swapAmount(), slippageBps: slippageBps(shared.slippage) };
      // Refused here, in words, before the wallet is asked for anything.
      const balances = await readBalances(chain, { songId, account });
      if (side === 'sell' && parameters.amountIn !== undefined && parameters.amountIn > balances.token)
        throw new Error(`You hold ${held(side, balances)}; reduce the amount.`);
      const quote = await quoteTrade(chain, { side, ...parameters }).catch(async (error: unknown) => {
        throw await tradeError(error, { context, songId, side, balances });
      });
      const refusal = paysNothing(quote) ?? unaffordable(quote, balances);
      if (refusal !== undefined) throw new Error(refusal);
      const trade = await (side === 'buy' ? buy : sell)(chain, parameters).catch(async (error: unknown) => {
        throw await tradeError(error, { context, songId, side, balances });
      });
      // A sale's amount is spent: the box asks for the next one rather than quoting what is no longer held.
      if (side === 'sell') {
        amount.value = '';
        maxNote.hidden = true;
      }
      await shared.afterTrade(trade);
    }).then(render);
  });
  return { form, maxNote, quoteBox, refresh };
}

/**
 * The line under the panel after a trade: a new quote when a block began before it was sent, what
 * moved, and the launch fee charged (from the receipt's logs) against the one quoted for its block.
 */
function tradeLine(side: TradeSide, trade: SwapResult): string {
  const { quoted, requotedFrom } = trade;
  const requote =
    requotedFrom === undefined
      ? ''
      : `A new block began before the trade was sent: quoted again for block ${quoted.block.number} at ${at(quoted.block.timestamp)}, launch fee ${pips(quoted.hookFeePips)} (it was ${pips(requotedFrom.hookFeePips)} for ${at(requotedFrom.block.timestamp)}). `;
  const what =
    side === 'buy'
      ? `Bought ${tokens(trade.amountOut)} for ${eth(trade.amountIn)}`
      : `Sold ${tokens(trade.amountIn)} for ${eth(trade.amountOut)}`;
  const charged = `launch fee ${pips(trade.hookFeePips)} (${eth(trade.hookFee)}) charged in block ${trade.receipt.blockNumber} at ${at(trade.blockTimestamp)}`;
  const asQuoted =
    trade.blockTimestamp === quoted.block.timestamp
      ? 'as quoted for that block'
      : `a later block than quoted (${pips(quoted.hookFeePips)} for ${at(quoted.block.timestamp)}); the fee only falls`;
  return `${requote}${what}: ${charged}, ${asQuoted}.`;
}

const Q192 = 2n ** 192n;

/**
 * What the wallet's tokens sell for now, beside their value at the pool price: the V4Quoter's
 * quote for all of them, fees included, or, when the pool cannot buy them all back (it pays out
 * only the ETH buyers paid in), the most it can take and what that pays.
 */
async function showHoldingSale(context: AppContext, songId: bigint, held: bigint, line: HTMLElement): Promise<void> {
  for (const key of Object.keys(line.dataset)) delete line.dataset[key];
  line.hidden = held === 0n;
  if (held === 0n) return;
  try {
    const quote = await quoteTrade(context.read, { songId, side: 'sell', amountIn: held });
    const spot = (held * Q192) / (quote.sqrtPriceX96 * quote.sqrtPriceX96);
    line.textContent = `Selling all ${tokens(held)} now pays ≈ ${eth(quote.amountOut)}, fees included (${eth(spot)} at the pool price).`;
    Object.assign(line.dataset, { saleEth: quote.amountOut.toString(), spotEth: spot.toString(), fills: 'true' });
  } catch (error) {
    if (!(error instanceof SongmintClientError && error.code === 'QUOTE_FAILED')) throw error;
    const max = await quoteSellMax(context.read, { songId });
    line.textContent =
      max.quote === undefined
        ? `${NO_BUYERS_ETH} Your ${tokens(held)} sell for nothing until someone buys.`
        : `The pool can buy back at most ${tokens(max.maxTokens)} of your ${tokens(held)} now, for ≈ ${eth(max.quote.amountOut)}: it holds only the ETH buyers paid in.`;
    Object.assign(line.dataset, { saleEth: (max.quote?.amountOut ?? 0n).toString(), maxTokens: max.maxTokens.toString(), fills: 'false' });
  }
}

/**
 * Buy and Sell as one box with two tabs, as trading screens have them, so both fit the first screen
 * of a coin page (issue 51, item 4): a WAI-ARIA tab list (only the selected tab in the Tab order;
 * Left and Right arrows move to the other tab and select it, Home and End the first and last), each
 * tab showing its side's form and quote. Both sides keep quoting while hidden: a switch shows a
 * quote at once.
 */
function tradeTabs(sides: Array<{ side: TradeSide; label: string; parts: HTMLElement[] }>): HTMLElement[] {
  const tabs = sides.map(({ side, label }, index) =>
    h(
      'button',
      {
        type: 'button',
        role: 'tab',
        id: `trade-tab-${side}`,
        class: 'trade-tab',
        'aria-controls': `trade-${side}`,
        'aria-selected': String(index === 0),
        tabindex: index === 0 ? '0' : '-1',
      },
      label,
    ),
  );
  const panels = sides.map(({ side, parts }, index) =>
    h('div', { role: 'tabpanel', id: `trade-${side}`, 'aria-labelledby': `trade-tab-${side}`, hidden: index !== 0 }, ...parts),
  );
  const select = (chosen: number) => {
    tabs.forEach((tab, index) => {
      tab.setAttribute('aria-selected', String(index === chosen));
      tab.tabIndex = index === chosen ? 0 : -1;
    });
    panels.forEach((panel, index) => {
      panel.hidden = index !== chosen;
    });
    tabs[chosen]?.focus();
  };
  tabs.forEach((tab, index) => {
    tab.addEventListener('click', () => select(index));
    tab.addEventListener('keydown', (event) => {
      const last = tabs.length - 1;
      const next =
        event.key === 'ArrowRight'
          ? (index + 1) % tabs.length
          : event.key === 'ArrowLeft'
            ? (index + last) % tabs.length
            : event.key === 'Home'
              ? 0
              : event.key === 'End'
                ? last
                : undefined;
      if (next === undefined) return;
      event.preventDefault();
      select(next);
    });
  });
  return [h('div', { role: 'tablist', 'aria-label': 'Buy or sell', class: 'trade-tabs' }, ...tabs), ...panels];
}

/** The trade panel of a launched song: balances, buy and sell (one box, two tabs) with their quotes, slippage. */
export function tradePanel(context: AppContext, songId: bigint, afterTrade: (txHash: string) => Promise<void>): HTMLElement {
  const slippage = h('input', { id: 'slippage', inputmode: 'decimal', value: '1', class: 'short' });
  const balanceLine = h('p', { id: 'balances' }, 'Reading your balances…');
  const holdingLine = h('p', { id: 'holding-sale', hidden: true });
  const lastTrade = h('p', { id: 'last-trade', class: 'note', role: 'status' }, 'No trade yet in this visit.');
  let balances: TradeBalances | undefined;
  const account = context.session?.chain?.walletClient.account?.address;
  const loadBalances = async () => {
    if (account === undefined) return;
    balances = await readBalances(context.read, { songId, account });
    balanceLine.textContent = `You hold ${eth(balances.eth)} and ${tokens(balances.token)}.`;
    Object.assign(balanceLine.dataset, { eth: balances.eth.toString(), token: balances.token.toString() });
    await showHoldingSale(context, songId, balances.token, holdingLine);
  };
  // Someone traded (the coin's feed saw it): what the holding sells for moved.
  document.addEventListener(POOL_CHANGED_EVENT, () => void loadBalances().catch(() => undefined), { signal: context.signal });
  const sides: TradeSideParts[] = [];
  const shared = {
    slippage,
    balances: () => balances,
    afterTrade: async (trade: SwapResult) => {
      const side: TradeSide = trade.quoted.side;
      lastTrade.textContent = tradeLine(side, trade);
      Object.assign(lastTrade.dataset, {
        tx: trade.hash,
        block: trade.receipt.blockNumber.toString(),
        blockTime: trade.blockTimestamp.toString(),
        feePips: trade.hookFeePips.toString(),
        quotedBlockTime: trade.quoted.block.timestamp.toString(),
        quotedFeePips: trade.quoted.hookFeePips.toString(),
        requoted: String(trade.requotedFrom !== undefined),
      });
      // The line itself is a live region: the trade is said once, there (the button's progress line goes).
      await loadBalances();
      document.dispatchEvent(new CustomEvent(POOL_CHANGED_EVENT, { detail: { songId } }));
      await Promise.all(sides.map((part) => part.refresh()));
      // The chart follows once the indexer has the swap; the button is free again meanwhile.
      void afterTrade(trade.hash).catch((error: unknown) => showError(error, 'The chart could not be updated: ', lastTrade));
    },
  };
  sides.push(tradeSide(context, songId, 'buy', shared), tradeSide(context, songId, 'sell', shared));
  const [buySide, sellSide] = sides as [TradeSideParts, TradeSideParts];
  const refreshAll = () => Promise.all(sides.map((part) => part.refresh()));
  slippage.addEventListener('input', () => void refreshAll());
  void loadBalances().then(refreshAll, refreshAll);
  // Quoted again for every new block (the pending block's time and the pool move with it); a slow
  // node skips a beat rather than piling up reads.
  let reading = false;
  let seenBlock: bigint | undefined;
  const timer = window.setInterval(() => {
    if (reading) return;
    reading = true;
    void context.read.publicClient
      .getBlockNumber({ cacheTime: 0 })
      .then((latest) => {
        if (latest === seenBlock) return;
        seenBlock = latest;
        return refreshAll();
      })
      .catch(() => undefined)
      .finally(() => {
        reading = false;
      });
  }, BLOCK_POLL_MS);
  context.signal.addEventListener('abort', () => window.clearInterval(timer));
  return h(
    'section',
    { 'aria-labelledby': 'trade-title', class: 'panel trade' },
    h('h3', { id: 'trade-title' }, 'Trade'),
    balanceLine,
    holdingLine,
    ...tradeTabs([
      { side: 'buy', label: 'Buy', parts: [buySide.form, buySide.quoteBox] },
      { side: 'sell', label: 'Sell', parts: [sellSide.form, sellSide.maxNote, sellSide.quoteBox] },
    ]),
    h('div', { class: 'row inline' }, h('label', { for: 'slippage' }, 'Slippage (%)'), slippage),
    h(
      'p',
      { class: 'note' },
      'Quotes are for the next block, read again for each new block (one every 2 s), fees included: the launch fee falls from 50% to 1% over the first 120 s after the launch. A trade joins the next block; should a new block begin before it is sent, it is quoted again and says so. Trades go through Uniswap’s Universal Router; a sale moves your tokens with a Permit2 signature for that sale only.',
    ),
    lastTrade,
  );
}
