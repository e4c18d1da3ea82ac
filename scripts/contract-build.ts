/**
 * Hardhat's build, one process at a time. Hardhat 3 saves its compile cache after every build,
 * even one that compiles nothing, by writing `cache/compile-cache.json.tmp` and moving it over
 * the cache: two processes building at once (parallel test files each starting a local chain)
 * move each other's file away, and one fails with "compile-cache.json.tmp not found" (a fresh
 * clone's `npm test`, 2026-12-01, the smart-wallet suite's setup). A build here holds a lock in
 * the cache folder (./directory-lock.ts); a build of nothing new takes about a second.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import hre from 'hardhat';
import { withDirectoryLock } from './directory-lock.ts';

/** Compiles the contracts (nothing where the artifacts are current), never beside another process's build. */
export async function buildContracts(): Promise<void> {
  // A fresh clone has no cache folder before its first build (npm start's, 2026-12-01: ENOENT).
  await mkdir(hre.config.paths.cache, { recursive: true });
  await withDirectoryLock(join(hre.config.paths.cache, 'build.lock'), async () => {
    await hre.tasks.getTask('build').run({ quiet: true });
  });
}
