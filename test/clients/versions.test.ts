import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { API_VERSION } from '../../oracle/src/http/openapi.ts';
import { servedOpenApiDocument } from '../../oracle/src/http/served-openapi.ts';

const ROOT = new URL('../../', import.meta.url);
const majorMinor = (version: string) => /^(\d+\.\d+)\.\d+/.exec(version)?.[1];

/** The JavaScript clients: every workspace package named @songmint/* (the SDK, the React hooks). */
async function javascriptClients(): Promise<Array<{ name: string; version: string; file: string }>> {
  const root = JSON.parse(await readFile(new URL('package.json', ROOT), 'utf8')) as { workspaces?: string[] };
  const clients: Array<{ name: string; version: string; file: string }> = [];
  for (const pattern of root.workspaces ?? []) {
    const folders = pattern.endsWith('/*')
      ? (await readdir(new URL(pattern.slice(0, -1), ROOT), { withFileTypes: true }))
          .filter((entry) => entry.isDirectory())
          .map((entry) => `${pattern.slice(0, -1)}${entry.name}`)
      : [pattern];
    for (const folder of folders) {
      const file = `${folder}/package.json`;
      const manifest = JSON.parse(await readFile(new URL(file, ROOT), 'utf8')) as { name: string; version: string };
      if (manifest.name.startsWith('@songmint/')) clients.push({ name: manifest.name, version: manifest.version, file });
    }
  }
  return clients;
}

/**
 * The API's version has one home, API_VERSION (the OpenAPI document's info.version); each client's
 * version starts with its major.minor (docs/clients.md, "Versions").
 */
describe("the clients' versions follow the API's", () => {
  it('the served document says API_VERSION', () => {
    assert.equal((servedOpenApiDocument() as { info: { version: string } }).info.version, API_VERSION);
  });

  it('@songmint/* workspace packages and the Python songmint share its major.minor', async () => {
    const api = majorMinor(API_VERSION);
    assert.ok(api !== undefined, `API_VERSION ${API_VERSION} is not x.y.z`);
    const clients = await javascriptClients();
    assert.ok(
      clients.some((client) => client.name === '@songmint/sdk'),
      'the SDK is a workspace',
    );
    const python = await readFile(new URL('clients/python/src/songmint/_version.py', ROOT), 'utf8');
    const pythonVersion = /^__version__ = "([^"]+)"$/m.exec(python)?.[1];
    assert.ok(pythonVersion !== undefined, 'clients/python/src/songmint/_version.py names __version__');
    clients.push({ name: 'songmint (Python)', version: pythonVersion, file: 'clients/python/src/songmint/_version.py' });
    for (const client of clients) {
      assert.equal(majorMinor(client.version), api, `${client.name} ${client.version} (${client.file}) does not follow API ${API_VERSION}`);
    }
    const pyproject = await readFile(new URL('clients/python/pyproject.toml', ROOT), 'utf8');
    assert.match(
      pyproject,
      /version = \{ attr = "songmint\._version\.__version__" \}/,
      'pyproject.toml reads the version from _version.py',
    );
  });
});
