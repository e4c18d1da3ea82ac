import { SongmintClientError } from '../errors.ts';
import type { components } from '../generated/api.ts';
import type { SongmintApi } from './client.ts';
import { requireSession, unwrap } from './client.ts';

/** A song's lossless masters as its job status lists them. */
export type LosslessFiles = NonNullable<components['schemas']['LosslessFiles']>;
export type LosslessFormat = LosslessFiles['files'][number]['format'];
/** What a song downloads as: its MP3, or a lossless master. */
export type DownloadFormat = components['schemas']['SongDownload']['format'];

export interface DownloadLink {
  jobId: string;
  format: DownloadFormat;
  contentType: string;
  bytes: number;
  /** The name the file is saved under: `<title> - <short id>.<ext>`. */
  fileName: string;
  /** Presigned GET URL of the file; it needs no token, and answers as an attachment named `fileName`. */
  url: string;
  /** When `url` stops working (one hour after it was issued). */
  expiresAt: Date;
}

export interface LosslessDownloadParameters {
  /** `gen_…`: one of the caller's completed songs. */
  jobId: string;
  format: DownloadFormat;
  signal?: AbortSignal;
}

/**
 * A one-hour download URL of one of the caller's songs as MP3, WAV or FLAC (GET
 * /api/generate/{job_id}/download/{format}): the published MP3, or the exact PCM it was encoded
 * from, 24-bit, with the same signed C2PA manifest. Opened in a browser, the URL saves the file as
 * `fileName`. Rejects with NOT_FOUND for another's job, one not completed, a song without lossless
 * files (made before they were kept) or whose audio retention deleted; LIBRARY_002 in the trash.
 * While its lossless files are still being made (seconds after completion): NOT_FOUND with `retryAfter` 2.
 */
export async function getDownloadLink(api: SongmintApi, parameters: LosslessDownloadParameters): Promise<DownloadLink> {
  requireSession(api);
  const { jobId, format, signal } = parameters;
  const link = await unwrap(
    api.http.GET('/api/generate/{job_id}/download/{format}', {
      params: { path: { job_id: jobId, format } },
      ...(signal === undefined ? {} : { signal }),
    }),
    signal,
  );
  return {
    jobId: link.job_id,
    format: link.format,
    contentType: link.content_type,
    bytes: link.bytes,
    fileName: link.file_name,
    url: link.url,
    expiresAt: new Date(link.expires_at),
  };
}

/** The file itself: `getDownloadLink`, then its bytes (checked against the size the API stated). */
export async function downloadSong(api: SongmintApi, parameters: LosslessDownloadParameters): Promise<Uint8Array> {
  const link = await getDownloadLink(api, parameters);
  let response: Response;
  try {
    response = await api.fetch(new Request(link.url, parameters.signal === undefined ? {} : { signal: parameters.signal }));
  } catch (error) {
    throw new SongmintClientError('NETWORK_ERROR', `download of ${link.format} failed`, { cause: error });
  }
  if (!response.ok) throw new SongmintClientError('UNEXPECTED_RESPONSE', `download of ${link.format} answered ${response.status}`);
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (bytes.length !== link.bytes) {
    throw new SongmintClientError('UNEXPECTED_RESPONSE', `downloaded ${bytes.length} bytes of ${link.format}, expected ${link.bytes}`);
  }
  return bytes;
}
