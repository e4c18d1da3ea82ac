/**
 * Object storage over the S3 protocol (AWS S3, Cloudflare R2, MinIO, or s3rver in tests and in
 * the dev stack). Failures come back as values with a code; nothing here throws for an S3 error.
 *
 * Public read access is not granted per object (many buckets have ACLs disabled): the bucket
 * policy or the CDN in front of it exposes the public prefixes (`audio/`, `covers/`) and keeps
 * the rest (`preview/`) private, reachable only through presigned URLs.
 */
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { OBJECT_STORE_DEADLINES } from './object-store-deadlines.ts';
import { createChecksumHead, fullObjectSha256 } from './s3-checksum-head.ts';
import { ok } from './result.ts';
import type { DomainError, Result } from './result.ts';

export { fullObjectSha256 };
export { OBJECT_STORE_DEADLINES };

export interface ObjectStoreOptions {
  /** S3 endpoint; omit for AWS S3 in `region`. */
  endpoint?: string;
  region: string;
  bucket: string;
  /** Omit to use the SDK's default credential chain (environment, instance role, ...). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** Path-style addressing (`endpoint/bucket/key`): needed by MinIO and s3rver. */
  forcePathStyle?: boolean;
  /** Base URL that serves the public objects, e.g. a CDN in front of the bucket. */
  publicBaseUrl: string;
  /**
   * The store keeps S3 additional checksums (AWS S3 does): `sha256(key)` then asks HeadObject for
   * the SHA-256 the store computed on write before downloading anything. Off (s3rver, stores
   * without checksums), `sha256` always streams the object through a local SHA-256.
   */
  storedChecksums?: boolean;
}

export type ObjectStoreErrorCode = 'not_found' | 'access_denied' | 'invalid_key' | 'unavailable' | 'storage_full' | 'exists' | 'failed';

export interface ObjectStoreError extends DomainError<ObjectStoreErrorCode> {
  key?: string;
}

export type StoreResult<T> = Result<T, ObjectStoreError>;

export interface PutOptions {
  contentType: string;
  cacheControl?: string;
  /** A private object gets `Cache-Control: private, no-store` unless one is given. */
  private?: boolean;
  /** Create only (`If-None-Match: *`): a key that holds an object already answers `exists` and keeps it. */
  ifAbsent?: boolean;
  /**
   * SHA-256 of `bytes` (hex, no prefix) the caller already computed: sent as the S3 additional
   * checksum, so the store recomputes it from the received bytes, refuses the upload on a
   * mismatch and keeps it with the object (`sha256(key)` reads it back).
   */
  sha256?: string;
}

export interface PresignOptions {
  contentDisposition?: string;
}

export interface ObjectInfo {
  key: string;
  size: number;
  contentType?: string;
  cacheControl?: string;
  etag?: string;
  lastModified?: Date;
}

export interface StoredObject extends ObjectInfo {
  bytes: Uint8Array;
}

export interface ListOptions {
  /** Keys per list request (S3 caps it at 1000). */
  pageSize?: number;
}

export interface ObjectStore {
  readonly bucket: string;
  put(key: string, bytes: Uint8Array, options: PutOptions): Promise<StoreResult<ObjectInfo>>;
  get(key: string): Promise<StoreResult<StoredObject>>;
  /**
   * SHA-256 of an object's bytes (hex, no prefix): the store's own full-object SHA-256 checksum
   * when `storedChecksums` is on and the object has one, else the object streamed through a local
   * SHA-256 (memory stays flat at any size). `source` says which.
   */
  sha256(key: string): Promise<StoreResult<{ hex: string; size: number; source: 'store_checksum' | 'download' }>>;
  head(key: string): Promise<StoreResult<ObjectInfo>>;
  /** Deleting a missing key succeeds, as in S3. */
  delete(key: string): Promise<StoreResult<void>>;
  /** Every object under `prefix`, fetched page by page. */
  list(prefix: string, options?: ListOptions): Promise<StoreResult<ObjectInfo[]>>;
  publicUrl(key: string): string;
  /**
   * A GET URL signed for `expiresInSeconds`. With `contentDisposition` the store answers the GET
   * with that `Content-Disposition` (S3's `response-content-disposition`, part of the signature):
   * `attachment; filename=…` makes a browser save the file under that name.
   */
  presignedGetUrl(key: string, expiresInSeconds: number, options?: PresignOptions): Promise<StoreResult<string>>;
  /** Closes the client's sockets. */
  close(): void;
}

const PRIVATE_CACHE_CONTROL = 'private, no-store';
/** S3 keys are at most 1024 bytes of UTF-8. */
const MAX_KEY_BYTES = 1024;
/** SigV4 presigned URLs live at most 7 days. */
const MAX_PRESIGN_SECONDS = 7 * 24 * 3600;

export function createObjectStore(options: ObjectStoreOptions): ObjectStore {
  const client = new S3Client({
    region: options.region,
    maxAttempts: OBJECT_STORE_DEADLINES.attempts,
    requestHandler: {
      connectionTimeout: OBJECT_STORE_DEADLINES.connectMs,
      socketTimeout: OBJECT_STORE_DEADLINES.idleMs,
      requestTimeout: OBJECT_STORE_DEADLINES.requestMs,
      throwOnRequestTimeout: true,
    },
    ...(options.endpoint === undefined ? {} : { endpoint: options.endpoint }),
    ...(options.credentials === undefined ? {} : { credentials: options.credentials }),
    forcePathStyle: options.forcePathStyle ?? false,
  });
  const bucket = options.bucket;
  // The stored-checksum read of every signature skips the SDK's command pipeline; anything but a
  // clear answer falls through to the SDK below.
  const checksumHead =
    options.storedChecksums === true
      ? createChecksumHead({ location: options, credentials: client.config.credentials, sha256: client.config.sha256 })
      : undefined;
  const publicBase = options.publicBaseUrl.replace(/\/+$/, '');

  return {
    bucket,

    async put(key, bytes, putOptions) {
      const invalid = checkKey(key);
      if (invalid) return invalid;
      const cacheControl = putOptions.cacheControl ?? (putOptions.private === true ? PRIVATE_CACHE_CONTROL : undefined);
      try {
        const out = await client.send(
          new PutObjectCommand({
            Bucket: bucket,
            Key: key,
            Body: bytes,
            ContentLength: bytes.byteLength,
            ContentType: putOptions.contentType,
            ...(cacheControl === undefined ? {} : { CacheControl: cacheControl }),
            ...(putOptions.ifAbsent === true ? { IfNoneMatch: '*' } : {}),
            ...(putOptions.sha256 === undefined ? {} : { ChecksumSHA256: Buffer.from(putOptions.sha256, 'hex').toString('base64') }),
          }),
        );
        return ok({
          key,
          size: bytes.byteLength,
          contentType: putOptions.contentType,
          ...(cacheControl === undefined ? {} : { cacheControl }),
          ...(out.ETag === undefined ? {} : { etag: out.ETag }),
        });
      } catch (error) {
        return fail(error, key);
      }
    },

    async get(key) {
      const invalid = checkKey(key);
      if (invalid) return invalid;
      try {
        const out = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
        if (out.Body === undefined) {
          return { ok: false, error: { code: 'failed', message: 'empty response body', key } };
        }
        const bytes = await out.Body.transformToByteArray();
        return ok({ ...objectInfo(key, out, bytes.byteLength), bytes });
      } catch (error) {
        return fail(error, key);
      }
    },

    async sha256(key) {
      const invalid = checkKey(key);
      if (invalid) return invalid;
      try {
        if (checksumHead !== undefined) {
          const fast = await checksumHead(key);
          if (fast.kind === 'checksum') return ok({ hex: fast.hex, size: fast.size, source: 'store_checksum' as const });
          // A store silent past the deadline would be as silent to the SDK's attempts.
          if (fast.kind === 'silent')
            return { ok: false, error: { code: 'unavailable', message: `no answer within ${OBJECT_STORE_DEADLINES.idleMs} ms`, key } };
          if (fast.kind === 'unknown') {
            const head = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key, ChecksumMode: 'ENABLED' }));
            const hex = fullObjectSha256(head);
            if (hex !== undefined) return ok({ hex, size: head.ContentLength ?? 0, source: 'store_checksum' as const });
          }
        }
        const out = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
        if (out.Body === undefined) {
          return { ok: false, error: { code: 'failed', message: 'empty response body', key } };
        }
        const hash = createHash('sha256');
        let size = 0;
        if (out.Body instanceof Readable) {
          for await (const chunk of out.Body as AsyncIterable<Buffer>) {
            hash.update(chunk);
            size += chunk.byteLength;
          }
        } else {
          const bytes = await out.Body.transformToByteArray();
          hash.update(bytes);
          size = bytes.byteLength;
        }
        return ok({ hex: hash.digest('hex'), size, source: 'download' as const });
      } catch (error) {
        return fail(error, key);
      }
    },

    async head(key) {
      const invalid = checkKey(key);
      if (invalid) return invalid;
      try {
        const out = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
        return ok(objectInfo(key, out, out.ContentLength ?? 0));
      } catch (error) {
        return fail(error, key);
      }
    },

    async delete(key) {
      const invalid = checkKey(key);
      if (invalid) return invalid;
      try {
        await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
        return ok(undefined);
      } catch (error) {
        return fail(error, key);
      }
    },

    async list(prefix, listOptions) {
      const pageSize = Math.min(Math.max(listOptions?.pageSize ?? 1000, 1), 1000);
      const found: ObjectInfo[] = [];
      // ListObjects (v1) paged by Marker = last key seen: every S3 implementation supports it,
      // while s3rver's ListObjectsV2 continuation tokens use DES, which OpenSSL 3 lacks.
      let marker: string | undefined;
      try {
        for (;;) {
          const page = await client.send(
            new ListObjectsCommand({
              Bucket: bucket,
              Prefix: prefix,
              MaxKeys: pageSize,
              ...(marker === undefined ? {} : { Marker: marker }),
            }),
          );
          const contents = page.Contents ?? [];
          for (const item of contents) {
            if (item.Key === undefined) continue;
            found.push({
              key: item.Key,
              size: item.Size ?? 0,
              ...(item.ETag === undefined ? {} : { etag: item.ETag }),
              ...(item.LastModified === undefined ? {} : { lastModified: item.LastModified }),
            });
          }
          const lastKey = contents.at(-1)?.Key;
          if (page.IsTruncated !== true || lastKey === undefined) break;
          marker = lastKey;
        }
        return ok(found);
      } catch (error) {
        return fail(error, prefix);
      }
    },

    publicUrl(key) {
      return `${publicBase}/${key}`;
    },

    async presignedGetUrl(key, expiresInSeconds, presign) {
      const invalid = checkKey(key);
      if (invalid) return invalid;
      if (!Number.isInteger(expiresInSeconds) || expiresInSeconds < 1 || expiresInSeconds > MAX_PRESIGN_SECONDS) {
        return {
          ok: false,
          error: { code: 'invalid_key', message: `expiry must be 1..${MAX_PRESIGN_SECONDS} seconds`, key },
        };
      }
      try {
        const disposition = presign?.contentDisposition;
        const command = new GetObjectCommand({
          Bucket: bucket,
          Key: key,
          ...(disposition === undefined ? {} : { ResponseContentDisposition: disposition }),
        });
        const url = await getSignedUrl(client, command, {
          expiresIn: expiresInSeconds,
        });
        return ok(url);
      } catch (error) {
        return fail(error, key);
      }
    },

    close() {
      checksumHead?.close();
      client.destroy();
    },
  };
}

function checkKey(key: string): { ok: false; error: ObjectStoreError } | undefined {
  const size = Buffer.byteLength(key, 'utf8');
  if (size === 0 || size > MAX_KEY_BYTES || key.startsWith('/') || key.split('/').includes('..')) {
    return { ok: false, error: { code: 'invalid_key', message: 'object key is empty, too long or not relative', key } };
  }
  return undefined;
}

interface ObjectHeaders {
  ContentType?: string;
  CacheControl?: string;
  ETag?: string;
  LastModified?: Date;
}

function objectInfo(key: string, out: ObjectHeaders, size: number): ObjectInfo {
  return {
    key,
    size,
    ...(out.ContentType === undefined ? {} : { contentType: out.ContentType }),
    ...(out.CacheControl === undefined ? {} : { cacheControl: out.CacheControl }),
    ...(out.ETag === undefined ? {} : { etag: out.ETag }),
    ...(out.LastModified === undefined ? {} : { lastModified: out.LastModified }),
  };
}

function fail(error: unknown, key: string): { ok: false; error: ObjectStoreError } {
  if (error instanceof S3ServiceException) {
    const status = error.$metadata.httpStatusCode;
    if (error.name === 'NoSuchKey' || error.name === 'NotFound' || status === 404) {
      return { ok: false, error: { code: 'not_found', message: `no object at ${key}`, key } };
    }
    if (status === 403) {
      return { ok: false, error: { code: 'access_denied', message: error.message, key } };
    }
    // 412 to `If-None-Match: *`: the key holds an object already (409: a concurrent conditional write).
    if (status === 412 || (status === 409 && error.name === 'ConditionalRequestConflict')) {
      return { ok: false, error: { code: 'exists', message: `an object exists at ${key}`, key } };
    }
    // 507 Insufficient Storage: a self-hosted store (MinIO's XMinioStorageFull) whose disks are full.
    if (status === 507) {
      return { ok: false, error: { code: 'storage_full', message: error.message, key } };
    }
    if (status !== undefined && status >= 500) {
      return { ok: false, error: { code: 'unavailable', message: error.message, key } };
    }
    return { ok: false, error: { code: 'failed', message: `${error.name}: ${error.message}`, key } };
  }
  // Anything else is a transport failure: refused connection, timeout, DNS.
  const message = error instanceof Error ? error.message : String(error);
  return { ok: false, error: { code: 'unavailable', message, key } };
}
