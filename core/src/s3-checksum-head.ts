/**
 * The stored SHA-256 of an object by one signed HEAD request, without the S3 SDK's command
 * pipeline. The audio hash check of every mint signature reads it (`ObjectStore.sha256`), and a
 * `HeadObjectCommand` spends about 0.45 ms of CPU in the SDK's middleware (endpoint rules, schema
 * serde, retry and auth resolution), a fifth of the oracle's CPU per signature; this path spends a
 * fraction of it. The request is signed by the SDK's own SigV4 signer with the client's own
 * credentials provider (so role and session credentials work as for the SDK), and the object URL
 * is the one the SDK uses (a test compares them key by key).
 *
 * It only ever accelerates: a 200 with a full-object SHA-256 is the answer; a 200 without one
 * (no checksum stored, or a composite one) is `none`, and the caller downloads and hashes; any
 * other answer (404, 403, a redirect to another region, an error) is `unknown`, and the caller
 * asks the SDK, whose answer decides. A bug here can therefore cost time, never a wrong not-found
 * or a wrong hash.
 */
import { SignatureV4 } from '@smithy/signature-v4';
import type { AwsCredentialIdentityProvider, ChecksumConstructor, HashConstructor } from '@smithy/types';
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { OBJECT_STORE_DEADLINES } from './object-store-deadlines.ts';

/** SHA-256 of the empty payload, which a HEAD signs. */
const EMPTY_PAYLOAD_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

class HeadSilentError extends Error {
  constructor() {
    super('HEAD had no answer within the idle deadline');
  }
}

export interface ObjectLocation {
  /** S3 endpoint; omit for AWS S3 in `region`. */
  endpoint?: string;
  region: string;
  bucket: string;
  forcePathStyle?: boolean;
}

/** `silent`: the store stayed silent past its idle deadline (the SDK's attempts would wait as long). */
export type ChecksumHeadResult =
  { kind: 'checksum'; hex: string; size: number } | { kind: 'none' } | { kind: 'unknown' } | { kind: 'silent' };

export interface ChecksumHead {
  (key: string): Promise<ChecksumHeadResult>;
  close(): void;
}

export interface ChecksumHeadOptions {
  location: ObjectLocation;
  /** The S3 client's credentials provider (`client.config.credentials`). */
  credentials: AwsCredentialIdentityProvider;
  /** The S3 client's SHA-256 constructor (`client.config.sha256`). */
  sha256: ChecksumConstructor | HashConstructor;
}

/**
 * The URL of the bucket's objects, as the SDK addresses them: virtual-hosted
 * (`bucket.host`) where the bucket name is a valid host name, path-style (`host/bucket`) when
 * asked, for an IP endpoint, for other names, and for names with dots over https (they break the
 * wildcard certificate); on AWS, the `amazonaws.com.cn` domain in the China regions.
 */
export function bucketBaseUrl(location: ObjectLocation): URL {
  const { bucket, region } = location;
  const endpoint = new URL(location.endpoint ?? `https://s3.${region}.${region.startsWith('cn-') ? 'amazonaws.com.cn' : 'amazonaws.com'}`);
  const basePath = endpoint.pathname.replace(/\/+$/, '');
  const virtual =
    location.forcePathStyle !== true &&
    isIP(endpoint.hostname.replace(/^\[|\]$/g, '')) === 0 &&
    isVirtualHostable(bucket, endpoint.protocol === 'http:');
  if (!virtual) return new URL(`${endpoint.origin}${basePath}/${bucket}`);
  return new URL(`${endpoint.protocol}//${bucket}.${endpoint.host}${basePath}`);
}

/** S3's rule for a bucket usable as a host name label (dotted names only where TLS is not in the way). */
function isVirtualHostable(bucket: string, allowDots: boolean): boolean {
  if (bucket.length < 3 || bucket.length > 63 || isIP(bucket) !== 0) return false;
  const labels = allowDots ? bucket.split('.') : [bucket];
  return labels.every((label) => /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/.test(label));
}

/** An object key as a URL path: each segment percent-encoded as RFC 3986 asks, `/` kept. */
export function encodeObjectKey(key: string): string {
  return key
    .split('/')
    .map((segment) => encodeURIComponent(segment).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`))
    .join('/');
}

export function createChecksumHead(options: ChecksumHeadOptions): ChecksumHead {
  const base = bucketBaseUrl(options.location);
  const secure = base.protocol === 'https:';
  const agent = secure ? new HttpsAgent({ keepAlive: true, maxSockets: 64 }) : new HttpAgent({ keepAlive: true, maxSockets: 64 });
  const send = secure ? httpsRequest : httpRequest;
  const basePath = base.pathname.replace(/\/+$/, '');
  const signer = new SignatureV4({
    credentials: options.credentials,
    region: options.location.region,
    service: 's3',
    sha256: options.sha256,
    // S3 signs the path as sent, without the second encoding other services use.
    uriEscapePath: false,
  });

  const head = async (key: string): Promise<ChecksumHeadResult> => {
    try {
      const path = `${basePath}/${encodeObjectKey(key)}`;
      const signed = await signer.sign({
        method: 'HEAD',
        protocol: base.protocol,
        hostname: base.hostname,
        ...(base.port === '' ? {} : { port: Number(base.port) }),
        path,
        query: {},
        headers: { host: base.host, 'x-amz-checksum-mode': 'ENABLED', 'x-amz-content-sha256': EMPTY_PAYLOAD_SHA256 },
      });
      const response = await new Promise<{ status: number; headers: Record<string, string | string[] | undefined> }>((resolve, reject) => {
        const outgoing = send(
          {
            agent,
            method: 'HEAD',
            protocol: base.protocol,
            hostname: base.hostname,
            port: base.port,
            path,
            headers: signed.headers,
            timeout: OBJECT_STORE_DEADLINES.idleMs,
          },
          (incoming) => {
            incoming.resume();
            resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers });
          },
        );
        outgoing.on('timeout', () => outgoing.destroy(new HeadSilentError()));
        outgoing.on('error', reject);
        outgoing.end();
      });
      if (response.status !== 200) return { kind: 'unknown' };
      const hex = fullObjectSha256({
        ChecksumSHA256: header(response.headers, 'x-amz-checksum-sha256'),
        ChecksumType: header(response.headers, 'x-amz-checksum-type'),
      });
      const size = Number(response.headers['content-length']);
      if (!Number.isSafeInteger(size)) return { kind: 'unknown' };
      return hex === undefined ? { kind: 'none' } : { kind: 'checksum', hex, size };
    } catch (error) {
      if (error instanceof HeadSilentError) return { kind: 'silent' };
      // Network or signing trouble: the SDK path retries and reports it properly.
      return { kind: 'unknown' };
    }
  };
  return Object.assign(head, { close: () => agent.destroy() });
}

/**
 * The object's SHA-256 (hex) from a HEAD answer with checksum mode on, when it is the checksum of
 * the whole object: a single-part upload's, or a multipart upload's `FULL_OBJECT` one. A
 * `COMPOSITE` checksum (a hash of the parts' hashes, value suffixed `-<parts>`) is not the SHA-256
 * of the bytes, and gives undefined, as does an object stored without a SHA-256.
 */
export function fullObjectSha256(head: { ChecksumSHA256?: string | undefined; ChecksumType?: string | undefined }): string | undefined {
  const value = head.ChecksumSHA256;
  if (value === undefined || head.ChecksumType === 'COMPOSITE' || value.includes('-')) return undefined;
  const digest = Buffer.from(value, 'base64');
  return digest.byteLength === 32 ? digest.toString('hex') : undefined;
}

function header(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const value = headers[name];
  return typeof value === 'string' ? value : undefined;
}
