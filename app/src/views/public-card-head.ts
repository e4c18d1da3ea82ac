import type { AppContext } from '../context.ts';
import { h } from '../dom.ts';
import { gatewayUrl } from '../gateway.ts';

/** What a public song card's head shows: its cover (an IPFS URI, or none), its title linking to its page, and one line under it. */
export interface PublicCardHead {
  image: string | null;
  title: string;
  href: string;
  /** Text, an element, or text and elements (a creator's link). */
  line: string | Node | ReadonlyArray<string | Node>;
}

const isList = (line: PublicCardHead['line']): line is ReadonlyArray<string | Node> => Array.isArray(line);

/** The head of a song card on public pages (Discover, a creator's profile): cover, linked title, one line. */
export function publicCardHead(context: AppContext, head: PublicCardHead): HTMLElement {
  return h(
    'div',
    { class: 'card-head' },
    head.image === null ? null : h('img', { class: 'card-cover', src: gatewayUrl(context, head.image), alt: '', loading: 'lazy' }),
    h(
      'div',
      {},
      h('h2', { class: 'card-title' }, h('a', { href: head.href, 'data-link': true }, head.title)),
      h('p', { class: 'card-date' }, ...(isList(head.line) ? head.line : [head.line])),
    ),
  );
}
