import { editSong, findMintedSongs, getProfile, listJobs, SongmintApiError } from '@songmint/sdk';
import { describeLongest, longestSong } from '../song-length.ts';
import type { Hex } from 'viem';
import type { EditSongParameters, JobStatus, JobSummary } from '@songmint/sdk';
import { announce, messagesNear, runAction } from '../actions.ts';
import type { AppContext } from '../context.ts';
import { apiOf } from '../context.ts';
import { describeError, h } from '../dom.ts';
import { drawWaveform } from '../waveform.ts';
import { shortText } from '../format.ts';
import { CHARGED_EVENT, JOB_ENDED_EVENT } from './create-form.ts';
import { editVerb, repaintRangeProblem, seconds } from '../edit-words.ts';

type Completed = Extract<JobStatus, { status: 'completed' }>;
type EditTask = EditSongParameters['task'];
type EditOf = NonNullable<JobSummary['edit_of']>;

const ORIGIN_VERB: Record<EditTask, string> = { extend: 'Extended from', repaint: 'Repainted from', remix: 'Remixed from' };

/** The title a library card shows (minted title, else prompt), once the card is on the page. */
function cardTitle(root: ParentNode, jobId: string): string | undefined {
  const title = root.querySelector(`li[data-job-id="${CSS.escape(jobId)}"] h3`)?.textContent?.trim();
  return title === undefined || title === '' ? undefined : `“${shortText(title, 80)}”`;
}

/**
 * Names the source of each "Extended from …" line under `root` by its card's title: a source
 * listed after its edit (the library is newest first) is on the page only once its page is.
 */
export function nameEditSources(root: ParentNode): void {
  for (const link of root.querySelectorAll<HTMLAnchorElement>('.edit-origin a[data-source-job]')) {
    const sourceJob = link.dataset.sourceJob ?? '';
    const title = cardTitle(root, sourceJob);
    if (title !== undefined) link.textContent = title;
    // The source's card, now on the page, gives an extension's seconds.
    const line = link.closest<HTMLElement>('.edit-origin[data-task="extend"]');
    const source = cardSeconds(sourceJob);
    if (line !== null && source !== undefined && line.firstChild !== null)
      line.firstChild.textContent = `${editVerb({ task: 'extend', start: null, end: null, strength: null }, Number(line.dataset.duration) - source)} `;
  }
}

/** The length of the card of `jobId` on the page, when it is there. */
function cardSeconds(jobId: string): number | undefined {
  const shown = document.querySelector<HTMLElement>(`li[data-job-id="${CSS.escape(jobId)}"]`)?.dataset.duration;
  return shown === undefined ? undefined : Number(shown);
}

/** Where an edited song came from and what was done, from the API's `edit_of`: a link to its source's card, or the upload. */
function originLine(editOf: EditOf, duration: number): HTMLElement {
  const source = editOf.job_id === null ? undefined : cardSeconds(editOf.job_id);
  const verb = `${editVerb(editOf, source === undefined ? undefined : duration - source)} `;
  const attributes = { class: 'edit-origin', 'data-task': editOf.task, 'data-duration': duration };
  if (editOf.job_id === null) return h('p', attributes, verb, 'audio you uploaded');
  return h(
    'p',
    attributes,
    verb,
    h(
      'a',
      { href: `#song-${editOf.job_id}`, 'data-source-job': editOf.job_id },
      cardTitle(document, editOf.job_id) ?? 'an earlier song of yours',
    ),
  );
}

/** A refusal in words a person understands, next to the control that was refused (each task its own words). */
export function describeEditRefusal(error: unknown, task: EditTask, sourceDuration: number, longest: string | undefined): string {
  if (!(error instanceof SongmintApiError)) return describeError(error);
  switch (error.code) {
    case 'EDIT_001':
      return 'This song is no longer in your library, so it cannot be edited.';
    case 'EDIT_002':
      return 'This song is still being made: edit it once it is finished.';
    case 'EDIT_003':
      return 'This song can no longer be edited: what an edit starts from was deleted (songs not minted within 90 days are). Make a new song instead.';
    // The schema refuses a range under 1 s or a strength out of 0..1 before the song is read.
    case 'EDIT_004':
    case 'VALIDATION_ERROR':
      switch (task) {
        case 'extend':
          return `That does not fit this ${sourceDuration} s song: extend it by at least 1 whole second.`;
        case 'repaint':
          return `That does not fit this ${sourceDuration} s song: pick a range at least 1 s long inside 0–${sourceDuration} s.`;
        case 'remix':
          return `That remix does not fit this ${sourceDuration} s song: pick a strength from 0 to 1.`;
      }
      return describeError(error);
    case 'EDIT_005':
      return `No worker can make this edit right now (${error.message}). Try again later.`;
    case 'GEN_004':
      return `The result would be longer than ${longest ?? 'your plan or the running model allows'}: extend by fewer seconds.`;
    default:
      return describeError(error);
  }
}

/**
 * The edit controls of a completed song of the creator's library: extend by N seconds, repaint a
 * range picked on the waveform, remix. Each queues a job through `editSong`; `addJob` puts its card
 * in the library as a Generate does. An edited song also says where it came from (`edit_of`).
 * With `upload`, the same panel edits one of the creator's uploads (views/uploads.ts): `job` and
 * `song` then name the upload (its id, its whole seconds, its audio when the page has it, or '').
 */
export function editControls(
  context: AppContext,
  job: Pick<JobSummary, 'job_id' | 'prompt' | 'edit_of'>,
  song: Pick<Completed, 'duration' | 'audio_url' | 'edit_of'>,
  addJob: (job: JobSummary) => void,
  upload?: { uploadId: string },
): HTMLElement {
  const id = job.job_id;
  const section = h('div', { id: `song-${id}`, class: 'song-edit' });
  const editOf = song.edit_of ?? job.edit_of;
  if (editOf !== null) section.append(originLine(editOf, song.duration));
  const duration = song.duration;
  /** The longest result allowed, in words (../song-length.ts `describeLongest`); known once the profile is read. */
  let maxDurationWords: string | undefined;

  const prompt = h('input', {
    id: `edit-prompt-${id}`,
    maxlength: 500,
    required: true,
    value: job.prompt,
    placeholder: 'e.g. a brighter bridge, 100 bpm',
    'aria-describedby': `edit-prompt-error-${id}`,
  });
  /** The field's own message (not only the browser's bubble, which a screen reader may not say and which goes away). */
  const promptError = h('p', { class: 'error edit-error', id: `edit-prompt-error-${id}`, role: 'alert', hidden: true });
  prompt.addEventListener('input', () => {
    if (prompt.value.trim() !== '') promptError.hidden = true;
  });
  const extendBy = h('input', { id: `extend-${id}`, type: 'number', min: 1, step: 1, value: 5, required: true, inputmode: 'numeric' });
  const extendButton = h('button', { type: 'submit', 'data-action': true }, 'Extend');
  const extendError = h('p', { class: 'error edit-error', id: `extend-error-${id}`, role: 'alert', hidden: true });
  const extendForm = h(
    'form',
    { class: 'edit-extend' },
    h('div', { class: 'row' }, h('div', {}, h('label', { for: extendBy.id }, 'Extend by (seconds)'), extendBy), extendButton),
    extendError,
  );

  const start = h('input', { id: `repaint-start-${id}`, type: 'number', min: 0, max: duration, step: 0.1, value: seconds(duration * 0.4) });
  const end = h('input', { id: `repaint-end-${id}`, type: 'number', min: 0, max: duration, step: 0.1, value: seconds(duration * 0.6) });
  const canvas = h('canvas', { class: 'waveform', width: 640, height: 64, 'aria-hidden': 'true' });
  const selection = h('div', { class: 'range-selection', 'aria-hidden': 'true' });
  const picker = h('div', { class: 'range-picker', title: 'Drag across the waveform to pick the range to repaint' }, canvas, selection);
  const repaintButton = h('button', { type: 'submit', 'data-action': true }, 'Repaint');
  const repaintError = h('p', { class: 'error edit-error', id: `repaint-error-${id}`, role: 'alert', hidden: true });
  const repaintForm = h(
    'form',
    { class: 'edit-repaint' },
    h('p', { class: 'note', id: `repaint-help-${id}` }, 'Drag across the waveform, or type the range (seconds):'),
    picker,
    h(
      'div',
      { class: 'row' },
      h('div', {}, h('label', { for: start.id }, 'Repaint from (s)'), start),
      h('div', {}, h('label', { for: end.id }, 'to (s)'), end),
      repaintButton,
    ),
    repaintError,
  );
  const showSelection = () => {
    const from = Math.max(0, Math.min(Number(start.value), Number(end.value)));
    const to = Math.min(duration, Math.max(Number(start.value), Number(end.value)));
    selection.style.left = `${(from / duration) * 100}%`;
    selection.style.width = `${(Math.max(0, to - from) / duration) * 100}%`;
  };
  start.addEventListener('input', showSelection);
  end.addEventListener('input', showSelection);
  const secondAt = (event: PointerEvent) => {
    const box = picker.getBoundingClientRect();
    return seconds(Math.max(0, Math.min(1, (event.clientX - box.left) / box.width)) * duration);
  };
  let anchor: number | undefined;
  picker.addEventListener('pointerdown', (event) => {
    anchor = secondAt(event);
    picker.setPointerCapture(event.pointerId);
    start.value = String(anchor);
    end.value = String(anchor);
    showSelection();
  });
  picker.addEventListener('pointermove', (event) => {
    if (anchor === undefined) return;
    const at = secondAt(event);
    start.value = String(Math.min(anchor, at));
    end.value = String(Math.max(anchor, at));
    showSelection();
  });
  const release = () => {
    anchor = undefined;
  };
  picker.addEventListener('pointerup', release);
  picker.addEventListener('pointercancel', release);
  showSelection();

  const strength = h('input', { id: `remix-${id}`, type: 'range', min: 0, max: 1, step: 0.05, value: 0.5 });
  const strengthShown = h('output', { for: strength.id }, '0.5');
  strength.addEventListener('input', () => {
    strengthShown.textContent = strength.value;
  });
  const remixButton = h('button', { type: 'submit', 'data-action': true }, 'Remix');
  const remixError = h('p', { class: 'error edit-error', id: `remix-error-${id}`, role: 'alert', hidden: true });
  const remixForm = h(
    'form',
    { class: 'edit-remix' },
    h(
      'div',
      { class: 'row' },
      h('div', {}, h('label', { for: strength.id }, 'Remix strength (0 keeps most, 1 changes most)'), strength, ' ', strengthShown),
      remixButton,
    ),
    remixError,
  );

  const submit = (
    form: HTMLFormElement,
    button: HTMLButtonElement,
    error: HTMLElement,
    task: () => EditSongParameters | { problem: string },
  ) => {
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      error.hidden = true;
      if (prompt.value.trim() === '') {
        promptError.textContent = 'Describe the new material first: what the edited part should sound like, in a few words.';
        promptError.hidden = false;
        prompt.focus();
        return;
      }
      if (!form.reportValidity() || !prompt.reportValidity()) return;
      const parameters = task();
      // Refused here, in words, before anything is sent or charged.
      if ('problem' in parameters) {
        error.textContent = parameters.problem;
        error.hidden = false;
        return;
      }
      void runAction(button, 'Queueing your edit', async () => {
        const api = apiOf(context);
        try {
          const queued = await editSong(api, parameters);
          const line =
            upload === undefined
              ? `Edit queued, position ${queued.position}: it is at the top of your songs.`
              : `Edit queued, position ${queued.position}: it is followed below, and kept in your songs.`;
          announce(line);
          // Once the edit is made the queue position is no longer true: the line goes.
          const status = messagesNear(button).status;
          const ended = (event: Event) => {
            if ((event as CustomEvent<string>).detail !== queued.jobId) return;
            window.removeEventListener(JOB_ENDED_EVENT, ended);
            if (status.textContent === line) status.textContent = '';
          };
          window.addEventListener(JOB_ENDED_EVENT, ended);
          context.signal.addEventListener('abort', () => window.removeEventListener(JOB_ENDED_EVENT, ended));
          // Its name comes from the API ("… (extended +4 s)"): the newest song of the list is this one.
          const newest = await listJobs(api, { limit: 1, signal: context.signal }).catch(() => undefined);
          const listed = newest?.jobs[0]?.job_id === queued.jobId ? newest.jobs[0] : undefined;
          addJob(
            listed ?? {
              job_id: queued.jobId,
              status: 'queued',
              progress: 0,
              prompt: parameters.prompt,
              duration: parameters.task === 'extend' ? duration + parameters.seconds : duration,
              created_at: new Date().toISOString(),
              audio_url: null,
              audio_hash: null,
              error_code: null,
              edit_of: {
                job_id: upload === undefined ? id : null,
                upload_id: upload?.uploadId ?? null,
                task: parameters.task,
                start: parameters.task === 'repaint' ? parameters.start : null,
                end: parameters.task === 'repaint' ? parameters.end : null,
                strength: parameters.task === 'remix' ? (parameters.strength ?? null) : null,
              },
              title: null,
              nft_token_id: null,
              deleted_at: null,
            },
          );
        } catch (refusal) {
          error.textContent = describeEditRefusal(refusal, parameters.task, duration, maxDurationWords);
          error.hidden = false;
          announce('');
        } finally {
          window.dispatchEvent(new Event(CHARGED_EVENT));
        }
      });
    });
  };
  const source = () => (upload === undefined ? { sourceJobId: id } : { sourceUploadId: upload.uploadId });
  const base = () => ({ ...source(), sourceDuration: duration, prompt: prompt.value });
  submit(extendForm, extendButton, extendError, () => ({ ...base(), task: 'extend', seconds: Number(extendBy.value) }));
  submit(repaintForm, repaintButton, repaintError, () => {
    // As typed: a range typed backwards is refused, never swapped and charged.
    const [from, to] = [Number(start.value), Number(end.value)];
    const problem = repaintRangeProblem(from, to, duration);
    return problem === null ? { ...base(), task: 'repaint', start: from, end: to } : { problem };
  });
  submit(remixForm, remixButton, remixError, () => ({ ...base(), task: 'remix', strength: Number(strength.value) }));

  const body = h(
    'div',
    { id: `edit-panel-${id}`, class: 'edit-panel', hidden: true },
    h('label', { for: prompt.id }, 'Describe the new material'),
    prompt,
    promptError,
    h('h4', {}, 'Extend'),
    extendForm,
    h('h4', {}, 'Repaint a range'),
    repaintForm,
    h('h4', {}, 'Remix'),
    remixForm,
  );
  // A disclosure button (not <details>): the card's one <summary> stays its lyrics'.
  const toggle = h(
    'button',
    { type: 'button', class: 'secondary edit-toggle', 'aria-expanded': 'false', 'aria-controls': body.id },
    upload === undefined ? 'Edit this song' : 'Edit this upload',
  );
  // The tier's longest song bounds an extension; the waveform is drawn once the panel is opened.
  let opened = false;
  toggle.addEventListener('click', () => {
    body.hidden = !body.hidden;
    toggle.setAttribute('aria-expanded', String(!body.hidden));
    if (body.hidden || opened) return;
    opened = true;
    const unavailable = () => picker.setAttribute('title', 'Waveform unavailable: type the range');
    if (song.audio_url === '') unavailable();
    else drawWaveform(canvas, song.audio_url, context.signal).catch(unavailable);
    getProfile(apiOf(context), { signal: context.signal }).then(
      (profile) => {
        const longest = longestSong(profile);
        maxDurationWords = describeLongest(longest);
        const room = longest.seconds - duration;
        extendBy.max = String(Math.max(1, room));
        if (room < 1) {
          extendBy.disabled = true;
          extendButton.disabled = true;
          extendError.textContent = `This song is already as long as ${describeLongest(longest)}.`;
          extendError.hidden = false;
        } else if (Number(extendBy.value) > room) extendBy.value = String(room);
      },
      () => undefined,
    );
  });
  section.append(toggle, body);
  return section;
}

/** `generation.edit_of` of a song's published metadata (docs/api.md "Edit a song"), if it has one. */
function editOfMetadata(metadata: unknown): { task: string; audioHash: string | null } | undefined {
  const editOf = (metadata as { generation?: { edit_of?: { task?: unknown; audio_hash?: unknown } } } | null)?.generation?.edit_of;
  if (editOf === undefined || typeof editOf.task !== 'string') return undefined;
  return { task: editOf.task, audioHash: typeof editOf.audio_hash === 'string' ? editOf.audio_hash : null };
}

/**
 * A song page's line saying which song it was edited from (its metadata's `edit_of`), linking to
 * the source's page when the source is minted; nothing for a song that is no edit.
 */
export function songPageOrigin(context: AppContext, metadata: unknown): HTMLElement[] {
  const editOf = editOfMetadata(metadata);
  if (editOf === undefined) return [];
  const verb = ORIGIN_VERB[editOf.task as EditTask] ?? 'Edited from';
  const line = h('p', { class: 'edit-origin', id: 'song-origin' }, `${verb} a song of its creator`);
  const hash = editOf.audioHash?.toLowerCase() as Hex | undefined;
  if (hash !== undefined) {
    findMintedSongs(context.read, { audioHashes: [hash] }).then(
      (minted) => {
        const sourceId = minted.get(hash);
        if (sourceId === undefined) line.textContent = `${verb} a song its creator has not minted`;
        else line.replaceChildren(`${verb} `, h('a', { href: `/app/song/${sourceId}`, 'data-link': true }, `song #${sourceId}`));
      },
      () => undefined,
    );
  }
  return [line];
}
