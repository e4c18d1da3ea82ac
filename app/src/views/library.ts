import {
  cancelJob,
  claimAllocation,
  createPreview,
  findMintedSongs,
  generate,
  getMintSignature,
  getNft,
  getProfile,
  jobEvents,
  listJobs,
  mintSong,
  readAllocation,
  readSong,
  uploadMetadata,
  waitForPreview,
} from '@songmint/sdk';
import type { JobStatus, JobSummary } from '@songmint/sdk';
import type { Hex } from 'viem';
import { announce, runAction, showError } from '../actions.ts';
import type { AppContext } from '../context.ts';
import { apiOf, walletOf } from '../context.ts';
import { coverDataUri } from '../cover.ts';
import { facts, h } from '../dom.ts';
import { gatewayUrl } from '../gateway.ts';
import { clock, shortAddress, songsLeft, tokens } from '../format.ts';
import { drawWaveform } from '../waveform.ts';
import { editControls, nameEditSources } from './song-edit.ts';
import { connectPanel } from './wallet.ts';
import { downloadLinks } from './downloads.ts';

const PAGE_SIZE = 10;
type Completed = Extract<JobStatus, { status: 'completed' }>;
/** What the create form holds, kept in localStorage so a reload loses nothing typed. */
interface GenerateInputs {
  prompt: string;
  duration: number;
  withLyrics: boolean;
  lyrics: string;
}
const FORM_KEY = 'songmint.generate-form';
/** The inputs of each job this browser queued (`songmint.job.<id>`): a retry sends them again. */
const jobKey = (jobId: string) => `songmint.job.${jobId}`;
/** The minted title and cover of a song (its metadata, GET /v1/nft/{id}). */
interface Minted {
  tokenId: bigint;
  title?: string;
  image?: string;
}

function readStored<T>(key: string): Partial<T> {
  try {
    const raw = window.localStorage.getItem(key);
    return raw === null ? {} : (JSON.parse(raw) as Partial<T>);
  } catch {
    return {};
  }
}

function store(key: string, value: unknown): void {
  try {
    window.localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Storage full or disabled (private mode): the form still works, it is only not kept.
  }
}

const madeOn = (iso: string) =>
  new Date(iso).toLocaleString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' });

/** My songs: create (preview first), and every job of the wallet with its next step. */
export function libraryView(context: AppContext): HTMLElement {
  const view = h('section', { 'aria-labelledby': 'view-title', class: 'view' }, h('h1', { id: 'view-title', tabindex: '-1' }, 'My songs'));
  if (context.session === undefined) {
    view.append(
      h(
        'p',
        {},
        'Connect a wallet to make songs, hear previews and keep your library. Launched songs are in Discover; a song page opens for anyone from its link.',
      ),
      connectPanel(context),
    );
    return view;
  }
  const list = h('ol', { id: 'songs', class: 'cards', 'aria-label': 'Your songs' });
  const queue = (job: JobSummary) => {
    list.querySelector('.empty')?.remove();
    list.prepend(songCard(context, job, undefined, queue));
  };
  view.append(createForm(context, queue), h('h2', { id: 'songs-title' }, 'Your songs'), list);
  const more = h('button', { type: 'button', id: 'more-songs', class: 'secondary', hidden: true, 'data-action': true }, 'Show older songs');
  view.append(more);
  let cursor: string | undefined;
  const loadPage = async () => {
    const api = apiOf(context);
    const page = await listJobs(api, { limit: PAGE_SIZE, ...(cursor === undefined ? {} : { cursor }), signal: context.signal });
    const hashes = page.jobs.flatMap((job) => (job.audio_hash === null ? [] : [job.audio_hash.toLowerCase() as Hex]));
    const tokenIds = await findMintedSongs(context.read, { audioHashes: hashes });
    // The minted title and cover: the metadata the oracle indexed (a song without it keeps its prompt).
    const minted = new Map<string, Minted>(
      await Promise.all(
        [...tokenIds].map(async ([hash, tokenId]) => {
          const nft = await getNft(api, { tokenId, signal: context.signal }).catch(() => undefined);
          const title = nft?.metadata?.name;
          const image = nft?.metadata?.image;
          return [
            hash,
            { tokenId, ...(typeof title === 'string' ? { title } : {}), ...(typeof image === 'string' ? { image } : {}) },
          ] as const;
        }),
      ),
    );
    for (const job of page.jobs)
      list.append(songCard(context, job, job.audio_hash === null ? undefined : minted.get(job.audio_hash.toLowerCase()), queue));
    if (page.jobs.length === 0 && cursor === undefined) list.append(h('li', { class: 'empty' }, 'No songs yet: describe one above.'));
    nameEditSources(list);
    cursor = page.nextCursor ?? undefined;
    more.hidden = page.nextCursor === null;
    list.setAttribute('aria-busy', 'false');
  };
  more.addEventListener('click', () => void runAction(more, 'Loading older songs', loadPage));
  list.setAttribute('aria-busy', 'true');
  loadPage().catch((error: unknown) => {
    if (!context.signal.aborted) showError(error, 'Your songs could not be loaded: ', list);
  });
  return view;
}

/** Queues a song and records its inputs (for a retry); the caller shows its card. */
async function queueSong(context: AppContext, inputs: GenerateInputs): Promise<{ job: JobSummary; position: number }> {
  const lyrics = inputs.lyrics.trim();
  const job = await generate(apiOf(context), {
    prompt: inputs.prompt,
    duration: inputs.duration,
    withLyrics: inputs.withLyrics,
    ...(lyrics === '' ? {} : { lyrics }),
  });
  store(jobKey(job.jobId), inputs);
  return {
    position: job.position,
    job: {
      job_id: job.jobId,
      status: 'queued',
      progress: 0,
      prompt: inputs.prompt,
      duration: inputs.duration,
      created_at: new Date().toISOString(),
      audio_url: null,
      audio_hash: null,
      error_code: null,
      edit_of: null,
    },
  };
}

function createForm(context: AppContext, queue: (job: JobSummary) => void): HTMLElement {
  const saved = readStored<GenerateInputs>(FORM_KEY);
  const prompt = h('textarea', { id: 'prompt', name: 'prompt', rows: 3, maxlength: 500, required: true });
  prompt.value = typeof saved.prompt === 'string' ? saved.prompt : 'dreamy synthwave, 96 bpm, in A minor';
  const duration = h(
    'select',
    { id: 'duration', name: 'duration' },
    h('option', { value: '10' }, '10 seconds'),
    h('option', { value: '20' }, '20 seconds'),
    h('option', { value: '30' }, '30 seconds'),
  );
  duration.value = String(saved.duration ?? 10);
  const withLyrics = h('input', { type: 'checkbox', id: 'with-lyrics', name: 'with-lyrics', checked: saved.withLyrics ?? true });
  const lyrics = h('textarea', {
    id: 'lyrics',
    name: 'lyrics',
    rows: 4,
    maxlength: 2000,
    'aria-describedby': 'lyrics-note',
    placeholder: '[verse]\nYour words here\n[chorus]\n…',
  });
  lyrics.value = typeof saved.lyrics === 'string' ? saved.lyrics : '';
  const inputs = (): GenerateInputs => ({
    prompt: prompt.value,
    duration: Number(duration.value),
    withLyrics: withLyrics.checked,
    lyrics: lyrics.value,
  });
  const previewButton = h('button', { type: 'button', id: 'preview', class: 'secondary', 'data-action': true }, 'Preview 10 s');
  const generateButton = h('button', { type: 'submit', id: 'generate', 'aria-describedby': 'songs-left' }, 'Generate');
  const left = h('p', { id: 'songs-left', class: 'note', 'aria-live': 'polite' });
  // The profile's limits: what the next Generate has left, refreshed after each attempt.
  const showSongsLeft = async () => {
    const profile = await getProfile(apiOf(context), { signal: context.signal });
    left.textContent = songsLeft(profile.limits.songs);
  };
  const previewPlayer = h('audio', { id: 'preview-player', controls: true, preload: 'auto', hidden: true, 'aria-label': 'Preview' });
  const quota = h(
    'p',
    { id: 'preview-quota', class: 'note' },
    'A preview is a separate, private 10 second take to hear the idea; it costs none of your daily songs. Generate makes a new, full song from the same description.',
  );
  const fields = h(
    'fieldset',
    { id: 'generate-fields', 'data-action': true },
    h('legend', {}, 'Describe a song'),
    h('label', { for: 'prompt' }, 'Prompt'),
    prompt,
    h(
      'div',
      { class: 'row' },
      h('div', {}, h('label', { for: 'duration' }, 'Length'), duration),
      h('div', { class: 'check' }, withLyrics, h('label', { for: 'with-lyrics' }, 'Write lyrics for me')),
    ),
    h('label', { for: 'lyrics' }, 'Your lyrics (optional)'),
    lyrics,
    h('p', { id: 'lyrics-note', class: 'note' }, 'Lyrics typed here are sung as written, instead of lyrics written for you.'),
    h('div', { class: 'row' }, previewButton, generateButton, left),
  );
  showSongsLeft().catch(() => undefined);
  const form = h('form', { id: 'generate-form', class: 'panel' }, fields, quota, previewPlayer);
  // Everything typed is kept across a reload.
  form.addEventListener('input', () => store(FORM_KEY, inputs()));
  form.addEventListener('change', () => store(FORM_KEY, inputs()));
  previewButton.addEventListener('click', () => {
    if (!form.reportValidity()) return;
    void runAction(previewButton, 'Making a 10 s preview', async () => {
      const api = apiOf(context);
      const typed = lyrics.value.trim();
      const queued = await createPreview(api, {
        prompt: prompt.value,
        duration: 10,
        withLyrics: withLyrics.checked,
        ...(typed === '' ? {} : { lyrics: typed }),
      });
      if (queued.quota !== undefined) {
        quota.textContent = `Previews left this hour: ${queued.quota.remaining} of ${queued.quota.limit} (the count resets at ${clock(queued.quota.resetAt)}).`;
      }
      const preview = await waitForPreview(api, { sessionId: queued.sessionId, signal: context.signal });
      previewPlayer.src = preview.previewUrl;
      previewPlayer.hidden = false;
      announce(
        `Preview ready (${preview.duration} s), playing. It is a separate short take: Generate makes a new, full song from the same description.`,
      );
      await previewPlayer.play().catch(() => undefined);
    });
  });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void runAction(fields, 'Queueing your song', async () => {
      const queued = await queueSong(context, inputs()).finally(() => showSongsLeft().catch(() => undefined));
      announce(`Song queued, position ${queued.position}: it appears below as it is made.`);
      queue(queued.job);
    });
  });
  return form;
}

/** The card's head: cover (the minted one, else the one minting would draw), title and date. */
function cardHead(context: AppContext, job: JobSummary, minted: Minted | undefined, cover: boolean): HTMLElement {
  const image =
    minted?.image !== undefined
      ? gatewayUrl(context, minted.image)
      : cover && job.audio_hash !== null
        ? coverDataUri(job.audio_hash)
        : undefined;
  return h(
    'div',
    { class: 'card-head' },
    image === undefined ? null : h('img', { class: 'card-cover', src: image, alt: '' }),
    h(
      'div',
      {},
      h('h3', {}, minted?.title ?? job.prompt),
      h(
        'p',
        { class: 'card-date' },
        `Made ${madeOn(job.created_at)}`,
        minted?.title === undefined ? '' : ` · “${job.prompt.slice(0, 80)}”`,
      ),
    ),
  );
}

/** One job: live while it runs, then the song with its player, waveform, lyrics, model and next step. */
function songCard(context: AppContext, job: JobSummary, minted: Minted | undefined, queue: (job: JobSummary) => void): HTMLLIElement {
  const card = h('li', { class: 'card', 'data-job-id': job.job_id, 'data-status': job.status });
  card.append(cardHead(context, job, minted, false));
  const state = h('p', { class: 'state' });
  const progress = h('progress', { max: 100, value: job.progress, 'aria-label': `Progress of “${job.prompt.slice(0, 40)}”` });
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
            card.replaceWith(
              view.status === 'completed'
                ? completedCard(context, job, view, undefined, queue)
                : endedCard(context, job, view.status === 'failed' ? failedReason(view.error.message) : 'Cancelled', queue),
            );
            if (view.status === 'completed') announce(`Your song “${job.prompt.slice(0, 40)}” is ready.`, list(card));
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
            card.replaceWith(completedCard(context, job, event.job, minted, queue));
            return;
          }
        }
      } catch (error) {
        if (!context.signal.aborted) showError(error, 'Could not load this song: ', state);
      }
    })();
    return card;
  }
  return endedCard(context, job, job.status === 'failed' ? failedReason(job.error_code ?? 'error') : 'Cancelled', queue);
}

/** Where a finished card's announcement goes: the list's own live region (the card itself is replaced). */
const list = (card: Element) => card.closest('ol') ?? card;

const failedReason = (why: string) => `It failed (${why}): nothing was charged for it. Try again to make it anew.`;

/** A cancelled or failed song, with a retry: a new job with the same inputs (as typed in this browser, else its prompt and length). */
function endedCard(context: AppContext, job: JobSummary, reason: string, queue: (job: JobSummary) => void): HTMLLIElement {
  const retry = h('button', { type: 'button', class: 'secondary retry', 'data-action': true }, 'Try again');
  retry.addEventListener(
    'click',
    () =>
      void runAction(retry, 'Queueing it again', async () => {
        const saved = readStored<GenerateInputs>(jobKey(job.job_id));
        const queued = await queueSong(context, {
          prompt: job.prompt,
          duration: job.duration,
          withLyrics: saved.withLyrics ?? true,
          lyrics: saved.lyrics ?? '',
        });
        announce(`Queued again, position ${queued.position}: the new song is at the top of the list.`);
        queue(queued.job);
      }),
  );
  return h(
    'li',
    { class: 'card ended', 'data-job-id': job.job_id, 'data-status': 'ended' },
    cardHead(context, job, undefined, false),
    h('p', { class: 'state' }, reason),
    retry,
  );
}

function completedCard(
  context: AppContext,
  job: JobSummary,
  song: Completed,
  minted: Minted | undefined,
  queue: (job: JobSummary) => void,
): HTMLLIElement {
  const card = h('li', { class: 'card', 'data-job-id': job.job_id, 'data-status': 'completed' });
  const title = minted?.title ?? job.prompt;
  const player = h('audio', {
    controls: true,
    preload: 'metadata',
    src: song.audio_url,
    'aria-label': `Play “${title.slice(0, 40)}”`,
  });
  const waveform = h('canvas', { class: 'waveform', width: 640, height: 64, role: 'img', 'aria-label': 'Waveform of the song' });
  drawWaveform(waveform, song.audio_url, context.signal).catch(() => {
    waveform.setAttribute('aria-label', 'Waveform unavailable');
  });
  const next = h('div', { class: 'next-step' });
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
      h('pre', { class: 'lyrics' }, song.lyrics ?? ''),
    ),
    downloadLinks(context, { jobId: job.job_id, lossless: song.lossless }),
    editControls(context, job, song, queue),
    next,
  );
  renderNextStep(context, next, job, song, minted?.tokenId);
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
  const name = h('input', { id: id('name'), maxlength: 200, required: true, value: job.prompt.slice(0, 60) });
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
function renderNextStep(context: AppContext, next: HTMLElement, job: JobSummary, song: Completed, tokenId: bigint | undefined): void {
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
        const metadata = await uploadMetadata(api, await values());
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
        renderNextStep(context, next, job, song, minted.tokenId);
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
 * The launcher's allocation under a launched song: held by the vault through the launch fee window
 * (so it shows when it can be claimed), then a button that mints it to its recipient.
 */
function renderAllocation(context: AppContext, next: HTMLElement, tokenId: bigint): void {
  const line = h('p', { class: 'allocation' });
  next.append(line);
  readAllocation(context.read, { songId: tokenId }).then(
    (held) => {
      if (held.recipient === null) {
        line.textContent = 'No allocation held: claimed, or none was taken';
        return;
      }
      const amount = `${tokens(held.amount)} for ${shortAddress(held.recipient)}`;
      if (!held.claimable) {
        const until = clock(new Date(Number(held.claimableAt) * 1000));
        line.textContent = `Allocation: ${amount}, held by the vault through the launch fee window, claimable from ${until}`;
        return;
      }
      line.textContent = `Allocation: ${amount}, claimable now`;
      const claim = h('button', { type: 'button', 'data-action': true }, `Claim allocation of #${tokenId}`);
      claim.addEventListener(
        'click',
        () =>
          void runAction(claim, 'Claiming the allocation', async () => {
            const claimed = await claimAllocation(walletOf(context), { songId: tokenId });
            line.textContent = `Allocation claimed: ${tokens(claimed.amount)} to ${shortAddress(claimed.recipient)}`;
            claim.remove();
          }),
      );
      line.append(' ', claim);
    },
    (error: unknown) => showError(error, `#${tokenId} allocation: `),
  );
}
