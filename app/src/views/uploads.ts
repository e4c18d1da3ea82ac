/**
 * Uploads (/app/uploads, loaded on demand): audio of the creator's own to edit. An upload control
 * (a file picker that also takes a dropped file), the rights statement an upload confirms shown in
 * full as the API words it (`rightsStatement` of GET /api/uploads) with its checkbox, the upload's
 * progress, and a refusal in words next to the control. Below, the uploads with their length and
 * when retention deletes them; each opens the same edit panel as a song (views/song-edit.ts) and
 * follows its edits to the finished song, and can be deleted.
 */
import './uploads.css';
import { deleteUpload, getProfile, listUploads, SongmintApiError, uploadAudio, waitForJob } from '@songmint/sdk';
import type { JobSummary, Upload, UserProfile } from '@songmint/sdk';
import { announce, messagesNear, runAction, showError } from '../actions.ts';
import type { AppContext } from '../context.ts';
import { apiOf } from '../context.ts';
import { describeError, facts, h } from '../dom.ts';
import { shortText } from '../format.ts';
import { editControls } from './song-edit.ts';
import { JOB_ENDED_EVENT } from './create-form.ts';
import { connectPanel } from './wallet.ts';

const PAGE_SIZE = 10;
/** The API's byte limit (docs/api.md "Upload audio"): checked here first, so a large file is not sent for nothing. */
const MAX_UPLOAD_BYTES = 100 * 1024 * 1024;
const ACCEPTED = '.wav,.flac,.mp3,audio/wav,audio/x-wav,audio/flac,audio/mpeg';
/** The name a file was uploaded under (`songmint.upload.<id>`): the API keeps none. */
const nameKey = (uploadId: string) => `songmint.upload.${uploadId}`;

const megabytes = (bytes: number) => `${(bytes / 1_048_576).toLocaleString('en-US', { maximumFractionDigits: 1 })} MB`;
const day = (date: Date) => date.toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric' });
const lengthOf = (seconds: number) => `${seconds.toLocaleString('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 })} s`;

function storedName(uploadId: string): string | undefined {
  try {
    return window.localStorage.getItem(nameKey(uploadId)) ?? undefined;
  } catch {
    return undefined;
  }
}

function keepName(uploadId: string, name: string): void {
  try {
    window.localStorage.setItem(nameKey(uploadId), name);
  } catch {
    // Storage full or disabled: the card shows the upload's date instead.
  }
}

/** What each refusal of an upload means, in words a person can act on (`details`: the API's own, in brackets). */
const REFUSALS: Readonly<Record<string, (details: string) => string>> = {
  UPLOAD_001: () =>
    'This file is not audio Songmint takes: upload a WAV (16, 24 or 32-bit, or 32-bit float), a FLAC (16 or 24-bit) or an MP3.',
  UPLOAD_002: (details) => `This file's audio does not decode: it may be cut short or damaged${details}. Export it again and upload that.`,
  UPLOAD_003: () => 'This file holds no audio, or less than 1 second of it: upload at least 1 s.',
  UPLOAD_004: () => 'Tick the box to confirm the statement above: an upload needs it.',
  // `details` names what it contains (from `earlierSong`, or an outside service's match).
  UPLOAD_005: (details) => `This audio contains ${details}: only audio of your own can be uploaded, and nothing was stored.`,
  GEN_004: (details) => `This audio is longer than your plan allows a song to be${details}: upload a shorter cut.`,
  STORAGE_001: () =>
    'This file would pass your storage quota: delete uploads or songs you no longer need (or wait for retention), then upload it again. Nothing was stored.',
  PAYLOAD_TOO_LARGE: () => 'This file is larger than 100 MB: upload a shorter cut, or the same audio as FLAC or MP3.',
};

const gibibytes = (bytes: number) => `${(bytes / 1024 ** 3).toLocaleString('en-US', { maximumFractionDigits: 2 })} GiB`;

/** The profile's storage in words: what is stored of the quota, and what queued songs hold. */
export function storageWords(storage: UserProfile['storage']): string {
  const held = storage.pending_bytes > 0 ? `, ${megabytes(storage.pending_bytes)} held for songs in the queue` : '';
  return `Storage: ${storage.used_bytes < 1024 ** 3 ? megabytes(storage.used_bytes) : gibibytes(storage.used_bytes)} of ${gibibytes(storage.quota_bytes)} used${held}. Uploads, songs (with their WAV and FLAC) and covers count; deleting them gives the room back.`;
}

/** An upload refusal in words a person can act on (UPLOAD_001..005, the tier's length, the size). */
export function describeUploadRefusal(error: unknown): string {
  if (!(error instanceof SongmintApiError)) return describeError(error);
  if (error.code === 'UPLOAD_005') {
    const song = error.earlierSong;
    const which =
      song === undefined
        ? 'a recording a music recognition service knows'
        : song.tokenId === null
          ? 'a song another creator made on Songmint'
          : `song #${song.tokenId}, which another creator minted on Songmint`;
    return REFUSALS.UPLOAD_005?.(which) ?? describeError(error);
  }
  const details = typeof error.details === 'string' && error.details !== '' ? ` (${error.details})` : '';
  return REFUSALS[error.code]?.(details) ?? describeError(error);
}

/** The upload control: file (picked or dropped), the rights statement and its checkbox, progress. */
function uploadForm(context: AppContext, statement: Promise<string>, added: (upload: Upload, file: File) => void): HTMLElement {
  const input = h('input', { id: 'upload-file', type: 'file', accept: ACCEPTED, 'aria-describedby': 'upload-help' });
  const chosen = h('p', { id: 'upload-chosen', class: 'note' }, 'No file chosen yet.');
  const zone = h(
    'div',
    { id: 'upload-drop', class: 'drop-zone' },
    h('label', { for: input.id }, 'Audio file'),
    input,
    h(
      'p',
      { id: 'upload-help', class: 'note' },
      'Choose a file, or drop one here: WAV, FLAC or MP3, at most 100 MB and your plan’s longest song.',
    ),
    chosen,
  );
  const rights = h('blockquote', { id: 'rights-statement', class: 'rights-statement' }, 'Loading the statement…');
  const confirm = h('input', { id: 'upload-rights', type: 'checkbox', required: true, disabled: true, 'aria-describedby': rights.id });
  const progress = h('progress', { id: 'upload-progress', max: 100, value: 0, hidden: true, 'aria-label': 'Upload progress' });
  const button = h('button', { type: 'submit', id: 'upload-button', 'data-action': true }, 'Upload');
  const form = h(
    'form',
    // Not the browser's own validation bubble: the refusal is said in words next to Upload.
    { id: 'upload-form', class: 'panel', 'aria-labelledby': 'upload-title', novalidate: true },
    h('h2', { id: 'upload-title' }, 'Upload audio'),
    zone,
    h('p', { class: 'note' }, 'Before you upload, read and confirm:'),
    rights,
    h('div', { class: 'check' }, confirm, h('label', { for: confirm.id }, 'I confirm this statement for the file I upload')),
    progress,
    h('div', { class: 'row' }, button),
  );
  statement.then(
    (text) => {
      rights.textContent = text;
      confirm.disabled = false;
    },
    (error: unknown) => {
      rights.textContent = `The statement could not be loaded (${describeError(error)}): reload the page to upload.`;
    },
  );

  let file: File | undefined;
  const choose = (next: File | undefined) => {
    file = next;
    chosen.textContent = next === undefined ? 'No file chosen yet.' : `Chosen: ${next.name} (${megabytes(next.size)})`;
    messagesNear(button).alert.hidden = true;
  };
  input.addEventListener('change', () => choose(input.files?.[0]));
  zone.addEventListener('dragover', (event) => {
    event.preventDefault();
    zone.classList.add('dragging');
  });
  zone.addEventListener('dragleave', () => zone.classList.remove('dragging'));
  zone.addEventListener('drop', (event) => {
    event.preventDefault();
    zone.classList.remove('dragging');
    const dropped = event.dataTransfer?.files;
    if (dropped === undefined || dropped.length === 0) return;
    input.files = dropped;
    choose(dropped[0]);
  });

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void runAction(button, 'Uploading…', async () => {
      if (file === undefined) throw new Error('Choose an audio file first (or drop one on the box above).');
      // The API's own refusals, said before anything is sent.
      if (!confirm.checked) throw new Error(REFUSALS.UPLOAD_004?.('') ?? '');
      if (file.size > MAX_UPLOAD_BYTES) throw new Error(REFUSALS.PAYLOAD_TOO_LARGE?.('') ?? '');
      const sending = file;
      const status = messagesNear(button).status;
      progress.value = 0;
      progress.hidden = false;
      let said = -1;
      try {
        const upload = await uploadAudio(apiOf(context), new Uint8Array(await sending.arrayBuffer()), {
          rightsConfirmed: true,
          name: sending.name,
          signal: context.signal,
          onProgress: (sent, total) => {
            const percent = total === 0 ? 100 : Math.floor((100 * sent) / total);
            progress.value = percent;
            // Said in tens, so a screen reader is not flooded.
            if (Math.floor(percent / 10) !== said) {
              said = Math.floor(percent / 10);
              status.textContent = percent >= 100 ? 'Uploaded; checking the audio…' : `Uploading… ${percent} %`;
            }
          },
        });
        keepName(upload.uploadId, sending.name);
        added(upload, sending);
        form.reset();
        choose(undefined);
        announce(`Uploaded ${sending.name}: ${lengthOf(upload.duration)}. Edit it below.`, button);
      } catch (error) {
        throw new Error(describeUploadRefusal(error), { cause: error });
      } finally {
        progress.hidden = true;
      }
    });
  });
  return form;
}

/** One edit queued from an upload, followed to its finished song. */
function followEdit(context: AppContext, job: JobSummary, list: HTMLElement): void {
  // Focusable by script: the edit just queued takes the focus its button had (never dropped to <body>).
  const line = h('p', { class: 'state', tabindex: '-1' }, `${job.edit_of?.task ?? 'edit'}: queued`);
  const item = h('li', { 'data-job-id': job.job_id, 'data-status': 'queued' }, line);
  list.prepend(item);
  line.focus();
  waitForJob(apiOf(context), {
    jobId: job.job_id,
    signal: context.signal,
    onProgress: (progress) => {
      item.dataset.status = progress.status;
      line.textContent = `${job.edit_of?.task ?? 'edit'}: ${progress.status === 'queued' ? 'queued' : `being made, ${progress.progress} %`}`;
    },
  }).then(
    (done) => {
      window.dispatchEvent(new CustomEvent(JOB_ENDED_EVENT, { detail: job.job_id }));
      item.dataset.status = 'completed';
      line.textContent = `${job.edit_of?.task ?? 'edit'}: ready (${done.duration} s), also in your songs`;
      item.append(h('audio', { controls: true, preload: 'none', src: done.audioUrl, 'aria-label': `The ${job.edit_of?.task ?? 'edit'}` }));
      item.append(h('a', { href: '/app/', 'data-link': true }, 'Open my songs'));
    },
    (error: unknown) => {
      if (context.signal.aborted) return;
      window.dispatchEvent(new CustomEvent(JOB_ENDED_EVENT, { detail: job.job_id }));
      item.dataset.status = 'failed';
      line.textContent = `${job.edit_of?.task ?? 'edit'}: ${describeError(error)}`;
    },
  );
}

/** An upload's card: what it is, until when it is kept, its edit panel and its delete button. */
function uploadCard(
  context: AppContext,
  upload: Upload & { audioUrl?: string | null },
  localAudio: string | undefined,
  removed: () => void,
): HTMLLIElement {
  const name = upload.name ?? storedName(upload.uploadId);
  const card = h('li', { class: 'card', 'data-upload-id': upload.uploadId });
  const daysLeft = Math.max(0, Math.ceil((upload.expiresAt.getTime() - Date.now()) / 86_400_000));
  const channels = upload.channels === 1 ? 'mono' : upload.channels === 2 ? 'stereo' : `${upload.channels} channels`;
  const edits = h('ul', { class: 'upload-edits', 'aria-label': 'Edits made here' });
  // Unnamed, it goes by its day in UTC, as the oracle titles its edits ("Upload of 28 Nov 2026 (repainted 4–6 s)": song-edits.ts).
  const title =
    name ??
    `Upload of ${upload.createdAt.toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' })}`;
  const playable = localAudio ?? upload.audioUrl ?? undefined;
  card.append(
    // Focusable by script: a file just uploaded takes the focus from the Upload button.
    h('h3', { tabindex: '-1' }, title),
    // Playable: from the file while it is in this page, else by the owner's one-hour URL the list gave.
    ...(playable === undefined
      ? []
      : [h('audio', { controls: true, preload: 'metadata', src: playable, 'aria-label': `Play ${shortText(title, 40)}` })]),
    facts([
      ['Length', lengthOf(upload.duration)],
      ['File', `${upload.format.toUpperCase()} · ${upload.sampleRate / 1000} kHz ${channels} · ${megabytes(upload.bytes)}`],
      ['Kept until', `${day(upload.expiresAt)} (${daysLeft} ${daysLeft === 1 ? 'day' : 'days'} left)`],
    ]),
    editControls(
      context,
      { job_id: upload.uploadId, prompt: '', edit_of: null },
      // An edit works on the upload's whole seconds.
      { duration: Math.floor(upload.duration + 1e-9), audio_url: localAudio ?? '', edit_of: null },
      (job) => followEdit(context, job, edits),
      { uploadId: upload.uploadId },
    ),
    edits,
  );
  // Delete asks once more, in place (a dialog would hide what is deleted).
  const remove = h('button', { type: 'button', class: 'secondary', 'data-action': true }, 'Delete upload');
  const sure = h('button', { type: 'button', 'data-action': true }, 'Yes, delete it');
  const keep = h('button', { type: 'button', class: 'secondary' }, 'Keep it');
  const question = h(
    'div',
    { class: 'row confirm-delete', hidden: true },
    h('p', {}, 'Delete this upload? Its file goes now; songs already made from it stay.'),
    sure,
    keep,
  );
  remove.addEventListener('click', () => {
    question.hidden = false;
    remove.hidden = true;
    sure.focus();
  });
  keep.addEventListener('click', () => {
    question.hidden = true;
    remove.hidden = false;
    remove.focus();
  });
  sure.addEventListener('click', () => {
    void runAction(sure, 'Deleting…', async () => {
      await deleteUpload(apiOf(context), upload.uploadId, { signal: context.signal });
      announce(`Deleted ${name ?? 'the upload'}.`);
      removed();
      card.remove();
    });
  });
  card.append(h('div', { class: 'row' }, remove), question);
  return card;
}

export function uploadsView(context: AppContext): HTMLElement {
  const view = h('section', { 'aria-labelledby': 'view-title', class: 'view' }, h('h1', { id: 'view-title', tabindex: '-1' }, 'Uploads'));
  if (context.session === undefined) {
    view.append(h('p', {}, 'Connect a wallet to upload audio of your own and extend, repaint or remix it.'), connectPanel(context));
    return view;
  }
  const list = h('ol', { id: 'uploads', class: 'cards', 'aria-label': 'Your uploads', 'aria-busy': 'true' });
  const more = h(
    'button',
    { type: 'button', id: 'more-uploads', class: 'secondary', hidden: true, 'data-action': true },
    'Show older uploads',
  );
  const empty = () => {
    if (list.querySelector('li.card') === null && list.querySelector('.empty') === null)
      list.append(h('li', { class: 'empty' }, 'No uploads yet: upload a file above.'));
  };
  let cursor: string | undefined;
  let resolveStatement: (text: string) => void = () => undefined;
  let rejectStatement: (error: unknown) => void = () => undefined;
  const statement = new Promise<string>((resolve, reject) => {
    resolveStatement = resolve;
    rejectStatement = reject;
  });
  const loadPage = async () => {
    const page = await listUploads(apiOf(context), {
      limit: PAGE_SIZE,
      ...(cursor === undefined ? {} : { cursor }),
      signal: context.signal,
    });
    resolveStatement(page.rightsStatement);
    for (const upload of page.uploads) list.append(uploadCard(context, upload, undefined, empty));
    if (cursor === undefined) empty();
    cursor = page.nextCursor ?? undefined;
    more.hidden = page.nextCursor === null;
    list.setAttribute('aria-busy', 'false');
  };
  const storage = h('p', { id: 'storage-used', class: 'note', 'aria-live': 'polite' });
  const readStorage = () =>
    void getProfile(apiOf(context), { signal: context.signal }).then(
      (profile) => (storage.textContent = storageWords(profile.storage)),
      () => undefined,
    );
  readStorage();
  const added = (upload: Upload, file: File) => {
    readStorage();
    list.querySelector('.empty')?.remove();
    // The file is still in the page: its waveform is drawn from it.
    const card = uploadCard(context, upload, URL.createObjectURL(file), empty);
    list.prepend(card);
    card.querySelector<HTMLElement>('h3')?.focus();
  };
  view.append(
    h(
      'p',
      {},
      'Upload audio of your own to extend, repaint or remix it like a song you made here. Uploads are private, kept 30 days, and yours to delete.',
    ),
    uploadForm(context, statement, added),
    storage,
    h('h2', { id: 'uploads-title' }, 'Your uploads'),
    list,
    more,
  );
  more.addEventListener('click', () => void runAction(more, 'Loading older uploads', loadPage));
  loadPage().catch((error: unknown) => {
    rejectStatement(error);
    if (!context.signal.aborted) showError(error, 'Your uploads could not be loaded: ', list);
  });
  return view;
}
