// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {Clones} from "@openzeppelin/contracts/proxy/Clones.sol";
import {SongToken} from "../SongToken.sol";

/// @title SongTokenCloneProbe
/// @notice Test-only: makes an uninitialized SongToken clone the way the vault does, to test
/// `initialize` and `mintAllocation` edge cases the vault never reaches (the probe is the clone's
/// deployer, as the vault is of its own).
contract SongTokenCloneProbe {
    /// @notice The uninitialized clone.
    address public immutable instance; // solhint-disable-line immutable-vars-naming

    /// @notice Clones `implementation` as the vault does for `songId`.
    /// @param implementation The SongToken implementation.
    /// @param songId The song id the clone is made for.
    constructor(address implementation, uint256 songId) {
        instance = Clones.cloneDeterministicWithImmutableArgs(implementation, abi.encode(songId), bytes32(songId));
    }

    /// @notice Calls the clone's `mintAllocation` as its deployer.
    /// @param to Receiver.
    /// @param amount Tokens to mint.
    function mintAllocation(address to, uint256 amount) external {
        SongToken(instance).mintAllocation(to, amount);
    }
}
