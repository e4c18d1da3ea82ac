// s3rver ships no type declarations; this covers the part core/src/testing uses.
declare module 's3rver' {
  import type { IncomingMessage, Server } from 'node:http';
  import type { AddressInfo } from 'node:net';
  import type { Readable } from 'node:stream';

  interface S3rverOptions {
    address?: string;
    port?: number;
    silent?: boolean;
    directory?: string;
    resetOnClose?: boolean;
    configureBuckets?: { name: string; configs?: string[] }[];
  }

  /** The part of a Koa context a middleware in front of s3rver's router reads and writes. */
  export interface S3rverContext {
    method: string;
    /** Path-style (`/bucket/key`) once s3rver's vhost middleware has run. */
    path: string;
    query: Record<string, string | string[] | undefined>;
    /** What s3rver's PUT Object handler stores as the object's content. */
    req: IncomingMessage | Readable;
    status: number;
    body: unknown;
    type: string;
    get(field: string): string;
    set(field: string, value: string): void;
    response: { get(field: string): string };
  }

  export type S3rverMiddleware = (ctx: S3rverContext, next: () => Promise<void>) => Promise<void>;

  export default class S3rver {
    constructor(options?: S3rverOptions);
    httpServer: Server;
    /** Koa's middleware list; the last entry is s3rver's router. */
    middleware: S3rverMiddleware[];
    store: { getResourcePath(bucket: string, key: string, resource: string): string };
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
  }
}
