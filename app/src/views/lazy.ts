import { showError } from '../actions.ts';
import type { AppContext } from '../context.ts';
import { h } from '../dom.ts';

/**
 * A view whose code loads on demand (dynamic `import()`), so the app's first load stays small:
 * a placeholder with the page's title at once, the view in its place once its code is here (the
 * title keeps the keyboard focus if it had it, and the document title follows).
 */
export function lazyView(context: AppContext, title: string, load: () => Promise<HTMLElement>): HTMLElement {
  const heading = h('h1', { id: 'view-title', tabindex: '-1' }, title);
  const placeholder = h('section', { 'aria-labelledby': 'view-title', class: 'view', 'aria-busy': 'true' }, heading);
  load().then(
    (view) => {
      if (context.signal.aborted) return;
      const focused = document.activeElement === heading;
      placeholder.replaceWith(view);
      document.title = `${document.getElementById('view-title')?.textContent ?? 'Songmint'} · Songmint`;
      if (focused) document.getElementById('view-title')?.focus();
    },
    (error: unknown) => {
      placeholder.setAttribute('aria-busy', 'false');
      if (!context.signal.aborted) showError(error, 'This page could not be loaded: ');
    },
  );
  return placeholder;
}
