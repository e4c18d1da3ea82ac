import type { HardhatEthers } from '@nomicfoundation/hardhat-ethers/types';
import type { Hex } from 'viem';
import {
  BASE_POOL_MANAGER,
  CREATE2_DEPLOYER,
  create2DeployData,
  mineHookSalt,
  songPoolHookInitCode,
} from '../../ignition/songmint-hook.ts';

/**
 * Deploys a bench hook with SongPoolHook's flags (contracts/bench/NoOpSwapHook, AsmNoOpSwapHook or
 * LeanFeeHookPrototype) through the deterministic CREATE2 proxy at the first salt whose address
 * carries those flag bits (0x28cc); returns its address. Its init code has the same shape as
 * SongPoolHook's (creation code + the PoolManager), so the same miner serves.
 */
export async function deployBenchHook(
  ethers: HardhatEthers,
  name: 'NoOpSwapHook' | 'AsmNoOpSwapHook' | 'LeanFeeHookPrototype',
): Promise<string> {
  const [deployer] = await ethers.getSigners();
  if (deployer === undefined) throw new Error('no signer');
  const factory = await ethers.getContractFactory(name);
  const initCode = songPoolHookInitCode(factory.bytecode as Hex, BASE_POOL_MANAGER);
  const mined = mineHookSalt({ initCode, deployer: CREATE2_DEPLOYER });
  if (!mined.ok) throw new Error(mined.message);
  await (await deployer.sendTransaction({ to: CREATE2_DEPLOYER, data: create2DeployData(mined.value.salt, initCode) })).wait();
  if ((await ethers.provider.getCode(mined.value.address)) === '0x') throw new Error(`${name} was not deployed`);
  return mined.value.address;
}
