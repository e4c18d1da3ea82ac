import { it } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { servedOpenApiDocument } from '../../oracle/src/http/served-openapi.ts';

it("versions @songmint/react and @songmint/sdk as the API they speak (the OpenAPI document's info.version)", async () => {
  const apiVersion = (servedOpenApiDocument() as { info: { version: string } }).info.version;
  for (const manifest of ['react/package.json', 'sdk/package.json']) {
    const { version } = JSON.parse(await readFile(manifest, 'utf8')) as { version: string };
    assert.equal(version, apiVersion, manifest);
  }
  const react = JSON.parse(await readFile('react/package.json', 'utf8')) as { dependencies: Record<string, string> };
  assert.equal(react.dependencies['@songmint/sdk'], apiVersion, '@songmint/react depends on the SDK of its version');
});
