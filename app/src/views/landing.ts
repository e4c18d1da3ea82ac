import type { AppContext } from '../context.ts';
import { h } from '../dom.ts';

/**
 * The first page a visitor without a wallet sees at /app/: what Songmint does, in three steps,
 * and where to start. The connect buttons are the header's (once on the page, not twice).
 */
export function landingView(context: AppContext): HTMLElement {
  const where = context.config.developmentWallet
    ? 'Connect a wallet with the buttons at the top of the page (on this local chain, “Use the development wallet” signs in at once) to make your first song.'
    : 'Connect a wallet with the button at the top of the page to make your first song.';
  return h(
    'section',
    { 'aria-labelledby': 'view-title', class: 'view landing' },
    h('h1', { id: 'view-title', tabindex: '-1' }, 'Make a song. Own it. Launch its coin.'),
    h(
      'p',
      { class: 'lead' },
      'Songmint turns a few words into a song, and makes you its owner on Base: an NFT that names you its creator, and a coin for the song whose every trade pays you a share of the fees.',
    ),
    h(
      'ol',
      { class: 'steps' },
      h(
        'li',
        {},
        h('strong', {}, 'Describe it. '),
        'Type a prompt (“dreamy synthwave, 96 bpm”) and, if you like, your own lyrics. Hear a free 10 s preview, then generate the full song; extend it, repaint a part or remix it.',
      ),
      h(
        'li',
        {},
        h('strong', {}, 'Own it. '),
        'Download it as MP3, WAV or FLAC, and mint it: its title, cover and audio go to IPFS, the NFT to your wallet, with royalties on resales.',
      ),
      h(
        'li',
        {},
        h('strong', {}, 'Launch it. '),
        'Give the song its own coin on Uniswap. Fans buy and sell it; you earn a share of every trade and can claim it any time.',
      ),
    ),
    h('p', {}, where),
    h('p', {}, 'Just looking? ', h('a', { href: '/app/discover', 'data-link': true }, 'Discover the songs others launched'), '.'),
  );
}
