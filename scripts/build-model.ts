/**
 * Builds the built-in model into inference/models/builtin/ (model.onnx + manifest.json).
 * Deterministic: running it again yields byte-identical files. No downloads, no Python.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { builtinModelFiles } from '../inference/src/model/builtin-files.ts';

const outDir = process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..', 'inference', 'models', 'builtin');
await mkdir(outDir, { recursive: true });
for (const [name, bytes] of Object.entries(builtinModelFiles())) {
  await writeFile(join(outDir, name), bytes);
  console.log(`wrote ${join(outDir, name)} (${bytes.length} bytes)`);
}
