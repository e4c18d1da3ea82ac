import type { Address } from 'viem';
import { concatHex, encodeAbiParameters, getContractAddress, keccak256, toHex } from 'viem';
import type { SongmintContracts } from './context.ts';

export interface PredictTokenAddressParameters {
  songId: bigint;
  /** SongVault (the deployer) and SongToken (the implementation). */
  contracts: Pick<SongmintContracts, 'SongVault' | 'SongToken'>;
}

/**
 * The address of `songId`'s SongToken, launched or not, computed off-chain: the vault deploys it
 * as an OpenZeppelin `Clones.cloneDeterministicWithImmutableArgs` of the implementation with
 * args `abi.encode(songId)` and salt `bytes32(songId)` (what `SongVault.tokenOf` returns).
 */
export function predictTokenAddress({ songId, contracts }: PredictTokenAddressParameters): Address {
  const args = encodeAbiParameters([{ type: 'uint256' }], [songId]);
  const argsLength = (args.length - 2) / 2;
  const bytecode = concatHex([
    '0x61',
    toHex(argsLength + 0x2d, { size: 2 }),
    '0x3d81600a3d39f3363d3d373d3d3d363d73',
    contracts.SongToken,
    '0x5af43d82803e903d91602b57fd5bf3',
    args,
  ]);
  return getContractAddress({
    opcode: 'CREATE2',
    from: contracts.SongVault,
    salt: toHex(songId, { size: 32 }),
    bytecodeHash: keccak256(bytecode),
  });
}
