// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {Clones} from "@openzeppelin/contracts/proxy/Clones.sol";

/// @notice Test-only: makes an uninitialized SongToken clone the way the vault does, to test
/// `initialize` edge cases the vault never reaches.
contract SongTokenCloneProbe {
    // solhint-disable-next-line immutable-vars-naming
    address public immutable instance;

    constructor(address implementation, uint256 songId) {
        instance = Clones.cloneDeterministicWithImmutableArgs(implementation, abi.encode(songId), bytes32(songId));
    }
}
