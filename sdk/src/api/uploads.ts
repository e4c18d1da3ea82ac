import { SongmintClientError } from '../errors.ts';
import type { components } from '../generated/api.ts';
import type { SongmintApi } from './client.ts';
import { requireSession, unwrap } from './client.ts';

export type UploadFormat = components['schemas']['Upload']['format'];

/** Audio the signed-in user uploaded, as the API took it. */
export interface Upload {
  /** `upl_…`: pass it to `editSong` as `sourceUploadId`. */
  uploadId: string;
  format: UploadFormat;
  /** Seconds, as decoded; an edit works on its whole seconds. */
  duration: number;
  sampleRate: number;
  channels: number;
  bytes: number;
  /** `0x` + SHA-256 of the file: the edits' content credentials name it. */
  sha256: string;
  rightsConfirmedAt: Date;
  createdAt: Date;
  /** When retention deletes it. */
  expiresAt: Date;
}

export interface UploadAudioParameters {
  /**
   * You confirm that you own this audio or hold a licence to upload it and have it edited with
   * AI (the statement docs/api.md "Upload audio" quotes); the upload records it. Required.
   */
  rightsConfirmed: true;
  signal?: AbortSignal;
}

/**
 * Uploads a WAV, FLAC or MP3 of the signed-in user's own (POST /api/uploads) so that `editSong`
 * can extend, repaint or remix it. Refusals reject with `SongmintApiError`: UPLOAD_001 not a
 * supported audio file, UPLOAD_002 it does not decode, UPLOAD_003 empty or shorter than 1 s,
 * GEN_004 longer than the tier allows, PAYLOAD_TOO_LARGE above the byte limit.
 */
export async function uploadAudio(api: SongmintApi, bytes: Uint8Array, parameters: UploadAudioParameters): Promise<Upload> {
  requireSession(api);
  if (parameters.rightsConfirmed !== true) {
    throw new SongmintClientError('INVALID_ARGUMENT', 'uploadAudio needs rightsConfirmed: true (you hold the rights to the audio)');
  }
  const { signal } = parameters;
  const upload = await unwrap(
    api.http.POST('/api/uploads', {
      params: { header: { 'Songmint-Rights-Confirmed': 'true' } },
      headers: { 'content-type': 'application/octet-stream' },
      // The file goes as it is: the document types a binary body as a string.
      body: '',
      bodySerializer: () => bytes,
      ...(signal === undefined ? {} : { signal }),
    }),
    signal,
  );
  return {
    uploadId: upload.upload_id,
    format: upload.format,
    duration: upload.duration,
    sampleRate: upload.sample_rate,
    channels: upload.channels,
    bytes: upload.bytes,
    sha256: upload.sha256,
    rightsConfirmedAt: new Date(upload.rights_confirmed_at),
    createdAt: new Date(upload.created_at),
    expiresAt: new Date(upload.expires_at),
  };
}
