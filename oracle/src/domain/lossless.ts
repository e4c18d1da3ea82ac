/**
 * A song's lossless masters (docs/api.md, "Lossless downloads"): the WAV and FLAC a worker stores
 * privately beside the MP3 (`losslessObjectKey`), of the same PCM, with the same content
 * credentials. The job status lists them; only the owner gets a download (./downloads.ts), as a
 * presigned GET URL valid one hour (the path private objects take, as previews do). The MP3 stays
 * the file that is hashed, signed for minting and pinned.
 */
import { LOSSLESS_CONTENT_TYPES, LOSSLESS_FORMATS } from '../../../core/src/generation-queue.ts';
import type { LosslessFormat } from '../../../core/src/generation-queue.ts';
import type { LosslessRecord } from '../../../core/src/jobs/job-state.ts';
import { downloadPath } from './download-name.ts';

export interface LosslessFileView {
  format: LosslessFormat;
  content_type: string;
  bytes: number;
  /** The API path that issues the file's download URL. */
  download: string;
}

/** The `lossless` field of a completed job's status. */
export interface LosslessView {
  sample_rate: number;
  bits_per_sample: number;
  channels: number;
  files: LosslessFileView[];
}

/** The status field for a song's stored masters; null when it has none (made before, or deleted by retention). */
export function losslessView(publicId: string, record: LosslessRecord | null): LosslessView | null {
  if (record === null) return null;
  return {
    sample_rate: record.sample_rate,
    bits_per_sample: record.bits_per_sample,
    channels: record.channels,
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
  sampleRate: number;
  bitsPerSample: number;
  channels: number;
  files: { format: LosslessFormat; contentType: string; bytes: number; download: string }[];
}

export function losslessVariantB(view: LosslessView | null): LosslessViewVariantB | null {
  if (view === null) return null;
  return {
    sampleRate: view.sample_rate,
    bitsPerSample: view.bits_per_sample,
    channels: view.channels,
    files: view.files.map((file) => ({ format: file.format, contentType: file.content_type, bytes: file.bytes, download: file.download })),
  };
}
