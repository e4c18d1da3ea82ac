// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {Clones} from "@openzeppelin/contracts/proxy/Clones.sol";

/// @title SongTokenCloneProbe
/// @notice Test-only: makes an uninitialized SongToken clone the way the vault does, to test
/// `initialize` edge cases the vault never reaches.
contract SongTokenCloneProbe {
    /// @notice The uninitialized clone.
    address public immutable instance; // solhint-disable-line immutable-vars-naming

    /// @notice Clones `implementation` as the vault does for `songId`.
    /// @param implementation The SongToken implementation.
    /// @param songId The song id the clone is made for.
    constructor(address implementation, uint256 songId) {
        instance = Clones.cloneDeterministicWithImmutableArgs(implementation, abi.encode(songId), bytes32(songId));
    }
}
