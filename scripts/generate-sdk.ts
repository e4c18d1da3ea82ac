/**
 * `npm run sdk:generate`: regenerates sdk/src/generated/ (API types and error codes from the
 * oracle's OpenAPI document, built in-process; ABIs from the Hardhat build and the Uniswap v4 packages; the local
 * chain's addresses from a fresh deployment by scripts/local-chain.ts).
 *
 *   npm run sdk:generate                 # all three (starts and stops a local chain)
 *   npm run sdk:generate -- --no-chain   # API types and ABIs only
 */
import { writeFile } from 'node:fs/promises';
import { GENERATED_DIR, GENERATED_FILES, renderAbis, renderAddresses, renderApiTypes, renderErrorCodes } from './sdk-codegen.ts';

async function main(): Promise<void> {
  const written: string[] = [];
  const write = async (file: string, text: string) => {
    await writeFile(`${GENERATED_DIR}${file}`, text);
    written.push(`sdk/src/generated/${file}`);
  };
  await write(GENERATED_FILES.api, await renderApiTypes());
  await write(GENERATED_FILES.errorCodes, renderErrorCodes());
  await write(GENERATED_FILES.abis, await renderAbis());
  if (!process.argv.includes('--no-chain')) {
    const { startLocalChain } = await import('./local-chain.ts');
    const chain = await startLocalChain();
    try {
      await write(GENERATED_FILES.addresses, renderAddresses(chain.contracts));
    } finally {
      await chain.stop();
    }
  }
  console.log(`wrote ${written.join(', ')}`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
