import { getCoin, getCoinTrades, SongmintApiError } from '@songmint/sdk';
import type { Coin, CoinTrade } from '@songmint/sdk';
import { formatEther, getAddress } from 'viem';
import { runAction, showError } from '../actions.ts';
import type { AppContext } from '../context.ts';
import { h } from '../dom.ts';
import { creatorLink } from '../creator-link.ts';
import { clock, eth, pricePerMillion, shortAddress, tokens } from '../format.ts';
import { POOL_CHANGED_EVENT } from './trade.ts';

/**
 * How often the coin's figures are read again (the indexer reads the chain every 4 s); its trades
 * only when the figures say there was one. Each read is charged to this client's address, so a
 * hidden page does not read, and a refused one waits a minute.
 */
const POLL_MS = 4_000;
const RATE_LIMITED_MS = 60_000;
const TRADES_PAGE = 20;

const dollars = (usd: string | null) =>
  usd === null ? '' : ` (≈ $${Number(usd).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })})`;
const ethOf = (wei: string) => eth(BigInt(wei));
/** Token amounts in a table: whole tokens from a thousand up, two places below. */
const tokenCount = (units: string) => {
  const whole = Number(formatEther(BigInt(units)));
  return whole.toLocaleString('en-US', { maximumFractionDigits: whole >= 1000 ? 0 : 2 });
};
/** A holder's share of the supply; a sliver above nothing is "<0.01%", not "0%". */
const share = (percent: string, balance: string) =>
  Number(percent) < 0.01 && BigInt(balance) > 0n ? '<0.01%' : `${Number(percent).toLocaleString('en-US', { maximumFractionDigits: 2 })}%`;
/** ETH in a column headed "ETH": the figure alone. */
const ethFigure = (wei: string) => Number(formatEther(BigInt(wei))).toLocaleString('en-US', { maximumFractionDigits: 6 });
/** A table cell that names its column, so a narrow screen shows each row as a labelled card (style.css). */
const cell = (label: string, ...content: Array<Node | string>) => h('td', { 'data-label': label }, ...content);
const tradeKey = (trade: CoinTrade) => `${trade.block_number}:${trade.log_index}`;

/** "27 Nov 2026, 12:34:56" on the person's clock: always with its date (a trade days ago read as today's otherwise). */
function when(iso: string): string {
  const date = new Date(iso);
  return `${date.toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric' })}, ${clock(date)}`;
}

/** The 24 h change as words and an arrow, never by colour alone. */
function change(percent: string | null): HTMLElement {
  if (percent === null) return h('span', { id: 'coin-change', class: 'note' }, 'no change yet');
  const value = Number(percent);
  const direction = value > 0 ? 'up' : value < 0 ? 'down' : 'flat';
  const arrow = direction === 'up' ? '▲' : direction === 'down' ? '▼' : '■';
  return h(
    'span',
    { id: 'coin-change', class: `change ${direction}`, 'data-percent': percent },
    `${arrow} ${value > 0 ? '+' : ''}${percent}% in 24 h`,
  );
}

/**
 * The creator's allocation as a buyer needs it: what is free to sell now, what is still locked, and
 * until when. The counts without their unit (the line above says "tokens"), so it fits two lines at
 * 360 px and the trade box stays in the first screen.
 */
function allocationFigure(allocation: NonNullable<Coin['allocation']>): HTMLElement {
  const date = (iso: string) => new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric' });
  const count = (units: bigint) => tokens(units).replace(/ tokens?$/, '');
  const unvested = BigInt(allocation.unvested);
  return h(
    'span',
    {
      'data-total': allocation.total,
      'data-vested': allocation.vested,
      'data-claimed': allocation.claimed,
      'data-unvested': allocation.unvested,
    },
    `${tokens(BigInt(allocation.total))}`,
    h(
      'span',
      { class: 'note' },
      `${count(BigInt(allocation.claimed))} claimed, ${count(BigInt(allocation.vested) - BigInt(allocation.claimed))} vested unclaimed, ${count(unvested)} unvested; `,
      BigInt(allocation.vested) === 0n
        ? `nothing vests before ${date(allocation.cliff_end)}`
        : unvested > 0n
          ? `all vested by ${date(allocation.vesting_end)}`
          : 'all vested',
    ),
  );
}

function stat(label: string, id: string, value: Node | string, extra: Node | string = ''): HTMLElement {
  return h('div', {}, h('dt', {}, label), h('dd', { id }, value, extra));
}

/**
 * The coin of a launched song, like a launchpad's coin page: price per million tokens and its 24 h
 * change, market cap, 24 h volume, holders and the creator's earnings (`figures`, above the chart
 * and the trade panel), then every trade (buy or sell, wallet, amounts, launch fee, time,
 * transaction) and the top holders (`activity`, below them). Read from the public API and read
 * again every few seconds; a new trade there tells the rest of the page (`POOL_CHANGED_EVENT`).
 */
export function coinSections(context: AppContext, songId: bigint): { figures: HTMLElement; activity: HTMLElement } {
  const stats = h('dl', { class: 'stats', id: 'coin-stats' });
  const moreStats = h('dl', { class: 'stats', id: 'coin-more-stats' });
  const waiting = h('p', { class: 'note', id: 'coin-waiting' }, 'Reading the coin’s figures…');
  const usdNote = h('p', { class: 'note', id: 'coin-usd-note' });
  const figures = h(
    'section',
    { 'aria-labelledby': 'coin-title', class: 'panel coin', id: 'coin', 'aria-busy': 'true' },
    h('h2', { id: 'coin-title' }, 'Coin'),
    waiting,
    stats,
  );

  const tradeRows = h('tbody', {});
  const tradesTable = h(
    'table',
    { id: 'coin-trades', class: 'coin-table' },
    h('caption', { class: 'visually-hidden' }, 'Trades, newest first'),
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        ...['Trade', 'Wallet', 'Tokens', 'ETH', 'Launch fee (ETH)', 'Time', 'Transaction'].map((name) => h('th', { scope: 'col' }, name)),
      ),
    ),
    tradeRows,
  );
  const older = h(
    'button',
    { type: 'button', class: 'secondary', id: 'coin-older', hidden: true, 'data-action': true },
    'Show older trades',
  );
  const noTrades = h(
    'p',
    { class: 'empty', id: 'coin-no-trades', hidden: true },
    'No trade yet: the first buyer pays the launch fee of its second.',
  );
  const holderRows = h('tbody', {});
  const holdersTable = h(
    'table',
    { id: 'coin-holders', class: 'coin-table' },
    h('caption', { class: 'visually-hidden' }, 'Top holders, largest first'),
    h('thead', {}, h('tr', {}, ...['#', 'Holder', 'Tokens', 'Share'].map((name) => h('th', { scope: 'col' }, name)))),
    holderRows,
  );
  const holdersNote = h('p', { class: 'note', id: 'coin-holders-note' });
  // Wide tables scroll inside their own box on a narrow screen, never the page.
  const scroller = (table: HTMLElement, label: string) =>
    h('div', { class: 'table-scroll', role: 'region', 'aria-label': label, tabindex: '0' }, table);
  const activity = h(
    'section',
    { 'aria-labelledby': 'coin-activity-title', class: 'panel coin', id: 'coin-activity' },
    h('h2', { id: 'coin-figures-title' }, 'Volume, holders and earnings'),
    moreStats,
    // Where the dollar figures come from, here rather than above, so the trade box keeps its place in the first screen.
    usdNote,
    h('h2', { id: 'coin-activity-title' }, 'Activity'),
    noTrades,
    scroller(tradesTable, 'Trades'),
    older,
    h('h2', { id: 'coin-holders-title' }, 'Top holders'),
    holdersNote,
    scroller(holdersTable, 'Top holders'),
  );

  let coin: Coin | undefined;
  let latest: CoinTrade[] = [];
  const earlier: CoinTrade[] = [];
  let cursor: string | null = null;
  const me = context.session?.address.toLowerCase();

  /** A wallet in a table, linked to its profile: by the display name it set (a known creator), else by its short address. */
  const who = (address: string, name: string | null): Node => {
    const label = address.toLowerCase() === me ? ' (you)' : address.toLowerCase() === coin?.creator.toLowerCase() ? ' (creator)' : '';
    const link =
      name === null
        ? h('a', { href: `/app/creator/${getAddress(address)}`, 'data-link': true }, h('code', { title: address }, shortAddress(address)))
        : creatorLink(address, name);
    return h('span', {}, link, label);
  };

  const drawFigures = (current: Coin) => {
    const price = current.price;
    stats.replaceChildren(
      stat(
        'Price',
        'coin-price',
        price === null ? 'not yet' : `${pricePerMillion(price.eth_per_million_tokens)}${dollars(price.usd_per_million_tokens)}`,
        price === null ? '' : h('span', {}, ' ', change(price.change_24h_percent)),
      ),
      stat(
        'Market cap',
        'coin-market-cap',
        current.market_cap === null ? 'not yet' : `${ethOf(current.market_cap.eth)}${dollars(current.market_cap.usd)}`,
      ),
      stat(
        'Liquidity',
        'coin-liquidity',
        current.pool.eth === null ? 'unread' : `${ethOf(current.pool.eth)}${dollars(current.pool.usd)}`,
        h('span', { class: 'note' }, 'the most sales can pay'),
      ),
      stat('Creator allocation', 'coin-allocation', current.allocation === null ? 'none' : allocationFigure(current.allocation)),
    );
    // The rest below the trade box, so price, cap, liquidity, the allocation and Buy fit the first screen.
    moreStats.replaceChildren(
      stat(
        '24 h volume',
        'coin-volume',
        `${ethOf(current.volume_24h.eth)}${dollars(current.volume_24h.usd)} in ${current.volume_24h.trades} ${current.volume_24h.trades === 1 ? 'trade' : 'trades'}`,
      ),
      stat('Holders', 'coin-holders-count', String(current.holders.count)),
      stat(
        'Creator earnings',
        'coin-earnings',
        `${ethOf(current.creator_earnings.total_eth)}${dollars(current.creator_earnings.total_usd)}`,
        BigInt(current.creator_earnings.credited.token) > 0n ? ` and ${tokens(BigInt(current.creator_earnings.credited.token))}` : '',
      ),
      stat('Token', 'coin-token', h('code', { title: current.token }, `${current.symbol} ${shortAddress(current.token)}`)),
    );
    Object.assign(stats.dataset, {
      weiPerMillion: current.price?.wei_per_million_tokens ?? '',
      marketCap: current.market_cap?.eth ?? '',
      holders: String(current.holders.count),
      poolEth: current.pool.eth ?? '',
      earnings: current.creator_earnings.total_eth,
    });
    usdNote.textContent =
      current.eth_usd === null
        ? 'Figures in ETH: this server has no ETH/USD price feed.'
        : `Dollar figures at $${Number(current.eth_usd.price).toLocaleString('en-US', { minimumFractionDigits: 2 })} per ETH (Chainlink, ${when(current.eth_usd.updated_at)}).`;
    holdersNote.textContent = `${current.holders.count} ${current.holders.count === 1 ? 'address holds' : 'addresses hold'} ${current.symbol}; the ${Math.min(current.holders.count, current.holders.top.length)} largest:`;
    holderRows.replaceChildren(
      ...current.holders.top.map((holder, index) =>
        h(
          'tr',
          { 'data-address': holder.address, 'data-balance': holder.balance },
          cell('#', String(index + 1)),
          cell('Holder', who(holder.address, holder.name)),
          cell('Tokens', tokenCount(holder.balance)),
          cell('Share', share(holder.share_percent, holder.balance)),
        ),
      ),
    );
  };

  const drawTrades = () => {
    const seen = new Set(latest.map(tradeKey));
    const all = [...latest, ...earlier.filter((trade) => !seen.has(tradeKey(trade)))];
    noTrades.hidden = all.length > 0;
    tradeRows.replaceChildren(
      ...all.map((trade) =>
        h(
          'tr',
          {
            'data-tx': trade.tx_hash,
            'data-side': trade.side,
            'data-wallet': trade.wallet,
            'data-fee': trade.launch_fee?.eth ?? '',
            'data-eth': trade.eth,
            'data-token': trade.token,
          },
          cell('Trade', h('span', { class: `side ${trade.side}` }, trade.side === 'buy' ? 'Buy' : 'Sell')),
          cell('Wallet', who(trade.wallet, trade.wallet_name)),
          cell('Tokens', tokenCount(trade.token)),
          cell('ETH', ethFigure(trade.eth)),
          cell('Launch fee (ETH)', trade.launch_fee === null ? '—' : `${ethFigure(trade.launch_fee.eth)} (${trade.launch_fee.percent}%)`),
          cell('Time', h('time', { datetime: trade.time }, when(trade.time))),
          cell('Transaction', h('code', { title: trade.tx_hash }, shortAddress(trade.tx_hash))),
        ),
      ),
    );
  };

  const load = async () => {
    let current: Coin;
    try {
      current = await getCoin(context.publicApi, { songId, signal: context.signal });
    } catch (error) {
      // The oracle indexes a launch a few blocks after it is mined: say so and look again.
      if (error instanceof SongmintApiError && error.code === 'NOT_FOUND') {
        waiting.textContent = 'The coin’s figures appear once its launch is confirmed, a few seconds after it is mined.';
        return;
      }
      throw error;
    }
    const first = coin === undefined;
    const changed = first || current.trades_total !== coin?.trades_total || current.price?.block_number !== coin.price?.block_number;
    coin = current;
    let newTrade = false;
    if (changed) {
      const page = await getCoinTrades(context.publicApi, { songId, limit: TRADES_PAGE, signal: context.signal });
      newTrade =
        !first && page.trades[0] !== undefined && tradeKey(page.trades[0]) !== (latest[0] === undefined ? '' : tradeKey(latest[0]));
      latest = page.trades;
      if (first) {
        cursor = page.next_cursor;
        older.hidden = cursor === null;
      }
      drawTrades();
    }
    waiting.remove();
    figures.setAttribute('aria-busy', 'false');
    drawFigures(current);
    // Someone traded (here or anywhere): the chain's figures on this page are read again.
    if (newTrade) document.dispatchEvent(new CustomEvent(POOL_CHANGED_EVENT, { detail: { songId } }));
  };

  older.addEventListener(
    'click',
    () =>
      void runAction(older, 'Loading older trades', async () => {
        if (cursor === null) return;
        const page = await getCoinTrades(context.publicApi, { songId, limit: TRADES_PAGE, cursor, signal: context.signal });
        earlier.push(...page.trades);
        cursor = page.next_cursor;
        older.hidden = cursor === null;
        drawTrades();
      }),
  );

  let timer: number | undefined;
  let failures = 0;
  const tick = () => {
    if (document.hidden) {
      timer = window.setTimeout(tick, POLL_MS);
      return;
    }
    let wait = POLL_MS;
    load()
      .then(
        () => {
          failures = 0;
        },
        (error: unknown) => {
          if (error instanceof SongmintApiError && error.code === 'RATE_002') wait = RATE_LIMITED_MS;
          // Said once, not every few seconds while the API is away.
          if (++failures === 1 && !context.signal.aborted) showError(error, 'The coin’s figures could not be read: ', figures);
        },
      )
      .finally(() => {
        if (!context.signal.aborted) timer = window.setTimeout(tick, wait);
      });
  };
  tick();
  context.signal.addEventListener('abort', () => window.clearTimeout(timer));
  return { figures, activity };
}
