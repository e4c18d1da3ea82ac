import {
  cancelJob,
  claimAllocation,
  coverDataUri as coverImageUri,
  deleteSong,
  getMintSignature,
  jobEvents,
  mintSong,
  readAllocation,
  readSong,
  renameSong,
  restoreSong,
  uploadMetadata,
} from '@songmint/sdk';
import type { JobStatus, JobSummary } from '@songmint/sdk';
import type { Hex } from 'viem';
import { announce, runAction, showError } from '../actions.ts';
import type { AppContext } from '../context.ts';
import { apiOf, walletOf } from '../context.ts';
import { coverDataUri } from '../cover.ts';
import { facts, h } from '../dom.ts';
import { gatewayUrl } from '../gateway.ts';
import { shortAddress, shortText, tokens, vestingLine } from '../format.ts';
import { drawWaveform } from '../waveform.ts';
import { downloadLinks } from './downloads.ts';
import { editControls } from './song-edit.ts';
import { JOB_ENDED_EVENT } from './create-form.ts';

type Completed = Extract<JobStatus, { status: 'completed' }>;

/** The minted title and cover of a song (its metadata, GET /v1/nft/{id}). */
export interface Minted {
  tokenId: bigint;
  title?: string;
  image?: string;
}

/** What a card asks of the list it is in. */
export interface CardHooks {
  /** Puts a job just queued (Try again, an edit) at the top of the list, as a Generate does. */
  queue(job: JobSummary): void;
  /** Takes `card` out of this view (trashed, restored) and says `said` where the list is. */
  left(card: HTMLLIElement, said: string): void;
  /** Queues `inputs` again as a new song (Try again): the inputs typed in this browser, else its prompt and length. */
  retry(job: JobSummary): Promise<{ job: JobSummary; position: number }>;
}

/** A song's days in the trash before retention deletes it (the API's TRASH_RETENTION_DAYS). */
const TRASH_DAYS = 30;

const madeOn = (iso: string) =>
  new Date(iso).toLocaleString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' });
const dayOf = (date: Date) => date.toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric' });

/** The name a card shows: the minted title, the title its owner or its edit gave it, else its prompt. */
export const titleOf = (job: JobSummary, minted?: Minted) => minted?.title ?? job.title ?? job.prompt;

/** The card's head: cover (the minted one, else the one minting would draw), title and date. */
function cardHead(context: AppContext, job: JobSummary, minted: Minted | undefined, cover: boolean): HTMLElement {
  const image =
    minted?.image !== undefined
      ? gatewayUrl(context, minted.image)
      : cover && job.audio_hash !== null
        ? coverDataUri(job.audio_hash)
        : undefined;
  const title = titleOf(job, minted);
  return h(
    'div',
    { class: 'card-head' },
    image === undefined ? null : h('img', { class: 'card-cover', src: image, alt: '' }),
    h(
      'div',
      {},
      // Focusable by script: a card just queued takes the focus its button had.
      h('h3', { id: `title-${job.job_id}`, tabindex: '-1' }, title),
      h('p', { class: 'card-date' }, `Made ${madeOn(job.created_at)}`, title === job.prompt ? '' : ` · “${shortText(job.prompt, 80)}”`),
    ),
  );
}

/** Replaces `card` with `next`, keeping keyboard focus in it when it was in the old one. */
function replaceCard(card: HTMLLIElement, next: HTMLLIElement): void {
  const hadFocus = card.contains(document.activeElement);
  card.replaceWith(next);
  if (hadFocus) next.querySelector<HTMLElement>('h3')?.focus({ preventScroll: true });
}

/** One job: live while it runs, then the song with its player, waveform, lyrics, model and next step. */
export function songCard(context: AppContext, job: JobSummary, minted: Minted | undefined, hooks: CardHooks): HTMLLIElement {
  if (job.deleted_at !== null) return trashedCard(context, job, hooks);
  const card = h('li', { class: 'card', 'data-job-id': job.job_id, 'data-status': job.status, 'data-duration': job.duration });
  card.append(cardHead(context, job, minted, false));
  const state = h('p', { class: 'state' });
  const progress = h('progress', { max: 100, value: job.progress, 'aria-label': `Progress of “${shortText(titleOf(job), 40)}”` });
  card.append(state);

  const showRunning = (status: 'queued' | 'processing', percent: number, position?: number) => {
    card.dataset.status = status;
    state.textContent = status === 'queued' ? `Queued${position === undefined ? '' : `, position ${position}`}` : `Making it: ${percent}%`;
    progress.value = percent;
  };

  if (job.status === 'queued' || job.status === 'processing') {
    showRunning(job.status, job.progress);
    const cancel = h('button', { type: 'button', class: 'secondary cancel', 'data-action': true }, 'Cancel');
    card.append(progress, cancel);
    const stop = new AbortController();
    context.signal.addEventListener('abort', () => stop.abort());
    cancel.addEventListener(
      'click',
      () =>
        void runAction(cancel, 'Cancelling', async () => {
          await cancelJob(apiOf(context), { jobId: job.job_id });
        }),
    );
    void (async () => {
      try {
        for await (const event of jobEvents(apiOf(context), { jobId: job.job_id, signal: stop.signal })) {
          const view = event.job;
          if (view.status === 'queued') showRunning('queued', view.progress, view.position);
          else if (view.status === 'processing') showRunning('processing', view.progress);
          else {
            const list = card.closest('ol') ?? card;
            replaceCard(
              card,
              view.status === 'completed'
                ? completedCard(context, job, view, minted, hooks)
                : endedCard(context, job, view.status === 'failed' ? failedReason(view.error.message) : 'Cancelled', hooks),
            );
            if (view.status === 'completed') announce(`Your song “${shortText(titleOf(job), 40)}” is ready.`, list);
            window.dispatchEvent(new CustomEvent(JOB_ENDED_EVENT, { detail: job.job_id }));
            return;
          }
        }
      } catch (error) {
        if (!stop.signal.aborted) showError(error, 'Live status stopped: ', state);
      }
    })();
    return card;
  }
  if (job.status === 'completed') {
    state.textContent = 'Loading…';
    void (async () => {
      try {
        for await (const event of jobEvents(apiOf(context), { jobId: job.job_id, signal: context.signal })) {
          if (event.job.status === 'completed') {
            replaceCard(card, completedCard(context, job, event.job, minted, hooks));
            return;
          }
        }
      } catch (error) {
        if (!context.signal.aborted) showError(error, 'Could not load this song: ', state);
      }
    })();
    return card;
  }
  return endedCard(context, job, job.status === 'failed' ? failedReason(job.error_code ?? 'error') : 'Cancelled', hooks);
}

const failedReason = (why: string) => `It failed (${why}): nothing was charged for it. Try again to make it anew.`;

/**
 * Rename (a form folded under its button) and delete (to the trash, restorable), for a song that
 * is not minted. `renamed` gets the new name.
 */
function manageTools(context: AppContext, job: JobSummary, card: HTMLLIElement, hooks: CardHooks): HTMLElement {
  const id = job.job_id;
  const heading = () => card.querySelector<HTMLElement>('h3');
  const rename = h(
    'button',
    { type: 'button', class: 'secondary rename', 'aria-expanded': 'false', 'aria-controls': `rename-form-${id}` },
    'Rename',
  );
  const remove = h('button', { type: 'button', class: 'secondary delete', 'data-action': true }, 'Delete');
  const name = h('input', { id: `rename-${id}`, maxlength: 200, required: true, autocomplete: 'off' });
  const save = h('button', { type: 'submit', 'data-action': true }, 'Save name');
  const close = h('button', { type: 'button', class: 'secondary' }, 'Cancel');
  const form = h(
    'form',
    { id: `rename-form-${id}`, class: 'rename-form', hidden: true },
    h('div', { class: 'row' }, h('div', { class: 'grow' }, h('label', { for: name.id }, 'New name'), name), save, close),
  );
  const fold = (open: boolean) => {
    form.hidden = !open;
    rename.setAttribute('aria-expanded', String(open));
    if (open) {
      name.value = heading()?.textContent ?? '';
      name.select();
      name.focus();
    } else rename.focus();
  };
  rename.addEventListener('click', () => fold(form.hidden));
  close.addEventListener('click', () => fold(false));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (!form.reportValidity()) return;
    void runAction(save, 'Renaming…', async () => {
      const renamed = await renameSong(apiOf(context), { jobId: id, title: name.value });
      const title = renamed.title ?? renamed.prompt;
      const shown = heading();
      if (shown !== null) shown.textContent = title;
      fold(false);
      announce(`Renamed to “${title}”: its downloads are saved under this name.`, rename);
    });
  });
  remove.addEventListener('click', () => {
    void runAction(remove, 'Moving it to the trash…', async () => {
      await deleteSong(apiOf(context), { jobId: id });
      const title = heading()?.textContent ?? job.prompt;
      hooks.left(card, `“${shortText(title, 60)}” is in the trash: restore it from Show: Trash within ${TRASH_DAYS} days.`);
    });
  });
  return h('div', { class: 'card-tools' }, h('div', { class: 'row inline' }, rename, remove), form);
}

/** A song in the trash: when it goes for good, and Restore. */
function trashedCard(context: AppContext, job: JobSummary, hooks: CardHooks): HTMLLIElement {
  const card = h('li', { class: 'card trashed', 'data-job-id': job.job_id, 'data-status': 'trashed' });
  const deleted = new Date(job.deleted_at ?? Date.now());
  const until = new Date(Math.min(deleted.getTime() + TRASH_DAYS * 86_400_000, Date.parse(job.created_at) + 90 * 86_400_000));
  const restore = h('button', { type: 'button', class: 'restore', 'data-action': true }, 'Restore');
  restore.addEventListener('click', () => {
    void runAction(restore, 'Restoring…', async () => {
      await restoreSong(apiOf(context), { jobId: job.job_id });
      hooks.left(card, `“${shortText(titleOf(job), 60)}” is back in your songs.`);
    });
  });
  card.append(
    cardHead(context, job, undefined, job.audio_hash !== null),
    h(
      'p',
      { class: 'state' },
      job.status === 'completed'
        ? `In the trash since ${dayOf(deleted)}: deleted for good on ${dayOf(until)} unless you restore it.`
        : `In the trash since ${dayOf(deleted)} (it ${job.status === 'failed' ? 'failed' : 'was cancelled'}).`,
    ),
    h('div', { class: 'row inline' }, restore),
  );
  return card;
}

/** A cancelled or failed song, with a retry (a new job with the same inputs) and delete. */
function endedCard(context: AppContext, job: JobSummary, reason: string, hooks: CardHooks): HTMLLIElement {
  const card = h('li', { class: 'card ended', 'data-job-id': job.job_id, 'data-status': 'ended' });
  const retry = h('button', { type: 'button', class: 'secondary retry', 'data-action': true }, 'Try again');
  retry.addEventListener(
    'click',
    () =>
      void runAction(retry, 'Queueing it again', async () => {
        const queued = await hooks.retry(job);
        announce(`Queued again, position ${queued.position}: the new song is at the top of the list.`);
        hooks.queue(queued.job);
      }),
  );
  card.append(cardHead(context, job, undefined, false), h('p', { class: 'state' }, reason), retry, manageTools(context, job, card, hooks));
  return card;
}

function completedCard(context: AppContext, job: JobSummary, song: Completed, minted: Minted | undefined, hooks: CardHooks): HTMLLIElement {
  const card = h('li', { class: 'card', 'data-job-id': job.job_id, 'data-status': 'completed', 'data-duration': song.duration });
  const title = titleOf(job, minted);
  const player = h('audio', {
    controls: true,
    preload: 'metadata',
    src: song.audio_url,
    'aria-label': `Play “${shortText(title, 40)}”`,
  });
  const waveform = h('canvas', { class: 'waveform', width: 640, height: 64, role: 'img', 'aria-label': 'Waveform of the song' });
  drawWaveform(waveform, song.audio_url, context.signal).catch(() => {
    waveform.setAttribute('aria-label', 'Waveform unavailable');
  });
  const next = h('div', { class: 'next-step' });
  const tokenId = minted?.tokenId ?? (job.nft_token_id === null ? undefined : BigInt(job.nft_token_id));
  const tools = tokenId === undefined ? manageTools(context, job, card, hooks) : null;
  card.append(
    cardHead(context, { ...job, audio_hash: song.audio_hash }, minted, true),
    player,
    waveform,
    facts([
      ['Length', `${song.duration} s`],
      ['Model', song.model === null ? 'unknown' : `${song.model.name} ${song.model.version}`],
    ]),
    h(
      'details',
      {},
      h('summary', {}, song.lyrics === null ? 'Instrumental (no lyrics)' : 'Lyrics'),
      h('pre', { class: 'lyrics', tabindex: '0' }, song.lyrics ?? ''),
    ),
    downloadLinks(context, { jobId: job.job_id, lossless: song.lossless }),
    editControls(context, job, song, hooks.queue),
    ...(tools === null ? [] : [tools]),
    next,
  );
  // Minted: the card reads as the minted song at once (its title and cover), not after a reload.
  const onMinted = (name: string, cover: string) => {
    const heading = card.querySelector('h3');
    if (heading !== null) heading.textContent = name;
    const date = card.querySelector('.card-date');
    if (date !== null) date.textContent = `Made ${madeOn(job.created_at)} · “${shortText(job.prompt, 80)}”`;
    const image = card.querySelector<HTMLImageElement>('img.card-cover');
    if (image !== null) image.src = cover;
    player.setAttribute('aria-label', `Play “${shortText(name, 40)}”`);
    tools?.remove();
  };
  renderNextStep(context, next, job, song, tokenId, onMinted);
  return card;
}

const COVER_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const;
const COVER_MAX_BYTES = 5 * 1024 * 1024;

/** The chosen cover file as the API takes it, or an error a person can act on. */
async function coverFromFile(file: File): Promise<{ bytes: Uint8Array; mimeType: (typeof COVER_TYPES)[number] }> {
  const mimeType = COVER_TYPES.find((type) => type === file.type);
  if (mimeType === undefined) throw new Error('The cover must be a PNG, JPEG, WebP or GIF image: choose another file.');
  if (file.size > COVER_MAX_BYTES)
    throw new Error(`The cover is ${(file.size / 1024 / 1024).toFixed(1)} MB, over the 5 MB limit: choose a smaller image.`);
  return { bytes: new Uint8Array(await file.arrayBuffer()), mimeType };
}

/** The mint form: title, description, genre and a cover (the drawn one unless a file is chosen). */
function mintForm(job: JobSummary, song: Completed) {
  const id = (name: string) => `${name}-${job.job_id}`;
  const name = h('input', { id: id('name'), maxlength: 200, required: true, value: (job.title ?? job.prompt).slice(0, 60) });
  const description = h('textarea', { id: id('description'), rows: 2, maxlength: 1000 });
  description.value = job.prompt;
  const genre = h('input', { id: id('genre'), maxlength: 100, placeholder: 'e.g. Synthwave' });
  const cover = h('input', { id: id('cover'), type: 'file', accept: COVER_TYPES.join(','), 'aria-describedby': id('cover-note') });
  const mint = h('button', { type: 'submit', 'data-action': true }, 'Mint');
  const form = h(
    'form',
    { class: 'mint-form' },
    h('div', {}, h('label', { for: name.id }, 'Title'), name),
    h('div', {}, h('label', { for: description.id }, 'Description'), description),
    h(
      'div',
      { class: 'row' },
      h('div', {}, h('label', { for: genre.id }, 'Genre (optional)'), genre),
      h('div', {}, h('label', { for: cover.id }, 'Cover image (optional)'), cover),
    ),
    h(
      'p',
      { id: id('cover-note'), class: 'note' },
      'PNG, JPEG, WebP or GIF up to 5 MB; without one, the cover drawn from the song is used.',
    ),
    h('div', { class: 'row' }, mint),
  );
  const values = async () => {
    const file = cover.files?.[0];
    return {
      name: name.value,
      description: description.value,
      audioUrl: song.audio_url,
      cover: file === undefined ? coverDataUri(song.audio_hash) : await coverFromFile(file),
      ...(genre.value.trim() === '' ? {} : { attributes: { genre: genre.value.trim() } }),
    };
  };
  return { form, mint, values };
}

/** Mint, then launch, then trade on the song page: whichever comes next for this song. */
function renderNextStep(
  context: AppContext,
  next: HTMLElement,
  job: JobSummary,
  song: Completed,
  tokenId: bigint | undefined,
  onMinted: (name: string, cover: string) => void,
): void {
  next.replaceChildren();
  if (tokenId === undefined) {
    const { form, mint, values } = mintForm(job, song);
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      void runAction(mint, 'Publishing the metadata and cover to IPFS', async () => {
        const api = apiOf(context);
        const chain = walletOf(context);
        const address = chain.walletClient.account?.address;
        if (address === undefined) throw new Error('Connect your wallet first');
        const given = await values();
        const metadata = await uploadMetadata(api, given);
        // One key per song and metadata: a retry after a failed mint gets the same signature back, not SIGN_002.
        const signature = await getMintSignature(api, {
          jobId: job.job_id,
          userAddress: address,
          metadataUri: metadata.metadataUri,
          idempotencyKey: `mint-${job.job_id}-${metadata.cid}`.slice(0, 200),
        });
        announce('Signature issued: confirm the mint in your wallet');
        const minted = await mintSong(chain, {
          metadataUri: metadata.metadataUri,
          audioHash: signature.audioHash as Hex,
          signature: signature.signature,
        });
        announce(`Minted as #${minted.tokenId}`);
        onMinted(given.name, coverImageUri(given.cover));
        renderNextStep(context, next, job, song, minted.tokenId, onMinted);
      });
    });
    // Folded until asked for: ten cards of open mint forms made the library ten screens long on a phone.
    form.id = `mint-form-${job.job_id}`;
    form.hidden = true;
    const open = h(
      'button',
      { type: 'button', class: 'secondary mint-toggle', 'aria-expanded': 'false', 'aria-controls': form.id },
      'Mint this song…',
    );
    open.addEventListener('click', () => {
      form.hidden = !form.hidden;
      open.setAttribute('aria-expanded', String(!form.hidden));
      if (!form.hidden) form.querySelector('input')?.focus();
    });
    next.append(h('p', { class: 'state' }, 'Not minted yet'), open, form);
    return;
  }
  const link = h('a', { href: `/app/song/${tokenId}`, 'data-link': true }, `Song page of #${tokenId}`);
  const state = h('p', { class: 'state' }, `Minted as #${tokenId}`);
  next.append(state, link);
  readSong(context.read, { songId: tokenId }).then(
    (record) => {
      if (record.launchedAt > 0n) {
        state.textContent = `Minted as #${tokenId}, launched: trade it on its page`;
        renderAllocation(context, next, tokenId);
        return;
      }
      // Launching moves the NFT into the vault for good: it happens on the song page, after its confirmation.
      state.textContent = `Minted as #${tokenId}, not launched yet: launch it from its song page`;
    },
    (error: unknown) => showError(error, `#${tokenId}: `),
  );
}

/**
 * The launcher's allocation under a launched song: its vesting (nothing before the cliff, then
 * linearly), and a button that mints what has vested when there is some.
 */
function renderAllocation(context: AppContext, next: HTMLElement, tokenId: bigint): void {
  const line = h('p', { class: 'allocation' });
  next.append(line);
  readAllocation(context.read, { songId: tokenId }).then(
    (held) => {
      if (held.recipient === null) {
        line.textContent = 'No allocation: none was taken at the launch';
        return;
      }
      line.textContent = `Allocation for ${shortAddress(held.recipient)}: ${vestingLine(held)}.`;
      if (!held.claimable) return;
      const claim = h('button', { type: 'button', 'data-action': true }, `Claim ${tokens(held.claimableAmount)} of #${tokenId}`);
      claim.addEventListener(
        'click',
        () =>
          void runAction(claim, 'Claiming what has vested of the allocation', async () => {
            const claimed = await claimAllocation(walletOf(context), { songId: tokenId });
            line.textContent = `Allocation claimed: ${tokens(claimed.amount)} to ${shortAddress(claimed.recipient)}; ${tokens(claimed.remaining)} still vesting or unclaimed.`;
            claim.remove();
          }),
      );
      line.append(' ', claim);
    },
    (error: unknown) => showError(error, `#${tokenId} allocation: `),
  );
}
