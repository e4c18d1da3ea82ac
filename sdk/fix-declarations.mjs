// tsc rewrites `.ts` import specifiers to `.js` in emitted JavaScript (rewriteRelativeImportExtensions)
// but not in declaration files: do the same for dist/**/*.d.ts so published types resolve.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

for (const entry of await readdir('dist', { recursive: true })) {
  if (!entry.endsWith('.d.ts')) continue;
  const path = join('dist', entry);
  const text = await readFile(path, 'utf8');
  await writeFile(path, text.replace(/(from\s+['"]\.{1,2}\/[^'"]+)\.ts(['"])/g, '$1.js$2'));
}
