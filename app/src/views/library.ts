import {
  cancelJob,
  claimAllocation,
  createPreview,
  findMintedSongs,
  generate,
  getMintSignature,
  getProfile,
  jobEvents,
  launchSong,
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
import { clock, shortAddress, songsLeft, tokens } from '../format.ts';
import { drawWaveform } from '../waveform.ts';
import { editControls } from './song-edit.ts';
import { connectPanel } from './wallet.ts';

const PAGE_SIZE = 10;
type Completed = Extract<JobStatus, { status: 'completed' }>;

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
  view.append(createForm(context, list), h('h2', { id: 'songs-title' }, 'Your songs'), list);
  const more = h('button', { type: 'button', id: 'more-songs', class: 'secondary', hidden: true }, 'Show older songs');
  view.append(more);
  let cursor: string | undefined;
  const loadPage = async () => {
    const page = await listJobs(apiOf(context), { limit: PAGE_SIZE, ...(cursor === undefined ? {} : { cursor }), signal: context.signal });
    const hashes = page.jobs.flatMap((job) => (job.audio_hash === null ? [] : [job.audio_hash.toLowerCase() as Hex]));
    const minted = await findMintedSongs(context.read, { audioHashes: hashes });
    for (const job of page.jobs)
      list.append(songCard(context, job, job.audio_hash === null ? undefined : minted.get(job.audio_hash.toLowerCase() as Hex)));
    if (page.jobs.length === 0 && cursor === undefined) list.append(h('li', { class: 'empty' }, 'No songs yet: describe one above.'));
    cursor = page.nextCursor ?? undefined;
    more.hidden = page.nextCursor === null;
    list.setAttribute('aria-busy', 'false');
  };
  more.addEventListener('click', () => void runAction(more, 'Loading older songs', loadPage));
  list.setAttribute('aria-busy', 'true');
  loadPage().catch((error: unknown) => showError(error, 'Your songs could not be loaded: '));
  return view;
}

function createForm(context: AppContext, list: HTMLOListElement): HTMLElement {
  const prompt = h('textarea', { id: 'prompt', name: 'prompt', rows: 3, maxlength: 500, required: true });
  prompt.value = 'dreamy synthwave, 96 bpm, in A minor';
  const duration = h(
    'select',
    { id: 'duration', name: 'duration' },
    h('option', { value: '10', selected: true }, '10 seconds'),
    h('option', { value: '20' }, '20 seconds'),
    h('option', { value: '30' }, '30 seconds'),
  );
  const withLyrics = h('input', { type: 'checkbox', id: 'with-lyrics', name: 'with-lyrics', checked: true });
  const previewButton = h('button', { type: 'button', id: 'preview', class: 'secondary' }, 'Preview 10 s');
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
    'A preview is private, 10 seconds long, and costs none of your daily songs.',
  );
  const fields = h(
    'fieldset',
    { id: 'generate-fields' },
    h('legend', {}, 'Describe a song'),
    h('label', { for: 'prompt' }, 'Prompt'),
    prompt,
    h(
      'div',
      { class: 'row' },
      h('div', {}, h('label', { for: 'duration' }, 'Length'), duration),
      h('div', { class: 'check' }, withLyrics, h('label', { for: 'with-lyrics' }, 'Write lyrics')),
    ),
    h('div', { class: 'row' }, previewButton, generateButton, left),
  );
  showSongsLeft().catch(() => undefined);
  const form = h('form', { id: 'generate-form', class: 'panel' }, fields, quota, previewPlayer);
  previewButton.addEventListener('click', () => {
    if (!form.reportValidity()) return;
    void runAction(previewButton, 'Making a 10 s preview', async () => {
      const api = apiOf(context);
      const queued = await createPreview(api, { prompt: prompt.value, duration: 10, withLyrics: withLyrics.checked });
      if (queued.quota !== undefined) {
        quota.textContent = `Previews left this hour: ${queued.quota.remaining} of ${queued.quota.limit} (the count resets at ${clock(queued.quota.resetAt)}).`;
      }
      const preview = await waitForPreview(api, { sessionId: queued.sessionId, signal: context.signal });
      previewPlayer.src = preview.previewUrl;
      previewPlayer.hidden = false;
      announce(`Preview ready (${preview.duration} s): playing it. Generate to keep the song.`);
      await previewPlayer.play().catch(() => undefined);
    });
  });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void runAction(fields, 'Queueing your song', async () => {
      const job = await generate(apiOf(context), {
        prompt: prompt.value,
        duration: Number(duration.value),
        withLyrics: withLyrics.checked,
      }).finally(() => showSongsLeft().catch(() => undefined));
      announce(`Song queued, position ${job.position}: it appears below as it is made.`);
      list.querySelector('.empty')?.remove();
      const summary: JobSummary = {
        job_id: job.jobId,
        status: 'queued',
        progress: 0,
        prompt: prompt.value,
        duration: Number(duration.value),
        created_at: new Date().toISOString(),
        audio_url: null,
        audio_hash: null,
        error_code: null,
      };
      list.prepend(songCard(context, summary, undefined));
    });
  });
  return form;
}

/** One job: live while it runs, then the song with its player, waveform, lyrics, model and next step. */
function songCard(context: AppContext, job: JobSummary, tokenId: bigint | undefined): HTMLLIElement {
  const card = h('li', { class: 'card', 'data-job-id': job.job_id, 'data-status': job.status });
  const title = h('h3', {}, job.prompt);
  card.append(title);
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
    const cancel = h('button', { type: 'button', class: 'secondary cancel' }, 'Cancel');
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
                ? completedCard(context, job, view, undefined)
                : endedCard(job, view.status === 'failed' ? view.error.message : 'Cancelled'),
            );
            if (view.status === 'completed') announce(`Your song “${job.prompt.slice(0, 40)}” is ready.`);
            return;
          }
        }
      } catch (error) {
        if (!stop.signal.aborted) showError(error, 'Live status stopped: ');
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
            card.replaceWith(completedCard(context, job, event.job, tokenId));
            return;
          }
        }
      } catch (error) {
        if (!context.signal.aborted)
          state.textContent = `Could not load this song: ${error instanceof Error ? error.message : String(error)}`;
      }
    })();
    return card;
  }
  return endedCard(job, job.status === 'failed' ? `Failed (${job.error_code ?? 'error'})` : 'Cancelled');
}

function endedCard(job: JobSummary, reason: string): HTMLLIElement {
  return h(
    'li',
    { class: 'card ended', 'data-job-id': job.job_id, 'data-status': 'ended' },
    h('h3', {}, job.prompt),
    h('p', { class: 'state' }, reason),
  );
}

function completedCard(context: AppContext, job: JobSummary, song: Completed, tokenId: bigint | undefined): HTMLLIElement {
  const card = h('li', { class: 'card', 'data-job-id': job.job_id, 'data-status': 'completed' });
  const player = h('audio', {
    controls: true,
    preload: 'metadata',
    src: song.audio_url,
    'aria-label': `Play “${job.prompt.slice(0, 40)}”`,
  });
  const waveform = h('canvas', { class: 'waveform', width: 640, height: 64, role: 'img', 'aria-label': 'Waveform of the song' });
  drawWaveform(waveform, song.audio_url, context.signal).catch(() => {
    waveform.setAttribute('aria-label', 'Waveform unavailable');
  });
  const next = h('div', { class: 'next-step' });
  card.append(
    h('h3', {}, job.prompt),
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
    editControls(context, job, song, (edited) => card.parentElement?.prepend(songCard(context, edited, undefined))),
    next,
  );
  renderNextStep(context, next, job, song, tokenId);
  return card;
}

/** Mint, then launch, then trade on the song page: whichever comes next for this song. */
function renderNextStep(context: AppContext, next: HTMLElement, job: JobSummary, song: Completed, tokenId: bigint | undefined): void {
  next.replaceChildren();
  if (tokenId === undefined) {
    const name = h('input', { id: `name-${job.job_id}`, maxlength: 200, required: true, value: job.prompt.slice(0, 60) });
    const mint = h('button', { type: 'submit' }, 'Mint');
    const form = h('form', { class: 'row' }, h('div', {}, h('label', { for: name.id }, 'Title'), name), mint);
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      void runAction(mint, 'Publishing the metadata and cover to IPFS', async () => {
        const api = apiOf(context);
        const chain = walletOf(context);
        const address = chain.walletClient.account?.address;
        if (address === undefined) throw new Error('Connect your wallet first');
        const metadata = await uploadMetadata(api, {
          name: name.value,
          description: job.prompt,
          audioUrl: song.audio_url,
          cover: coverDataUri(song.audio_hash),
        });
        const signature = await getMintSignature(api, { jobId: job.job_id, userAddress: address, metadataUri: metadata.metadataUri });
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
    next.append(h('p', { class: 'state' }, 'Not minted yet'), form);
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
      const launch = h('button', { type: 'button' }, `Launch #${tokenId}`);
      launch.addEventListener(
        'click',
        () =>
          void runAction(launch, 'Launching: approve the vault, then launch', async () => {
            const launched = await launchSong(walletOf(context), { songId: tokenId, allocationBps: 500 });
            announce(
              `Launched: token ${launched.token}, its pool is open; the allocation stays with the vault until ${clock(new Date(Number(launched.allocationClaimableAt) * 1000))}`,
            );
            renderNextStep(context, next, job, song, tokenId);
          }),
      );
      next.append(launch);
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
      const claim = h('button', { type: 'button' }, `Claim allocation of #${tokenId}`);
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
