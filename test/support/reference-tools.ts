/**
 * The independent reference tools the tests and benches compare against: `ffmpeg` (makes files
 * in every format a person could upload, and decodes what our decoders and encoders write) and
 * `ffprobe`. Resolved once per call, in this order:
 *
 * 1. the system's, found on `PATH` (Debian's ffmpeg package; `.ci/run` installs it where apt is);
 * 2. else the static build shipped inside an npm package, a devDependency, so that `npm test`
 *    passes on a new machine after `npm install` alone: `@ffmpeg-installer/linux-x64` (ffmpeg
 *    built 2018-12, with libmp3lame and FLAC) and `@ffprobe-installer/linux-x64`. Their own
 *    postinstall only marks the binary executable; where install scripts were skipped, this
 *    module does the same once.
 *
 * Used by tests and benches only: the services never run ffmpeg to read an upload.
 */
import { execFile } from 'node:child_process';
import type { ExecFileOptions } from 'node:child_process';
import { accessSync, chmodSync, constants, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, dirname, join } from 'node:path';
import { promisify } from 'node:util';

export type ReferenceToolName = 'ffmpeg' | 'ffprobe';

export interface ReferenceTool {
  name: ReferenceToolName;
  /** Absolute path of the binary. */
  path: string;
  /** Where it came from: the system's PATH or the npm package. */
  source: 'system' | 'npm';
}

const NPM_PACKAGES: Readonly<Record<ReferenceToolName, string>> = {
  ffmpeg: '@ffmpeg-installer/linux-x64',
  ffprobe: '@ffprobe-installer/linux-x64',
};

function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** `name` on `PATH`, or undefined. */
export function onSystemPath(name: string, path = process.env.PATH ?? ''): string | undefined {
  return path
    .split(delimiter)
    .filter((dir) => dir !== '')
    .map((dir) => join(dir, name))
    .find(isExecutableFile);
}

/** The npm package's binary, made executable where its postinstall did not run; undefined when the package is not installed. */
function fromNpm(name: ReferenceToolName): string | undefined {
  let manifest: string;
  try {
    manifest = createRequire(import.meta.url).resolve(`${NPM_PACKAGES[name]}/package.json`);
  } catch {
    return undefined;
  }
  const binary = join(dirname(manifest), name);
  if (isExecutableFile(binary)) return binary;
  try {
    chmodSync(binary, statSync(binary).mode | 0o100);
  } catch {
    return undefined;
  }
  return isExecutableFile(binary) ? binary : undefined;
}

/** The reference `name`: the system's first, else the npm package's; throws saying how to get one when neither is there. */
export function referenceTool(name: ReferenceToolName): ReferenceTool {
  const system = onSystemPath(name);
  if (system !== undefined) return { name, path: system, source: 'system' };
  const shipped = fromNpm(name);
  if (shipped !== undefined) return { name, path: shipped, source: 'npm' };
  throw new Error(
    `no ${name}: none on PATH and the devDependency ${NPM_PACKAGES[name]} is not installed (run npm install, or apt-get install -y ffmpeg)`,
  );
}

/** Runs the reference `name` with `args`; stdout as a Buffer (raw samples) unless asked otherwise. */
export async function runReference(
  name: ReferenceToolName,
  args: readonly string[],
  options: ExecFileOptions = {},
): Promise<{ stdout: Buffer; stderr: Buffer }> {
  const { stdout, stderr } = await promisify(execFile)(referenceTool(name).path, [...args], {
    maxBuffer: 512 * 1024 * 1024,
    ...options,
    encoding: 'buffer',
  });
  return { stdout, stderr };
}
