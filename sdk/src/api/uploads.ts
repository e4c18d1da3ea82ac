import { apiErrorFromBody, SongmintClientError } from '../errors.ts';
import type { components } from '../generated/api.ts';
import { abortedError } from './abort.ts';
import type { SongmintApi } from './client.ts';
import { requireSession, unwrap } from './client.ts';

type UploadBody = components['schemas']['Upload'];

/** The part of the browser's XMLHttpRequest an upload with progress uses (typed here: the SDK also runs without the DOM). */
interface ProgressRequest {
  open(method: string, url: string): void;
  setRequestHeader(name: string, value: string): void;
  getResponseHeader(name: string): string | null;
  send(body: ArrayBuffer): void;
  abort(): void;
  readonly status: number;
  readonly responseText: string;
  readonly upload: { onprogress: ((event: { loaded: number; total: number; lengthComputable: boolean }) => void) | null };
  onload: (() => void) | null;
  onerror: (() => void) | null;
  onabort: (() => void) | null;
}

/** The browser's XMLHttpRequest where there is one. */
function progressRequestClass(): (new () => ProgressRequest) | undefined {
  const candidate = (globalThis as { XMLHttpRequest?: unknown }).XMLHttpRequest;
  return typeof candidate === 'function' ? (candidate as new () => ProgressRequest) : undefined;
}

export type UploadFormat = components['schemas']['Upload']['format'];

/** Audio the signed-in user uploaded, as the API took it. */
export interface Upload {
  /** `upl_…`: pass it to `editSong` as `sourceUploadId`. */
  uploadId: string;
  /** The name it was uploaded with (`UploadAudioParameters.name`): its edits are titled after it. Null when none was given. */
  name: string | null;
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
  /** The file's name (at most 200 characters), kept with the upload: its edits are titled after it. */
  name?: string;
  /**
   * Called as the file goes out (`sent` of `total` bytes): in a browser, as XMLHttpRequest reports
   * the upload; elsewhere (no XMLHttpRequest) once, when the answer came.
   */
  onProgress?: (sent: number, total: number) => void;
  signal?: AbortSignal;
}

/**
 * Uploads a WAV, FLAC or MP3 of the signed-in user's own (POST /api/uploads) so that `editSong`
 * can extend, repaint or remix it. Refusals reject with `SongmintApiError`: UPLOAD_001 not a
 * supported audio file (a free-format MP3 included), UPLOAD_002 it does not decode, UPLOAD_003
 * empty or shorter than 1 s, GEN_004 longer than the tier allows, UPLOAD_006 too many uploads in
 * flight (retry after `retryAfter`), UPLOAD_007 it took longer than the decode budget (charged),
 * BODY_TOO_SLOW the body fell behind the minimum rate, PAYLOAD_TOO_LARGE above the byte limit.
 * Aborting `signal` closes the connection, which cancels the upload's decode on the server.
 */
export async function uploadAudio(api: SongmintApi, bytes: Uint8Array, parameters: UploadAudioParameters): Promise<Upload> {
  requireSession(api);
  if (parameters.rightsConfirmed !== true) {
    throw new SongmintClientError('INVALID_ARGUMENT', 'uploadAudio needs rightsConfirmed: true (you hold the rights to the audio)');
  }
  const { signal, onProgress } = parameters;
  // Any characters, as one header's ASCII: the server decodes it.
  const name = parameters.name === undefined || parameters.name.trim() === '' ? undefined : encodeURIComponent(parameters.name);
  const ProgressXhr = onProgress === undefined ? undefined : progressRequestClass();
  const upload =
    onProgress !== undefined && ProgressXhr !== undefined
      ? await uploadWithProgress(new ProgressXhr(), api, bytes, onProgress, signal, name)
      : await unwrap(
          api.http.POST('/api/uploads', {
            params: { header: { 'Songmint-Rights-Confirmed': 'true', ...(name === undefined ? {} : { 'Songmint-Upload-Name': name }) } },
            headers: { 'content-type': 'application/octet-stream' },
            // The file goes as it is: the document types a binary body as a string.
            body: '',
            bodySerializer: () => bytes,
            ...(signal === undefined ? {} : { signal }),
          }),
          signal,
        );
  onProgress?.(bytes.length, bytes.length);
  return toUpload(upload);
}

/** POST /api/uploads through XMLHttpRequest, the browser API that reports an upload's progress. */
function uploadWithProgress(
  xhr: ProgressRequest,
  api: SongmintApi,
  bytes: Uint8Array,
  onProgress: (sent: number, total: number) => void,
  signal: AbortSignal | undefined,
  name: string | undefined,
): Promise<UploadBody> {
  return new Promise((resolve, reject) => {
    xhr.open('POST', `${api.baseUrl}/api/uploads`);
    xhr.setRequestHeader('authorization', `Bearer ${api.token ?? ''}`);
    xhr.setRequestHeader('content-type', 'application/octet-stream');
    xhr.setRequestHeader('Songmint-Rights-Confirmed', 'true');
    if (name !== undefined) xhr.setRequestHeader('Songmint-Upload-Name', name);
    xhr.upload.onprogress = (event) => onProgress(event.loaded, event.lengthComputable ? event.total : bytes.length);
    const onAbort = (): void => xhr.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    const settle = (): void => signal?.removeEventListener('abort', onAbort);
    xhr.onload = () => {
      settle();
      let body: unknown;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = undefined;
      }
      if (xhr.status >= 200 && xhr.status < 300 && body !== undefined) resolve(body as UploadBody);
      else reject(apiErrorFromBody(xhr.status, body, xhr.getResponseHeader('retry-after')));
    };
    xhr.onerror = () => {
      settle();
      reject(new SongmintClientError('NETWORK_ERROR', 'the upload got no answer'));
    };
    xhr.onabort = () => {
      settle();
      reject(abortedError(signal?.reason));
    };
    // A copy the request owns (a view may be over a larger buffer).
    xhr.send(bytes.slice().buffer);
  });
}

function toUpload(upload: UploadBody): Upload {
  return {
    uploadId: upload.upload_id,
    name: upload.name,
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

/** An upload as `listUploads` lists it: with a fresh URL its owner plays it by. */
export interface ListedUpload extends Upload {
  /** Presigned GET URL of the file as uploaded, valid one hour (the file is private); null when the server could not sign one. */
  audioUrl: string | null;
}

/** One page of the signed-in user's uploads, newest first, and the rights statement an upload confirms. */
export interface UploadPage {
  uploads: ListedUpload[];
  /** Pass as `cursor` for the next page; null on the last page. */
  nextCursor: string | null;
  /** The statement `uploadAudio`'s `rightsConfirmed` confirms, versioned (it starts with its version): show it in full. */
  rightsStatement: string;
}

export interface ListUploadsParameters {
  cursor?: string;
  /** 1 to 100 (default 20). */
  limit?: number;
  signal?: AbortSignal;
}

/** The signed-in user's live uploads (GET /api/uploads): not deleted, not expired, newest first. */
export async function listUploads(api: SongmintApi, parameters: ListUploadsParameters = {}): Promise<UploadPage> {
  requireSession(api);
  const { cursor, limit, signal } = parameters;
  const query = { ...(cursor === undefined ? {} : { cursor }), ...(limit === undefined ? {} : { limit }) };
  const page = await unwrap(api.http.GET('/api/uploads', { params: { query }, ...(signal === undefined ? {} : { signal }) }), signal);
  return {
    uploads: page.uploads.map((upload) => ({ ...toUpload(upload), audioUrl: upload.audio_url })),
    nextCursor: page.next_cursor,
    rightsStatement: page.rights_statement,
  };
}

/**
 * Deletes one of the signed-in user's uploads and its stored file (DELETE /api/uploads/{id}).
 * Edits already made from it stay. Rejects with NOT_FOUND (not an upload of yours, or already
 * deleted or expired) and CONFLICT while an edit of it is queued or running.
 */
export async function deleteUpload(api: SongmintApi, uploadId: string, parameters: { signal?: AbortSignal } = {}): Promise<void> {
  requireSession(api);
  const { signal } = parameters;
  await unwrap(
    api.http.DELETE('/api/uploads/{upload_id}', { params: { path: { upload_id: uploadId } }, ...(signal === undefined ? {} : { signal }) }),
    signal,
  );
}
