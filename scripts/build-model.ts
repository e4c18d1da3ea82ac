/**
 * Builds the built-in model into inference/models/builtin/ (model.onnx + manifest.json).
 * Deterministic: running it again yields byte-identical files. No downloads, no Python.
 */
import { stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { builtinModelFiles } from '../inference/src/model/builtin-files.ts';
import { writeModelDirectory } from '../inference/src/model/model-directory.ts';

const outDir = process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..', 'inference', 'models', 'builtin');
for (const path of await writeModelDirectory(outDir, builtinModelFiles())) {
  console.log(`wrote ${path} (${(await stat(path)).size} bytes)`);
}
