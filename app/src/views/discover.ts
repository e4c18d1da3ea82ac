import { listPublicSongs } from '@songmint/sdk';
import type { PublicLaunchedSong, PublicSongsSort } from '@songmint/sdk';
import { runAction, showError } from '../actions.ts';
import type { AppContext } from '../context.ts';
import { h } from '../dom.ts';
import { eth, pricePerMillion, shortText } from '../format.ts';
import { creatorLink } from '../creator-link.ts';
import { publicCardHead } from './public-card-head.ts';
import { gatewayUrl } from '../gateway.ts';

const PAGE_SIZE = 20;
/** A search is asked for once typing pauses this long, not at every key. */
const SEARCH_PAUSE_MS = 300;

/** The 24 h change as words and an arrow, never by colour alone (as on the coin page). */
function changeLine(percent: string | null): HTMLElement {
  if (percent === null) return h('span', { class: 'note' }, 'no change yet');
  const value = Number(percent);
  const direction = value > 0 ? 'up' : value < 0 ? 'down' : 'flat';
  const arrow = direction === 'up' ? '▲' : direction === 'down' ? '▼' : '■';
  return h('span', { class: `change ${direction}`, 'data-percent': percent }, `${arrow} ${value > 0 ? '+' : ''}${percent}% in 24 h`);
}

/**
 * Launched songs for anyone, wallet or not (GET /v1/public/songs): cover, title linking to the
 * song page, a player, the market cap, the price per 1M tokens and its 24 h change, the 24 h
 * volume; newest launch first, by market cap or by 24 h volume, searched by title, genre or
 * creator address (the server orders and searches: every launched song, not only the loaded ones).
 */
export function discoverView(context: AppContext): HTMLElement {
  const view = h('section', { 'aria-labelledby': 'view-title', class: 'view' }, h('h1', { id: 'view-title', tabindex: '-1' }, 'Discover'));
  const order = h(
    'select',
    { id: 'discover-order' },
    h('option', { value: 'newest' satisfies PublicSongsSort }, 'Newest launch'),
    h('option', { value: 'market_cap' satisfies PublicSongsSort }, 'Market cap'),
    h('option', { value: 'volume_24h' satisfies PublicSongsSort }, '24 h volume'),
  );
  const search = h('input', {
    id: 'discover-search',
    type: 'search',
    maxlength: '80',
    autocomplete: 'off',
    placeholder: 'Title, genre or creator address',
  });
  const list = h('ol', { id: 'pools', class: 'cards', 'aria-label': 'Launched songs', 'aria-busy': 'true' });
  const summary = h('p', { id: 'discover-summary', class: 'note', role: 'status' });
  const more = h('button', { type: 'button', class: 'secondary', hidden: true, 'data-action': true }, 'Show more');
  view.append(
    h(
      'div',
      { class: 'row inline discover-controls' },
      h('label', { for: 'discover-search' }, 'Search'),
      search,
      h('label', { for: 'discover-order' }, 'Order'),
      order,
    ),
    summary,
    list,
    more,
  );
  const songs: PublicLaunchedSong[] = [];
  /** Cards are kept across re-orderings, so a playing song keeps playing. */
  const cards = new Map<string, HTMLLIElement>();
  let cursor: string | undefined;
  /** Each new order or search starts over; an answer to an older one is dropped. */
  let generation = 0;

  const card = (song: PublicLaunchedSong): HTMLLIElement => {
    const title = song.title ?? `Song #${song.song_id}`;
    const price = song.price_eth_per_million_tokens === null ? 'no price yet' : pricePerMillion(song.price_eth_per_million_tokens);
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
          creatorLink(song.creator, song.creator_name),
          `, launched ${new Date(song.launched_at).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric' })}${song.genre === null ? '' : ` · ${song.genre}`}`,
        ),
      }),
      song.audio === null
        ? null
        : h('audio', {
            controls: true,
            preload: 'none',
            src: gatewayUrl(context, song.audio),
            'aria-label': `Play “${shortText(title, 60)}”`,
          }),
      h(
        'p',
        { class: 'coin-line', 'data-market-cap': song.market_cap ?? '' },
        h('strong', {}, song.market_cap === null ? 'no market cap yet' : `Market cap ${eth(BigInt(song.market_cap))}`),
        ` · ${price} `,
        changeLine(song.change_24h_percent),
      ),
      h(
        'p',
        { class: 'note' },
        `24 h volume ${eth(BigInt(song.volume_24h.eth))} in ${song.volume_24h.trades} ${song.volume_24h.trades === 1 ? 'trade' : 'trades'}`,
      ),
    );
  };

  const render = () => {
    list.replaceChildren(
      ...songs.map((song) => {
        const existing = cards.get(song.song_id) ?? card(song);
        cards.set(song.song_id, existing);
        return existing;
      }),
    );
    const q = search.value.trim();
    if (songs.length === 0)
      list.append(h('li', { class: 'empty' }, q === '' ? 'No song is launched yet.' : `No launched song matches “${q}”.`));
  };
  const load = async () => {
    const asked = generation;
    const q = search.value.trim();
    const page = await listPublicSongs(context.publicApi, {
      limit: PAGE_SIZE,
      sort: order.value as PublicSongsSort,
      ...(q === '' ? {} : { q }),
      ...(cursor === undefined ? {} : { cursor }),
      signal: context.signal,
    });
    if (asked !== generation) return;
    songs.push(...page.songs);
    cursor = page.next_cursor ?? undefined;
    more.hidden = page.next_cursor === null;
    render();
    list.setAttribute('aria-busy', 'false');
    // Said once the list has changed, for a screen reader (the cards themselves are not announced).
    summary.textContent =
      q === ''
        ? ''
        : `${songs.length}${page.next_cursor === null ? '' : '+'} ${songs.length === 1 ? 'song matches' : 'songs match'} “${q}”.`;
  };
  const failed = (error: unknown) => {
    if (!context.signal.aborted) showError(error, 'Launched songs could not be loaded: ', list);
  };
  const restart = () => {
    generation += 1;
    songs.length = 0;
    cursor = undefined;
    list.setAttribute('aria-busy', 'true');
    load().catch(failed);
  };
  let pause: ReturnType<typeof setTimeout> | undefined;
  order.addEventListener('change', restart);
  search.addEventListener('input', () => {
    clearTimeout(pause);
    pause = setTimeout(restart, SEARCH_PAUSE_MS);
  });
  context.signal.addEventListener('abort', () => clearTimeout(pause));
  more.addEventListener('click', () => void runAction(more, 'Loading more songs', load));
  load().catch(failed);
  return view;
}
