import { getPortfolio } from '@songmint/sdk';
import type { Portfolio } from '@songmint/sdk';
import { showError } from '../actions.ts';
import type { AppContext } from '../context.ts';
import { h } from '../dom.ts';
import { eth, pricePerMillion, tokens, vestingLine } from '../format.ts';
import { connectPanel } from './wallet.ts';

/** Allocations below this (token units) are the launch position's rounding dust, not worth a line. */
const DUST = 10n ** 16n;

const dollars = (usd: string | null) =>
  usd === null ? '' : ` (≈ $${Number(usd).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })})`;
const link = (song: { page_url: string; title: string | null; song_id: string }) =>
  h('a', { href: song.page_url, 'data-link': true }, song.title ?? `Song #${song.song_id}`);

function section(id: string, title: string, ...children: Array<Node | null>): HTMLElement {
  return h('section', { 'aria-labelledby': `${id}-title`, class: 'panel', id }, h('h2', { id: `${id}-title` }, title), ...children);
}

function holdings(portfolio: Portfolio): HTMLElement {
  const list = h(
    'ul',
    { class: 'plain-list', id: 'portfolio-holdings-list' },
    ...portfolio.holdings.map((holding) => {
      const spot = `${eth(BigInt(holding.value.eth))}${dollars(holding.value.usd)} at the pool price${holding.price_eth_per_million_tokens === null ? '' : ` of ${pricePerMillion(holding.price_eth_per_million_tokens)}`}`;
      const pool = holding.pool_eth === null ? '' : ` The pool holds ${eth(BigInt(holding.pool_eth))} from buyers.`;
      // What it can really be sold for first, the spot value beside it (issue 51).
      const sale =
        holding.sale.eth !== null
          ? `Sells now for ≈ ${eth(BigInt(holding.sale.eth))}${dollars(holding.sale.usd)}, fees included (${spot}).`
          : holding.pool_eth === null
            ? `What it sells for could not be read now (${spot}).`
            : `Its pool cannot buy all of it back now (${spot}).`;
      return h(
        'li',
        {
          'data-song-id': holding.song_id,
          'data-balance': holding.balance,
          'data-value': holding.value.eth,
          'data-sale': holding.sale.eth ?? '',
          'data-fills': String(holding.sale.fills),
        },
        link(holding),
        ` (${holding.symbol}): ${tokens(BigInt(holding.balance))}, ${Number(holding.share_percent).toLocaleString('en-US', { maximumFractionDigits: 2 })}% of the supply. `,
        h('span', { class: 'sale' }, sale),
        pool,
      );
    }),
  );
  return section(
    'portfolio-holdings',
    'Song tokens you hold',
    h(
      'p',
      { id: 'portfolio-total', 'data-eth': portfolio.total_value.eth, 'data-sale': portfolio.total_sale.eth },
      `Selling ${portfolio.total_sale.complete ? 'it all' : 'what the pools can buy back in full'} now pays ≈ ${eth(BigInt(portfolio.total_sale.eth))}${dollars(portfolio.total_sale.usd)}, each against its pool, fees included; ${eth(BigInt(portfolio.total_value.eth))}${dollars(portfolio.total_value.usd)} at the pools’ prices.`,
      portfolio.total_sale.complete ? '' : ' Some pools cannot buy back all you hold of them: they hold only the ETH their buyers paid in.',
    ),
    portfolio.holdings.length === 0 ? h('p', { class: 'empty' }, 'No song tokens yet: buy some on a song page from Discover.') : list,
  );
}

function fees(portfolio: Portfolio): HTMLElement {
  return section(
    'portfolio-fees',
    'Fees to claim',
    portfolio.fees.length === 0
      ? h('p', { class: 'empty' }, 'No song pays its creator share to this wallet.')
      : h(
          'ul',
          { class: 'plain-list' },
          ...portfolio.fees.map((fee) =>
            h(
              'li',
              { 'data-song-id': fee.song_id, 'data-claimable': fee.claimable.eth, 'data-uncollected': fee.uncollected_swap_fees_eth },
              link(fee),
              `: ${eth(BigInt(fee.claimable.eth))} and ${tokens(BigInt(fee.claimable.token))} to claim now, ${eth(BigInt(fee.uncollected_swap_fees_eth))} of swap fees not yet collected (a claim collects them first). Claim on the song page.`,
            ),
          ),
        ),
  );
}

function allocations(portfolio: Portfolio): HTMLElement {
  const held = portfolio.allocations.filter((allocation) => BigInt(allocation.amount) >= DUST);
  return section(
    'portfolio-allocations',
    'Launch allocations',
    held.length === 0
      ? h('p', { class: 'empty' }, 'No allocation is waiting for this wallet.')
      : h(
          'ul',
          { class: 'plain-list' },
          ...held.map((allocation) =>
            h(
              'li',
              {
                'data-song-id': allocation.song_id,
                'data-amount': allocation.amount,
                'data-vested': allocation.vested,
                'data-claimable': allocation.claimable,
              },
              link(allocation),
              `: ${vestingLine({
                total: BigInt(allocation.total),
                vested: BigInt(allocation.vested),
                claimed: BigInt(allocation.claimed),
                cliffEnd: BigInt(Date.parse(allocation.cliff_end) / 1000),
                vestingEnd: BigInt(Date.parse(allocation.vesting_end) / 1000),
              })}. ${BigInt(allocation.claimable) > 0n ? `${tokens(BigInt(allocation.claimable))} to claim now with “Claim allocation” on the song page.` : 'Nothing to claim now.'}`,
            ),
          ),
        ),
  );
}

/** The signed-in wallet's portfolio (/app/portfolio): song tokens held and their value, fees and allocations to claim. */
export function portfolioView(context: AppContext): HTMLElement {
  const view = h(
    'section',
    { 'aria-labelledby': 'view-title', class: 'view portfolio' },
    h('h1', { id: 'view-title', tabindex: '-1' }, 'Portfolio'),
  );
  const session = context.session;
  if (session === undefined) {
    view.append(
      h('p', {}, 'Connect a wallet to see the song tokens it holds, their value and the fees it can claim.'),
      connectPanel(context),
    );
    return view;
  }
  const body = h('div', { id: 'portfolio', 'aria-busy': 'true' }, h('p', { class: 'note' }, 'Reading your portfolio…'));
  view.append(
    h(
      'p',
      { class: 'note' },
      'Your songs as a creator: ',
      h('a', { href: `/app/creator/${session.address}`, 'data-link': true, id: 'portfolio-profile' }, 'your public profile'),
      '.',
    ),
    body,
  );
  getPortfolio(context.publicApi, { address: session.address, signal: context.signal })
    .then((portfolio) => {
      body.replaceChildren(holdings(portfolio), fees(portfolio), allocations(portfolio));
      if (portfolio.eth_usd === null) body.append(h('p', { class: 'note' }, 'Figures in ETH: this server has no ETH/USD price feed.'));
      body.setAttribute('aria-busy', 'false');
    })
    .catch((error: unknown) => {
      body.setAttribute('aria-busy', 'false');
      if (!context.signal.aborted) showError(error, 'Your portfolio could not be loaded: ', body);
    });
  return view;
}
