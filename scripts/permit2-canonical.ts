/**
 * Permit2's canonical deployment, as every chain (Base included) has it: the deterministic
 * deployment proxy called with Uniswap/permit2's salt and creation code lands it at
 * 0x000000000022D473030F116dDEE9F6B43aC78BA3, where its constructor caches the chain id and the
 * EIP-712 domain separator of that chain. The creation code is built by scripts/build-permit2.ts
 * (`npm run build:permit2`) and kept in scripts/fixtures/permit2-canonical.json.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { concat, getCreate2Address, keccak256 } from 'viem';
import type { Address, Hex } from 'viem';

export const BASE_PERMIT2: Address = '0x000000000022D473030F116dDEE9F6B43aC78BA3';
/** Uniswap/permit2 `script/DeployPermit2.s.sol`: `SALT`. */
export const PERMIT2_SALT: Hex = '0x0000000000000000000000000000000000000000d3af2663da51c10215000000';
export const PERMIT2_FIXTURE = fileURLToPath(new URL('./fixtures/permit2-canonical.json', import.meta.url));

export interface Permit2Fixture {
  compiler: string;
  source: string;
  settings: string;
  salt: Hex;
  deployer: Address;
  address: Address;
  /** The creation code (constructor included). */
  initCode: Hex;
  /** Where the runtime code holds its immutables (cached chain id and domain separator), byte offsets. */
  immutableReferences: Array<{ start: number; length: number }>;
}

/** The fixture, checked: its creation code must deploy to Permit2's address from the proxy. */
export function permit2Fixture(): Permit2Fixture {
  const fixture = JSON.parse(readFileSync(PERMIT2_FIXTURE, 'utf8')) as Permit2Fixture;
  const address = getCreate2Address({ from: fixture.deployer, salt: fixture.salt, bytecodeHash: keccak256(fixture.initCode) });
  if (address !== BASE_PERMIT2 || fixture.salt !== PERMIT2_SALT)
    throw new Error(`${PERMIT2_FIXTURE}: its creation code deploys to ${address}, not ${BASE_PERMIT2}`);
  return fixture;
}

/** The deterministic deployment proxy's calldata: salt, then the creation code. */
export function permit2DeployData(fixture: Permit2Fixture = permit2Fixture()): Hex {
  return concat([fixture.salt, fixture.initCode]);
}
