// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @notice Test-only: a payout recipient that accepts ETH and tokens and can call nothing, like a
/// split contract that only distributes what it holds.
contract PayoutSinkProbe {
    receive() external payable {}
}
