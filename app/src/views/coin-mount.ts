import { showError } from '../actions.ts';
import type { AppContext } from '../context.ts';
import { h } from '../dom.ts';

/**
 * A launched song's page is its coin's page, trading first: the coin's figures and the pool section
 * (trade, then chart and creator tools) open the page (`top`, above the song's cover, player and
 * lyrics), its activity and holders close it (`bottom`). The coin view (./coin.ts) loads on
 * demand, so the first load of the app stays small; until then two empty slots hold the places.
 */
export function mountCoin(context: AppContext, songId: bigint, poolSection: HTMLElement): { top: DocumentFragment; bottom: HTMLElement } {
  const above = h('div', { class: 'coin-slot', 'aria-busy': 'true' });
  const below = h('div', { class: 'coin-slot', 'aria-busy': 'true' });
  import('./coin.ts').then(
    ({ coinSections }) => {
      if (context.signal.aborted) return;
      const { figures, activity } = coinSections(context, songId);
      above.replaceWith(figures);
      below.replaceWith(activity);
    },
    (error: unknown) => showError(error, 'The coin’s figures could not be shown: '),
  );
  const top = document.createDocumentFragment();
  top.append(above, poolSection);
  return { top, bottom: below };
}
