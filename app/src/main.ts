import './style.css';
import { createSongmintApi } from '@songmint/sdk';
import { createPublicClient, http } from 'viem';
import { announce, clearError, prepareActionMessages, showError } from './actions.ts';
import { loadAppConfig } from './config.ts';
import type { AppConfig } from './config.ts';
import type { AppContext } from './context.ts';
import { byId, h } from './dom.ts';
import { connectMiniApp } from './miniapp.ts';
import type { MiniApp } from './miniapp.ts';
import { restoreSession } from './session.ts';
import type { SignedIn } from './session.ts';
import { landingView } from './views/landing.ts';
import { renderWalletArea } from './views/wallet.ts';

const BASE = import.meta.env.BASE_URL;

/**
 * The app's pages. Each view but the signed-out landing is its own chunk, loaded when first shown
 * (`VIEWS` below), so the first load stays within its budget (150 kB of script, gzipped).
 * A new page is one line in `Route`, one in `routeOf`, one in `VIEWS` and its nav link in
 * index.html (order: Library, Uploads, Discover, Portfolio).
 */
type Route =
  | { view: 'library' }
  | { view: 'uploads' }
  | { view: 'discover' }
  | { view: 'song'; songId: bigint }
  | { view: 'creator'; address: `0x${string}` }
  | { view: 'portfolio' }
  | { view: 'missing' };

/** /app/, /app/uploads, /app/discover, /app/song/<tokenId>, /app/creator/<address> and /app/portfolio (shareable links the server answers with this page). */
function routeOf(pathname: string): Route {
  const path = pathname.startsWith(BASE) ? pathname.slice(BASE.length) : pathname.replace(/^\//, '');
  if (path === '' || path === 'index.html') return { view: 'library' };
  if (path === 'uploads') return { view: 'uploads' };
  if (path === 'discover') return { view: 'discover' };
  if (path === 'portfolio') return { view: 'portfolio' };
  const creator = /^creator\/(0x[0-9a-fA-F]{40})$/.exec(path)?.[1];
  if (creator !== undefined) return { view: 'creator', address: creator as `0x${string}` };
  const song = /^song\/([1-9][0-9]{0,76})$/.exec(path);
  if (song?.[1] !== undefined) return { view: 'song', songId: BigInt(song[1]) };
  return { view: 'missing' };
}

type ViewOf<R extends Route> = (context: AppContext, route: R) => HTMLElement;
type Views = { [K in Route['view']]: () => Promise<ViewOf<Extract<Route, { view: K }>>> };

/** Each page's view, imported when it is first shown (Vite makes each a chunk). */
const VIEWS: Views = {
  library: () => import('./views/library.ts').then((m) => (context) => m.libraryView(context)),
  uploads: () => import('./views/uploads.ts').then((m) => (context) => m.uploadsView(context)),
  discover: () => import('./views/discover.ts').then((m) => (context) => m.discoverView(context)),
  song: () => import('./views/song.ts').then((m) => (context, route) => m.songView(context, route.songId)),
  creator: () => import('./views/creator.ts').then((m) => (context, route) => m.creatorView(context, route.address)),
  portfolio: () => import('./views/portfolio.ts').then((m) => (context) => m.portfolioView(context)),
  missing: () =>
    Promise.resolve(() =>
      h(
        'section',
        { class: 'view' },
        h('h1', { id: 'view-title', tabindex: '-1' }, 'Page not found'),
        h(
          'p',
          { id: 'not-found-back' },
          'Nothing lives at this address. ',
          h('a', { href: '/app/discover', 'data-link': true }, 'Discover launched songs'),
          ' or go to ',
          h('a', { href: '/app/', 'data-link': true }, 'the start'),
          '.',
        ),
      ),
    ),
};

function viewFor(context: AppContext, route: Route): Promise<HTMLElement> {
  // Signed out, the library's page says what the product does (no chunk to load first).
  if (route.view === 'library' && context.session === undefined) return Promise.resolve(landingView(context));
  const load = VIEWS[route.view] as () => Promise<ViewOf<Route>>;
  return load().then((view) => view(context, route));
}

function start(config: AppConfig, restored: SignedIn | undefined, miniApp: MiniApp | undefined): void {
  const read = { publicClient: createPublicClient({ transport: http(config.rpcUrl) }), contracts: config.contracts };
  const publicApi = createSongmintApi({ baseUrl: config.apiUrl });
  let session: SignedIn | undefined;
  let leaving = new AbortController();
  let expiry: number | undefined;

  /** Shows the page for the address bar; resolves once it is on the page (false when a newer render took over). */
  const render = async (): Promise<boolean> => {
    leaving.abort();
    leaving = new AbortController();
    const signal = leaving.signal;
    clearError();
    announce('');
    const context: AppContext = { config, read, publicApi, session, setSession, navigate, signal };
    renderWalletArea(byId('wallet'), context, miniApp);
    const route = routeOf(window.location.pathname);
    const main = byId('main');
    for (const link of document.querySelectorAll<HTMLAnchorElement>('nav a')) {
      if (routeOf(new URL(link.href).pathname).view === route.view) link.setAttribute('aria-current', 'page');
      else link.removeAttribute('aria-current');
    }
    main.setAttribute('aria-busy', 'true');
    let view: HTMLElement;
    try {
      view = await viewFor(context, route);
    } catch (error) {
      if (!signal.aborted) showError(error, 'This page could not load: ');
      return false;
    } finally {
      if (!signal.aborted) main.removeAttribute('aria-busy');
    }
    if (signal.aborted) return false;
    main.replaceChildren(view);
    document.title = `${document.getElementById('view-title')?.textContent ?? 'Songmint'} · Songmint`;
    return true;
  };

  /** Keyboard focus on the page's heading when what had it left the page (a sign-in button, a link). */
  const focusHeadingIfLost = () => {
    const active = document.activeElement;
    if (active === null || active === document.body || !active.isConnected) document.getElementById('view-title')?.focus();
  };

  function keepSession(next: SignedIn | undefined): void {
    session = next;
    window.clearTimeout(expiry);
    // The session ends with its token: sign out then, so nothing fails half-way later.
    if (next !== undefined)
      expiry = window.setTimeout(() => setSession(undefined), Math.min(2 ** 31 - 1, next.expiresAt.getTime() - Date.now()));
  }

  /** Signs in or out: the page again, and focus on its heading when the control that did it is gone. */
  function setSession(next: SignedIn | undefined): void {
    keepSession(next);
    void render().then((shown) => {
      if (shown) focusHeadingIfLost();
    });
  }

  function navigate(path: string): void {
    window.history.pushState(null, '', path);
    void render().then((shown) => {
      if (shown) byId('view-title').focus();
    });
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
  window.addEventListener('popstate', () => void render());
  // Message areas (live regions) exist before anything is said in them, for every action control
  // a view, a card or a step adds.
  new MutationObserver(() => prepareActionMessages(document.body)).observe(document.body, { childList: true, subtree: true });
  keepSession(restored);
  // Inside a Farcaster client: its splash screen gives way once the first page is on screen.
  void render().finally(() => void miniApp?.ready());
}

loadAppConfig()
  .then(async (config) => {
    const miniApp = await connectMiniApp(config);
    start(config, await restoreSession(config).catch(() => undefined), miniApp);
  })
  .catch((error: unknown) => showError(error, 'The page could not start: '));
