// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {SongLaunchFeeSplit} from "../libraries/SongLaunchFeeSplit.sol";

/// @title FeeSplitHarness
/// @notice Test-only: exposes SongLaunchFeeSplit for property tests.
contract FeeSplitHarness {
    /// @notice See {SongLaunchFeeSplit-split}.
    /// @param amount The fee to split.
    /// @param platformShareBps The platform's share in basis points.
    function split(uint256 amount, uint256 platformShareBps) external pure returns (uint256, uint256) {
        return SongLaunchFeeSplit.split(amount, platformShareBps);
    }
}
