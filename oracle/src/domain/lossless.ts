/**
 * A song's lossless masters (docs/api.md, "Lossless downloads"): the WAV and FLAC a worker stores
 * privately beside the MP3 (`losslessObjectKey`), of the same PCM, with the same content
 * credentials, made after the song completed (`pending` until then). The job status lists them;
 * only the owner gets a download, as a presigned GET URL valid one hour (the path private objects
 * take, as previews do). The MP3 stays the file that is hashed, signed for minting and pinned.
 */
import { LOSSLESS_CONTENT_TYPES, LOSSLESS_FORMATS, losslessObjectKey, toPublicJobId } from '../../../core/src/generation-queue.ts';
import type { LosslessFormat } from '../../../core/src/generation-queue.ts';
import { JOB_STATUS } from '../../../core/src/jobs/job-state.ts';
import type { JobStatus, LosslessColumn } from '../../../core/src/jobs/job-state.ts';
import type { ObjectStore } from '../../../core/src/object-store.ts';
import { appError, fail, ok } from './errors.ts';
import type { Result } from './errors.ts';

/** Lifetime of a download URL, as a preview's. */
export const DOWNLOAD_URL_SECONDS = 3600;

export interface LosslessFileView {
  format: LosslessFormat;
  content_type: string;
  bytes: number;
  /** The API path that issues the file's download URL. */
  download: string;
}

/** How long a client waits before asking again for masters being made (they take seconds). */
export const LOSSLESS_PENDING_RETRY_SECONDS = 2;

/** The `lossless` field of a completed job's status. */
export interface LosslessView {
  /** `pending` from completion until the files are stored (no files listed yet), then `ready`. */
  status: 'pending' | 'ready';
  sample_rate: number;
  bits_per_sample: number;
  channels: number;
  files: LosslessFileView[];
}

/** The API path of a song's download in `format`. */
export function downloadPath(publicId: string, format: LosslessFormat): string {
  return `/api/generate/${publicId}/download/${format}`;
}

/**
 * The status field for a song's masters: pending (being made after completion) or stored; null
 * when it has none (made before, deleted by retention, or given up on).
 */
export function losslessView(publicId: string, record: LosslessColumn | null): LosslessView | null {
  if (record === null) return null;
  const shape = { sample_rate: record.sample_rate, bits_per_sample: record.bits_per_sample, channels: record.channels };
  if ('pending' in record) return { status: 'pending', ...shape, files: [] };
  return {
    status: 'ready',
    ...shape,
    files: LOSSLESS_FORMATS.map((format) => ({
      format,
      content_type: LOSSLESS_CONTENT_TYPES[format],
      bytes: format === 'wav' ? record.wav_bytes : record.flac_bytes,
      download: downloadPath(publicId, format),
    })),
  };
}

/** Variant B's casing of `LosslessView` (its generate answer). */
export interface LosslessViewVariantB {
  status: 'pending' | 'ready';
  sampleRate: number;
  bitsPerSample: number;
  channels: number;
  files: { format: LosslessFormat; contentType: string; bytes: number; download: string }[];
}

export function losslessVariantB(view: LosslessView | null): LosslessViewVariantB | null {
  if (view === null) return null;
  return {
    status: view.status,
    sampleRate: view.sample_rate,
    bitsPerSample: view.bits_per_sample,
    channels: view.channels,
    files: view.files.map((file) => ({ format: file.format, contentType: file.content_type, bytes: file.bytes, download: file.download })),
  };
}

/** What a download reads of the owner's job (as `ownJobLookup` found it). */
export interface DownloadableJob {
  id: string;
  status: JobStatus;
  lossless: LosslessColumn | null;
}

export interface DownloadLink {
  job_id: string;
  format: LosslessFormat;
  content_type: string;
  bytes: number;
  url: string;
  expires_at: string;
}

/**
 * A one-hour URL of the owner's song in `format` (`job` as the owner-only lookup found it). A job
 * not completed, or whose masters are gone or never existed, answers NOT_FOUND naming which.
 */
export async function losslessDownload(
  store: Pick<ObjectStore, 'presignedGetUrl'>,
  job: DownloadableJob,
  format: LosslessFormat,
  now: Date,
): Promise<Result<DownloadLink>> {
  const jobId = toPublicJobId(job.id);
  if (job.status !== JOB_STATUS.completed) {
    return fail(
      appError('NOT_FOUND', 'No lossless file yet', { details: `The job is ${job.status}; its files exist once it completed.`, jobId }),
    );
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
  // The expiry is taken before signing, so the URL never outlives what the caller is told.
  const expiresAt = new Date(now.getTime() + DOWNLOAD_URL_SECONDS * 1000);
  const url = await store.presignedGetUrl(losslessObjectKey(job.id, format), DOWNLOAD_URL_SECONDS);
  if (!url.ok) {
    return fail(appError('SERVICE_UNAVAILABLE', 'Object storage unavailable', { details: url.error.message, retryAfter: 5, jobId }));
  }
  return ok({
    job_id: jobId,
    format,
    content_type: LOSSLESS_CONTENT_TYPES[format],
    bytes: format === 'wav' ? stored.wav_bytes : stored.flac_bytes,
    url: url.value,
    expires_at: expiresAt.toISOString(),
  });
}
