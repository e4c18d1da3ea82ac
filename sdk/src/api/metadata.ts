import type { Hex } from 'viem';
import { SongmintClientError } from '../errors.ts';
import type { SongmintApi } from './client.ts';
import { requireSession, unwrap } from './client.ts';

export type CoverImage =
  /** A `data:image/...;base64,` URI. */
  | string
  /** Image bytes (PNG, JPEG, WebP or GIF, at most 5 MB). */
  | { bytes: Uint8Array; mimeType: 'image/png' | 'image/jpeg' | 'image/webp' | 'image/gif' };

export interface UploadMetadataParameters {
  name: string;
  description?: string;
  /** The job's `audioUrl`: links the job, whose audio hash goes into the metadata. */
  audioUrl: string;
  cover?: CoverImage;
  attributes?: { genre?: string; mood?: string; duration?: number; bpm?: number };
  externalUrl?: string;
  /** Sent as the `Idempotency-Key` header: a retry with the same key publishes once and answers the same. */
  idempotencyKey?: string;
  signal?: AbortSignal;
}

export interface UploadedMetadata {
  /** `ipfs://<cid>`: what the token will carry. */
  metadataUri: string;
  /** 0x + SHA-256 of the JSON bytes behind the CID. */
  metadataHash: Hex;
  cid: string;
  jobId?: string;
  /** `ipfs://` URI of the cover. */
  image?: string;
}

/** Publishes the song's ERC-721 metadata JSON (and cover) to IPFS (POST /api/metadata). */
export async function uploadMetadata(api: SongmintApi, parameters: UploadMetadataParameters): Promise<UploadedMetadata> {
  requireSession(api);
  const { name, description, audioUrl, cover, attributes, externalUrl, idempotencyKey, signal } = parameters;
  const body = {
    name,
    audio_url: audioUrl,
    description: description ?? '',
    ...(cover === undefined ? {} : { cover_image: coverDataUri(cover) }),
    ...(attributes === undefined ? {} : { attributes }),
    ...(externalUrl === undefined ? {} : { external_url: externalUrl }),
  };
  const published = await unwrap(
    api.http.POST('/api/metadata', {
      body,
      ...(idempotencyKey === undefined ? {} : { headers: { 'Idempotency-Key': idempotencyKey } }),
      ...(signal === undefined ? {} : { signal }),
    }),
    signal,
  );
  if (!('metadata_uri' in published))
    throw new SongmintClientError('UNEXPECTED_RESPONSE', `POST /api/metadata answered ${JSON.stringify(published)}`);
  return {
    metadataUri: published.metadata_uri,
    metadataHash: published.metadata_hash as Hex,
    cid: published.cid,
    ...(published.job_id === undefined ? {} : { jobId: published.job_id }),
    ...(published.image === undefined ? {} : { image: published.image }),
  };
}

/** A data URI for `cover` (base64 in browsers and Node alike). */
export function coverDataUri(cover: CoverImage): string {
  if (typeof cover === 'string') return cover;
  let binary = '';
  const CHUNK = 0x8000;
  for (let index = 0; index < cover.bytes.length; index += CHUNK)
    binary += String.fromCharCode(...cover.bytes.subarray(index, index + CHUNK));
  return `data:${cover.mimeType};base64,${btoa(binary)}`;
}
