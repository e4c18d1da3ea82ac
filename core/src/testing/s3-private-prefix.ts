/**
 * The bucket policy production needs (core/src/object-store.ts: public `audio/` and `covers/`,
 * everything else private), for s3rver, which has none and serves any object to anyone: an
 * anonymous GET or HEAD of a `preview/` object is refused with 403 AccessDenied, as AWS S3
 * refuses it without a public-read policy. Signed requests pass: s3rver checks no signature,
 * only a presigned URL's expiry (./s3.ts), so this tells anonymous from signed by the presence
 * of `Authorization` or `X-Amz-Signature`, not by verifying them.
 */
import type S3rver from 's3rver';
import type { S3rverMiddleware } from 's3rver';

/** Key prefixes no anonymous request may read. */
export const PRIVATE_PREFIXES = ['preview/', 'lossless/'] as const;

const ACCESS_DENIED = '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>';

function privatePrefixMiddleware(bucket: string): S3rverMiddleware {
  return async (ctx, next) => {
    const read = ctx.method === 'GET' || ctx.method === 'HEAD';
    const key = ctx.path.startsWith(`/${bucket}/`) ? decodeURIComponent(ctx.path.slice(bucket.length + 2)) : '';
    const signed = ctx.get('authorization') !== '' || ctx.query['X-Amz-Signature'] !== undefined;
    if (read && !signed && PRIVATE_PREFIXES.some((prefix) => key.startsWith(prefix))) {
      ctx.status = 403;
      ctx.type = 'application/xml';
      ctx.body = ACCESS_DENIED;
      return;
    }
    await next();
  };
}

/** Refuses anonymous reads under `PRIVATE_PREFIXES` of `bucket`; call before `run()`. */
export function enablePrivatePrefixes(server: S3rver, bucket: string): void {
  const router = server.middleware.pop();
  if (router === undefined) throw new Error('s3rver has no router middleware');
  server.middleware.push(privatePrefixMiddleware(bucket), router);
}
