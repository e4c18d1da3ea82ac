import { getDownloadLink } from '@songmint/sdk';
import type { JobStatus, LosslessFiles, SongmintApi } from '@songmint/sdk';
import { announce, runAction } from '../actions.ts';
import type { AppContext } from '../context.ts';
import { h } from '../dom.ts';

/** Where the masters of a song are known: a completed job of the caller's, or a minted song's MP3 URL. */
export type DownloadSource = { jobId: string; lossless: LosslessFiles | null } | { audioUrl: unknown };

const megabytes = (bytes: number) => `${(bytes / 1_048_576).toLocaleString('en-US', { maximumFractionDigits: 1 })} MB`;

/** The job id in a published MP3's URL (`…/audio/gen_<uuid>.mp3`). */
function jobIdOfAudioUrl(audioUrl: unknown): string | undefined {
  return typeof audioUrl === 'string' ? /\/audio\/(gen_[0-9a-f-]{36})\.mp3$/.exec(audioUrl)?.[1] : undefined;
}

/** How often a page asks again for masters still being made (they follow completion by seconds). */
const PENDING_POLL_MS = 2000;

function buttons(api: SongmintApi, jobId: string, lossless: LosslessFiles, box: HTMLElement, signal?: AbortSignal): void {
  if (lossless.status === 'pending') {
    // Made in the seconds after completion: say so, and show the buttons once they are stored.
    box.replaceChildren(h('span', { class: 'muted' }, 'Lossless WAV and FLAC: being made…'));
    setTimeout(() => {
      if (signal?.aborted === true || !box.isConnected) return;
      void api.http
        .GET('/api/generate/{job_id}', { params: { path: { job_id: jobId } }, ...(signal === undefined ? {} : { signal }) })
        .then(({ data }: { data?: JobStatus }) => {
          if (data?.status !== 'completed' || data.lossless === null) box.replaceChildren();
          else buttons(api, jobId, data.lossless, box, signal);
        })
        .catch(() => undefined);
    }, PENDING_POLL_MS);
    return;
  }
  box.replaceChildren(
    h('span', {}, `Lossless (${lossless.bits_per_sample}-bit, ${lossless.sample_rate / 1000} kHz): `),
    ...lossless.files.map((file) => {
      const button = h(
        'button',
        { type: 'button', class: 'secondary', 'data-format': file.format, 'data-action': true },
        `${file.format.toUpperCase()} · ${megabytes(file.bytes)}`,
      );
      button.addEventListener('click', () => {
        void runAction(button, `Preparing the ${file.format.toUpperCase()} download…`, async () => {
          const link = await getDownloadLink(api, { jobId, format: file.format });
          // The URL is presigned for one hour: the browser fetches the private file itself.
          const anchor = h('a', { href: link.url, download: `${jobId}.${file.format}` });
          anchor.click();
          announce(`Downloading ${file.format.toUpperCase()}.`);
        });
      });
      return button;
    }),
  );
}

/**
 * Download buttons for a song's lossless WAV and FLAC, for its owner only (the API answers no one
 * else): from a completed job's status, or, on a song page, by the job its MP3 URL names.
 */
export function downloadLinks(context: AppContext, source: DownloadSource): HTMLElement {
  const box = h('div', { class: 'downloads row inline' });
  const api = context.session?.api;
  if (api === undefined) return box;
  if ('jobId' in source) {
    if (source.lossless !== null) buttons(api, source.jobId, source.lossless, box, context.signal);
    return box;
  }
  const jobId = jobIdOfAudioUrl(source.audioUrl);
  if (jobId === undefined) return box;
  void api.http
    .GET('/api/generate/{job_id}', { params: { path: { job_id: jobId } }, signal: context.signal })
    .then(({ data }: { data?: JobStatus }) => {
      if (data?.status === 'completed' && data.lossless !== null) buttons(api, jobId, data.lossless, box, context.signal);
    })
    .catch(() => undefined);
  return box;
}
