import { concat, encodeAbiParameters, getContractAddress, keccak256, numberToHex, type Address, type Hex } from 'viem';

/** Uniswap v4 PoolManager on Base mainnet (also placed there on the simulated `base` network). */
export const BASE_POOL_MANAGER: Address = '0x498581fF718922c3f8e6A244956aF099B2652b2b';

/**
 * The deterministic deployment proxy (Arachnid), present on Base: calldata = salt ++ init code.
 * Songmint does not deploy through it (the vault deploys its hook itself); the local chain places
 * it as Base has it, and the tests use it as a stranger would.
 */
export const CREATE2_DEPLOYER: Address = '0x4e59b44847b379578588920cA78FbF26c0B4956C';

/** Runtime code of the deterministic deployment proxy, for chains that lack it (local ones). */
export const CREATE2_DEPLOYER_RUNTIME_CODE: Hex =
  '0x7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe03601600081602082378035828234f58015156039578182fd5b8082525050506014600cf3';

/**
 * Uniswap v4 reads a hook's callbacks from the low 14 bits of its address. SongPoolHook uses
 * beforeInitialize (bit 13), beforeAddLiquidity (11), beforeSwap (7), afterSwap (6),
 * beforeSwapReturnDelta (3) and afterSwapReturnDelta (2): 0x28cc; every other bit must be clear.
 * (`SongPoolHook.HOOK_FLAGS` on chain.)
 */
export const SONG_POOL_HOOK_FLAGS = (1n << 13n) | (1n << 11n) | (1n << 7n) | (1n << 6n) | (1n << 3n) | (1n << 2n);
export const HOOK_FLAG_MASK = (1n << 14n) - 1n;

/** SongPoolHook's init code: its creation bytecode and constructor argument (the PoolManager). */
export function songPoolHookInitCode(creationBytecode: Hex, poolManager: Address): Hex {
  return concat([creationBytecode, encodeAbiParameters([{ type: 'address' }], [poolManager])]);
}

export interface MinedHook {
  salt: Hex;
  address: Address;
}

export type MineHookResult = { ok: true; value: MinedHook } | { ok: false; code: 'HOOK_SALT_NOT_FOUND'; message: string };

/**
 * Finds the first salt (counting up from `start`) whose CREATE2 address from `deployer` carries
 * exactly `flags` in its low 14 bits. With the SongVault as `deployer` and `start` 0 this is the
 * search the vault's constructor runs on chain, so it predicts the vault's hook address (the
 * vault's own address comes first: its deployer and nonce). One address in 16,384 matches, so the
 * default bound fails with probability below 1e-10.
 */
export function mineHookSalt(input: {
  initCode: Hex;
  deployer: Address;
  flags?: bigint;
  start?: bigint;
  maxIterations?: number;
}): MineHookResult {
  const flags = input.flags ?? SONG_POOL_HOOK_FLAGS;
  const bytecodeHash = keccak256(input.initCode);
  const start = input.start ?? 0n;
  const maxIterations = input.maxIterations ?? 400_000;
  for (let i = 0; i < maxIterations; i++) {
    const salt = numberToHex(start + BigInt(i), { size: 32 });
    const address = getContractAddress({ opcode: 'CREATE2', from: input.deployer, salt, bytecodeHash });
    if ((BigInt(address) & HOOK_FLAG_MASK) === flags) return { ok: true, value: { salt, address } };
  }
  return { ok: false, code: 'HOOK_SALT_NOT_FOUND', message: `no salt in ${maxIterations} tries from ${start}` };
}

/** The calldata that makes the deterministic deployment proxy deploy `initCode` with `salt`. */
export function create2DeployData(salt: Hex, initCode: Hex): Hex {
  return concat([salt, initCode]);
}
