import { announce, runAction } from './actions.ts';
import { h } from './dom.ts';
import { composeCast, miniAppSdk } from './miniapp.ts';

/**
 * A Share button for a page's link: inside a Farcaster client, its cast composer with the link as
 * an embed (the client shows the page's card); else the system share sheet where the browser has one (Web Share
 * API), else the link copied to the clipboard, else the link shown selected to copy by hand. What
 * happened is said next to the button.
 */
export function shareButton({ path, title, id }: { path: string; title: string; id: string }): HTMLElement {
  const button = h('button', { type: 'button', class: 'secondary', id, 'data-action': true }, 'Share');
  const row = h('div', { class: 'row inline share' }, button);
  button.addEventListener(
    'click',
    () =>
      void runAction(button, 'Sharing the link', async () => {
        const url = new URL(path, window.location.origin).href;
        row.querySelector('.share-link')?.remove();
        const host = await miniAppSdk();
        if (host !== undefined) {
          announce((await composeCast(host, { text: title, url })) ? 'Shared as a cast.' : 'No cast was sent.');
          return;
        }
        if (typeof navigator.share === 'function') {
          try {
            await navigator.share({ title, url });
            announce('Shared.');
            return;
          } catch (error) {
            // The person closed the share sheet: nothing to say. Otherwise copy the link instead.
            if (error instanceof DOMException && error.name === 'AbortError') return;
          }
        }
        const copied = await (navigator.clipboard?.writeText(url) ?? Promise.reject(new Error('no clipboard'))).then(
          () => true,
          () => false,
        );
        if (copied) {
          button.dataset.copied = url;
          announce(`Link copied: ${url}`);
          return;
        }
        // No clipboard here (an insecure origin, a refused permission): the link, selected, to copy by hand.
        const field = h('input', { class: 'share-link', readonly: true, value: url, 'aria-label': `Link to ${title}` });
        row.append(field);
        field.select();
        announce('Copy the link from the field beside the button.');
      }),
  );
  return row;
}
