import { findMintedSongs, getNft, listJobs } from '@songmint/sdk';
import type { JobListFilter, JobSummary } from '@songmint/sdk';
import type { Hex } from 'viem';
import { runAction, showError } from '../actions.ts';
import type { AppContext } from '../context.ts';
import { apiOf } from '../context.ts';
import { h } from '../dom.ts';
import { count, shortText } from '../format.ts';
import { createForm, queueSong, retryInputs } from './create-form.ts';
import { nameEditSources } from './song-edit.ts';
import { songCard } from './song-card.ts';
import type { CardHooks, Minted } from './song-card.ts';

/** Songs per page: "Show older songs" loads the next (the API pages by keyset, so hundreds page well). */
const PAGE_SIZE = 20;
/** The search runs once typing pauses this long. */
const TYPING_PAUSE_MS = 300;

const VIEWS: ReadonlyArray<readonly [JobListFilter, string]> = [
  ['all', 'All songs'],
  ['unminted', 'Not minted'],
  ['minted', 'Minted'],
  ['edits', 'Edits'],
  ['failed', 'Failed or cancelled'],
  ['trash', 'Trash'],
];

/** The minted title and cover of each minted song on the page (the chain says which are minted; the oracle's index, their metadata). */
async function mintedOf(context: AppContext, jobs: readonly JobSummary[]): Promise<Map<string, Minted>> {
  const hashes = jobs.flatMap((job) => (job.audio_hash === null ? [] : [job.audio_hash.toLowerCase() as Hex]));
  const tokenIds = hashes.length === 0 ? new Map<Hex, bigint>() : await findMintedSongs(context.read, { audioHashes: hashes });
  return new Map(
    await Promise.all(
      [...tokenIds].map(async ([hash, tokenId]) => {
        const nft = await getNft(apiOf(context), { tokenId, signal: context.signal }).catch(() => undefined);
        const title = nft?.metadata?.name;
        const image = nft?.metadata?.image;
        return [
          hash as string,
          { tokenId, ...(typeof title === 'string' ? { title } : {}), ...(typeof image === 'string' ? { image } : {}) },
        ] as const;
      }),
    ),
  );
}

/**
 * My songs: describe a new one (preview first), and the library: every song of the wallet with
 * its live status and next step, searched by name, prompt or lyrics, narrowed to a view (minted,
 * not minted, edits, failed, the trash), renamed, deleted to the trash and restored, a page at a
 * time. (Signed out, main.ts shows the landing instead.)
 */
export function libraryView(context: AppContext): HTMLElement {
  const view = h('section', { 'aria-labelledby': 'view-title', class: 'view' }, h('h1', { id: 'view-title', tabindex: '-1' }, 'My songs'));
  const list = h('ol', { id: 'songs', class: 'cards', 'aria-label': 'Your songs', 'aria-busy': 'true' });
  const search = h('input', {
    type: 'search',
    id: 'library-search',
    autocomplete: 'off',
    placeholder: 'Title, prompt or lyrics',
    'aria-controls': 'songs',
  });
  const filter = h(
    'select',
    { id: 'library-view', 'aria-controls': 'songs' },
    ...VIEWS.map(([value, label]) => h('option', { value }, label)),
  );
  const shown = h('p', { id: 'library-count', class: 'note', role: 'status', 'aria-live': 'polite' });
  const more = h('button', { type: 'button', id: 'more-songs', class: 'secondary', hidden: true, 'data-action': true }, 'Show older songs');
  let cursor: string | undefined;
  let total = 0;
  /** Each load of the list from its first page; a newer one stops an older one's answer from landing. */
  let loading = new AbortController();
  context.signal.addEventListener('abort', () => loading.abort());

  const countLine = () => {
    const showing = list.querySelectorAll(':scope > li.card').length;
    const query = search.value.trim();
    const what = [query === '' ? '' : `matching “${shortText(query, 40)}”`, filter.value === 'trash' ? 'in the trash' : '']
      .filter((part) => part !== '')
      .join(' ');
    if (total === 0)
      return filter.value === 'trash' ? 'The trash is empty.' : query === '' && filter.value === 'all' ? '' : `No songs ${what || 'here'}.`;
    const of = showing < total ? `${showing.toLocaleString('en-US')} of ` : '';
    return `${of}${count(total, 'song')}${what === '' ? '' : ` ${what}`}.`;
  };

  const hooks: CardHooks = {
    queue: (job) => void showQueued(job),
    retry: (job) => queueSong(context, retryInputs(job)),
    left: (card, said) => {
      // Focus moves on to the next card (or the list's heading), never to the page's body.
      const next = (card.nextElementSibling ?? card.previousElementSibling)?.querySelector<HTMLElement>('h3');
      // (Its button was disabled while it ran, which sends the focus to the body.)
      const hadFocus = card.contains(document.activeElement) || document.activeElement === document.body;
      card.remove();
      total = Math.max(0, total - 1);
      shown.textContent = `${said} ${countLine()}`;
      if (hadFocus) (next ?? songsTitle).focus();
      if (list.children.length === 0) list.append(emptyItem());
    },
  };

  const emptyItem = () =>
    h(
      'li',
      { class: 'empty' },
      filter.value === 'trash'
        ? 'Nothing in the trash.'
        : filter.value === 'all' && search.value.trim() === ''
          ? 'No songs yet: describe one above.'
          : 'No songs match.',
    );

  const loadPage = async (signal: AbortSignal) => {
    const page = await listJobs(apiOf(context), {
      limit: PAGE_SIZE,
      filter: filter.value as JobListFilter,
      search: search.value,
      ...(cursor === undefined ? {} : { cursor }),
      signal,
    });
    const minted = await mintedOf(context, page.jobs);
    if (signal.aborted) return;
    list.querySelector(':scope > .empty')?.remove();
    for (const job of page.jobs)
      list.append(songCard(context, job, job.audio_hash === null ? undefined : minted.get(job.audio_hash.toLowerCase()), hooks));
    total = page.total;
    if (list.children.length === 0) list.append(emptyItem());
    nameEditSources(list);
    cursor = page.nextCursor ?? undefined;
    more.hidden = page.nextCursor === null;
    shown.textContent = countLine();
  };

  /** The list from its first page, for the view and search as they are now. */
  const reload = async () => {
    loading.abort();
    loading = new AbortController();
    const signal = loading.signal;
    cursor = undefined;
    list.setAttribute('aria-busy', 'true');
    try {
      list.replaceChildren();
      await loadPage(signal);
    } catch (error) {
      if (!signal.aborted && !context.signal.aborted) showError(error, 'Your songs could not be loaded: ', list);
    } finally {
      if (!signal.aborted) list.setAttribute('aria-busy', 'false');
    }
  };

  /** A song just queued: first in the list (the plain view, so it shows), with keyboard focus and in the window. */
  const showQueued = async (job: JobSummary) => {
    if (filter.value !== 'all' || search.value.trim() !== '') {
      filter.value = 'all';
      search.value = '';
      await reload();
    }
    let card = list.querySelector<HTMLLIElement>(`:scope > li[data-job-id="${CSS.escape(job.job_id)}"]`);
    if (card === null) {
      list.querySelector(':scope > .empty')?.remove();
      card = songCard(context, job, undefined, hooks);
      list.prepend(card);
      total += 1;
      shown.textContent = countLine();
    }
    card.querySelector<HTMLElement>('h3')?.focus({ preventScroll: true });
    card.scrollIntoView({ block: 'nearest' });
  };

  let typing: number | undefined;
  search.addEventListener('input', () => {
    window.clearTimeout(typing);
    typing = window.setTimeout(() => void reload(), TYPING_PAUSE_MS);
  });
  filter.addEventListener('change', () => void reload());
  more.addEventListener('click', () => {
    const signal = loading.signal;
    void runAction(more, 'Loading older songs', async () => {
      try {
        await loadPage(signal);
      } catch (error) {
        // A search typed meanwhile replaced the list: its own load says what is there.
        if (!signal.aborted) throw error;
      }
    });
  });

  const songsTitle = h('h2', { id: 'songs-title', tabindex: '-1' }, 'Your songs');
  view.append(
    createForm(context, (job) => void showQueued(job)),
    h(
      'section',
      { 'aria-labelledby': 'songs-title', class: 'library' },
      songsTitle,
      h(
        'div',
        { class: 'row library-tools', role: 'search', 'aria-label': 'Find songs' },
        h('div', { class: 'grow' }, h('label', { for: search.id }, 'Search your songs'), search),
        h('div', {}, h('label', { for: filter.id }, 'Show'), filter),
      ),
      shown,
      list,
      more,
    ),
  );
  void reload();
  return view;
}
