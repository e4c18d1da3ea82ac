import { buildModule } from '@nomicfoundation/hardhat-ignition/modules';

/**
 * SongNFT on its own. Parameters (module id `SongNFT` in ignition/parameters/*.json):
 * - `owner`: admin of the contract (two-step ownership; rotates the signer, sets the royalty);
 * - `platformSigner`: address of the key the oracle signs mints with (PLATFORM_SIGNER_KEY);
 * - `royaltyBps`: ERC-2981 royalty paid to each song's creator, in basis points (default 500,
 *   at most 1,000).
 * Every deployment (chain, environment) must get its own platform key: mint signatures carry no
 * chain id or contract address. See docs/minting.md.
 */
export default buildModule('SongNFT', (m) => {
  const songNFT = m.contract('SongNFT', [
    m.getParameter<string>('owner'),
    m.getParameter<string>('platformSigner'),
    m.getParameter<number>('royaltyBps', 500),
  ]);
  return { songNFT };
});
