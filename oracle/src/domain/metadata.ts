/**
 * Song metadata upload (spec: POST /api/metadata): the cover goes to object storage and IPFS, the
 * ERC-721 metadata JSON is serialized canonically, added to IPFS under the pinned CID profile,
 * optionally pinned remotely, and recorded. `metadata_hash` is the sha256 of exactly the bytes
 * the CID addresses, so anyone can check one against the other.
 */
import { fingerprintFromBytes, fingerprintRecord } from '../../../core/src/fingerprint/encoding.ts';
import type { FingerprintRecord } from '../../../core/src/fingerprint/encoding.ts';
import { outsideAudioRecord } from '../../../core/src/outside-audio.ts';
import type { OutsideAudioRecord, OutsideSpan } from '../../../core/src/outside-audio.ts';
import type { CID } from 'multiformats/cid';
import { contentHash, sha256OfContentHash } from '../../../core/src/content-hash.ts';
import type { Database } from '../../../core/src/db/database.ts';
import { PUBLIC_JOB_ID_PREFIX, audioObjectKey, toPublicJobId } from '../../../core/src/generation-queue.ts';
import { PUBLIC_UPLOAD_ID_PREFIX } from '../../../core/src/uploads.ts';
import { JOB_STATUS, sqlStatus } from '../../../core/src/jobs/job-state.ts';
import type { ContentCredentialsRecord } from '../../../core/src/jobs/job-state.ts';
import type { ObjectStore } from '../../../core/src/object-store.ts';
import { claimStorage, releaseStorage } from '../../../core/src/storage-quota.ts';
import type { StorageUsage } from '../../../core/src/storage-quota.ts';
import { storageQuotaExceeded } from './storage.ts';
import { isPreviewObjectUrl } from '../../../core/src/previews.ts';
import type { IpfsContentStore } from '../ipfs/content-store.ts';
import type { PinReceipt, PinningClient } from '../ipfs/pinning-client.ts';
import { decodeCoverImage } from './cover-image.ts';
import type { CoverImage } from './cover-image.ts';
import { appError, fail, ok } from './errors.ts';
import type { Result } from './errors.ts';
import { modelRecord, parsePublicJobId } from './jobs.ts';
import type { ModelRecord } from './jobs.ts';

export interface SongAttributesInput {
  genre?: string;
  mood?: string;
  duration?: number;
  bpm?: number;
}

export interface MetadataInput {
  name: string;
  description: string;
  audioUrl: string;
  /** Base64 data URI. */
  coverImage?: string;
  attributes?: SongAttributesInput;
  externalUrl?: string;
}

export interface MetadataDeps {
  db: Database;
  objectStore: Pick<ObjectStore, 'put' | 'delete' | 'publicUrl'>;
  ipfs: Pick<IpfsContentStore, 'add'>;
  pinning?: PinningClient;
  now: () => Date;
}

export interface PublishedMetadata {
  cid: string;
  metadataUri: string;
  metadataHash: string;
  /** Public job id when audio_url is the caller's generated audio. */
  jobId?: string;
  coverUrl?: string;
  imageUri?: string;
  pinStatus?: PinReceipt['status'];
}

/** ERC-721 metadata JSON as OpenSea and most marketplaces read it. */
export interface Erc721Metadata {
  name: string;
  description: string;
  image?: string;
  animation_url: string;
  external_url?: string;
  attributes: Array<{ trait_type: string; value: string | number; display_type?: 'number' }>;
  properties: {
    audio_url: string;
    audio_hash?: string;
    job_id?: string;
    cover_url?: string;
    cover_mime_type?: string;
    /** Extension: what made the song, so provenance travels with the NFT (linked jobs only). */
    generation?: GenerationRecord;
  };
}

/** The generation record of a song: its prompt, lyrics (given or generated), seed and model. */
export interface GenerationRecord {
  prompt: string;
  lyrics: string | null;
  /** Decimal string: seeds are 64-bit and JSON numbers are not. */
  seed: string | null;
  model: ModelRecord | null;
  /** The C2PA manifest embedded in the audio (docs/content-credentials.md); null for older audio. */
  content_credentials: ContentCredentialsRecord | null;
  /** An edited song's source (docs/api.md "Edit a song"): its job and audio hash, or its upload's id, SHA-256 and format; the task and its parameters. */
  edit_of?: EditOfRecord;
  /** The sound's Chromaprint fingerprint, AcoustID's compact form (docs/fingerprints.md); absent for songs made before. */
  fingerprint?: FingerprintRecord;
  /** The seconds of uploaded audio the song keeps verbatim through its edits, and where (docs/fingerprints.md "Outside audio"). */
  outside_audio: OutsideAudioRecord;
}

export type EditOfRecord = EditDone &
  ({ job_id: string; audio_hash: string | null } | { upload_id: string; sha256: string; format: string });

interface EditDone {
  task: string;
  start?: number;
  end?: number;
  strength?: number;
}

interface LinkedJob {
  id: string;
  audio_hash: string;
  duration: number;
  actual_duration: number | null;
  prompt: string;
  used_lyrics: string | null;
  seed: string | null;
  model_name: string | null;
  model_version: string | null;
  content_credentials: ContentCredentialsRecord | null;
  /** The edit, with its source's public id and audio hash, when the song edits another. */
  edit_of: EditOfRecord | null;
  /** The sound's fingerprint, raw (null for songs made before fingerprints). */
  fingerprint: Buffer | null;
  outside_spans: OutsideSpan[];
}

/** Covers at a job's fixed key can be replaced by a later upload: let CDNs revalidate. */
const JOB_COVER_CACHE_CONTROL = 'public, max-age=300';
/** Covers keyed by their content never change. */
const CONTENT_COVER_CACHE_CONTROL = 'public, max-age=31536000, immutable';

/**
 * JSON with object keys sorted at every level and no whitespace: the same document always has
 * the same bytes, hence the same CID and hash.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return Object.fromEntries(entries.map(([k, v]) => [k, sortKeys(v)]));
  }
  return value;
}

/**
 * The UUID of the job whose published audio `audioUrl` is (`{storage_url}/audio/gen_<uuid>.mp3`),
 * or null for any other URL.
 */
export function jobIdOfAudioUrl(objectStore: Pick<ObjectStore, 'publicUrl'>, audioUrl: string): string | null {
  const prefix = objectStore.publicUrl('audio/');
  if (!audioUrl.startsWith(prefix)) return null;
  const match = /^(gen_[^/]+)\.mp3$/.exec(audioUrl.slice(prefix.length));
  if (match?.[1] === undefined) return null;
  const id = parsePublicJobId(match[1]);
  return id !== null && audioObjectKey(id) === `audio/${match[1].toLowerCase()}.mp3` ? id : null;
}

export function buildErc721Metadata(
  input: MetadataInput,
  job: LinkedJob | null,
  cover: { cid: string; url: string; contentType: string } | null,
): Erc721Metadata {
  const attributes: Erc721Metadata['attributes'] = [];
  const given = input.attributes ?? {};
  if (given.genre !== undefined) attributes.push({ trait_type: 'Genre', value: given.genre });
  if (given.mood !== undefined) attributes.push({ trait_type: 'Mood', value: given.mood });
  const duration = given.duration ?? (job === null ? undefined : Math.round(job.actual_duration ?? job.duration));
  if (duration !== undefined) attributes.push({ trait_type: 'Duration', value: duration, display_type: 'number' });
  if (given.bpm !== undefined) attributes.push({ trait_type: 'BPM', value: given.bpm, display_type: 'number' });
  return {
    name: input.name,
    description: input.description,
    ...(cover === null ? {} : { image: `ipfs://${cover.cid}` }),
    animation_url: input.audioUrl,
    ...(input.externalUrl === undefined ? {} : { external_url: input.externalUrl }),
    attributes,
    properties: {
      audio_url: input.audioUrl,
      ...(job === null ? {} : { audio_hash: job.audio_hash, job_id: toPublicJobId(job.id) }),
      ...(cover === null ? {} : { cover_url: cover.url, cover_mime_type: cover.contentType }),
      ...(job === null
        ? {}
        : {
            generation: {
              prompt: job.prompt,
              lyrics: job.used_lyrics,
              seed: job.seed,
              model: modelRecord(job.model_name, job.model_version),
              content_credentials: job.content_credentials,
              ...(job.edit_of === null ? {} : { edit_of: job.edit_of }),
              ...(job.fingerprint === null ? {} : { fingerprint: fingerprintRecord(fingerprintFromBytes(job.fingerprint)) }),
              outside_audio: outsideAudioRecord(job.outside_spans),
            },
          }),
    },
  };
}

export async function publishMetadata(
  deps: MetadataDeps,
  userId: string,
  input: MetadataInput,
  coverField: string,
  audioField: string,
): Promise<Result<PublishedMetadata>> {
  let cover: CoverImage | null = null;
  if (input.coverImage !== undefined) {
    const decoded = await decodeCoverImage(input.coverImage, coverField);
    if (!decoded.ok) return decoded;
    cover = decoded.value;
  }

  // A preview is never minted (docs/api.md "Previews"): its private clip, behind a URL that
  // expires in an hour and deleted after 24, must not become a token's audio.
  if (isPreviewObjectUrl(input.audioUrl)) {
    return fail(
      appError('VALIDATION_ERROR', 'Previews cannot be minted', {
        details: `${audioField} is a preview; generate the song with POST /api/generate and use its audio_url`,
        fields: { [audioField]: 'a preview' },
      }),
    );
  }

  let job: LinkedJob | null = null;
  const linkedId = jobIdOfAudioUrl(deps.objectStore, input.audioUrl);
  if (linkedId !== null) {
    job = await deps.db.oneOrNone<LinkedJob>(
      `SELECT j.id, j.audio_hash, j.duration, j.actual_duration, j.prompt, j.used_lyrics, j.seed::text AS seed, j.model_name, j.model_version,
              j.content_credentials, j.fingerprint, j.outside_spans,
              CASE WHEN j.edit IS NULL THEN NULL
                   WHEN j.edit_upload_id IS NOT NULL
                   THEN j.edit || jsonb_build_object('upload_id', '${PUBLIC_UPLOAD_ID_PREFIX}' || j.edit_upload_id::text,
                                                     'sha256', upload.sha256, 'format', upload.format)
                   ELSE j.edit || jsonb_build_object('job_id', '${PUBLIC_JOB_ID_PREFIX}' || j.edit_source_id::text, 'audio_hash', source.audio_hash)
              END AS edit_of
         FROM generation_jobs j LEFT JOIN generation_jobs source ON source.id = j.edit_source_id
              LEFT JOIN uploads upload ON upload.id = j.edit_upload_id
        WHERE j.id = $1 AND j.user_id = $2 AND j.status = ${sqlStatus(JOB_STATUS.completed)}`,
      [linkedId, userId],
    );
    if (job === null) {
      return fail(
        appError('VALIDATION_ERROR', 'Unknown audio', {
          details: `${audioField} points at Songmint audio that is not a completed job of the authenticated user`,
          fields: { [audioField]: 'not a completed job of yours' },
        }),
      );
    }
  }

  let storedCover: { cid: string; url: string; key: string; contentType: string } | null = null;
  let coverCid: CID | null = null;
  if (cover !== null) {
    coverCid = await deps.ipfs.add(cover.bytes);
    const key = job === null ? `covers/${sha256OfContentHash(contentHash(cover.bytes))}.png` : `covers/${toPublicJobId(job.id)}.png`;
    storedCover = { cid: coverCid.toString(), url: deps.objectStore.publicUrl(key), key, contentType: cover.contentType };
  }

  const document = buildErc721Metadata(input, job, storedCover);
  const bytes = new TextEncoder().encode(canonicalJson(document));
  const cid = await deps.ipfs.add(bytes);
  const metadataHash = contentHash(bytes);

  let pinRequestId: string | null = null;
  let pinStatus: PinReceipt['status'] | null = null;
  if (deps.pinning !== undefined) {
    // The cover first: metadata is never pinned without the image it names.
    const targets = [
      ...(coverCid === null || storedCover === null ? [] : [{ cid: coverCid, name: storedCover.key }]),
      { cid, name: `${input.name.slice(0, 200)}.json` },
    ];
    for (const target of targets) {
      const pinned = await deps.pinning.pin({ cid: target.cid, name: target.name, meta: { app: 'songmint' } });
      if (!pinned.ok) {
        return fail(
          appError('SERVICE_UNAVAILABLE', 'IPFS pinning failed', {
            details: `${pinned.error.code}: ${pinned.error.message}`,
            retryAfter: 30,
          }),
        );
      }
      if (target.cid.equals(cid)) {
        pinRequestId = pinned.value.requestId;
        pinStatus = pinned.value.status;
      }
    }
  }

  // Written last, so that a refused pin leaves neither a replaced cover nor a row behind.
  if (storedCover !== null && cover !== null) {
    // The cover counts for the caller's storage quota (a song's cover replaces its last one; a
    // content-addressed cover another account stored already costs nothing more).
    const claim = await claimCoverStorage(deps.db, userId, storedCover.key, cover.bytes.length);
    if (!claim.ok) return fail(storageQuotaExceeded(claim.usage, cover.bytes.length, 'this cover'));
    const put = await deps.objectStore.put(storedCover.key, cover.bytes, {
      contentType: cover.contentType,
      cacheControl: job === null ? CONTENT_COVER_CACHE_CONTROL : JOB_COVER_CACHE_CONTROL,
    });
    if (!put.ok) {
      if (claim.claimed) await releaseStorage(deps.db, [storedCover.key]);
      return fail(appError('SERVICE_UNAVAILABLE', 'Object storage unavailable', { details: put.error.message, retryAfter: 5 }));
    }
  }

  const metadataUri = `ipfs://${cid.toString()}`;
  await deps.db.none(
    `INSERT INTO song_metadata (user_id, job_id, cid, metadata_uri, metadata_hash, document, cover_key, cover_cid,
                                cover_content_type, pin_request_id, pin_status, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
    [
      userId,
      job?.id ?? null,
      cid.toString(),
      metadataUri,
      metadataHash,
      JSON.stringify(document),
      storedCover?.key ?? null,
      storedCover?.cid ?? null,
      storedCover?.contentType ?? null,
      pinRequestId,
      pinStatus,
      deps.now(),
    ],
  );

  return ok({
    cid: cid.toString(),
    metadataUri,
    metadataHash,
    ...(job === null ? {} : { jobId: toPublicJobId(job.id) }),
    ...(storedCover === null ? {} : { coverUrl: storedCover.url, imageUri: `ipfs://${storedCover.cid}` }),
    ...(pinStatus === null ? {} : { pinStatus }),
  });
}

/**
 * Claims a cover's bytes at `key` for `userId`'s quota: the caller's earlier object at that key
 * (a song's cover being replaced) is released first; a key another account's row holds (the same
 * content-addressed cover) is not counted twice.
 */
export async function claimCoverStorage(
  db: Database,
  userId: string,
  key: string,
  bytes: number,
): Promise<{ ok: true; claimed: boolean } | { ok: false; usage: StorageUsage }> {
  const holder = await db.oneOrNone<{ user_id: string }>('SELECT user_id FROM stored_objects WHERE object_key = $1', [key]);
  if (holder !== null && holder.user_id !== userId) return { ok: true, claimed: false };
  if (holder !== null) await releaseStorage(db, [key]);
  const claim = await claimStorage(db, userId, key, bytes);
  return claim.ok ? { ok: true, claimed: true } : claim;
}
