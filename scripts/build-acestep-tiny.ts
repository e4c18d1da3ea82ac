/**
 * Builds the tiny ACE-Step 1.5 model in the public exporter's 2B layout (its five graphs and the optional
 * remix and VAE-encoder graphs: names, ranks and dtypes, with small widths and seeded random
 * weights) into a directory:
 * `npm run build:acestep-tiny -- <dir> [--guidance <scale>]`. Then `MODEL_DIR=<dir> npm start`
 * runs the ACE-Step backend on it. Deterministic: the same options write the same bytes.
 */
import { parseArgs } from 'node:util';
import { writeTinyAcestep } from '../test/support/tiny-models/acestep.ts';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { guidance: { type: 'string' } } });
const dir = positionals[0];
const guidance = values.guidance === undefined ? undefined : Number(values.guidance);
if (dir === undefined || (guidance !== undefined && !(guidance >= 1 && guidance <= 30))) {
  console.error('usage: npm run build:acestep-tiny -- <dir> [--guidance <scale 1..30>]');
  process.exit(2);
}
for (const path of await writeTinyAcestep(dir, guidance === undefined ? {} : { guidanceScale: guidance })) console.log(`wrote ${path}`);
