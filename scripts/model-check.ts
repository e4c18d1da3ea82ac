/**
 * `npm run model:check -- <dir> [--files-only]`: validates a model directory the way the worker
 * does at start, without generating anything. For an ACE-Step 1.5 directory: the manifest and
 * every file's sha256, then each graph opened on CPU and bound by exact names to its layout's
 * table (inference/src/model/acestep/layouts.ts: dtypes, ranks, the manifest's widths) and, for the
 * exporter's 2B directory, compared with its `io_contract_core.json` (`--files-only` skips the
 * graphs, for a host without the memory to open them). Other layouts are loaded and released.
 * Exits 0 when the directory passes, 1 with the first mismatch otherwise.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ACESTEP_MANIFEST_FILE, combinedLicence, manifestGraphs, readAcestepManifest } from '../inference/src/model/acestep/manifest.ts';
import { validateFiles } from '../inference/src/model/acestep/validate.ts';
import { loadSongModel } from '../inference/src/model/load-song-model.ts';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { 'files-only': { type: 'boolean', default: false } } });
const dir = positionals[0];
if (dir === undefined) {
  console.error('usage: npm run model:check -- <model dir> [--files-only]');
  process.exit(2);
}

function failed(code: string, message: string): never {
  console.error(`model:check FAILED ${dir}\n  ${code}: ${message}`);
  process.exit(1);
}

if (existsSync(join(dir, ACESTEP_MANIFEST_FILE))) {
  const read = await readAcestepManifest(dir);
  if (!read.ok) failed(read.error.code, read.error.message);
  const manifest = read.value;
  const files = await validateFiles(dir, manifest);
  if (!files.ok) failed(files.error.code, files.error.message);
  console.log(`${manifest.name} ${manifest.version} (ACE-Step 1.5, layout ${manifest.layout}): manifest and sha256 of every file pass`);
  for (const source of manifest.sources) console.log(`  from ${source.repo}@${source.revision}`);
  for (const { graph, entry } of manifestGraphs(manifest)) console.log(`  ${graph}: ${entry.file} (${entry.precision})`);
  console.log(
    `  widths: ${Object.entries(manifest.dims)
      .map(([k, v]) => `${k}=${v}`)
      .join(', ')}`,
  );
  const schedule = manifest.schedule;
  console.log(
    `  schedule: request steps ${Object.entries(schedule.steps_for_request)
      .map(([k, v]) => `${k} -> ${v}`)
      .join(', ')} diffusion steps, shift ${schedule.shift}, guidance ${schedule.guidance_scale}`,
  );
  const licence = combinedLicence(manifest);
  for (const l of manifest.licences)
    console.log(
      `  licence ${l.spdx} (${l.component}; commercial minting ${l.commercial_use ? 'allowed' : 'NOT allowed'}): ${l.files.join(', ')}`,
    );
  console.log(`  songs may be minted: ${licence.commercial_use ? 'yes' : 'no'} (${licence.spdx})`);
  if (values['files-only']) process.exit(0);
}

const loaded = await loadSongModel({ modelDir: dir, device: 'cpu' });
if (!loaded.ok) failed(loaded.error.code, loaded.error.message);
console.log(
  `model:check passed: ${loaded.value.name} ${loaded.value.version} (${loaded.value.format}) loads on CPU; request steps ${loaded.value.steps.join(', ')}; licence ${loaded.value.licence.spdx}; ${loaded.value.sings ? 'sings lyrics' : 'instrumental (does not sing)'}`,
);
// What the model can edit and import, as its workers' heartbeats will tell the oracle (EDIT_005 names a lack).
const can = (lack: string | null): string => (lack === null ? 'yes' : `no (${lack})`);
console.log(
  `  edits: ${Object.entries(loaded.value.editSupport)
    .map(([task, lack]) => `${task} ${can(lack)}`)
    .join(', ')}; uploaded audio ${can(loaded.value.importSupport)}; sings lyrics ${loaded.value.sings ? 'yes' : 'no (instrumental)'}`,
);
await loaded.value.release();
