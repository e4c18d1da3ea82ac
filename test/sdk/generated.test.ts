import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import {
  GENERATED_DIR,
  GENERATED_FILES,
  renderAbis,
  renderAddresses,
  renderApiTypes,
  renderErrorCodes,
} from '../../scripts/sdk-codegen.ts';
import { ERROR_CODES, HTTP_STATUS } from '../../oracle/src/domain/errors.ts';
import { API_ERROR_CODES } from '../../sdk/src/generated/error-codes.ts';
import { apiErrorFromBody } from '../../sdk/src/errors.ts';

const checkedIn = (file: string) => readFile(`${GENERATED_DIR}${file}`, 'utf8');
const HINT = 'stale: run `npm run sdk:generate` and commit sdk/src/generated/';

/**
 * sdk/src/generated/ is what the generator makes from this repository now. (The addresses need a
 * deployment: test/e2e/npm-start.test.ts compares them with the stack's.)
 */
describe("the SDK's generated files", () => {
  it('api.ts: the types of the OpenAPI document the oracle serves', async () => {
    assert.equal(await checkedIn(GENERATED_FILES.api), await renderApiTypes(), `api.ts ${HINT}`);
  });

  it('error-codes.ts: the ErrorCode enum of the served document', async () => {
    assert.equal(await checkedIn(GENERATED_FILES.errorCodes), renderErrorCodes(), `error-codes.ts ${HINT}`);
  });

  it('the SDK knows exactly the codes the oracle answers with', () => {
    assert.deepEqual(
      [...API_ERROR_CODES].sort(),
      [...ERROR_CODES].sort(),
      `the SDK's error codes differ from oracle/src/domain/errors.ts: ${HINT}`,
    );
    // Each one is read back as itself from both error shapes, not folded into HTTP_<status>.
    for (const code of ERROR_CODES) {
      const status = HTTP_STATUS[code];
      assert.equal(apiErrorFromBody(status, { error: { code, message: 'm', details: '' } }).code, code);
      assert.equal(apiErrorFromBody(status, { error: code, message: 'm', details: {} }).code, code);
    }
    const unknown = apiErrorFromBody(418, { error: { code: 'NEW_001', message: 'from a newer server', details: '' } });
    assert.equal(unknown.code, 'HTTP_418');
    assert.match(unknown.message, /NEW_001: from a newer server/);
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
