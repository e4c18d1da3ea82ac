/**
 * A small ext4 filesystem on a loop-mounted image, for the disk-full fault test
 * (docs/operations.md "Disk full"), and a filler file that uses up its space.
 *
 * Why ext4 on a loop device rather than a size-limited tmpfs: the stack's data lives on a real
 * block filesystem in production, and ext4 behaves like one (block allocation, delayed
 * allocation reserving space at write time, a journal, metadata blocks), where tmpfs is page
 * cache that fails differently. It is made with `-m 0`: no blocks reserved for root, so the
 * stack's root-owned processes (oracle, workers, the S3 server) and PostgreSQL, which runs as the
 * `postgres` account, see the same free space and all run out at once, as on a disk that fills.
 *
 * Mounting needs root (CAP_SYS_ADMIN) and a loop device. Where either is missing,
 * `mountSmallFilesystem` throws a message that says so: the test fails, it is never skipped.
 */
import { execFile, execFileSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, open, rm, statfs } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const COMMAND_TIMEOUT_MS = 30_000;
const FILL_CHUNK = Buffer.alloc(1 << 20, 0x5a);

export interface SmallFilesystem {
  /** The mounted folder. */
  path: string;
  sizeBytes: number;
  /** Writes `filler` until the filesystem answers ENOSPC; returns the bytes written. */
  fill(): Promise<number>;
  /** Deletes the filler: the space comes back. */
  free(): Promise<void>;
  /** Bytes available to an unprivileged process now. */
  availableBytes(): Promise<number>;
  /** Unmounts (lazily, should a process still hold a file) and removes the image; safe to call twice. */
  remove(): Promise<void>;
}

async function command(program: string, args: readonly string[]): Promise<void> {
  await run(program, args, { timeout: COMMAND_TIMEOUT_MS });
}

/** Creates a `sizeMb` ext4 image in the temp folder and mounts it; throws a clear message when it cannot. */
export async function mountSmallFilesystem(sizeMb: number): Promise<SmallFilesystem> {
  const holder = await mkdtemp(join(tmpdir(), 'songmint-diskfull-'));
  const image = join(holder, 'disk.img');
  const path = join(holder, 'mnt');
  const filler = join(path, 'filler');
  let mounted = false;
  // A test process that ends without its `after` hooks (an uncaught error, process.exit) still
  // unmounts: lazily, as its child processes may still hold files there.
  const unmountAtExit = () => {
    try {
      if (mounted) execFileSync('umount', ['-l', path], { stdio: 'ignore', timeout: COMMAND_TIMEOUT_MS });
    } catch {
      // Nothing more can be done at exit; the image stays under the temp folder.
    }
  };
  process.once('exit', unmountAtExit);
  const remove = async () => {
    process.removeListener('exit', unmountAtExit);
    if (mounted) {
      mounted = false;
      await command('umount', [path]).catch(() => command('umount', ['-l', path]).catch(() => undefined));
    }
    await rm(holder, { recursive: true, force: true });
  };
  try {
    // PostgreSQL runs as the `postgres` account: it must be able to enter the mount point.
    await chmod(holder, 0o755);
    await mkdir(path);
    await command('truncate', ['-s', `${sizeMb}M`, image]);
    await command('mkfs.ext4', ['-q', '-F', '-m', '0', image]);
    await command('mount', ['-o', 'loop', image, path]);
    mounted = true;
    await chmod(path, 0o755);
  } catch (error) {
    await remove();
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(
      `cannot mount a ${sizeMb} MB ext4 image on a loop device (needs root with CAP_SYS_ADMIN, a free /dev/loop device, mkfs.ext4): ${reason}`,
      { cause: error },
    );
  }
  return {
    path,
    sizeBytes: sizeMb * 1024 * 1024,
    async fill() {
      const handle = await open(filler, 'a');
      let written = 0;
      try {
        for (const size of [FILL_CHUNK.length, 4096, 512]) {
          for (;;) {
            try {
              written += (await handle.write(FILL_CHUNK, 0, size)).bytesWritten;
            } catch (error) {
              if ((error as NodeJS.ErrnoException).code === 'ENOSPC') break;
              throw error;
            }
          }
        }
      } finally {
        await handle.close().catch(() => undefined);
      }
      return written;
    },
    async free() {
      await rm(filler, { force: true });
    },
    async availableBytes() {
      const stats = await statfs(path);
      return stats.bavail * stats.bsize;
    },
    remove,
  };
}
