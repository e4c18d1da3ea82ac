/**
 * `npm run python:generate`: regenerates clients/python/src/songmint/_generated.py (the Python
 * client's types, operation table and methods) from the oracle's OpenAPI document, built
 * in-process as `npm run sdk:generate` builds it. Run it after changing a route or a schema, and
 * commit the file.
 */
import { writeFile } from 'node:fs/promises';
import { servedOpenApiDocument } from '../oracle/src/http/served-openapi.ts';
import { PYTHON_GENERATED_FILE, renderPythonClient } from './python-codegen.ts';
import type { OpenApiDocument } from './python-codegen.ts';

async function main(): Promise<void> {
  await writeFile(PYTHON_GENERATED_FILE, renderPythonClient(servedOpenApiDocument() as OpenApiDocument));
  console.log('wrote clients/python/src/songmint/_generated.py');
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
