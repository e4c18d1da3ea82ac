/**
 * A song's downloads (docs/api.md "Downloads"): its MP3 (the published file), and its lossless
 * WAV and FLAC (./lossless.ts), for its owner, as a presigned GET URL valid one hour whose answer
 * carries `Content-Disposition: attachment` with the song's file name (./download-name.ts), so a
 * browser saves `<title> - <short id>.<ext>` instead of playing it in the tab.
 *
 * Refusals: NOT_FOUND for a job not completed, a song whose lossless files are still being made
 * (they follow the completion by seconds: `retry_after`), one without lossless files (made before
 * they were kept, or not made) or whose audio retention deleted; LIBRARY_002 for a song in the trash.
 */
import { LOSSLESS_CONTENT_TYPES, audioObjectKey, losslessObjectKey, toPublicJobId } from '../../../core/src/generation-queue.ts';
import { JOB_STATUS } from '../../../core/src/jobs/job-state.ts';
import type { JobStatus, LosslessColumn } from '../../../core/src/jobs/job-state.ts';
import type { ObjectStore } from '../../../core/src/object-store.ts';
import { attachmentDisposition, downloadFileName } from './download-name.ts';
import type { DownloadFormat } from './download-name.ts';

export { DOWNLOAD_FORMATS } from './download-name.ts';
export type { DownloadFormat } from './download-name.ts';
import { appError, fail, ok } from './errors.ts';
import type { Result } from './errors.ts';
import { trashedRefusal } from './library.ts';
import { LOSSLESS_PENDING_RETRY_SECONDS } from './lossless.ts';
import { songTitle } from './song-title.ts';

/** Lifetime of a download URL, as a preview's. */
export const DOWNLOAD_URL_SECONDS = 3600;

const CONTENT_TYPES: Readonly<Record<DownloadFormat, string>> = { mp3: 'audio/mpeg', ...LOSSLESS_CONTENT_TYPES };

/** What a download reads of the owner's job (as `ownJobLookup` found it). */
export interface DownloadableJob {
  id: string;
  status: JobStatus;
  prompt: string;
  title: string | null;
  mintedName: string | null;
  deletedAt: Date | null;
  purged: boolean;
  lossless: LosslessColumn | null;
}

export interface DownloadLink {
  job_id: string;
  format: DownloadFormat;
  content_type: string;
  bytes: number;
  /** The name the file is saved under. */
  file_name: string;
  url: string;
  expires_at: string;
}

const storageDown = (message: string, jobId: string) =>
  appError('SERVICE_UNAVAILABLE', 'Object storage unavailable', { details: message, retryAfter: 5, jobId });

/** The object and size of `format`, or why there is none. */
async function fileOf(
  store: Pick<ObjectStore, 'head'>,
  job: DownloadableJob,
  format: DownloadFormat,
  jobId: string,
): Promise<Result<{ key: string; bytes: number }>> {
  if (format === 'mp3') {
    const key = audioObjectKey(job.id);
    const head = await store.head(key);
    if (head.ok) return ok({ key, bytes: head.value.size });
    if (head.error.code === 'not_found') {
      return fail(appError('NOT_FOUND', 'No MP3', { details: 'Retention deleted the audio of this song.', jobId }));
    }
    return fail(storageDown(head.error.message, jobId));
  }
  if (job.lossless === null) {
    return fail(
      appError('NOT_FOUND', 'No lossless file', {
        details: 'This song has no lossless files: it was made before they were kept, or retention deleted its audio.',
        jobId,
      }),
    );
  }
  if ('pending' in job.lossless) {
    return fail(
      appError('NOT_FOUND', 'The lossless files are being made', {
        details: "A song's WAV and FLAC are made in the seconds after it completed; ask again shortly.",
        retryAfter: LOSSLESS_PENDING_RETRY_SECONDS,
        jobId,
      }),
    );
  }
  const stored = job.lossless;
  return ok({ key: losslessObjectKey(job.id, format), bytes: format === 'wav' ? stored.wav_bytes : stored.flac_bytes });
}

/**
 * A one-hour URL of the owner's song in `format` (`job` as the owner-only lookup found it), saved
 * under the song's name.
 */
export async function songDownload(
  store: Pick<ObjectStore, 'presignedGetUrl' | 'head'>,
  job: DownloadableJob,
  format: DownloadFormat,
  now: Date,
): Promise<Result<DownloadLink>> {
  const jobId = toPublicJobId(job.id);
  if (job.deletedAt !== null) return fail(trashedRefusal(jobId));
  if (job.status !== JOB_STATUS.completed) {
    return fail(appError('NOT_FOUND', 'No file yet', { details: `The job is ${job.status}; its files exist once it completed.`, jobId }));
  }
  if (job.purged) {
    return fail(appError('NOT_FOUND', 'No file', { details: 'Retention deleted the audio of this song.', jobId }));
  }
  const file = await fileOf(store, job, format, jobId);
  if (!file.ok) return file;
  const fileName = downloadFileName(songTitle({ mintedName: job.mintedName, title: job.title, prompt: job.prompt }), jobId, format);
  // The expiry is taken before signing, so the URL never outlives what the caller is told.
  const expiresAt = new Date(now.getTime() + DOWNLOAD_URL_SECONDS * 1000);
  const url = await store.presignedGetUrl(file.value.key, DOWNLOAD_URL_SECONDS, { contentDisposition: attachmentDisposition(fileName) });
  if (!url.ok) return fail(storageDown(url.error.message, jobId));
  return ok({
    job_id: jobId,
    format,
    content_type: CONTENT_TYPES[format],
    bytes: file.value.bytes,
    file_name: fileName,
    url: url.value,
    expires_at: expiresAt.toISOString(),
  });
}
