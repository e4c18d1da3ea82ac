/**
 * `npm run model:import -- <dir> [--silence-latent <pt>] [--tokenizer <json>] [--name <name>]`:
 * makes a directory as the public ACE-Step 1.5 exporter writes it (its `manifest.json`,
 * `io_contract*.json` and graphs, plus the checkpoint's `silence_latent.pt` and Qwen3-Embedding's
 * `tokenizer.json`) ready for `MODEL_DIR=<dir>`: verifies each graph against the export's sha256,
 * reads the widths from the graphs, converts the silence latent, writes `songmint-acestep.json`,
 * then runs the checks of `npm run model:check` (every file's sha256, each graph opened on CPU and
 * bound to the backend's roles). Exits 0 when the directory is ready, 1 with the first mismatch.
 */
import { parseArgs } from 'node:util';
import { importAcestepExport } from '../inference/src/model/acestep/import-export.ts';
import { loadSongModel } from '../inference/src/model/load-song-model.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { 'silence-latent': { type: 'string' }, tokenizer: { type: 'string' }, name: { type: 'string' } },
});
const dir = positionals[0];
if (dir === undefined) {
  console.error(
    'usage: npm run model:import -- <export dir> [--silence-latent <silence_latent.pt>] [--tokenizer <tokenizer.json>] [--name <name>]',
  );
  process.exit(2);
}

function failed(code: string, message: string): never {
  console.error(`model:import FAILED ${dir}\n  ${code}: ${message}`);
  process.exit(1);
}

const imported = await importAcestepExport({
  dir,
  silenceLatent: values['silence-latent'],
  tokenizer: values.tokenizer,
  name: values.name,
});
if (!imported.ok) failed(imported.error.code, imported.error.message);
const { manifest, verified } = imported.value;
console.log(`verified against the export's manifest.json: ${verified.join(', ')}`);
console.log(
  `widths read from the graphs: ${Object.entries(manifest.dims)
    .map(([k, v]) => `${k}=${v}`)
    .join(', ')}`,
);
console.log(`silence latent: ${manifest.silence_latent.shape[0]} frames x ${manifest.silence_latent.shape[1]} channels`);
console.log(`wrote ${dir}/songmint-acestep.json (${manifest.name}; licences ${manifest.licences.map((l) => l.spdx).join(' AND ')})`);
const loaded = await loadSongModel({ modelDir: dir, device: 'cpu' });
if (!loaded.ok) failed(loaded.error.code, loaded.error.message);
await loaded.value.release();
console.log(`model:import done: ${manifest.name} passes model:check; start it with MODEL_DIR=${dir} npm start`);
