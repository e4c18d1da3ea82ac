/**
 * Fetching a Hub preset into a model directory (`npm run model:fetch`, and `MODEL=<preset> npm
 * start` on its first start): the preset's files at the asked quality (hub-presets.ts), the disk
 * they still need checked against the free space before anything is written, each file's size and
 * hash asked of the Hub (a size that is not the pinned one is refused, naming the file), each file
 * downloaded to its Hub path with progress and resumed where an earlier run stopped, verified
 * against the Hub's LFS sha256 (hub-download.ts), and `songmint-hub-files.json` written last. The
 * three repositories land merged in one folder, as `huggingface-cli download` would put them.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, stat, statfs, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { Result } from '../../../../core/src/result.ts';
import { fail, ok } from '../../../../core/src/result.ts';
import type { HubConnection, Progress, RemoteFile } from '../hub-download.ts';
import { downloadVerified, fileInfo } from '../hub-download.ts';
import type { HubPreset, PlannedFile } from './hub-presets.ts';
import { HUB_RECORD_FILE, HubRecord, planPreset, resolvePreset } from './hub-presets.ts';
import { importAcestep } from './import.ts';
import type { Quality } from './layouts.ts';
import { QUALITIES } from './layouts.ts';
import { readAcestepManifest } from './manifest.ts';

export interface FetchError {
  code: string;
  message: string;
}

export interface FetchOptions {
  preset: HubPreset;
  quality: Quality;
  dir: string;
  connection: HubConnection;
  /** Milliseconds without data after which a download counts as interrupted. */
  stallMs: number;
  log: (line: string) => void;
  progress: (p: Progress) => void;
}

export const gb = (bytes: number): string =>
  bytes >= 1e9 ? `${(bytes / 1e9).toFixed(2)} GB` : bytes >= 1e6 ? `${(bytes / 1e6).toFixed(1)} MB` : `${(bytes / 1e3).toFixed(1)} kB`;

/** Bytes still to download for `files` into `dir` (a complete file needs none, a `.part` what it lacks). */
export async function bytesStillNeeded(dir: string, files: readonly PlannedFile[]): Promise<number> {
  let needed = 0;
  for (const file of files) {
    const target = join(dir, file.path);
    if (existsSync(target) && (await stat(target)).size === file.size) continue;
    const part = `${target}.part`;
    const have = existsSync(part) ? Math.min(file.size, (await stat(part)).size) : 0;
    needed += file.size - have;
  }
  return needed;
}

/** What `--dry-run` prints: each file as `repository@revision path size`, then the disk it needs. */
export function describePlan(files: readonly PlannedFile[]): string[] {
  const total = files.reduce((sum, f) => sum + f.size, 0);
  return [
    ...files.map((f) => `${f.repo}@${f.revision} ${f.path} ${f.size}`),
    `${files.length} files, ${total} bytes (${gb(total)}) of disk needed`,
  ];
}

export async function fetchPreset(options: FetchOptions): Promise<Result<{ record: HubRecord; files: PlannedFile[] }, FetchError>> {
  const { preset, quality, dir, connection, log } = options;
  const plan = planPreset(preset, quality);
  if (!plan.ok) return plan;
  const files = plan.value;

  // The disk first, before anything is written.
  await mkdir(dir, { recursive: true });
  const needed = await bytesStillNeeded(dir, files);
  const disk = await statfs(dir);
  const free = disk.bavail * disk.bsize;
  const total = files.reduce((sum, f) => sum + f.size, 0);
  log(`${preset.name} (${quality}) from ${connection.hubUrl}: ${files.length} files, ${gb(total)}, into ${dir}`);
  log(`  disk: ${gb(needed)} still to download (${gb(free)} free)`);
  if (free < needed) return fail({ code: 'MODEL_DISK_FULL', message: `${gb(needed)} needed, ${gb(free)} free on ${dir}` });

  // What the Hub says of each pinned file: it is there, at the pinned size.
  const remote = new Map<string, RemoteFile>();
  for (const repository of preset.repositories) {
    const wanted = files.filter((f) => f.repo === repository.repo);
    if (wanted.length === 0) continue;
    const info = await fileInfo(
      connection,
      repository.repo,
      repository.revision,
      wanted.map((f) => f.path),
    );
    if (!info.ok) return info;
    for (const file of wanted) {
      const found = info.value.get(file.path);
      if (found === undefined)
        return fail({ code: 'MODEL_FILE_MISSING', message: `${file.repo}@${file.revision} has no ${file.path} (at ${connection.hubUrl})` });
      if (found.size !== file.size)
        return fail({
          code: 'MODEL_SIZE_MISMATCH',
          message: `${file.repo}@${file.revision} ${file.path}: the Hub lists ${found.size} bytes, the preset pins ${file.size}`,
        });
      if (found.sha256 === undefined && found.gitSha1 === undefined)
        return fail({
          code: 'MODEL_DOWNLOAD_FAILED',
          message: `${file.repo}@${file.revision} ${file.path}: the Hub gave no hash to verify it by`,
        });
      remote.set(file.path, found);
    }
  }

  const recorded: HubRecord['files'] = {};
  for (const file of files) {
    const found = remote.get(file.path);
    if (found === undefined) continue;
    const got = await downloadVerified(connection, found, join(dir, file.path), options.progress, options.stallMs);
    if (!got.ok) return got;
    if (got.value.resumedFrom > 0 && got.value.resumedFrom < file.size)
      log(`  resumed ${file.repo}/${file.path} from byte ${got.value.resumedFrom}`);
    recorded[file.path] = { repo: file.repo, sha256: got.value.sha256, size: file.size };
  }
  const record: HubRecord = {
    format: 'songmint-hub-files/2',
    preset: preset.name,
    layout: preset.layout,
    quality,
    endpoint: connection.hubUrl,
    sources: preset.repositories.map((r) => ({ repo: r.repo, revision: r.revision })),
    files: recorded,
  };
  await writeFile(join(dir, HUB_RECORD_FILE), `${JSON.stringify(record, null, 2)}\n`);
  log(`verified every file against the Hub's size and sha256; wrote ${HUB_RECORD_FILE}`);
  return ok({ record, files });
}

/** A bar on a terminal; on a log, a line at 0, 25, 50, 75 and 100 % of each file. */
export function progressBar(stream: NodeJS.WriteStream): (p: Progress) => void {
  let last = '';
  return (p) => {
    const percent = p.total === 0 ? 100 : Math.floor((100 * p.done) / p.total);
    const step = stream.isTTY ? percent : Math.floor(percent / 25) * 25;
    if (`${p.file}:${step}` === last) return;
    last = `${p.file}:${step}`;
    const bar = `${'#'.repeat(Math.floor(percent / 5))}${'.'.repeat(20 - Math.floor(percent / 5))}`;
    const text = `  [${bar}] ${String(percent).padStart(3)}% ${gb(p.done)} / ${gb(p.total)} ${p.file}`;
    stream.write(stream.isTTY ? `\r${text}${percent === 100 ? '\n' : ''}` : `${text}\n`);
  };
}

/** The environment a fetch reads, as the Hub's own tools read it; validated once at start. */
export const FetchEnv = z.object({
  HF_ENDPOINT: z.url().default('https://huggingface.co'),
  HF_TOKEN: z.string().min(1).optional(),
  /** Seconds without data after which a download counts as interrupted (rerun to resume). */
  MODEL_FETCH_STALL_SECONDS: z.coerce.number().positive().max(3600).default(60),
  /** `MODEL=<preset> npm start`'s quality: standard (q4 graphs) or high (q8). */
  MODEL_QUALITY: z.enum(QUALITIES).default('standard'),
});
export type FetchEnv = z.infer<typeof FetchEnv>;

export function connectionOf(env: FetchEnv): HubConnection {
  return { hubUrl: env.HF_ENDPOINT.replace(/\/+$/, ''), accessToken: env.HF_TOKEN };
}

/**
 * `MODEL=<preset> npm start`: the preset's directory ready to run. A directory an earlier start
 * imported from the same preset and quality is reused as it is (the worker checks every file's
 * sha256 when it starts); otherwise the preset is fetched (resuming what an interrupted start left)
 * and imported with model:import's checks.
 */
export async function preparePresetModel(
  options: Omit<FetchOptions, 'preset'> & { model: string },
): Promise<Result<{ dir: string; reused: boolean; name: string }, FetchError>> {
  const preset = await resolvePreset(options.model);
  if (!preset.ok) return preset;
  const manifest = await readAcestepManifest(options.dir);
  const recordPath = join(options.dir, HUB_RECORD_FILE);
  if (manifest.ok && existsSync(recordPath)) {
    const record = HubRecord.safeParse(JSON.parse(await readFile(recordPath, 'utf8')) as unknown);
    if (record.success && record.data.preset === preset.value.name && record.data.quality === options.quality) {
      options.log(`${preset.value.name} (${options.quality}): reusing ${options.dir} (imported earlier; the worker checks it at start)`);
      return ok({ dir: options.dir, reused: true, name: manifest.value.name });
    }
  }
  const fetched = await fetchPreset({ ...options, preset: preset.value });
  if (!fetched.ok) return fetched;
  const imported = await importAcestep({ dir: options.dir, quality: options.quality });
  if (!imported.ok) return imported;
  options.log(
    `imported ${imported.value.manifest.name} into ${options.dir} (${imported.value.verified.length} files verified against ${imported.value.source})`,
  );
  return ok({ dir: options.dir, reused: false, name: imported.value.manifest.name });
}
