/**
 * `npm run model:import -- <dir> [--quality standard|high] [--silence-latent <pt>] [--tokenizer <json>] [--name <name>]`:
 * makes a folder holding the files of a known ACE-Step layout ready for `MODEL_DIR=<dir>`,
 * however they were downloaded (`model:fetch`, `huggingface-cli download` into one folder, the
 * public exporter's 2B directory): recognises the layout by its files, verifies each file against
 * the hash its source recorded, binds every graph by exact names to the layout's table, reads the
 * widths from the graphs, converts the silence latent, writes `songmint-acestep.json` once every
 * check has passed, then runs the checks of `npm run model:check`. Exits 0 when the directory is
 * ready, 1 with the first mismatch.
 */
import { parseArgs } from 'node:util';
import { importAcestep } from '../inference/src/model/acestep/import.ts';
import { QUALITIES } from '../inference/src/model/acestep/layouts.ts';
import type { Quality } from '../inference/src/model/acestep/layouts.ts';
import { loadSongModel } from '../inference/src/model/load-song-model.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    'silence-latent': { type: 'string' },
    tokenizer: { type: 'string' },
    name: { type: 'string' },
    quality: { type: 'string' },
  },
});
const dir = positionals[0];
const quality = values.quality as Quality | undefined;
if (dir === undefined || (quality !== undefined && !QUALITIES.includes(quality))) {
  console.error(
    `usage: npm run model:import -- <dir> [--quality ${QUALITIES.join('|')}] [--silence-latent <silence_latent.pt>] [--tokenizer <tokenizer.json>] [--name <name>]`,
  );
  process.exit(2);
}

function failed(code: string, message: string): never {
  console.error(`model:import FAILED ${dir}\n  ${code}: ${message}`);
  process.exit(1);
}

const imported = await importAcestep({
  dir,
  silenceLatent: values['silence-latent'],
  tokenizer: values.tokenizer,
  name: values.name,
  quality,
});
if (!imported.ok) failed(imported.error.code, imported.error.message);
const { manifest, verified, source, hashedOnly, assumedWidths, notes } = imported.value;
console.log(`layout: ${manifest.layout}${manifest.quality === undefined ? '' : ` (${manifest.quality} quality)`}`);
if (verified.length > 0) console.log(`verified against ${source}: ${verified.join(', ')}`);
if (hashedOnly.length > 0) console.log(`hashed here (no recorded hash): ${hashedOnly.join(', ')}`);
console.log(
  `widths read from the graphs: ${Object.entries(manifest.dims)
    .map(([k, v]) => `${k}=${v}${assumedWidths.includes(k as (typeof assumedWidths)[number]) ? " (undeclared: ACE-Step 1.5's)" : ''}`)
    .join(', ')}`,
);
console.log(`silence latent: ${manifest.silence_latent.shape[0]} frames x ${manifest.silence_latent.shape[1]} channels`);
for (const licence of manifest.licences)
  console.log(
    `licence ${licence.spdx} (commercial minting ${licence.commercial_use ? 'allowed' : 'NOT allowed'}): ${licence.files.join(', ')}`,
  );
for (const note of notes) console.log(`note: ${note}`);
console.log(`wrote ${dir}/songmint-acestep.json (${manifest.name})`);
const loaded = await loadSongModel({ modelDir: dir, device: 'cpu' });
if (!loaded.ok) failed(loaded.error.code, loaded.error.message);
await loaded.value.release();
console.log(`model:import done: ${manifest.name} passes model:check; start it with MODEL_DIR=${dir} npm start`);
