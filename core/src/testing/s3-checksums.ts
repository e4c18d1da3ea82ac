/**
 * S3 additional checksums (SHA-256, full object) for s3rver, which keeps none: without them the
 * tests and the dev stack could only exercise the download path of `ObjectStore.sha256`, while
 * production on AWS S3 reads the store's checksum with a HEAD (docs/storage-and-signatures.md).
 *
 * What AWS S3 does, and this middleware in front of s3rver's router reproduces:
 * - PUT Object with `x-amz-checksum-sha256`: the store hashes the received bytes and refuses the
 *   upload with 400 `BadDigest` on a mismatch (the previous object stays); otherwise it keeps the
 *   checksum with the object. A PUT without one stores an object without a SHA-256 checksum.
 * - HEAD and GET Object with `x-amz-checksum-mode: ENABLED` answer `x-amz-checksum-sha256` and
 *   `x-amz-checksum-type: FULL_OBJECT` when the object has one (not for a range GET).
 *
 * The checksum lives in a file beside s3rver's own object files, bound to the object's ETag (its
 * MD5 in s3rver): an object replaced or removed by any other request (copy, multipart upload,
 * multi-object delete) no longer matches it and reports no checksum, so a stale value is never
 * served. Checksums read or written are also kept in memory (a bounded map), so answering one
 * costs the server next to nothing beyond s3rver's own HEAD, as a store's metadata lookup would.
 * Only SHA-256 over a plain (not aws-chunked) body is handled; other algorithms are passed to
 * s3rver, which ignores them, as before.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Readable } from 'node:stream';
import type S3rver from 's3rver';
import type { S3rverContext, S3rverMiddleware } from 's3rver';
import { isResourceExhausted } from '../resource-exhausted.ts';
import { STORAGE_FULL } from './s3-atomic-put.ts';

interface StoredChecksum {
  /** Base64 SHA-256 of the object's bytes, as S3 writes it. */
  sha256: string;
  /** The ETag of the object the checksum belongs to. */
  etag: string;
}

/** Object sub-resources (`?acl`, `?uploadId=`...): requests on them are not object reads or writes. */
const SUB_RESOURCES = [
  'acl',
  'attributes',
  'legal-hold',
  'partNumber',
  'restore',
  'retention',
  'select',
  'tagging',
  'torrent',
  'uploadId',
  'uploads',
];

/** Checksums kept in memory, by file path; beyond this many the oldest are read from disk again. */
const CACHED_CHECKSUMS = 100_000;

/** Adds SHA-256 additional checksums to an s3rver instance; call before `run()`. */
export function enableStoredChecksums(server: S3rver): void {
  const router = server.middleware.pop();
  if (router === undefined) throw new Error('s3rver has no router middleware');
  // After s3rver's vhost middleware, so `ctx.path` is always path-style.
  server.middleware.push(
    checksumMiddleware((bucket, key) => server.store.getResourcePath(bucket, key, 'checksum.json')),
    router,
  );
}

/** Sidecar files with a bounded in-memory map in front; `undefined` = no checksum stored. */
function checksumFiles() {
  const cache = new Map<string, StoredChecksum | undefined>();
  const remember = (path: string, value: StoredChecksum | undefined) => {
    cache.delete(path);
    cache.set(path, value);
    if (cache.size > CACHED_CHECKSUMS) cache.delete(cache.keys().next().value as string);
  };
  return {
    async read(path: string): Promise<StoredChecksum | undefined> {
      if (cache.has(path)) return cache.get(path);
      const value = await readChecksum(path);
      remember(path, value);
      return value;
    },
    async write(path: string, value: StoredChecksum): Promise<void> {
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, JSON.stringify(value));
      remember(path, value);
    },
    async remove(path: string): Promise<void> {
      await rm(path, { force: true });
      remember(path, undefined);
    },
  };
}

function checksumMiddleware(checksumPath: (bucket: string, key: string) => string): S3rverMiddleware {
  const files = checksumFiles();
  return async (ctx, next) => {
    const target = objectTarget(ctx);
    if (target === undefined) return next();
    const path = checksumPath(target.bucket, target.key);

    if (ctx.method === 'PUT' && ctx.get('x-amz-copy-source') === '') {
      const declared = ctx.get('x-amz-checksum-sha256');
      if (declared === '') {
        await next();
        if (ctx.status === 200) await files.remove(path);
        return;
      }
      if (Buffer.from(declared, 'base64').byteLength !== 32) {
        return s3Error(ctx, 400, 'InvalidRequest', 'Value for x-amz-checksum-sha256 header is invalid.', target.key);
      }
      const body = await readBody(ctx.req);
      if (createHash('sha256').update(body).digest('base64') !== declared) {
        return s3Error(ctx, 400, 'BadDigest', 'The SHA256 you specified did not match the calculated checksum.', target.key);
      }
      // The checksum is written before the object, bound to the ETag s3rver will give it (the
      // quoted MD5): a disk too full for it refuses the PUT with nothing stored (507, as the
      // object store itself, ./s3-atomic-put.ts), instead of storing an object and then failing.
      // A PUT that fails after it leaves a checksum whose ETag matches no object: never served.
      try {
        await files.write(path, { sha256: declared, etag: JSON.stringify(createHash('md5').update(body).digest('hex')) });
      } catch (error) {
        if (!isResourceExhausted(error)) throw error;
        return s3Error(ctx, 507, STORAGE_FULL.code, STORAGE_FULL.message, target.key);
      }
      ctx.req = Readable.from([body]);
      await next();
      return;
    }

    if (
      (ctx.method === 'HEAD' || ctx.method === 'GET') &&
      ctx.get('x-amz-checksum-mode').toUpperCase() === 'ENABLED' &&
      ctx.get('range') === ''
    ) {
      await next();
      if (ctx.status !== 200) return;
      const stored = await files.read(path);
      if (stored !== undefined && stored.etag === ctx.response.get('ETag')) {
        ctx.set('x-amz-checksum-sha256', stored.sha256);
        ctx.set('x-amz-checksum-type', 'FULL_OBJECT');
      }
      return;
    }

    await next();
    if (ctx.method === 'DELETE' && ctx.status === 204) await files.remove(path);
  };
}

/** Bucket and key of a plain object request, or undefined for anything else. */
function objectTarget(ctx: S3rverContext): { bucket: string; key: string } | undefined {
  const match = /^\/([^/]+)\/(.+)$/.exec(ctx.path);
  if (match?.[1] === undefined || match[2] === undefined) return undefined;
  if (SUB_RESOURCES.some((name) => name in ctx.query)) return undefined;
  try {
    return { bucket: decodeURIComponent(match[1]), key: decodeURIComponent(match[2]) };
  } catch {
    // Malformed percent-encoding: s3rver answers it.
    return undefined;
  }
}

async function readBody(stream: Readable | S3rverContext['req']): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

async function readChecksum(path: string): Promise<StoredChecksum | undefined> {
  try {
    const parsed: unknown = JSON.parse(await readFile(path, 'utf8'));
    if (typeof parsed !== 'object' || parsed === null) return undefined;
    const { sha256, etag } = parsed as Partial<StoredChecksum>;
    return typeof sha256 === 'string' && typeof etag === 'string' ? { sha256, etag } : undefined;
  } catch {
    // No checksum was stored for this object (or it was removed meanwhile).
    return undefined;
  }
}

function s3Error(ctx: S3rverContext, status: number, code: string, message: string, key: string): void {
  ctx.status = status;
  ctx.type = 'application/xml';
  ctx.body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message><Key>${escapeXml(key)}</Key></Error>`;
}

function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);
}
