import { getPortfolio } from '@songmint/sdk';
import type { Portfolio } from '@songmint/sdk';
import { showError } from '../actions.ts';
import type { AppContext } from '../context.ts';
import { h, whenLocal } from '../dom.ts';
import { eth, plainNumber, tokens } from '../format.ts';
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
    ...portfolio.holdings.map((holding) =>
      h(
        'li',
        { 'data-song-id': holding.song_id, 'data-balance': holding.balance, 'data-value': holding.value.eth },
        link(holding),
        ` (${holding.symbol}): ${tokens(BigInt(holding.balance))}, ${Number(holding.share_percent).toLocaleString('en-US', { maximumFractionDigits: 2 })}% of the supply, worth ${eth(BigInt(holding.value.eth))}${dollars(holding.value.usd)}`,
        holding.price_eth_per_million_tokens === null
          ? ''
          : ` at ${plainNumber(Number(holding.price_eth_per_million_tokens))} ETH per 1M tokens`,
      ),
    ),
  );
  return section(
    'portfolio-holdings',
    'Song tokens you hold',
    h(
      'p',
      { id: 'portfolio-total', 'data-eth': portfolio.total_value.eth },
      `Worth ${eth(BigInt(portfolio.total_value.eth))}${dollars(portfolio.total_value.usd)} at the pools’ prices now (a sale fetches less: price impact and fees).`,
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
          ...held.map((allocation) => {
            const at = new Date(allocation.claimable_at);
            return h(
              'li',
              { 'data-song-id': allocation.song_id, 'data-amount': allocation.amount },
              link(allocation),
              `: ${tokens(BigInt(allocation.amount))} held by the vault, ${at.getTime() <= Date.now() ? 'claimable now with “Claim allocation” in My songs' : `claimable from ${whenLocal(at)}`}.`,
            );
          }),
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
