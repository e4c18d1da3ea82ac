/**
 * Signs in to a running oracle with Sign-In with Ethereum and prints the session token.
 *
 *   npx tsx scripts/dev-login.ts                      # http://HOST:PORT as npm start (127.0.0.1:3000), the dev key below
 *   PORT=4000 npx tsx scripts/dev-login.ts            # the stack `PORT=4000 npm start` runs
 *   BASE_URL=http://host:3000 PRIVATE_KEY=0x... npx tsx scripts/dev-login.ts
 *   TOKEN=$(npx tsx scripts/dev-login.ts --token-only)
 *
 * The oracle is found as `npm start` finds its own address: BASE_URL when set, otherwise HOST and
 * PORT with the oracle's defaults (oracle/src/config.ts).
 *
 * The default key is Hardhat's well-known test account #2 (account #1 is the local chain's
 * platform signer): never use it for anything of value.
 */
import type { Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { createSiweMessage } from 'viem/siwe';
import { apiOrigin, loadConfig } from '../oracle/src/config.ts';

const HARDHAT_ACCOUNT_2_KEY: Hex = '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a';

interface NonceResponse {
  nonce: string;
  domain: string;
  uri: string;
  chain_id: number;
}

/** BASE_URL, or the address `npm start` serves the API on from the same HOST and PORT. */
function oracleUrl(env: NodeJS.ProcessEnv): string {
  const explicit = env.BASE_URL ?? '';
  if (explicit !== '') return explicit.replace(/\/+$/, '');
  const loaded = loadConfig(env);
  if (!loaded.ok) throw new Error(`Invalid configuration:\n${loaded.error.problems.map((problem) => `  - ${problem}`).join('\n')}`);
  return apiOrigin(loaded.value);
}

async function main(): Promise<void> {
  const baseUrl = oracleUrl(process.env);
  const key = process.env.PRIVATE_KEY ?? HARDHAT_ACCOUNT_2_KEY;
  if (!/^0x[0-9a-fA-F]{64}$/.test(key)) throw new Error('PRIVATE_KEY must be a 0x-prefixed 32-byte hex key');
  const account = privateKeyToAccount(key as Hex);

  const nonceResponse = await fetch(`${baseUrl}/api/auth/nonce`).catch((error: unknown) => {
    throw new Error(
      `no oracle answers at ${baseUrl} (${error instanceof Error ? error.message : String(error)}): start it with \`npm start\`, or set PORT/HOST or BASE_URL`,
    );
  });
  if (!nonceResponse.ok) throw new Error(`GET /api/auth/nonce: ${nonceResponse.status} ${await nonceResponse.text()}`);
  const challenge = (await nonceResponse.json()) as NonceResponse;
  const message = createSiweMessage({
    address: account.address,
    chainId: challenge.chain_id,
    domain: challenge.domain,
    uri: challenge.uri,
    nonce: challenge.nonce,
    version: '1',
    statement: 'Sign in to Songmint',
    issuedAt: new Date(),
  });
  const signature = await account.signMessage({ message });
  const verify = await fetch(`${baseUrl}/api/auth/verify`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ message, signature }),
  });
  const body = (await verify.json()) as { token?: string; expires_at?: string; user?: { id: string; tier: string } };
  if (!verify.ok || body.token === undefined) throw new Error(`POST /api/auth/verify: ${verify.status} ${JSON.stringify(body)}`);
  if (process.argv.includes('--token-only')) {
    console.log(body.token);
    return;
  }
  console.log(`wallet   ${account.address}`);
  console.log(`user     ${body.user?.id ?? '?'} (tier ${body.user?.tier ?? '?'})`);
  console.log(`expires  ${body.expires_at ?? '?'}`);
  console.log(`token    ${body.token}`);
  console.log(`\nexport TOKEN=${body.token}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
