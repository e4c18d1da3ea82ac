import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { servedOpenApiDocument } from '../../oracle/src/http/served-openapi.ts';
import { PYTHON_GENERATED_FILE, renderPythonClient } from '../../scripts/python-codegen.ts';
import type { OpenApiDocument } from '../../scripts/python-codegen.ts';

/**
 * clients/python/src/songmint/_generated.py is what scripts/generate-python-client.ts makes from
 * the oracle's document now; the pytest suite compares it with a running oracle's /openapi.json.
 */
describe("the Python client's generated module", () => {
  it('is the rendering of the served OpenAPI document (else: npm run python:generate)', async () => {
    const document = servedOpenApiDocument() as OpenApiDocument;
    assert.equal(
      await readFile(PYTHON_GENERATED_FILE, 'utf8'),
      renderPythonClient(document),
      'clients/python/src/songmint/_generated.py is stale: run `npm run python:generate` and commit it',
    );
  });

  it('names a method and a type for every operation and schema, and refuses a document it cannot render', () => {
    const document = servedOpenApiDocument() as OpenApiDocument;
    const text = renderPythonClient(document);
    for (const item of Object.values(document.paths)) {
      for (const operation of Object.values(item)) {
        const id = operation.operationId ?? '';
        assert.match(text, new RegExp(`^    ${JSON.stringify(id)}: Operation\\(`, 'm'), id);
      }
    }
    for (const name of Object.keys(document.components?.schemas ?? {})) {
      assert.match(text, new RegExp(`^(class ${name}\\(TypedDict\\)|${name}: TypeAlias = )`, 'm'), name);
    }
    const broken = structuredClone(document);
    broken.components = { schemas: { ...document.components?.schemas, Odd: { type: 'tuple-of-doom' } } };
    assert.throws(() => renderPythonClient(broken), /unsupported schema type tuple-of-doom at Odd/);
  });
});
