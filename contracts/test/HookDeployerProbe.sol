// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IPoolManager} from "@uniswap/v4-core/src/interfaces/IPoolManager.sol";
import {PoolKey} from "@uniswap/v4-core/src/types/PoolKey.sol";
import {SongPoolHook} from "../SongPoolHook.sol";

/// @notice Test-only: any contract deploying a SongPoolHook of its own (a stranger's, or a second
/// hook for edge cases): the hook is bound to this probe, which can then initialize pools with it.
contract HookDeployerProbe {
    // solhint-disable-next-line immutable-vars-naming
    IPoolManager public immutable poolManager;

    constructor(IPoolManager poolManager_) {
        poolManager = poolManager_;
    }

    /// @notice Deploys a SongPoolHook with CREATE2 from this probe.
    function deploy(bytes32 salt) external returns (address) {
        return address(new SongPoolHook{salt: salt}(poolManager));
    }

    /// @notice Initializes a pool as this probe (the vault of the hooks it deployed).
    function initialize(PoolKey calldata key, uint160 sqrtPriceX96) external returns (int24) {
        return poolManager.initialize(key, sqrtPriceX96);
    }
}
