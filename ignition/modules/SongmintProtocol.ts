import { buildModule } from '@nomicfoundation/hardhat-ignition/modules';
import { BASE_POOL_MANAGER } from '../songmint-hook.ts';
import SongNFTModule from './SongNFT.ts';

/** Default cliff of a creator's allocation: 7 days, the least SongVault accepts. */
export const ALLOCATION_CLIFF_SECONDS = 7 * 24 * 60 * 60;
/** Default linear vesting period of a creator's allocation after its cliff: 180 days. */
export const ALLOCATION_VESTING_PERIOD_SECONDS = 180 * 24 * 60 * 60;

/**
 * The whole Songmint protocol: SongNFT (through its own module), the SongToken implementation (made
 * for that SongNFT) and SongVault, whose constructor mines a CREATE2 salt for SongPoolHook's
 * Uniswap v4 flag bits and deploys the hook from its own address, bound to it, in the same
 * transaction (the module reads the hook's address back from `vault.hook()`). Nothing is mined when
 * the module is built and no salt is a parameter: the hook's address follows from the vault's, so
 * no one can take it first. Parameters (`SongmintProtocol` in ignition/parameters): `platform`
 * (vault owner, platform fee party), `lpFee`, `tickSpacing`, `startTick`, `tickLower`,
 * `platformShareBps`, `allocationCliff` and `allocationVestingPeriod` (seconds; the vault refuses a
 * cliff under 7 days or a period under 30). See docs/launch.md.
 */
export default buildModule('SongmintProtocol', (m) => {
  const { songNFT } = m.useModule(SongNFTModule);

  const tokenImplementation = m.contract('SongToken', [songNFT]);
  const vault = m.contract('SongVault', [
    BASE_POOL_MANAGER,
    songNFT,
    tokenImplementation,
    {
      lpFee: m.getParameter('lpFee', 10_000),
      tickSpacing: m.getParameter('tickSpacing', 200),
      startTick: m.getParameter('startTick', 184_200),
      tickLower: m.getParameter('tickLower', -887_200),
      platformShareBps: m.getParameter('platformShareBps', 2_000),
      allocationCliff: m.getParameter('allocationCliff', ALLOCATION_CLIFF_SECONDS),
      allocationVestingPeriod: m.getParameter('allocationVestingPeriod', ALLOCATION_VESTING_PERIOD_SECONDS),
    },
    m.getParameter<string>('platform'),
  ]);
  const hook = m.contractAt('SongPoolHook', m.staticCall(vault, 'hook'));

  return { songNFT, tokenImplementation, hook, vault };
});
