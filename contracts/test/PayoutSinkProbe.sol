// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @title PayoutSinkProbe
/// @notice Test-only: a payout recipient that accepts ETH and tokens and can call nothing, like a
/// split contract that only distributes what it holds.
contract PayoutSinkProbe {
    /// @notice Accepts any ETH.
    receive() external payable {}
}
