/**
 * A test double for the Hugging Face Hub (the real Hub cannot be reached from here): a loopback
 * HTTP server speaking the part of the Hub's URL scheme that `@huggingface/hub` uses to list and
 * download files, serving repositories from local folders:
 *
 *   GET  /api/models/<owner>/<name>/tree/<revision>?recursive=true  -> [{type, path, size, oid, lfs?}]
 *   POST /api/models/<owner>/<name>/paths-info/<revision> {paths}  -> the same entries for those paths
 *                                                                     (a path the repository lacks is left out)
 *   GET  /<owner>/<name>/resolve/<revision>/<path>                 -> the bytes (Range -> 206), ETag
 *
 * Files of 1 kB or more are listed as LFS files (`lfs.oid` = their sha256), smaller ones with a git
 * blob sha1, as the Hub does for files kept in git. Faults for the tests: `stallAfter(path, bytes)`
 * sends the next body of a file only up to that many bytes and then nothing more (a connection
 * that dies mid-download; the client's stall timeout ends it),
 * `corrupt(path)` serves changed bytes under the listed hash, `misreport(path, size)` lists a
 * size the file does not have. Every request is recorded (with its revision).
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, relative } from 'node:path';

export interface HubRequest {
  method: string;
  url: string;
  /** The revision a tree, paths-info or resolve request named. */
  revision: string | undefined;
  range: string | undefined;
  authorization: string | undefined;
}

export interface HubServer {
  url: string;
  requests: HubRequest[];
  stallAfter(repoPath: string, bytes: number): void;
  corrupt(repoPath: string): void;
  misreport(repoPath: string, size: number): void;
  /** Serves the file as it is again (undoes corrupt and misreport). */
  restore(repoPath: string): void;
  close(): Promise<void>;
}

const LFS_FROM_BYTES = 1024;

function filesUnder(root: string, folder = root): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(root, path));
    else out.push(relative(root, path).split('\\').join('/'));
  }
  return out.sort();
}

/** `repos`: repository id (owner/name) -> local folder holding its files. */
export async function startHubServer(repos: Readonly<Record<string, string>>): Promise<HubServer> {
  const requests: HubRequest[] = [];
  const cuts = new Map<string, number>();
  const corrupted = new Set<string>();
  const sizes = new Map<string, number>();

  const entry = (repo: string, root: string, path: string) => {
    const bytes = readFileSync(join(root, path));
    const gitOid = createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
    const size = sizes.get(`${repo}/${path}`) ?? bytes.length;
    return bytes.length >= LFS_FROM_BYTES
      ? {
          type: 'file',
          path,
          size,
          oid: gitOid,
          lfs: { oid: createHash('sha256').update(bytes).digest('hex'), size, pointerSize: 134 },
        }
      : { type: 'file', path, size, oid: gitOid };
  };
  const listing = (repo: string, root: string) => filesUnder(root).map((path) => entry(repo, root, path));

  const handle = (req: IncomingMessage, res: ServerResponse, body: string): void => {
    const url = new URL(req.url ?? '/', 'http://hub.test');
    const revision = /\/(?:tree|paths-info|resolve)\/([^/]+)/.exec(url.pathname)?.[1];
    requests.push({
      method: req.method ?? 'GET',
      url: url.pathname,
      revision: revision === undefined ? undefined : decodeURIComponent(revision),
      range: req.headers.range,
      authorization: req.headers.authorization,
    });
    const info = /^\/api\/models\/([^/]+\/[^/]+)\/paths-info\/([^/]+)\/?$/.exec(url.pathname);
    if (info !== null && req.method === 'POST') {
      const root = repos[info[1] ?? ''];
      if (root === undefined) {
        res.writeHead(404, { 'content-type': 'application/json', 'x-error-code': 'RepoNotFound' }).end('{"error":"Repository not found"}');
        return;
      }
      const asked = (JSON.parse(body || '{}') as { paths?: string[] }).paths ?? [];
      const present = asked.filter((path) => statSync(join(root, path), { throwIfNoEntry: false })?.isFile() === true);
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify(present.map((path) => entry(info[1] ?? '', root, path))));
      return;
    }
    const tree = /^\/api\/models\/([^/]+\/[^/]+)\/tree\/([^/]+)\/?$/.exec(url.pathname);
    if (tree !== null) {
      const root = repos[tree[1] ?? ''];
      if (root === undefined) {
        res.writeHead(404, { 'content-type': 'application/json', 'x-error-code': 'RepoNotFound' }).end('{"error":"Repository not found"}');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(listing(tree[1] ?? '', root)));
      return;
    }
    const resolve = /^\/([^/]+\/[^/]+)\/resolve\/([^/]+)\/(.+)$/.exec(url.pathname);
    const root = resolve === null ? undefined : repos[resolve[1] ?? ''];
    const path = resolve?.[3] === undefined ? '' : decodeURIComponent(resolve[3]);
    if (resolve === null || root === undefined || !statSync(join(root, path), { throwIfNoEntry: false })?.isFile()) {
      res.writeHead(404, { 'x-error-code': 'EntryNotFound' }).end('Entry not found');
      return;
    }
    const repoPath = `${resolve[1]}/${path}`;
    let bytes = readFileSync(join(root, path));
    if (corrupted.has(repoPath)) {
      bytes = Buffer.from(bytes);
      bytes[bytes.length >> 1] = (bytes[bytes.length >> 1] ?? 0) ^ 0xff;
    }
    const etag = `"${createHash('sha256')
      .update(readFileSync(join(root, path)))
      .digest('hex')}"`;
    const range = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
    if (range !== null) {
      const start = Number(range[1]);
      const end = range[2] === '' || range[2] === undefined ? bytes.length - 1 : Math.min(Number(range[2]), bytes.length - 1);
      const body = bytes.subarray(start, end + 1);
      const cut = cuts.get(repoPath);
      res.writeHead(206, {
        'content-range': `bytes ${start}-${end}/${bytes.length}`,
        'content-length': String(body.length),
        'content-type': 'application/octet-stream',
        etag,
        'accept-ranges': 'bytes',
      });
      // The probe (bytes=0-0) answers whole; a body request may stall once.
      if (cut !== undefined && body.length > 1) {
        cuts.delete(repoPath);
        res.write(body.subarray(0, cut));
        return;
      }
      res.end(body);
      return;
    }
    const cut = cuts.get(repoPath);
    res.writeHead(200, {
      'content-length': String(bytes.length),
      'content-type': 'application/octet-stream',
      etag,
      'accept-ranges': 'bytes',
    });
    if (cut !== undefined) {
      cuts.delete(repoPath);
      res.write(bytes.subarray(0, cut));
      return;
    }
    res.end(bytes);
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => handle(req, res, Buffer.concat(chunks).toString('utf8')));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    stallAfter: (repoPath, bytes) => cuts.set(repoPath, bytes),
    corrupt: (repoPath) => corrupted.add(repoPath),
    misreport: (repoPath, size) => sizes.set(repoPath, size),
    restore: (repoPath) => {
      corrupted.delete(repoPath);
      sizes.delete(repoPath);
    },
    close: () =>
      new Promise<void>((done, failed) => {
        server.closeAllConnections();
        server.close((err) => (err === undefined ? done() : failed(err)));
      }),
  };
}
