// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IHooks} from "@uniswap/v4-core/src/interfaces/IHooks.sol";

// The fallback is the hook's whole dispatch, on purpose.
// solhint-disable no-complex-fallback
/// @title AsmNoOpSwapHook
/// @notice Bench-only: NoOpSwapHook's behaviour (SongPoolHook's flags, callbacks that do nothing)
/// with its entry points in a fallback instead of OpenZeppelin BaseHook's ABI-decoded functions,
/// to measure how much of a hook's overhead is its own dispatch and argument decoding. Deploy it
/// at an address carrying 0x28cc.
contract AsmNoOpSwapHook {
    /// @notice The PoolManager, its only caller.
    address public immutable poolManager; // solhint-disable-line immutable-vars-naming

    /// @notice Only the PoolManager calls a hook.
    error NotPoolManager();

    /// @notice Binds the hook to its PoolManager.
    /// @param poolManager_ The Uniswap v4 PoolManager.
    constructor(address poolManager_) {
        poolManager = poolManager_;
    }

    /// @notice Answers every callback with its selector and zero deltas (no ABI decoding).
    fallback() external {
        if (msg.sender != poolManager) revert NotPoolManager();
        bytes4 selector = msg.sig;
        // The answer is written over scratch space and the free memory pointer: the call returns at once.
        assembly {
            mstore(0, selector)
            mstore(0x20, 0)
            mstore(0x40, 0)
        }
        if (selector == IHooks.beforeSwap.selector) {
            assembly {
                return(0, 0x60)
            }
        }
        if (selector == IHooks.afterSwap.selector) {
            assembly {
                return(0, 0x40)
            }
        }
        assembly {
            return(0, 0x20)
        }
    }
}
