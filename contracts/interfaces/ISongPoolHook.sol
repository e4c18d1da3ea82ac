// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {PoolId} from "@uniswap/v4-core/src/types/PoolId.sol";

/// @title ISongPoolHook
/// @notice The Songmint Uniswap v4 hook as the SongVault sees it.
interface ISongPoolHook {
    /// @notice The SongVault that deployed the hook: the only account that may initialize pools with
    /// it and the only one that may add liquidity to them (its locked launch position is the only
    /// position a song pool has), and the PoolManager ERC-6909 operator of the hook's fee claims.
    /// Fixed at deployment.
    function vault() external view returns (address);

    /// @notice All ETH swap fees the hook has charged in `poolId` since launch, in wei. The fees
    /// are PoolManager ERC-6909 claims on native ETH held by the hook, burnable by the vault.
    /// @param poolId The song's pool.
    function accruedSwapFees(PoolId poolId) external view returns (uint256);

    /// @notice The hook's swap fee in pips (millionths) for a pool launched at `launchedAt`, now.
    /// @param launchedAt The pool's initialization timestamp.
    function swapFeePips(uint256 launchedAt) external view returns (uint256);
}
