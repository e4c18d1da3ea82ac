import { readFileSync } from 'node:fs';
import { buildModule } from '@nomicfoundation/hardhat-ignition/modules';
import { isHex } from 'viem';
import {
  BASE_POOL_MANAGER,
  CREATE2_DEPLOYER,
  create2DeployData,
  mineHookSalt,
  songPoolHookInitCode,
} from '../songmint-hook.ts';
import SongNFTModule from './SongNFT.ts';

/**
 * The whole Songmint protocol: SongNFT (through its own module), the SongToken implementation,
 * SongPoolHook at a CREATE2 address mined for its Uniswap v4 flag bits, and SongVault, which binds
 * itself to the hook in its constructor. Parameters (`SongmintProtocol` in ignition/parameters):
 * `platform` (vault owner, platform fee party), `lpFee`, `tickSpacing`, `startTick`, `tickLower`,
 * `platformShareBps`. See docs/launch.md.
 *
 * The hook's init code holds only the PoolManager address (Base's, fixed), so its address depends
 * on the compiled bytecode alone and is mined here, when the module is built (deterministic, ~0.2 s).
 */
function minedSongPoolHook() {
  const artifactUrl = new URL('../../artifacts/contracts/SongPoolHook.sol/SongPoolHook.json', import.meta.url);
  const artifact: unknown = JSON.parse(readFileSync(artifactUrl, 'utf8'));
  const bytecode = typeof artifact === 'object' && artifact !== null && 'bytecode' in artifact ? artifact.bytecode : undefined;
  if (typeof bytecode !== 'string' || !isHex(bytecode)) {
    throw new Error(`SongPoolHook artifact without bytecode at ${artifactUrl.pathname}: run \`npx hardhat build\``);
  }
  const initCode = songPoolHookInitCode(bytecode, BASE_POOL_MANAGER);
  const mined = mineHookSalt({ initCode });
  if (!mined.ok) throw new Error(mined.message);
  return { address: mined.value.address, deployData: create2DeployData(mined.value.salt, initCode) };
}

export default buildModule('SongmintProtocol', (m) => {
  const { songNFT } = m.useModule(SongNFTModule);
  const minedHook = minedSongPoolHook();

  const tokenImplementation = m.contract('SongToken');
  const deployHook = m.send('DeploySongPoolHook', CREATE2_DEPLOYER, 0n, minedHook.deployData);
  const hook = m.contractAt('SongPoolHook', minedHook.address, { after: [deployHook] });
  const vault = m.contract('SongVault', [
    BASE_POOL_MANAGER,
    songNFT,
    tokenImplementation,
    hook,
    {
      lpFee: m.getParameter('lpFee', 10_000),
      tickSpacing: m.getParameter('tickSpacing', 200),
      startTick: m.getParameter('startTick', 184_200),
      tickLower: m.getParameter('tickLower', -887_200),
      platformShareBps: m.getParameter('platformShareBps', 2_000),
    },
    m.getParameter<string>('platform'),
  ]);

  return { songNFT, tokenImplementation, hook, vault };
});
