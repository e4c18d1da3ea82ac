// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;


/// @title ISongPoolHook
/// @notice The Songmint Uniswap v4 hook as the SongVault sees it.
interface ISongPoolHook {
    /// @notice The SongVault that deployed the hook: the only account that may initialize pools with
    /// it and the only one that may add liquidity to them (its locked launch position is the only
    /// position a song pool has). The hook's fees are PoolManager ERC-6909 claims on ETH held in the
    /// name of each pool's SongToken, which hands them only to this vault. Fixed at deployment.
    function vault() external view returns (address);

    /// @notice The hook's swap fee in pips (millionths) for a pool launched at `launchedAt`, now.
    /// @param launchedAt The pool's initialization timestamp.
    function swapFeePips(uint256 launchedAt) external view returns (uint256);
}
