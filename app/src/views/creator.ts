import { getCreator } from '@songmint/sdk';
import type { CreatorProfile } from '@songmint/sdk';
import { getAddress } from 'viem';
import type { Address } from 'viem';
import { showError } from '../actions.ts';
import type { AppContext } from '../context.ts';
import { h } from '../dom.ts';
import { eth, pricePerMillion, shortAddress, tokens } from '../format.ts';
import { shareButton } from '../share.ts';
import { publicCardHead } from './public-card-head.ts';

const dollars = (usd: string | null) =>
  usd === null ? '' : ` (≈ $${Number(usd).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })})`;
const date = (iso: string) => new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric' });

function songCard(context: AppContext, song: CreatorProfile['songs'][number]): HTMLLIElement {
  const title = song.title ?? `Song #${song.song_id}`;
  const coin = song.coin;
  return h(
    'li',
    { class: 'card', 'data-song-id': song.song_id },
    publicCardHead(context, {
      image: song.image,
      title,
      href: song.page_url,
      line: song.minted_at === null ? `Song #${song.song_id}` : `Minted ${date(song.minted_at)} as #${song.song_id}`,
    }),
    coin === null
      ? h('p', { class: 'note' }, 'Not launched: no coin yet.')
      : h(
          'p',
          { class: 'coin-line', 'data-market-cap': coin.market_cap?.eth ?? '' },
          `${coin.symbol}: market cap ${coin.market_cap === null ? 'not yet' : `${eth(BigInt(coin.market_cap.eth))}${dollars(coin.market_cap.usd)}`}`,
          coin.price_eth_per_million_tokens === null ? '' : ` · ${pricePerMillion(coin.price_eth_per_million_tokens)}`,
          ` · 24 h volume ${eth(BigInt(coin.volume_24h.eth))}`,
        ),
  );
}

/**
 * A creator's public profile (/app/creator/<address>): the songs the address minted, the coins
 * launched from them with their market caps, and what they have earned; a Share button. Anyone
 * can open it; the page's Open Graph tags come from the server (scripts/dev-app.ts).
 */
export function creatorView(context: AppContext, address: Address): HTMLElement {
  const checksummed = getAddress(address);
  const mine = context.session?.address.toLowerCase() === checksummed.toLowerCase();
  const heading = h('h1', { id: 'view-title', tabindex: '-1' }, `${mine ? 'Your profile' : 'Creator'} ${shortAddress(checksummed)}`);
  const summary = h('dl', { class: 'stats', id: 'creator-stats' });
  const list = h('ol', { id: 'creator-songs', class: 'cards', 'aria-label': 'Songs', 'aria-busy': 'true' });
  const view = h(
    'section',
    { 'aria-labelledby': 'view-title', class: 'view creator', 'data-address': checksummed },
    heading,
    h('p', { class: 'note' }, h('code', { class: 'wrap' }, checksummed)),
    shareButton({ path: `/app/creator/${checksummed}`, title: `${shortAddress(checksummed)} on Songmint`, id: 'share-creator' }),
    summary,
    list,
  );
  getCreator(context.publicApi, { address: checksummed, signal: context.signal })
    .then((profile) => {
      summary.replaceChildren(
        h('div', {}, h('dt', {}, 'Songs minted'), h('dd', { id: 'creator-song-count' }, String(profile.songs_total))),
        h('div', {}, h('dt', {}, 'Coins launched'), h('dd', { id: 'creator-coin-count' }, String(profile.coins))),
        h(
          'div',
          {},
          h('dt', {}, 'Earned so far'),
          h(
            'dd',
            { id: 'creator-earnings', 'data-eth': profile.earnings.eth },
            `${eth(BigInt(profile.earnings.eth))}${dollars(profile.earnings.usd)}`,
            BigInt(profile.earnings.token) > 0n ? ` and ${tokens(BigInt(profile.earnings.token))}` : '',
          ),
        ),
      );
      list.replaceChildren(...profile.songs.map((song) => songCard(context, song)));
      if (profile.songs.length === 0) list.append(h('li', { class: 'empty' }, 'No song minted by this address yet.'));
      if (profile.songs_total > profile.songs.length)
        list.after(h('p', { class: 'note' }, `The ${profile.songs.length} newest of ${profile.songs_total} songs.`));
      list.setAttribute('aria-busy', 'false');
    })
    .catch((error: unknown) => {
      list.setAttribute('aria-busy', 'false');
      if (!context.signal.aborted) showError(error, 'The profile could not be loaded: ', list);
    });
  return view;
}
