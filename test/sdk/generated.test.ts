import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { GENERATED_DIR, GENERATED_FILES, renderAbis, renderAddresses, renderApiTypes } from '../../scripts/sdk-codegen.ts';

const checkedIn = (file: string) => readFile(`${GENERATED_DIR}${file}`, 'utf8');
const HINT = 'stale: run `npm run sdk:generate` and commit sdk/src/generated/';

/**
 * sdk/src/generated/ is what the generator makes from this repository now. (The addresses need a
 * deployment: test/e2e/npm-start.test.ts compares them with the stack's.)
 */
describe('the SDK\'s generated files', () => {
  it('api.ts: the types of the OpenAPI document the oracle serves', async () => {
    assert.equal(await checkedIn(GENERATED_FILES.api), await renderApiTypes(), `api.ts ${HINT}`);
  });

  it('abis.ts: the ABIs of the Hardhat build and the Uniswap v4 packages', async () => {
    assert.equal(await checkedIn(GENERATED_FILES.abis), await renderAbis(), `abis.ts ${HINT}`);
  });

  it('addresses.ts: rendered from a deployment of the same contracts, and refused when one is missing', async () => {
    const text = await checkedIn(GENERATED_FILES.addresses);
    const contracts = Object.fromEntries([...text.matchAll(/^ {4}(\w+): '(0x[0-9a-fA-F]{40})',$/gm)].map((match) => [match[1], match[2]]));
    assert.equal(renderAddresses(contracts), text);
    const { SongVault: _, ...withoutVault } = contracts;
    assert.throws(() => renderAddresses(withoutVault), /the local deployment has no SongVault/);
  });
});
