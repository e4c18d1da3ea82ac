/**
 * A real S3-protocol server for tests and the dev stack: s3rver in-process on a free loopback
 * port, storing objects in a fresh temp directory, with one bucket created.
 *
 * SHA-256 additional checksums are added to s3rver (./s3-checksums.ts), so object stores made
 * with `testObjectStoreOptions` read them as on AWS S3.
 *
 * s3rver does NOT verify SigV4 signatures (a wrong secret or a tampered presigned URL is
 * accepted; only the expiry of a presigned URL is checked). Tests here therefore prove the
 * protocol path, not credential checks; production points at AWS S3, R2 or MinIO, which do.
 */
import { join } from 'node:path';
import S3rver from 's3rver';
import type { ObjectStoreOptions } from '../object-store.ts';
import { boundedStep } from '../startup.ts';
import type { StartupBounds } from '../startup.ts';
import { enableAtomicPuts, enableConditionalPuts } from './s3-atomic-put.ts';
import { enableStoredChecksums } from './s3-checksums.ts';
import { enablePrivatePrefixes } from './s3-private-prefix.ts';
import { makeTempDir } from './temp-dirs.ts';

export interface TestS3 {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Closes the server and removes its directory. */
  stop(): Promise<void>;
}

/** Where a test S3 server is and how to sign in to it. */
export type TestS3Location = Pick<TestS3, 'endpoint' | 'bucket' | 'region' | 'accessKeyId' | 'secretAccessKey'>;

/** Object-store options for a test S3 server: path-style, its credentials, public URLs under `publicBaseUrl`. */
export function testObjectStoreOptions(s3: TestS3Location, publicBaseUrl = `${s3.endpoint}/${s3.bucket}`): ObjectStoreOptions {
  return {
    endpoint: s3.endpoint,
    region: s3.region,
    bucket: s3.bucket,
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
    forcePathStyle: true,
    publicBaseUrl,
    storedChecksums: true,
  };
}

export interface TestS3Options {
  bucket?: string;
  /** Keep objects here instead of a fresh temp directory (which is then not removed). */
  directory?: string;
}

/** s3rver's fixed development credentials. */
const S3RVER_KEY = 'S3RVER';

/**
 * A silent s3rver on loopback with SHA-256 additional checksums (./s3-checksums.ts), as the tests,
 * the benchmarks and `npm start` run it; call `run()` on it.
 */
/**
 * Public objects (audio, covers) may be read by a page of any origin, as the production CDN
 * serves them: the web app fetches a song's MP3 to draw its waveform.
 */
const PUBLIC_READ_CORS = `<CORSConfiguration><CORSRule><AllowedOrigin>*</AllowedOrigin><AllowedMethod>GET</AllowedMethod><AllowedMethod>HEAD</AllowedMethod><AllowedHeader>*</AllowedHeader><MaxAgeSeconds>3600</MaxAgeSeconds></CORSRule></CORSConfiguration>`;

export function createLoopbackS3rver(options: { port: number; directory: string; bucket: string }): S3rver {
  const server = new S3rver({
    address: '127.0.0.1',
    port: options.port,
    silent: true,
    directory: options.directory,
    configureBuckets: [{ name: options.bucket, configs: [PUBLIC_READ_CORS] }],
  });
  // s3rver formats a colored log line for every request even when silent (koa-logger, its first
  // middleware), about a quarter of its CPU per HEAD: a silent server does not need it.
  if (server.middleware[0]?.name === 'logger') server.middleware.shift();
  // A PUT that cannot be written whole (a full disk) leaves nothing and answers 507.
  enableAtomicPuts(server);
  enableStoredChecksums(server);
  // After the checksums, which replace a PUT's body: S3's `If-None-Match: *` (create only).
  enableConditionalPuts(server);
  // Previews are private: anonymous reads of preview/ are refused, as the production bucket does.
  enablePrivatePrefixes(server, options.bucket);
  return server;
}

/** How long s3rver may take to create its bucket and listen. */
const S3_START_TIMEOUT_MS = 30_000;

export interface RunningS3rver {
  server: S3rver;
  port: number;
  close(): Promise<void>;
}

/** `createLoopbackS3rver`, started within a bound (core/src/startup.ts). */
export async function runLoopbackS3rver(options: {
  port: number;
  directory: string;
  bucket: string;
  bounds?: StartupBounds;
}): Promise<RunningS3rver> {
  const server = createLoopbackS3rver(options);
  const close = async () => {
    // Keep-alive sockets of S3 clients would hold close() open until they time out.
    if (server.httpServer === undefined) return;
    server.httpServer.closeAllConnections();
    await server.close();
  };
  const address = await boundedStep({
    component: 's3',
    step: `create bucket "${options.bucket}" and listen on 127.0.0.1:${options.port}`,
    main: true,
    timeoutMs: S3_START_TIMEOUT_MS,
    ...(options.bounds === undefined ? {} : { bounds: options.bounds }),
    hint: `objects in ${options.directory}`,
    run: () => server.run(),
    abandon: close,
  });
  return { server, port: address.port, close };
}

export async function startTestS3(options: TestS3Options = {}): Promise<TestS3> {
  const bucket = options.bucket ?? 'songmint-test';
  const temp = options.directory === undefined ? await makeTempDir('s3') : undefined;
  // In a subfolder: s3rver takes every folder at its root for a bucket.
  const directory = options.directory ?? join(temp?.path ?? '', 'objects');
  let running: RunningS3rver;
  try {
    running = await runLoopbackS3rver({ port: 0, directory, bucket });
  } catch (error) {
    await temp?.remove();
    throw error;
  }
  let stopped = false;
  return {
    endpoint: `http://127.0.0.1:${running.port}`,
    bucket,
    region: 'us-east-1',
    accessKeyId: S3RVER_KEY,
    secretAccessKey: S3RVER_KEY,
    async stop() {
      if (stopped) return;
      stopped = true;
      await running.close();
      await temp?.remove();
    },
  };
}
