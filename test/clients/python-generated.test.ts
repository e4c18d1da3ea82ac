import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
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

  it('renders what routes added later may use: allOf, const, a nullable object, a binary answer (valid Python)', () => {
    const document: OpenApiDocument = {
      info: { version: '1.2.0' },
      paths: {
        '/api/songs/{song_id}/stems': {
          get: {
            operationId: 'getSongStems',
            parameters: [{ name: 'song_id', in: 'path', required: true, schema: { type: 'string' } }],
            responses: { '200': { content: { 'application/zip': { schema: { type: 'string', format: 'binary' } } } } },
            security: [{ bearer: [] }],
          },
        },
        '/api/songs/{song_id}/tags': {
          put: {
            operationId: 'putSongTags',
            parameters: [{ name: 'song_id', in: 'path', required: true, schema: { type: 'string' } }],
            requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Tagged' } } } },
            responses: { '200': { content: { 'application/json': { schema: { $ref: '#/components/schemas/Owner' } } } } },
          },
        },
      },
      components: {
        schemas: {
          ErrorCode: { type: 'string', enum: ['NOT_FOUND'] },
          Named: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
          Tagged: {
            allOf: [
              { $ref: '#/components/schemas/Named' },
              { type: 'object', properties: { kind: { const: 'tags' }, tags: { type: 'array', items: { type: 'string' } } } },
            ],
          },
          Owner: { type: ['object', 'null'], properties: { address: { type: 'string' } }, required: ['address'] },
        },
      },
    };
    const text = renderPythonClient(document);
    assert.match(
      text,
      /^class TaggedFields\(TypedDict\):\n {4}name: str\n {4}kind: NotRequired\[Literal\["tags"\]\]\n {4}tags: NotRequired\[list\[str\]\]$/m,
    );
    assert.match(text, /^Tagged: TypeAlias = 'TaggedFields'$/m);
    assert.match(text, /^Owner: TypeAlias = 'OwnerFields \| None'$/m);
    assert.match(text, /result="bytes"/);
    assert.match(text, /def get_song_stems\(self, song_id: str\) -> bytes:/);
    assert.match(text, /def put_song_tags\(self, song_id: str, body: Tagged\) -> Owner:/);
    assert.match(text, /^API_VERSION: Final = "1.2.0"$/m);
    if (existsSync('/usr/bin/python3'))
      execFileSync('/usr/bin/python3', ['-c', 'import ast, sys; ast.parse(sys.stdin.read())'], { input: text });
  });
});
