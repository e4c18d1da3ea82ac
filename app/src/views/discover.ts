import { listPublicSongs } from '@songmint/sdk';
import { getAddress } from 'viem';
import type { PublicLaunchedSong } from '@songmint/sdk';
import { runAction, showError } from '../actions.ts';
import type { AppContext } from '../context.ts';
import { h } from '../dom.ts';
import { eth, pricePerMillionOf, shortAddress } from '../format.ts';
import { publicCardHead } from './public-card-head.ts';
import { gatewayUrl } from '../gateway.ts';

const PAGE_SIZE = 20;

/** A creator's short address, linking to their profile. */
const creatorLink = (creator: string) =>
  h('a', { href: `/app/creator/${getAddress(creator)}`, 'data-link': true, class: 'creator-link' }, shortAddress(getAddress(creator)));
type Order = 'newest' | 'volume';

/**
 * Launched songs for anyone, wallet or not (GET /v1/public/songs): cover, title linking to the
 * song page, a player, the price and the 24 h volume; newest launch first or by volume.
 */
export function discoverView(context: AppContext): HTMLElement {
  const view = h('section', { 'aria-labelledby': 'view-title', class: 'view' }, h('h1', { id: 'view-title', tabindex: '-1' }, 'Discover'));
  const order = h(
    'select',
    { id: 'discover-order' },
    h('option', { value: 'newest' }, 'Newest launch'),
    h('option', { value: 'volume' }, '24 h volume'),
  );
  const list = h('ol', { id: 'pools', class: 'cards', 'aria-label': 'Launched songs', 'aria-busy': 'true' });
  const more = h('button', { type: 'button', class: 'secondary', hidden: true, 'data-action': true }, 'Show more');
  view.append(h('div', { class: 'row inline' }, h('label', { for: 'discover-order' }, 'Order'), order), list, more);
  const songs: PublicLaunchedSong[] = [];
  /** Cards are kept across re-orderings, so a playing song keeps playing. */
  const cards = new Map<string, HTMLLIElement>();
  let cursor: string | undefined;

  const card = (song: PublicLaunchedSong): HTMLLIElement => {
    const title = song.title ?? `Song #${song.song_id}`;
    const price = song.tokens_per_eth === null ? 'no price yet' : pricePerMillionOf(Number(song.tokens_per_eth));
    return h(
      'li',
      { class: 'card', 'data-song-id': song.song_id },
      publicCardHead(context, {
        image: song.image,
        title,
        href: `/app/song/${song.song_id}`,
        line: h(
          'span',
          {},
          'by ',
          creatorLink(song.creator),
          `, launched ${new Date(song.launched_at).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric' })}${song.genre === null ? '' : ` · ${song.genre}`}`,
        ),
      }),
      song.audio === null
        ? null
        : h('audio', {
            controls: true,
            preload: 'none',
            src: gatewayUrl(context, song.audio),
            'aria-label': `Play “${title.slice(0, 60)}”`,
          }),
      h(
        'p',
        {},
        `${price}; 24 h volume ${eth(BigInt(song.volume_24h.eth))} in ${song.volume_24h.trades} ${song.volume_24h.trades === 1 ? 'trade' : 'trades'}`,
      ),
    );
  };

  const render = () => {
    const sorted =
      order.value === ('volume' satisfies Order)
        ? [...songs].sort((a, b) => (BigInt(b.volume_24h.eth) > BigInt(a.volume_24h.eth) ? 1 : -1))
        : songs;
    list.replaceChildren(
      ...sorted.map((song) => {
        const existing = cards.get(song.song_id) ?? card(song);
        cards.set(song.song_id, existing);
        return existing;
      }),
    );
    if (songs.length === 0) list.append(h('li', { class: 'empty' }, 'No song is launched yet.'));
  };
  const load = async () => {
    const page = await listPublicSongs(context.publicApi, {
      limit: PAGE_SIZE,
      ...(cursor === undefined ? {} : { cursor }),
      signal: context.signal,
    });
    songs.push(...page.songs);
    cursor = page.next_cursor ?? undefined;
    more.hidden = page.next_cursor === null;
    render();
    list.setAttribute('aria-busy', 'false');
  };
  order.addEventListener('change', render);
  more.addEventListener('click', () => void runAction(more, 'Loading more songs', load));
  load().catch((error: unknown) => {
    if (!context.signal.aborted) showError(error, 'Launched songs could not be loaded: ', list);
  });
  return view;
}
