/**
 * Whole-or-nothing PUT Object for s3rver, as a real S3-protocol store behaves on a full disk.
 *
 * s3rver's filesystem store writes an upload straight over `<key>._S3rver_object`, answers
 * before the bytes are on disk and listens for no write error: on a full disk the object file was
 * left cut short under its final name (an overwrite cut the previous object too), the error took
 * the whole process down as an unhandled `error` event, or the PUT was answered 200 for bytes that
 * were never written. Here the object and its metadata files are written beside their final names
 * (`*.partial`, which s3rver never lists or reads) and renamed into place only once every write
 * has succeeded, the object last: an object never appears, or changes, before all of its bytes and
 * metadata were written. (Not fsynced, as s3rver never was: a development store, and ext4 and XFS
 * reserve the space when a write is made, so a full disk fails the write itself.) A write that
 * fails removes its partial files and answers 507 `XMinioStorageFull`, as MinIO does when its
 * drives are full (core/src/object-store.ts reads it as `storage_full`).
 */
import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { link, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type S3rver from 's3rver';
import type { S3rverMiddleware } from 's3rver';
import { isResourceExhausted } from '../resource-exhausted.ts';

interface StoredObject {
  bucket: string;
  key: string;
  metadata: Record<string, string>;
  content: Buffer | Readable;
}

interface FilesystemStore {
  getResourcePath(bucket: string, key: string, resource: string): string;
  putObject(object: StoredObject): Promise<{ size: number; md5: string }>;
}

type S3ErrorClass = new (code: string, message: string) => Error & { status: number };

const require = createRequire(import.meta.url);
const S3Error = require('s3rver/lib/models/error.js') as S3ErrorClass;

/** s3rver's own list of the metadata it keeps in `metadata.json` (besides user `x-amz-meta-*`). */
const KEPT_METADATA = new Set((require('s3rver/lib/models/object.js') as { ALLOWED_METADATA: string[] }).ALLOWED_METADATA);

/** What MinIO answers (507) when its drives are full. */
export const STORAGE_FULL = {
  code: 'XMinioStorageFull',
  message: 'Storage backend has reached its minimum free drive threshold. Please delete a few objects to proceed.',
} as const;

/**
 * The bodies of PUTs sent with `If-None-Match: *` (S3's conditional write: create, never
 * replace), marked by `enableConditionalPuts` on their way to `putObject`.
 */
const createOnly = new WeakSet<object>();

/** What S3 answers (412) to a conditional write whose key already holds an object. */
const PRECONDITION_FAILED = {
  code: 'PreconditionFailed',
  message: 'At least one of the pre-conditions you specified did not hold',
} as const;

/**
 * Honours `If-None-Match: *` on PUT Object, as S3 and MinIO do (s3rver ignores it): the object is
 * created only when its key holds none, atomically (a hard link, which fails when the name
 * exists), and otherwise the PUT answers 412 and changes nothing. Call after every middleware that
 * replaces the request body (./s3-checksums.ts), before `run()`.
 */
export function enableConditionalPuts(server: S3rver): void {
  const router = server.middleware.pop();
  if (router === undefined) throw new Error('s3rver has no router middleware');
  const mark: S3rverMiddleware = async (ctx, next) => {
    if (ctx.method === 'PUT' && ctx.get('if-none-match') === '*') createOnly.add(ctx.req);
    await next();
  };
  server.middleware.push(mark, router);
}

/** Replaces s3rver's PUT Object storage with the whole-or-nothing write above; call before `run()`. */
export function enableAtomicPuts(server: S3rver): void {
  const store = server.store as unknown as FilesystemStore;
  store.putObject = async (object) => {
    const objectPath = store.getResourcePath(object.bucket, object.key, 'object');
    const metadataPath = store.getResourcePath(object.bucket, object.key, 'metadata.json');
    const md5Path = store.getResourcePath(object.bucket, object.key, 'object.md5');
    const suffix = `.${randomUUID()}.partial`;
    const partial = [objectPath, metadataPath, md5Path].map((path) => `${path}${suffix}`) as [string, string, string];
    try {
      await mkdir(dirname(objectPath), { recursive: true });
      const md5 = createHash('md5');
      let size = 0;
      const counted = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          md5.update(chunk);
          size += chunk.length;
          done(null, chunk);
        },
      });
      const content = Buffer.isBuffer(object.content) ? Readable.from([object.content]) : object.content;
      await pipeline(content, counted, createWriteStream(partial[0]));
      const digest = md5.digest('hex');
      const kept = Object.fromEntries(
        Object.entries(object.metadata).filter(([name]) => KEPT_METADATA.has(name) || name.startsWith('x-amz-meta-')),
      );
      await writeFile(partial[1], JSON.stringify(kept, null, 2));
      await writeFile(partial[2], digest);
      if (createOnly.has(object.content)) {
        // The object is claimed first, atomically; its metadata follows it.
        try {
          await link(partial[0], objectPath);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
          const exists = new S3Error(PRECONDITION_FAILED.code, PRECONDITION_FAILED.message);
          exists.status = 412;
          throw exists;
        }
        await rm(partial[0], { force: true });
        await rename(partial[1], metadataPath);
        await rename(partial[2], md5Path);
        return { size, md5: digest };
      }
      await rename(partial[1], metadataPath);
      await rename(partial[2], md5Path);
      await rename(partial[0], objectPath);
      return { size, md5: digest };
    } catch (error) {
      await Promise.all(partial.map((path) => rm(path, { force: true })));
      if (isResourceExhausted(error)) {
        const full = new S3Error(STORAGE_FULL.code, STORAGE_FULL.message);
        full.status = 507;
        throw full;
      }
      throw error;
    }
  };
}
