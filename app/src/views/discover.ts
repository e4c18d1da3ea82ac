import { getNft, getPools } from '@songmint/sdk';
import type { TradingPool } from '@songmint/sdk';
import { runAction, showError } from '../actions.ts';
import type { AppContext } from '../context.ts';
import { apiOf } from '../context.ts';
import { h } from '../dom.ts';
import { eth, shortAddress } from '../format.ts';
import { connectPanel } from './wallet.ts';

const PAGE_SIZE = 20;
type Order = 'newest' | 'volume';

/** Launched songs from /v1/trading/pools, newest first or by 24 h volume, each linking to its page. */
export function discoverView(context: AppContext): HTMLElement {
  const view = h('section', { 'aria-labelledby': 'view-title', class: 'view' }, h('h1', { id: 'view-title', tabindex: '-1' }, 'Discover'));
  if (context.session === undefined) {
    view.append(h('p', {}, 'Sign in to browse every launched song (a song page opens for anyone from its link).'), connectPanel(context));
    return view;
  }
  const order = h(
    'select',
    { id: 'discover-order' },
    h('option', { value: 'newest' }, 'Newest launch'),
    h('option', { value: 'volume' }, '24 h volume'),
  );
  const list = h('ol', { id: 'pools', class: 'cards', 'aria-label': 'Launched songs' });
  const more = h('button', { type: 'button', class: 'secondary', hidden: true }, 'Show more');
  view.append(h('div', { class: 'row inline' }, h('label', { for: 'discover-order' }, 'Order'), order), list, more);
  const pools: TradingPool[] = [];
  /** Titles from the indexed metadata (GET /v1/nft/{id}), filled in as they arrive. */
  const names = new Map<string, string>();
  let cursor: string | undefined;

  const render = () => {
    const sorted =
      order.value === ('volume' satisfies Order)
        ? [...pools].sort((a, b) => (BigInt(b.volume_24h.eth) > BigInt(a.volume_24h.eth) ? 1 : -1))
        : pools;
    list.replaceChildren(
      ...sorted.map((pool) =>
        h(
          'li',
          { class: 'card', 'data-song-id': pool.song_id },
          h(
            'h2',
            { class: 'card-title' },
            h('a', { href: `/app/song/${pool.song_id}`, 'data-link': true }, names.get(pool.song_id) ?? `Song #${pool.song_id}`),
          ),
          h('p', {}, `by ${shortAddress(pool.creator)}, launched ${new Date(pool.launched_at).toLocaleString('en-GB')}`),
          h(
            'p',
            {},
            `${pool.price === null ? 'no price yet' : `${Number(pool.price.tokens_per_eth).toLocaleString('en-US', { maximumFractionDigits: 0 })} tokens per ETH`}; 24 h volume ${eth(BigInt(pool.volume_24h.eth))} in ${pool.volume_24h.trades} ${pool.volume_24h.trades === 1 ? 'trade' : 'trades'}`,
          ),
        ),
      ),
    );
    if (pools.length === 0) list.append(h('li', { class: 'empty' }, 'No song is launched yet.'));
  };
  const load = async () => {
    const page = await getPools(apiOf(context), { limit: PAGE_SIZE, ...(cursor === undefined ? {} : { cursor }), signal: context.signal });
    pools.push(...page.pools);
    cursor = page.next_cursor ?? undefined;
    more.hidden = page.next_cursor === null;
    render();
    const titles = await Promise.all(
      page.pools.map((pool) =>
        getNft(apiOf(context), { tokenId: BigInt(pool.song_id), signal: context.signal }).then(
          (nft) => [pool.song_id, nft.metadata?.name] as const,
          () => [pool.song_id, undefined] as const,
        ),
      ),
    );
    for (const [songId, name] of titles) if (typeof name === 'string' && name !== '') names.set(songId, `${name} (#${songId})`);
    render();
  };
  order.addEventListener('change', render);
  more.addEventListener('click', () => void runAction(more, 'Loading more songs', load));
  load().catch((error: unknown) => showError(error, 'Launched songs could not be loaded: '));
  return view;
}
