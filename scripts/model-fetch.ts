/**
 * `npm run model:fetch -- <preset | preset.json> [--dir D] [--quality standard|high] [--dry-run]`:
 * downloads a Hub preset (inference/src/model/acestep/hub-presets.ts; today
 * `acestep-1.5-xl-turbo`: three repositories at pinned commits) with the Hub's own client library
 * (`@huggingface/hub`), then imports it (`model:import`'s checks included). It honours
 * `HF_ENDPOINT` and `HF_TOKEN` as the Hub's own tools do, checks the disk it needs before it
 * starts, refuses a file whose size is not the pinned one (naming it), shows progress, resumes an
 * interrupted download on the next run and verifies each file against the Hub's LFS sha256.
 * `--dry-run` prints every file as `repository@revision path size` and the disk needed, and
 * downloads nothing. The worker itself never downloads.
 */
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { connectionOf, describePlan, FetchEnv, fetchPreset, progressBar } from '../inference/src/model/acestep/fetch.ts';
import { HUB_PRESETS, planPreset, resolvePreset } from '../inference/src/model/acestep/hub-presets.ts';
import { importAcestep } from '../inference/src/model/acestep/import.ts';
import { QUALITIES } from '../inference/src/model/acestep/layouts.ts';
import type { Quality } from '../inference/src/model/acestep/layouts.ts';
import { loadSongModel } from '../inference/src/model/load-song-model.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { dir: { type: 'string' }, quality: { type: 'string', default: 'standard' }, 'dry-run': { type: 'boolean', default: false } },
});
const presetName = positionals[0];
const quality = values.quality as Quality;
if (presetName === undefined || !QUALITIES.includes(quality)) {
  console.error(
    `usage: npm run model:fetch -- <preset | preset.json> [--dir <dir>] [--quality ${QUALITIES.join('|')}] [--dry-run]\n  presets: ${Object.values(
      HUB_PRESETS,
    )
      .map((p) => `${p.name} (${p.description})`)
      .join(', ')}`,
  );
  process.exit(2);
}
const preset = await resolvePreset(presetName);
if (!preset.ok) {
  console.error(`model:fetch: ${preset.error.code}: ${preset.error.message}`);
  process.exit(2);
}
const dir = resolve(values.dir ?? join('models', preset.value.name));

function failed(code: string, message: string): never {
  console.error(`model:fetch FAILED ${dir}\n  ${code}: ${message}`);
  process.exit(1);
}

if (values['dry-run']) {
  const plan = planPreset(preset.value, quality);
  if (!plan.ok) failed(plan.error.code, plan.error.message);
  console.log(`${preset.value.name} (${quality}) into ${dir}: nothing downloaded (--dry-run)`);
  for (const line of describePlan(plan.value)) console.log(line);
  process.exit(0);
}

const env = FetchEnv.safeParse(process.env);
if (!env.success) {
  console.error(`model:fetch: ${z.prettifyError(env.error)}`);
  process.exit(2);
}
const fetched = await fetchPreset({
  preset: preset.value,
  quality,
  dir,
  connection: connectionOf(env.data),
  stallMs: env.data.MODEL_FETCH_STALL_SECONDS * 1000,
  log: (line) => console.log(line),
  progress: progressBar(process.stderr),
});
if (!fetched.ok) failed(fetched.error.code, fetched.error.message);

const imported = await importAcestep({ dir, quality });
if (!imported.ok) failed(imported.error.code, imported.error.message);
const loaded = await loadSongModel({ modelDir: dir, device: 'cpu' });
if (!loaded.ok) failed(loaded.error.code, loaded.error.message);
await loaded.value.release();
console.log(`model:fetch done: ${imported.value.manifest.name} passes model:check; start it with MODEL_DIR=${dir} npm start`);
