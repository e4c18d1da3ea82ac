/**
 * Downloads files from Hugging Face Hub repositories with the Hub's own client library
 * (`@huggingface/hub`: `pathsInfo` for each pinned file's size and hash, `POST
 * /api/models/<repo>/paths-info/<revision>`; `downloadFile` for its bytes, `GET
 * /<repo>/resolve/<revision>/<path>` with a Range header), for `npm run model:fetch` and `MODEL=<preset>
 * npm start`; the worker never downloads. Each file is written to `<target>.part` and resumed
 * from the part's length on the next run (a ranged request through the client's blob), then
 * checked against its size and the Hub's hash (the LFS sha256, or the git blob sha1 of a small
 * file kept in git) before it takes its name: a mismatch deletes the part and names the file.
 */
import { createHash } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { ReadableStreamDefaultReader, ReadableStreamReadResult } from 'node:stream/web';
import { downloadFile, pathsInfo } from '@huggingface/hub';
import type { Result } from '../../../core/src/result.ts';
import { fail, ok } from '../../../core/src/result.ts';

export interface HubConnection {
  /** `HF_ENDPOINT`, as the Hub's own tools read it; https://huggingface.co by default. */
  hubUrl: string;
  /** `HF_TOKEN`, sent as a bearer token when set. */
  accessToken?: string | undefined;
}

export interface RemoteFile {
  repo: string;
  revision: string;
  path: string;
  size: number;
  /** `sha256` for an LFS file, `gitSha1` for a file kept in git. */
  sha256?: string | undefined;
  gitSha1?: string | undefined;
}

export type DownloadErrorCode = 'MODEL_DOWNLOAD_FAILED' | 'MODEL_CHECKSUM_MISMATCH' | 'MODEL_FILE_MISSING' | 'MODEL_SIZE_MISMATCH';
export interface DownloadError {
  code: DownloadErrorCode;
  message: string;
}

export interface Progress {
  file: string;
  done: number;
  total: number;
}

/** The Hub's size and hash of each of `paths` in a repository at a revision; a path it lacks is absent. */
export async function fileInfo(
  connection: HubConnection,
  repo: string,
  revision: string,
  paths: readonly string[],
): Promise<Result<Map<string, RemoteFile>, DownloadError>> {
  const files = new Map<string, RemoteFile>();
  try {
    const entries = await pathsInfo({
      repo,
      revision,
      paths: [...paths],
      hubUrl: connection.hubUrl,
      ...(connection.accessToken === undefined ? {} : { accessToken: connection.accessToken }),
    });
    for (const entry of entries) {
      if (entry.type !== 'file') continue;
      files.set(entry.path, {
        repo,
        revision,
        path: entry.path,
        size: entry.lfs?.size ?? entry.size,
        sha256: entry.lfs?.oid,
        gitSha1: entry.lfs === undefined ? entry.oid : undefined,
      });
    }
  } catch (err) {
    return fail({
      code: 'MODEL_DOWNLOAD_FAILED',
      message: `asking ${connection.hubUrl} about ${repo}@${revision}: ${err instanceof Error ? err.message : String(err)}`,
    });
  }
  return ok(files);
}

/** The hash the Hub records for a file: sha256 of the bytes (LFS), or git's sha1 of `blob <size>\0<bytes>`. */
async function hubHash(path: string, file: RemoteFile): Promise<{ expected: string; found: string; sha256: string }> {
  const sha256 = createHash('sha256');
  const sha1 = createHash('sha1');
  sha1.update(`blob ${(await stat(path)).size}\0`);
  for await (const chunk of createReadStream(path)) {
    sha256.update(chunk as Buffer);
    sha1.update(chunk as Buffer);
  }
  const sha256Hex = sha256.digest('hex');
  if (file.sha256 !== undefined) return { expected: file.sha256, found: sha256Hex, sha256: sha256Hex };
  return { expected: file.gitSha1 ?? '', found: sha1.digest('hex'), sha256: sha256Hex };
}

/** The next chunk, or an error when none comes within `ms` (a stalled connection is cancelled). */
async function readWithin(reader: ReadableStreamDefaultReader<Uint8Array>, ms: number): Promise<ReadableStreamReadResult<Uint8Array>> {
  let timer: NodeJS.Timeout | undefined;
  const stalled = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      // Rejected before the cancel, which ends the pending read as if the file were complete.
      reject(new Error(`no data for ${ms / 1000} s`));
      void reader.cancel().catch(() => undefined);
    }, ms);
  });
  try {
    return await Promise.race([reader.read(), stalled]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Downloads `file` to `target` unless it is already there and verified; resumes a `.part` left
 * by an interrupted run; a connection that sends nothing for `stallMs` counts as interrupted.
 * Returns the file's sha256.
 */
export async function downloadVerified(
  connection: HubConnection,
  file: RemoteFile,
  target: string,
  progress: (p: Progress) => void,
  stallMs = 60_000,
): Promise<Result<{ sha256: string; resumedFrom: number }, DownloadError>> {
  const name = `${file.repo}/${file.path}`;
  if (existsSync(target)) {
    const hash = await hubHash(target, file);
    if (hash.found === hash.expected) {
      progress({ file: name, done: file.size, total: file.size });
      return ok({ sha256: hash.sha256, resumedFrom: file.size });
    }
  }
  const part = `${target}.part`;
  await mkdir(dirname(target), { recursive: true });
  let offset = existsSync(part) ? (await stat(part)).size : 0;
  if (offset > file.size) {
    await rm(part);
    offset = 0;
  }
  const resumedFrom = offset;
  if (offset < file.size) {
    let handle: FileHandle | undefined;
    try {
      const blob = await downloadFile({
        repo: file.repo,
        path: file.path,
        revision: file.revision,
        hubUrl: connection.hubUrl,
        accessToken: connection.accessToken,
      });
      if (blob === null) return fail({ code: 'MODEL_FILE_MISSING', message: `${name} is not on ${connection.hubUrl}` });
      // Each chunk is on disk before the next is read, so an interrupted run keeps all it wrote.
      handle = await open(part, 'a');
      const reader = blob.slice(offset).stream().getReader();
      let done = offset;
      for (;;) {
        const next = await readWithin(reader, stallMs);
        if (next.done) break;
        await handle.write(next.value);
        done += next.value.length;
        progress({ file: name, done, total: file.size });
      }
    } catch (err) {
      await handle?.close();
      handle = undefined;
      const have = existsSync(part) ? (await stat(part)).size : 0;
      return fail({
        code: 'MODEL_DOWNLOAD_FAILED',
        message: `${name}: ${err instanceof Error ? err.message : String(err)}; ${have} of ${file.size} bytes kept in ${part}, run the command again to resume`,
      });
    } finally {
      await handle?.close();
    }
  }
  const size = (await stat(part)).size;
  if (size !== file.size) {
    await rm(part);
    return fail({
      code: 'MODEL_SIZE_MISMATCH',
      message: `${name}: ${size} bytes arrived, the Hub lists ${file.size}; the download was deleted`,
    });
  }
  const hash = await hubHash(part, file);
  if (hash.found !== hash.expected) {
    await rm(part);
    return fail({
      code: 'MODEL_CHECKSUM_MISMATCH',
      message: `${name}: ${file.sha256 !== undefined ? 'LFS sha256' : 'git sha1'} expected ${hash.expected} (the Hub's), found ${hash.found}; the download was deleted`,
    });
  }
  await rename(part, target);
  return ok({ sha256: hash.sha256, resumedFrom });
}
