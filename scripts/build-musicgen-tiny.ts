/**
 * Builds the tiny MusicGen-format model (the public ONNX export's layout and graph signatures,
 * seeded random weights) into a directory: `npm run build:musicgen-tiny -- <dir> [--licence SPDX
 * --commercial yes|no]`. Then `MODEL_DIR=<dir> npm start` runs the MusicGen backend on it.
 * Deterministic: the same options write the same bytes.
 */
import { parseArgs } from 'node:util';
import { licenceFromSpdx } from '../inference/src/model/licence.ts';
import type { ModelLicence } from '../inference/src/model/licence.ts';
import { writeTinyMusicgen } from '../test/support/tiny-models/musicgen.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { licence: { type: 'string', default: 'MIT' }, commercial: { type: 'string' } },
});
const dir = positionals[0];
if (dir === undefined) {
  console.error('usage: npm run build:musicgen-tiny -- <dir> [--licence SPDX] [--commercial yes|no]');
  process.exit(2);
}
const commercial = values.commercial === undefined ? undefined : values.commercial === 'yes';
if (values.commercial !== undefined && values.commercial !== 'yes' && values.commercial !== 'no') {
  console.error('--commercial must be yes or no');
  process.exit(2);
}
const known = licenceFromSpdx(values.licence);
const licence: ModelLicence | undefined = commercial === undefined ? known : { spdx: values.licence, commercial_use: commercial };
if (licence === undefined) {
  console.error(`licence ${values.licence} does not settle commercial use by itself: add --commercial yes|no`);
  process.exit(2);
}
for (const path of await writeTinyMusicgen(dir, { licence })) console.log(`wrote ${path}`);
