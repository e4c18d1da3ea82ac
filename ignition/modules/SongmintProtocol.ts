import { readFileSync } from 'node:fs';
import { buildModule } from '@nomicfoundation/hardhat-ignition/modules';
import { isHex } from 'viem';
import { BASE_POOL_MANAGER, mineHookSalt, songPoolHookInitCode } from '../songmint-hook.ts';
import SongNFTModule from './SongNFT.ts';

/**
 * The whole Songmint protocol: SongNFT (through its own module), the SongToken implementation and
 * SongVault, whose constructor deploys SongPoolHook through the deterministic CREATE2 proxy at an
 * address mined for its Uniswap v4 flag bits and binds itself to it, in one transaction. Parameters (`SongmintProtocol` in ignition/parameters):
 * `platform` (vault owner, platform fee party), `lpFee`, `tickSpacing`, `startTick`, `tickLower`,
 * `platformShareBps`. See docs/launch.md.
 *
 * The hook's init code holds only the PoolManager address (Base's, fixed), so its address depends
 * on the compiled bytecode alone and is mined here, when the module is built (deterministic, ~0.2 s).
 * The SongVault embeds the same SongPoolHook creation code (same build), so the address matches.
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
  return mined.value;
}

export default buildModule('SongmintProtocol', (m) => {
  const { songNFT } = m.useModule(SongNFTModule);
  const minedHook = minedSongPoolHook();

  const tokenImplementation = m.contract('SongToken');
  const vault = m.contract('SongVault', [
    BASE_POOL_MANAGER,
    songNFT,
    tokenImplementation,
    minedHook.salt,
    {
      lpFee: m.getParameter('lpFee', 10_000),
      tickSpacing: m.getParameter('tickSpacing', 200),
      startTick: m.getParameter('startTick', 184_200),
      tickLower: m.getParameter('tickLower', -887_200),
      platformShareBps: m.getParameter('platformShareBps', 2_000),
    },
    m.getParameter<string>('platform'),
  ]);
  const hook = m.contractAt('SongPoolHook', minedHook.address, { after: [vault] });

  return { songNFT, tokenImplementation, hook, vault };
});
