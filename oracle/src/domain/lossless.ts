/**
 * A song's lossless masters (docs/api.md, "Lossless downloads"): the WAV and FLAC a worker stores
 * privately beside the MP3 (`losslessObjectKey`), of the same PCM, with the same content
 * credentials, made after the song completed (`pending` until then). The job status lists them;
 * only the owner gets a download (./downloads.ts), as a presigned GET URL valid one hour (the
 * path private objects take, as previews do). The MP3 stays the file that is hashed, signed for
 * minting and pinned.
 */
import { LOSSLESS_CONTENT_TYPES, LOSSLESS_FORMATS } from '../../../core/src/generation-queue.ts';
import type { LosslessFormat } from '../../../core/src/generation-queue.ts';
import type { LosslessColumn } from '../../../core/src/jobs/job-state.ts';
import { downloadPath } from './download-name.ts';

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
