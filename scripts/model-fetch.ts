/**
 * `npm run model:fetch -- <preset> [--dir D] [--precision fp32|fp16|q4]`: downloads the minimal
 * DiT-only ACE-Step 1.5 set from the Hugging Face Hub with the Hub's own client library
 * (`@huggingface/hub`), then imports it (`model:import`'s checks included). It honours
 * `HF_ENDPOINT` and `HF_TOKEN` as the Hub's own tools do, prints the disk and memory it needs
 * before it starts, shows progress, resumes an interrupted download on the next run and verifies
 * each file against the Hub's LFS sha256 (hub-download.ts). The worker itself never downloads.
 */
import { mkdir, statfs, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { FETCH_PRESETS, HUB_RECORD_FILE, PRECISIONS, planFetch } from '../inference/src/model/acestep/hub-layout.ts';
import type { HubRecord, Precision } from '../inference/src/model/acestep/hub-layout.ts';
import { importAcestepExport } from '../inference/src/model/acestep/import-export.ts';
import type { Progress } from '../inference/src/model/hub-download.ts';
import { downloadVerified, listRepository } from '../inference/src/model/hub-download.ts';
import { loadSongModel } from '../inference/src/model/load-song-model.ts';

const Env = z.object({
  HF_ENDPOINT: z.url().default('https://huggingface.co'),
  HF_TOKEN: z.string().min(1).optional(),
  /** Seconds without data after which a download counts as interrupted (rerun to resume). */
  MODEL_FETCH_STALL_SECONDS: z.coerce.number().positive().max(3600).default(60),
});
const env = Env.safeParse(process.env);
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { dir: { type: 'string' }, precision: { type: 'string', default: 'fp32' } },
});
const presetName = positionals[0];
const preset = presetName === undefined ? undefined : FETCH_PRESETS[presetName];
const precision = values.precision as Precision;
if (preset === undefined || !PRECISIONS.includes(precision)) {
  console.error(
    `usage: npm run model:fetch -- <preset> [--dir <dir>] [--precision ${PRECISIONS.join('|')}]\n  presets: ${Object.entries(FETCH_PRESETS)
      .map(([name, p]) => `${name} (${p.description})`)
      .join(', ')}`,
  );
  process.exit(2);
}
if (!env.success) {
  console.error(`model:fetch: ${z.prettifyError(env.error)}`);
  process.exit(2);
}
const dir = resolve(values.dir ?? join('models', presetName ?? 'acestep'));
const connection = { hubUrl: env.data.HF_ENDPOINT.replace(/\/+$/, ''), accessToken: env.data.HF_TOKEN };

function failed(code: string, message: string): never {
  console.error(`model:fetch FAILED ${dir}\n  ${code}: ${message}`);
  process.exit(1);
}

const gb = (bytes: number): string =>
  bytes >= 1e9 ? `${(bytes / 1e9).toFixed(2)} GB` : bytes >= 1e6 ? `${(bytes / 1e6).toFixed(1)} MB` : `${(bytes / 1e3).toFixed(1)} kB`;

const onnx = await listRepository(connection, preset.onnxRepo, preset.revision);
if (!onnx.ok) failed(onnx.error.code, onnx.error.message);
const checkpoint = await listRepository(connection, preset.checkpointRepo, preset.revision);
if (!checkpoint.ok) failed(checkpoint.error.code, checkpoint.error.message);
const plan = planFetch(preset, precision, onnx.value, checkpoint.value);
if (!plan.ok) failed(plan.error.code, plan.error.message);

// What it needs, before anything is written: the files on disk; the graphs in memory (projected).
const total = plan.value.files.reduce((sum, f) => sum + f.remote.size, 0);
const graphBytes = plan.value.files.filter((f) => f.local.includes('.onnx')).reduce((sum, f) => sum + f.remote.size, 0);
await mkdir(dir, { recursive: true });
const disk = await statfs(dir);
const free = disk.bavail * disk.bsize;
console.log(`${presetName} (${precision}) from ${connection.hubUrl}: ${plan.value.files.length} files into ${dir}`);
console.log(`  disk: ${gb(total)} (${gb(free)} free)`);
console.log(
  `  memory to run (projected from the graph sizes, not measured): ~${gb(graphBytes * 1.2)} of GPU memory (or host RAM on CPU); import and check open one graph at a time`,
);
if (free < total) failed('MODEL_DISK_FULL', `${gb(total)} needed, ${gb(free)} free on ${dir}`);

/** A bar on a terminal; on a log, a line at 0, 25, 50, 75 and 100 % of each file. */
const progress = (() => {
  let last = '';
  return (p: Progress): void => {
    const percent = p.total === 0 ? 100 : Math.floor((100 * p.done) / p.total);
    const step = process.stderr.isTTY ? percent : Math.floor(percent / 25) * 25;
    if (`${p.file}:${step}` === last) return;
    last = `${p.file}:${step}`;
    const bar = `${'#'.repeat(Math.floor(percent / 5))}${'.'.repeat(20 - Math.floor(percent / 5))}`;
    const text = `  [${bar}] ${String(percent).padStart(3)}% ${gb(p.done)} / ${gb(p.total)} ${p.file}`;
    process.stderr.write(process.stderr.isTTY ? `\r${text}${percent === 100 ? '\n' : ''}` : `${text}\n`);
  };
})();

const hashes: Record<string, string> = {};
for (const { remote, local } of plan.value.files) {
  const got = await downloadVerified(connection, remote, join(dir, local), progress, env.data.MODEL_FETCH_STALL_SECONDS * 1000);
  if (!got.ok) failed(got.error.code, got.error.message);
  if (got.value.resumedFrom > 0 && got.value.resumedFrom < remote.size)
    console.log(`  resumed ${remote.repo}/${remote.path} from byte ${got.value.resumedFrom}`);
  hashes[local] = got.value.sha256;
}
const record: HubRecord = {
  format: 'songmint-hub-files/1',
  endpoint: connection.hubUrl,
  sources: [
    { repo: preset.onnxRepo, revision: preset.revision },
    { repo: preset.checkpointRepo, revision: preset.revision },
  ],
  roles: plan.value.roles,
  silence_latent: plan.value.silenceLatent,
  tokenizer: plan.value.tokenizer,
  files: hashes,
};
await writeFile(join(dir, HUB_RECORD_FILE), `${JSON.stringify(record, null, 2)}\n`);
console.log(`verified every file against the Hub's hashes; wrote ${HUB_RECORD_FILE}`);

const imported = await importAcestepExport({ dir });
if (!imported.ok) failed(imported.error.code, imported.error.message);
const loaded = await loadSongModel({ modelDir: dir, device: 'cpu' });
if (!loaded.ok) failed(loaded.error.code, loaded.error.message);
await loaded.value.release();
console.log(`model:fetch done: ${imported.value.manifest.name} passes model:check; start it with MODEL_DIR=${dir} npm start`);
