import './style.css';
import { createSongmintApi } from '@songmint/sdk';
import { createPublicClient, http } from 'viem';
import { announce, clearError, prepareActionMessages, showError } from './actions.ts';
import { loadAppConfig } from './config.ts';
import type { AppConfig } from './config.ts';
import type { AppContext } from './context.ts';
import { byId } from './dom.ts';
import { restoreSession } from './session.ts';
import type { SignedIn } from './session.ts';
import { discoverView } from './views/discover.ts';
import { libraryView } from './views/library.ts';
import { songView } from './views/song.ts';
import { renderWalletArea } from './views/wallet.ts';
import { lazyView } from './views/lazy.ts';

const BASE = import.meta.env.BASE_URL;

type Route =
  | { view: 'library' }
  | { view: 'discover' }
  | { view: 'song'; songId: bigint }
  | { view: 'creator'; address: `0x${string}` }
  | { view: 'portfolio' }
  | { view: 'missing' };

/** /app/, /app/discover and /app/song/<tokenId> (a shareable link the server answers with this page). */
function routeOf(pathname: string): Route {
  const path = pathname.startsWith(BASE) ? pathname.slice(BASE.length) : pathname.replace(/^\//, '');
  if (path === '' || path === 'index.html') return { view: 'library' };
  if (path === 'discover') return { view: 'discover' };
  if (path === 'portfolio') return { view: 'portfolio' };
  const creator = /^creator\/(0x[0-9a-fA-F]{40})$/.exec(path)?.[1];
  if (creator !== undefined) return { view: 'creator', address: creator as `0x${string}` };
  const song = /^song\/([1-9][0-9]{0,76})$/.exec(path);
  return song?.[1] === undefined ? { view: 'missing' } : { view: 'song', songId: BigInt(song[1]) };
}

function start(config: AppConfig, restored: SignedIn | undefined): void {
  const read = { publicClient: createPublicClient({ transport: http(config.rpcUrl) }), contracts: config.contracts };
  const publicApi = createSongmintApi({ baseUrl: config.apiUrl });
  let session = restored;
  let leaving = new AbortController();
  let expiry: number | undefined;

  const render = () => {
    leaving.abort();
    leaving = new AbortController();
    clearError();
    announce('');
    const context: AppContext = { config, read, publicApi, session, setSession, navigate, signal: leaving.signal };
    renderWalletArea(byId('wallet'), context);
    const route = routeOf(window.location.pathname);
    const main = byId('main');
    for (const link of document.querySelectorAll<HTMLAnchorElement>('nav a')) {
      if (routeOf(new URL(link.href).pathname).view === route.view) link.setAttribute('aria-current', 'page');
      else link.removeAttribute('aria-current');
    }
    if (route.view === 'library') main.replaceChildren(libraryView(context));
    else if (route.view === 'discover') main.replaceChildren(discoverView(context));
    else if (route.view === 'song') main.replaceChildren(songView(context, route.songId));
    else if (route.view === 'creator') {
      const { address } = route;
      main.replaceChildren(lazyView(context, 'Creator', () => import('./views/creator.ts').then((m) => m.creatorView(context, address))));
    } else if (route.view === 'portfolio')
      main.replaceChildren(lazyView(context, 'Portfolio', () => import('./views/portfolio.ts').then((m) => m.portfolioView(context))));
    else
      main.replaceChildren(Object.assign(document.createElement('h1'), { id: 'view-title', tabIndex: -1, textContent: 'Page not found' }));
    document.title = `${document.getElementById('view-title')?.textContent ?? 'Songmint'} · Songmint`;
  };

  function setSession(next: SignedIn | undefined): void {
    session = next;
    window.clearTimeout(expiry);
    // The session ends with its token: sign out then, so nothing fails half-way later.
    if (next !== undefined)
      expiry = window.setTimeout(() => setSession(undefined), Math.min(2 ** 31 - 1, next.expiresAt.getTime() - Date.now()));
    render();
  }

  function navigate(path: string): void {
    window.history.pushState(null, '', path);
    render();
    byId('view-title').focus();
  }

  document.addEventListener('click', (event) => {
    const link = (event.target as Element | null)?.closest<HTMLAnchorElement>('a[data-link]');
    if (
      link === null ||
      link === undefined ||
      event.defaultPrevented ||
      event.button !== 0 ||
      event.metaKey ||
      event.ctrlKey ||
      event.shiftKey ||
      event.altKey
    )
      return;
    event.preventDefault();
    navigate(new URL(link.href).pathname);
  });
  window.addEventListener('popstate', render);
  // Message areas (live regions) exist before anything is said in them, for every action control
  // a view, a card or a step adds.
  new MutationObserver(() => prepareActionMessages(document.body)).observe(document.body, { childList: true, subtree: true });
  setSession(session);
}

loadAppConfig()
  .then(async (config) => start(config, await restoreSession(config).catch(() => undefined)))
  .catch((error: unknown) => showError(error, 'The page could not start: '));
