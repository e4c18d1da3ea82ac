import { getDownloadLink } from '@songmint/sdk';
import type { DownloadFormat, JobStatus, LosslessFiles, SongmintApi } from '@songmint/sdk';
import { announce, messagesNear, runAction } from '../actions.ts';
import type { AppContext } from '../context.ts';
import { h } from '../dom.ts';

/** Where a song's files are known: a completed job of the caller's, or a minted song's MP3 URL. */
export type DownloadSource = { jobId: string; lossless: LosslessFiles | null } | { audioUrl: unknown };

/** How long "Saving …" stays next to its button: the browser's own download list says the rest. */
const SAVING_SHOWN_MS = 8000;

const megabytes = (bytes: number) => `${(bytes / 1_048_576).toLocaleString('en-US', { maximumFractionDigits: 1 })} MB`;

/** The job id in a published MP3's URL (`…/audio/gen_<uuid>.mp3`). */
function jobIdOfAudioUrl(audioUrl: unknown): string | undefined {
  return typeof audioUrl === 'string' ? /\/audio\/(gen_[0-9a-f-]{36})\.mp3$/.exec(audioUrl)?.[1] : undefined;
}

/**
 * Hands the browser a URL whose answer is an attachment (`Content-Disposition: attachment`, set by
 * the presigned URL): it saves the file under the song's name and the page stays where it is.
 * (An `<a download>` would be ignored: the file is on the storage's origin, not this page's.)
 */
function save(url: string): void {
  h('a', { href: url, rel: 'noopener' }).click();
}

/** A button whose name holds what it shows (WCAG 2.5.3), then the detail. */
function button(api: SongmintApi, jobId: string, format: DownloadFormat, label: string, detail: string): HTMLButtonElement {
  const control = h(
    'button',
    { type: 'button', class: 'secondary', 'data-format': format, 'data-action': true, 'aria-label': `Download ${label} (${detail})` },
    label,
  );
  control.addEventListener('click', () => {
    void runAction(control, `Preparing the ${format.toUpperCase()} file…`, async () => {
      const link = await getDownloadLink(api, { jobId, format });
      save(link.url);
      const saying = `Saving “${link.fileName}” to your downloads.`;
      announce(saying);
      // What was said is true for a moment: the browser's download list takes over.
      const { status } = messagesNear(control);
      window.setTimeout(() => {
        if (status.textContent === saying) status.textContent = '';
      }, SAVING_SHOWN_MS);
    });
  });
  return control;
}

/** How often a page asks again for lossless files still being made (they follow completion by seconds). */
const PENDING_POLL_MS = 2000;

/** The WAV and FLAC buttons of stored masters (none while they are being made). */
function losslessButtons(api: SongmintApi, jobId: string, lossless: LosslessFiles | null): HTMLButtonElement[] {
  return (
    lossless?.files.map((file) =>
      button(
        api,
        jobId,
        file.format,
        `${file.format.toUpperCase()} · ${megabytes(file.bytes)}`,
        `lossless, ${lossless.bits_per_sample}-bit, ${lossless.sample_rate / 1000} kHz`,
      ),
    ) ?? []
  );
}

/**
 * Masters made in the seconds after completion: `note` says so until the job's status lists them,
 * then gives its place to their buttons (the MP3's, maybe in use, stays as it is).
 */
function followPendingMasters(api: SongmintApi, jobId: string, note: HTMLElement, signal?: AbortSignal): void {
  setTimeout(() => {
    if (signal?.aborted === true || !note.isConnected) return;
    void api.http
      .GET('/api/generate/{job_id}', { params: { path: { job_id: jobId } }, ...(signal === undefined ? {} : { signal }) })
      .then(({ data }: { data?: JobStatus }) => {
        if (data?.status !== 'completed' || data.lossless === null) note.remove();
        else if (data.lossless.status === 'pending') followPendingMasters(api, jobId, note, signal);
        else note.replaceWith(...losslessButtons(api, jobId, data.lossless));
      })
      .catch(() => undefined);
  }, PENDING_POLL_MS);
}

function buttons(api: SongmintApi, jobId: string, lossless: LosslessFiles | null, box: HTMLElement, signal?: AbortSignal): void {
  const note = lossless?.status === 'pending' ? h('span', { class: 'note' }, 'WAV and FLAC: being made…') : undefined;
  box.replaceChildren(
    h('span', { class: 'downloads-label', 'aria-hidden': 'true' }, 'Download'),
    button(api, jobId, 'mp3', 'MP3', '320 kbps'),
    ...(note === undefined ? losslessButtons(api, jobId, lossless) : [note]),
  );
  if (note !== undefined) followPendingMasters(api, jobId, note, signal);
}

/**
 * Download buttons for a song's MP3, WAV and FLAC, for its owner only (the API answers no one
 * else), each saving `<title> - <short id>.<ext>`: from a completed job's status, or, on a song
 * page, by the job its MP3 URL names.
 */
export function downloadLinks(context: AppContext, source: DownloadSource): HTMLElement {
  const box = h('div', { class: 'downloads row inline', role: 'group', 'aria-label': 'Download the song' });
  const api = context.session?.api;
  if (api === undefined) return box;
  if ('jobId' in source) {
    buttons(api, source.jobId, source.lossless, box, context.signal);
    return box;
  }
  const jobId = jobIdOfAudioUrl(source.audioUrl);
  if (jobId === undefined) return box;
  void api.http
    .GET('/api/generate/{job_id}', { params: { path: { job_id: jobId } }, signal: context.signal })
    .then(({ data }: { data?: JobStatus }) => {
      if (data?.status === 'completed') buttons(api, jobId, data.lossless, box, context.signal);
    })
    .catch(() => undefined);
  return box;
}
