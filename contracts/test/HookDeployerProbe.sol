// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IPoolManager} from "@uniswap/v4-core/src/interfaces/IPoolManager.sol";
import {PoolKey} from "@uniswap/v4-core/src/types/PoolKey.sol";
import {SongPoolHook} from "../SongPoolHook.sol";

/// @title HookDeployerProbe
/// @notice Test-only: any contract deploying a SongPoolHook of its own (a stranger's, or a second
/// hook for edge cases): the hook is bound to this probe, which can then initialize pools with it.
contract HookDeployerProbe {
    /// @notice The PoolManager the hooks are made for.
    IPoolManager public immutable poolManager; // solhint-disable-line immutable-vars-naming

    /// @notice Binds the probe to a PoolManager.
    /// @param poolManager_ The PoolManager.
    constructor(IPoolManager poolManager_) {
        poolManager = poolManager_;
    }

    /// @notice Deploys a SongPoolHook with CREATE2 from this probe.
    /// @param salt The CREATE2 salt (must give an address with the hook's flag bits).
    function deploy(bytes32 salt) external returns (address) {
        return address(new SongPoolHook{salt: salt}(poolManager));
    }

    /// @notice Initializes a pool as this probe (the vault of the hooks it deployed).
    /// @param key The pool key naming a hook this probe deployed.
    /// @param sqrtPriceX96 The starting price.
    function initialize(PoolKey calldata key, uint160 sqrtPriceX96) external returns (int24) {
        return poolManager.initialize(key, sqrtPriceX96);
    }
}
