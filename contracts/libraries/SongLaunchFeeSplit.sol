// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title SongLaunchFeeSplit
/// @notice The creator/platform split of song fees. The platform share is rounded down and the
/// creator, the named remainder party, gets everything else, so the shares always add up to the
/// amount exactly and no wei is ever created or stranded.
library SongLaunchFeeSplit {
    /// @notice Basis-point denominator.
    uint256 internal constant BPS = 10_000;

    /// @notice Splits `amount`; `platformShareBps` must be at most BPS.
    /// @param amount The fee to split.
    /// @param platformShareBps The platform's share in basis points.
    /// @return creatorShare `amount - platformShare`.
    /// @return platformShare `amount * platformShareBps / BPS`, rounded down.
    function split(uint256 amount, uint256 platformShareBps)
        internal
        pure
        returns (uint256 creatorShare, uint256 platformShare)
    {
        platformShare = (amount * platformShareBps) / BPS;
        creatorShare = amount - platformShare;
    }
}
